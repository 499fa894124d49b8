//! Budget contracts: every model call of a pipeline must satisfy
//! `fixed prompt + history + context + output + safety margin <= context window`.
//!
//! The terms themselves (`budget::model::ContractTerms`) are budget
//! vocabulary of `budget-runtime`, which `budget!` checks at compile time.
//! This crate is the checker: it reads pipelines in the LocalAI-RAG format
//! (`YAMLpipeline` / `YAMLpipelines`, `extends`, steps with `id` and
//! `action`), model configs (JSON) and prompt files, all through bounded
//! reads of regular files ([`MAX_CONFIG_FILE_BYTES`]), checks every
//! `call_model` step under a [`Policy`] (fail fast by default, auto-clamp
//! only when asked), flags near-miss keys ([`Typo`]), reports per pipeline
//! ([`PipelineReport`], JSON via serde) and caches results by a SHA-256
//! content hash.

use budget_runtime::model::{ContractTerms, ContractViolation, DEFAULT_SAFETY_MARGIN_TOKENS};

mod cache;
mod check;
mod check_paths;
mod clamp;
mod error;
mod fixed_prompt;
mod loader;
mod model_config;
mod pipeline_config;
mod policy;
mod prompts;
mod read;
mod report;
mod source;
mod template;
mod typo;
mod yaml;

pub use {
    cache::{CacheStatus, ContractCache},
    check::{Checker, ContractReport, Evaluation, StepReport},
    check_paths::check_paths,
    clamp::{Clamp, ClampedSetting, clamp_steps},
    error::{ContractError, FailureKind},
    fixed_prompt::{DEFAULT_FORMAT_OVERHEAD_TOKENS, fixed_prompt_text, fixed_prompt_tokens},
    loader::{NamedPipeline, PipelineLoader, PipelineSource},
    model_config::ModelConfig,
    pipeline_config::{PipelineConfig, Settings, Step, UserPart},
    policy::{POLICY_ENV_VAR, Policy, parse_policy_var, policy_from_env},
    prompts::{DEFAULT_PROMPTS_DIR, Prompt, PromptFileError, PromptStore},
    read::{MAX_CONFIG_FILE_BYTES, read_config_file},
    report::PipelineReport,
    source::{SourceLocation, Sourced},
    template::{TemplateError, render_empty},
    typo::{CALL_MODEL, CALL_MODEL_KEYS, MAX_TYPO_DISTANCE, PIPELINE_KEYS, SETTINGS_KEYS, Typo},
};
