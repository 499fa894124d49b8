//! GGUF model files read by `ExactCounter::from_file` against llama.cpp's
//! own tokenizer tests: the vocabulary-only GGUF files llama.cpp ships for
//! its `test-tokenizer-0` (in the `llama-cpp-python` source package), each
//! with its test texts (`.inp`) and the token ids its tokenizer must give
//! (`.out`). `scripts/references.sh` installs them into
//! `target/references/files/gguf`.

use std::path::PathBuf;

use budget_runtime::estimate::{ExactCounter, TokenCounter};

fn gguf_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/references/files/gguf")
}

/// The test texts of `name` and the number of tokens each must count.
fn cases(name: &str) -> Vec<(String, u64)> {
    let read = |ext: &str| {
        let path = gguf_dir().join(format!("ggml-vocab-{name}.gguf.{ext}"));
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}: run scripts/references.sh first", path.display()))
    };
    let inputs = read("inp");
    let texts: Vec<&str> = inputs.split("\n__ggml_vocab_test__\n").collect();
    let outputs = read("out");
    let counts: Vec<u64> = outputs
        .lines()
        .map(|line| line.split_whitespace().count() as u64)
        .collect();
    assert!(
        texts.len() >= counts.len() && counts.len() > 10,
        "{name}: {} texts, {} counts",
        texts.len(),
        counts.len()
    );
    texts
        .into_iter()
        .zip(counts)
        .map(|(text, count)| (text.to_owned(), count))
        .collect()
}

/// Every test text of `name` counts as llama.cpp's test expects.
fn agrees_with_llama_cpp(name: &str) {
    let path = gguf_dir().join(format!("ggml-vocab-{name}.gguf"));
    let counter = ExactCounter::from_file(&path, None).unwrap_or_else(|e| panic!("{e}"));
    let mut differences = Vec::new();
    for (text, expected) in cases(name) {
        let counted = counter.count_tokens(&text);
        if counted != expected {
            differences.push(format!("{text:?}: {counted} vs {expected}"));
        }
    }
    assert!(
        differences.is_empty(),
        "{name}: {} differences: {differences:#?}",
        differences.len()
    );
}

#[test]
fn llama_spm() {
    agrees_with_llama_cpp("llama-spm");
}

#[test]
fn phi_3() {
    agrees_with_llama_cpp("phi-3");
}

#[test]
fn llama_bpe() {
    agrees_with_llama_cpp("llama-bpe");
}

#[test]
fn qwen2() {
    agrees_with_llama_cpp("qwen2");
}

#[test]
fn qwen35() {
    agrees_with_llama_cpp("qwen35");
}

#[test]
fn deepseek_llm() {
    agrees_with_llama_cpp("deepseek-llm");
}

#[test]
fn deepseek_coder() {
    agrees_with_llama_cpp("deepseek-coder");
}

#[test]
fn gpt_2() {
    agrees_with_llama_cpp("gpt-2");
}

#[test]
fn starcoder() {
    agrees_with_llama_cpp("starcoder");
}

#[test]
fn command_r() {
    agrees_with_llama_cpp("command-r");
}

#[test]
fn gemma_4() {
    agrees_with_llama_cpp("gemma-4");
}
