//! DeepSeek V3 tokenizer: the Hugging Face tokenizer.json of DeepSeek V3 and R1, compiled in: data for
//! `budget_runtime::estimate::ExactCounter::from_bytes`, so that the model
//! is counted exactly with no file to find. Used for DeepSeek V3, R1 and the `deepseek-chat` / `deepseek-reasoner` API models.
//!
//! The data is a Hugging Face `tokenizer.json`: DeepSeek V3's `tokenizer.json` as shipped in the `litellm` 1.110.2 Python package, under DeepSeek's MIT licence.
#![no_std]

/// The file name the data had, as counters name it.
pub const NAME: &str = "deepseek_v3.tokenizer.json";

/// The file's bytes.
pub const BYTES: &[u8] = include_bytes!("../data/deepseek_v3.tokenizer.json");
