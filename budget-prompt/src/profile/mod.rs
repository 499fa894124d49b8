//! Model profiles: each model's context window, output limit, tokenizer and
//! chat template by name, so that a budget starts from the model instead of
//! a number typed by hand.
//!
//! [`ModelRegistry::builtin`] knows the current models of OpenAI, Anthropic,
//! Google, Meta, Qwen, Mistral, DeepSeek and Microsoft, each value with its
//! source. [`ModelProfile::counter`] gives the model's counter: exact for
//! OpenAI's encodings and for open models whose tokenizer file is at hand
//! (by path or in the local Hugging Face cache), otherwise an estimate with
//! a margin that covers the measured worst case. `PromptBudget::for_model`
//! builds a whole-request budget from a profile.
//!
//! ```
//! use budget::profile::ModelRegistry;
//!
//! let registry = ModelRegistry::builtin();
//! let llama = registry.get("llama3.1").unwrap();
//! assert_eq!(llama.name, "llama-3.1-8b-instruct");
//! assert_eq!((llama.context_window, llama.output_reserve()), (131_072, 8_192));
//! assert_eq!(llama.template.name(), "llama3");
//! ```

mod margin_estimator;
mod model_profile;
mod profile_counter;
mod profile_error;
#[cfg(feature = "toml")]
mod profile_file;
mod registry;

pub use margin_estimator::MarginEstimator;
pub use model_profile::{ModelProfile, TokenizerSpec};
pub use profile_counter::ProfileCounter;
pub use profile_error::ProfileError;
pub use registry::ModelRegistry;
