//! Gemma 3 tokenizer: the SentencePiece model (BPE, byte fallback, 262,144 pieces) that Gemma 3 and every Gemini model count with, compiled in: data for
//! `budget_runtime::estimate::ExactCounter::from_bytes`, so that the model
//! is counted exactly with no file to find. Used for Gemma 3 and Gemini 2.x/3 (Google's GenAI SDK counts Gemini tokens locally with this model).
//!
//! The data is a SentencePiece `.model` (protobuf): Google's `gemma3_cleaned_262144_v2.spiece.model` (google/gemma_pytorch, commit 014acb7, SHA-256 1299c11d…e79c), as embedded by the `gemini-tokenizer` 0.2.0 crate under the Apache License 2.0; `NOTICE` is that crate's.
#![no_std]

/// The file name the data had, as counters name it.
pub const NAME: &str = "gemma3_cleaned_262144_v2.spiece.model";

/// The file's bytes.
pub const BYTES: &[u8] = include_bytes!("../data/gemma3_cleaned_262144_v2.spiece.model");
