//! Differential tests and side-by-side benchmarks of `budget-runtime`
//! against the reference implementations: the `cupel` crate (selection) and
//! `tiktoken-rs` (exact counts, the OpenAI cookbook's chat counting).
//!
//! Unpublished, like `bpe`'s test crate: the heavy references stay out of
//! the runtime's dependency graph. This library holds what the tests and
//! benchmarks share; the tests are in `tests/all/`, the benchmarks in
//! `benches/`.

pub mod workload;
