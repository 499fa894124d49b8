//! Cold load time and resident memory of every tokenizer file format and
//! shipped vocabulary: how long `ExactCounter::from_file` / `shipped` takes
//! and how many tokens one short text counts.
//!
//! ```text
//! cargo run --release -p budget-differential --example load_time
//! ```

use std::path::PathBuf;
use std::time::Instant;

use budget_runtime::estimate::{ExactCounter, ShippedVocabulary, TokenCounter};

/// Resident memory of this process, in MiB (Linux; 0 elsewhere).
fn resident_mib() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096 / (1 << 20))
}

fn main() {
    let files = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/references/files");
    let text = "What is your name? こんにちは 12345";
    println!("start: {} MiB resident", resident_mib());
    for vocabulary in ShippedVocabulary::ALL {
        let start = Instant::now();
        let counter = ExactCounter::shipped(vocabulary).expect("shipped");
        let elapsed = start.elapsed();
        println!(
            "{:<40} {:>8.1} ms  {} tokens  {} MiB resident",
            format!("shipped {vocabulary}"),
            elapsed.as_secs_f64() * 1e3,
            counter.count_tokens(text),
            resident_mib()
        );
    }
    // A 50 GB model file (sparse: Llama 3's vocabulary GGUF, extended):
    // only its metadata is read.
    let big = std::env::temp_dir().join(format!("budget-load-time-{}.gguf", std::process::id()));
    std::fs::copy(files.join("gguf/ggml-vocab-llama-bpe.gguf"), &big).expect("copy");
    std::fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .and_then(|f| f.set_len(50 << 30))
        .expect("extend");
    let start = Instant::now();
    let counter = ExactCounter::from_file(&big, None).expect("50 GB GGUF");
    println!(
        "{:<40} {:>8.1} ms  {} tokens  {} MiB resident",
        "50 GB GGUF (Llama 3 vocabulary)",
        start.elapsed().as_secs_f64() * 1e3,
        counter.count_tokens(text),
        resident_mib()
    );
    std::fs::remove_file(&big).expect("remove");
    for name in [
        "deepseek_v3.json",
        "mistral_v3.model",
        "gguf/ggml-vocab-llama-bpe.gguf",
        "gguf/ggml-vocab-gemma-4.gguf",
        "llama3.tiktoken",
    ] {
        let start = Instant::now();
        let counter = ExactCounter::from_file(&files.join(name), None).expect(name);
        let elapsed = start.elapsed();
        println!(
            "{:<40} {:>8.1} ms  {} tokens  {} MiB resident",
            name,
            elapsed.as_secs_f64() * 1e3,
            counter.count_tokens(text),
            resident_mib()
        );
    }
}
