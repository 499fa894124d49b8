//! Mistral tekken tokenizer: the 130,072 ordinary ranks of `tekken_240911.json` as a compact rank file, compiled in: data for
//! `budget_runtime::estimate::ExactCounter::from_bytes`, so that the model
//! is counted exactly with no file to find. Used for Mistral NeMo, Small 3.x and the other tekken models (split with `SplitPattern::TEKKEN`).
//!
//! The data is a tiktoken rank file: Mistral AI's `tekken_240911.json` as shipped in `mistral-common` 1.13.1, under the Apache License 2.0, reduced by `scripts/vocab_data.py` to the ranks `mistral-common` counts with (`default_vocab_size` minus `default_num_special_tokens`), one `base64 rank` line each (2.3 MB instead of 19 MB).
#![no_std]

/// The file name the data had, as counters name it.
pub const NAME: &str = "tekken_240911.tiktoken";

/// The file's bytes.
pub const BYTES: &[u8] = include_bytes!("../data/tekken_240911.tiktoken");
