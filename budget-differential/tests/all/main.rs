//! The differential tests, linked into one test binary: this workspace's
//! selection against `cupel`, its exact counter and chat counting against
//! `tiktoken-rs`, its estimator against a frozen copy of its former self.

mod chat_format;
mod cupel_differential;
mod cupel_parity;
mod estimator_oracle;
mod exact_counter;
mod gguf_files;
mod model_profiles;
mod model_registry;
mod prompt_default_counter;
mod tokenizer_files;
