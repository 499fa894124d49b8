//! Qwen tokenizer: the tiktoken rank file (151,643 ranks) of Qwen 1 to 3, compiled in: data for
//! `budget_runtime::estimate::ExactCounter::from_bytes`, so that the model
//! is counted exactly with no file to find. Used for Qwen 2.5 and Qwen 3 (split with Qwen's pattern, NFC first: `SplitPattern::QWEN`).
//!
//! The data is a tiktoken rank file: `qwen.tiktoken` as shipped in Alibaba's `dashscope` 2.0.2 Python package, under the Apache License 2.0.
#![no_std]

/// The file name the data had, as counters name it.
pub const NAME: &str = "qwen.tiktoken";

/// The file's bytes.
pub const BYTES: &[u8] = include_bytes!("../data/qwen.tiktoken");
