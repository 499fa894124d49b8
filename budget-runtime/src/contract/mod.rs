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

pub use history::trim_history;
pub use terms::{ContractTerms, ContractViolation, DEFAULT_SAFETY_MARGIN_TOKENS};

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
    cache::{CacheStatus, ContractCache},
    check::{Checker, ContractReport, Evaluation, StepReport},
    check_paths::check_paths,
    clamp::{Clamp, ClampedSetting, clamp_steps},
    error::ContractError,
    fixed_prompt::{DEFAULT_FORMAT_OVERHEAD_TOKENS, fixed_prompt_text, fixed_prompt_tokens},
    loader::{NamedPipeline, PipelineLoader, PipelineSource},
    model_config::ModelConfig,
    pipeline_config::{PipelineConfig, Settings, Step, UserPart},
    policy::{POLICY_ENV_VAR, Policy, parse_policy_var, policy_from_env},
    prompts::{DEFAULT_PROMPTS_DIR, Prompt, PromptError, PromptStore},
    read::{FileKind, MAX_CONFIG_FILE_BYTES, ReadError, read_config_file},
    report::{ClampRow, PipelineReport, StepRow},
    source::{SourceLocation, Sourced},
    template::{TemplateError, render_empty},
    typo::{CALL_MODEL, CALL_MODEL_KEYS, MAX_TYPO_DISTANCE, SETTINGS_KEYS, Typo},
};
