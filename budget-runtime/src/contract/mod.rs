//! Budget contracts: every model call of a pipeline must satisfy
//! `fixed prompt + history + context + output + safety margin <= context window`.
//!
//! [`ContractTerms`] and [`trim_history`] are always available. With the
//! `contract` feature, this module also loads model configs (JSON) and
//! pipelines (YAML with `extends`), counts fixed prompts, checks every
//! `call_model` step under a [`Policy`] (fail fast by default, auto-clamp
//! only when asked) and caches results by a SHA-256 content hash.

mod history;
mod terms;

pub use history::*;
pub use terms::*;

#[cfg(feature = "contract")]
mod cache;
#[cfg(feature = "contract")]
mod check;
#[cfg(feature = "contract")]
mod clamp;
#[cfg(feature = "contract")]
mod fixed_prompt;
#[cfg(feature = "contract")]
mod model_config;
#[cfg(feature = "contract")]
mod pipeline_config;
#[cfg(feature = "contract")]
mod pipeline_file;
#[cfg(feature = "contract")]
mod policy;
#[cfg(feature = "contract")]
mod prompts;
#[cfg(feature = "contract")]
mod source;
#[cfg(feature = "contract")]
mod template;

#[cfg(feature = "contract")]
pub use {
    cache::*, check::*, clamp::*, fixed_prompt::*, model_config::*, pipeline_config::*, policy::*,
    prompts::*, source::*, template::*,
};
