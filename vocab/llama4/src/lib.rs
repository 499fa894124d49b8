//! Llama 4 tokenizer: Meta's tiktoken rank file (200,000 ranks), compiled in:
//! data for `budget_runtime::estimate::ExactCounter::from_bytes`, so that
//! Llama 4 Scout and Maverick are counted exactly with no file to find (split with
//! Llama 4's pattern, `SplitPattern::LLAMA4`).
//!
//! The data is `tokenizer.model` of Meta's `llama-models` repository
//! (`models/llama4/`, commit a9c89c4, the same bytes as in its 0.3.0
//! wheel), under the Llama 4 Community License (`LICENSE`, `NOTICE`,
//! `USE_POLICY.md`). Built with Llama.
#![no_std]

/// The file name the data had, as counters name it.
pub const NAME: &str = "llama4.tiktoken";

/// The file's bytes.
pub const BYTES: &[u8] = include_bytes!("../data/llama4.tiktoken");
