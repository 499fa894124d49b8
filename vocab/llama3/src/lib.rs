//! Llama 3 tokenizer: Meta's tiktoken rank file (128,000 ranks), compiled in:
//! data for `budget_runtime::estimate::ExactCounter::from_bytes`, so that
//! Llama 3, 3.1, 3.2 and 3.3 are counted exactly with no file to find (split with
//! Llama 3's pattern, `SplitPattern::LLAMA3`).
//!
//! The data is `tokenizer.model` of Meta's `llama-models` repository
//! (`models/llama3/`, commit a9c89c4, the same bytes as in its 0.3.0
//! wheel), under the Meta Llama 3 Community License (`LICENSE`, `NOTICE`,
//! `USE_POLICY.md`). Built with Meta Llama 3.
#![no_std]

/// The file name the data had, as counters name it.
pub const NAME: &str = "llama3.tiktoken";

/// The file's bytes.
pub const BYTES: &[u8] = include_bytes!("../data/llama3.tiktoken");
