//! Counting throughput of the exact counters read from tokenizer files, side
//! by side with the reference implementation of each format in Rust, on the
//! token corpus (bytes per second):
//!
//! - tiktoken rank files (Llama 3, Qwen) and Mistral's tekken: our
//!   `ExactCounter::from_file` (tiktoken's merge rule over a heap, a
//!   look-ahead-free `regex-automata` pretokenizer) against `tiktoken-rs`'s
//!   `CoreBPE` built from the same ranks and pattern;
//! - a Hugging Face `tokenizer.json` (DeepSeek V3): our counter against the
//!   `tokenizers` crate called directly;
//! - SentencePiece models and GGUF files: ours alone (the reference,
//!   Google's `sentencepiece`, is timed on the same files by
//!   `scripts/reference_speed.py`).
//!
//! Needs `scripts/references.sh` (the files).
//!
//! ```text
//! cargo bench -p budget-differential --bench tokenizer_files
//! ```

#[path = "../../tools/src/corpus.rs"]
mod corpus;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use base64::Engine as _;
use budget_runtime::estimate::{ExactCounter, SplitPattern, TokenCounter};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tiktoken_rs::CoreBPE;

fn file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../target/references/files")
        .join(name)
}

/// `tiktoken-rs` over a tiktoken rank file (or tekken's ranks) and pattern.
fn core_bpe(ranks: Vec<(Vec<u8>, u32)>, pattern: &str) -> CoreBPE {
    CoreBPE::new(ranks.into_iter().collect(), Default::default(), pattern).expect("reference")
}

fn tiktoken_ranks(name: &str) -> Vec<(Vec<u8>, u32)> {
    let text = std::fs::read_to_string(file(name)).expect("run scripts/references.sh");
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (token, rank) = l.split_once(' ').expect("rank line");
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(token)
                .expect("base64");
            (bytes, rank.parse().expect("rank"))
        })
        .collect()
}

fn tekken_ranks() -> (Vec<(Vec<u8>, u32)>, String) {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file("tekken_240911.json")).expect("tekken"))
            .expect("JSON");
    let config = &json["config"];
    let inner = config["default_vocab_size"].as_u64().unwrap()
        - config["default_num_special_tokens"].as_u64().unwrap();
    let ranks = json["vocab"]
        .as_array()
        .unwrap()
        .iter()
        .take(inner as usize)
        .map(|v| {
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(v["token_bytes"].as_str().unwrap())
                .unwrap();
            (bytes, v["rank"].as_u64().unwrap() as u32)
        })
        .collect();
    (ranks, config["pattern"].as_str().unwrap().to_owned())
}

fn throughput(c: &mut Criterion) {
    let files = corpus::load_corpus().unwrap_or_else(|e| panic!("corpus: {e}"));
    let texts: Vec<&str> = files.iter().map(|f| f.text.as_str()).collect();
    let bytes: u64 = texts.iter().map(|t| t.len() as u64).sum();
    let mut group = c.benchmark_group("count_tokenizer_files");
    group.throughput(Throughput::Bytes(bytes));
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));

    let tiktoken_files = [
        ("llama3", "llama3.tiktoken", SplitPattern::LLAMA3),
        ("qwen", "qwen.tiktoken", SplitPattern::QWEN),
    ];
    for (label, name, pattern) in tiktoken_files {
        let ours = ExactCounter::from_file(&file(name), Some(pattern.clone())).expect("ours");
        let reference = core_bpe(tiktoken_ranks(name), pattern.regex());
        group.bench_function(format!("{label}/budget"), |b| {
            b.iter(|| {
                texts
                    .iter()
                    .map(|t| ours.count_tokens(black_box(t)))
                    .sum::<u64>()
            })
        });
        group.bench_function(format!("{label}/tiktoken-rs"), |b| {
            b.iter(|| {
                texts
                    .iter()
                    .map(|t| reference.encode_ordinary(black_box(t)).len())
                    .sum::<usize>()
            })
        });
    }

    let ours = ExactCounter::from_file(&file("tekken_240911.json"), None).expect("ours");
    let (ranks, pattern) = tekken_ranks();
    let reference = core_bpe(ranks, &pattern);
    group.bench_function("tekken/budget", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| ours.count_tokens(black_box(t)))
                .sum::<u64>()
        })
    });
    group.bench_function("tekken/tiktoken-rs", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| reference.encode_ordinary(black_box(t)).len())
                .sum::<usize>()
        })
    });

    let ours = ExactCounter::from_file(&file("deepseek_v3.json"), None).expect("ours");
    let reference = tokenizers::Tokenizer::from_file(file("deepseek_v3.json")).expect("reference");
    group.bench_function("deepseek_v3/budget", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| ours.count_tokens(black_box(t)))
                .sum::<u64>()
        })
    });
    group.bench_function("deepseek_v3/tokenizers", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| {
                    reference
                        .encode_fast(black_box(*t), false)
                        .expect("encode")
                        .len()
                })
                .sum::<usize>()
        })
    });

    // No Rust reference: `scripts/reference_speed.py` times Google's
    // `sentencepiece` on the same files.
    for (label, name) in [
        ("mistral_v3", "mistral_v3.model"),
        ("sp_unigram_en", "sp_unigram_en.model"),
        ("gguf_llama_spm", "gguf/ggml-vocab-llama-spm.gguf"),
        ("gguf_qwen2", "gguf/ggml-vocab-qwen2.gguf"),
    ] {
        let ours = ExactCounter::from_file(&file(name), None).expect("ours");
        group.bench_function(format!("{label}/budget"), |b| {
            b.iter(|| {
                texts
                    .iter()
                    .map(|t| ours.count_tokens(black_box(t)))
                    .sum::<u64>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, throughput);
criterion_main!(benches);
