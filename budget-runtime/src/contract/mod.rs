//! Budget contracts: every model call of a pipeline must satisfy
//! `fixed prompt + history + context + output + safety margin <= context window`.
//!
//! [`ContractTerms`] and [`trim_history`] are always available. With the
//! `contract` feature, this module reads pipelines in the LocalAI-RAG format
//! (`YAMLpipeline` / `YAMLpipelines`, `extends`, steps with `id` and
//! `action`), model configs (JSON) and prompt files, all through bounded
//! reads of regular files ([`MAX_CONFIG_FILE_BYTES`]), checks every
//! `call_model` step under a [`Policy`] (fail fast by default, auto-clamp
//! only when asked), flags near-miss keys ([`Typo`]), reports per pipeline
//! ([`PipelineReport`], JSON via serde) and caches results by a SHA-256
//! content hash.

mod history;
mod terms;

pub use history::*;
pub use terms::*;

#[cfg(feature = "contract")]
mod cache;
#[cfg(feature = "contract")]
mod check;
#[cfg(feature = "contract")]
mod check_paths;
#[cfg(feature = "contract")]
mod clamp;
#[cfg(feature = "contract")]
mod error;
#[cfg(feature = "contract")]
mod fixed_prompt;
#[cfg(feature = "contract")]
mod loader;
#[cfg(feature = "contract")]
mod model_config;
#[cfg(feature = "contract")]
mod pipeline_config;
#[cfg(feature = "contract")]
mod policy;
#[cfg(feature = "contract")]
mod prompts;
#[cfg(feature = "contract")]
mod read;
#[cfg(feature = "contract")]
mod report;
#[cfg(feature = "contract")]
mod source;
#[cfg(feature = "contract")]
mod template;
#[cfg(feature = "contract")]
mod typo;
#[cfg(feature = "contract")]
mod yaml;

#[cfg(feature = "contract")]
pub use {
    cache::*, check::*, check_paths::*, clamp::*, error::*, fixed_prompt::*, loader::*,
    model_config::*, pipeline_config::*, policy::*, prompts::*, read::*, report::*, source::*,
    template::*, typo::*,
};
