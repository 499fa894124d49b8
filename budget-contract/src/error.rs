//! Errors of loading, validating and enforcing budget contracts.

use std::path::{Path, PathBuf};

use budget_runtime::file::ReadError;
use thiserror::Error;

use crate::{
    ContractTerms, ContractViolation, PromptFileError, SourceLocation, TemplateError, Typo,
};

/// A budget contract could not be loaded, validated or met.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ContractError {
    /// A file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: ReadError,
    },
    /// A JSON file is malformed or has a value of the wrong type.
    #[error("{location}: invalid JSON: {message}")]
    Json {
        /// File, line and column.
        location: SourceLocation,
        /// What is wrong.
        message: String,
    },
    /// A YAML file is malformed.
    #[error("{location}: invalid YAML: {message}")]
    Yaml {
        /// File, line and column.
        location: SourceLocation,
        /// What is wrong.
        message: String,
    },
    /// A value has the wrong type.
    #[error("{location}: {field} must be {expected}, found {found}")]
    Shape {
        /// Where the value is written.
        location: SourceLocation,
        /// The key.
        field: String,
        /// What it must be.
        expected: &'static str,
        /// What it is.
        found: &'static str,
    },
    /// A file has no `YAMLpipeline`, `YAMLpipelines` or `pipelines` root (or an empty list).
    #[error(
        "{location}: no pipeline: expected a YAMLpipeline mapping or a non-empty YAMLpipelines/pipelines list, found {found}"
    )]
    NoPipeline {
        /// Where the document (or the empty list) starts.
        location: SourceLocation,
        /// What is there instead.
        found: &'static str,
    },
    /// A multi-pipeline file has no pipeline of the requested name.
    #[error("{}: no pipeline named {name:?}", path.display())]
    PipelineNotFound {
        /// The file.
        path: PathBuf,
        /// The name asked for.
        name: String,
    },
    /// A multi-pipeline file was referenced without a pipeline name.
    #[error("{}: holds {count} pipelines; name one with `file.yaml#name`", path.display())]
    AmbiguousPipeline {
        /// The file.
        path: PathBuf,
        /// How many pipelines it holds.
        count: usize,
    },
    /// A required setting is missing.
    #[error("{location}: required setting {field} is missing")]
    Missing {
        /// The pipeline that should set it.
        location: SourceLocation,
        /// The setting.
        field: &'static str,
    },
    /// A step lacks a required field.
    #[error("{location}: step `{step}`: required field {field} is missing")]
    MissingStepField {
        /// Where the step is written.
        location: SourceLocation,
        /// The step id (`?` when the id itself is missing).
        step: String,
        /// The field.
        field: &'static str,
    },
    /// A value that must be > 0 is not.
    #[error("{location}: {field} {value} must be > 0")]
    NotPositive {
        /// Where the value is written.
        location: SourceLocation,
        /// The setting.
        field: &'static str,
        /// The value given.
        value: i64,
    },
    /// A value that must be >= 0 is negative.
    #[error("{location}: {field} {value} must be >= 0")]
    Negative {
        /// Where the value is written.
        location: SourceLocation,
        /// The setting.
        field: &'static str,
        /// The value given.
        value: i64,
    },
    /// A `call_model` step has no output limit and the model config none to fall back on.
    #[error(
        "{location}: step `{step}` sets neither max_output_tokens nor max_tokens, and the model config{} has no model_max_tokens",
        model.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default()
    )]
    NoOutputLimit {
        /// Where the step is written.
        location: SourceLocation,
        /// The step.
        step: String,
        /// The model config file, if loaded from one.
        model: Option<PathBuf>,
    },
    /// Two steps of one list share an id.
    #[error("{location}: step id `{step}` is used more than once")]
    DuplicateStep {
        /// The second occurrence.
        location: SourceLocation,
        /// The id.
        step: String,
    },
    /// `extends` is empty.
    #[error("{location}: extends names no file")]
    EmptyExtends {
        /// The `extends` value.
        location: SourceLocation,
    },
    /// No file exists for an `extends` target.
    #[error("{location}: extends target {target:?} not found; tried {}", tried.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))]
    ExtendsNotFound {
        /// The `extends` value.
        location: SourceLocation,
        /// The target as written.
        target: String,
        /// The paths tried, in order.
        tried: Vec<PathBuf>,
    },
    /// The file named by `extends` could not be read.
    #[error("{location}: cannot read extended pipeline {}: {source}", target.display())]
    Extends {
        /// The `extends` value.
        location: SourceLocation,
        /// The file it resolves to.
        target: PathBuf,
        /// Why.
        source: ReadError,
    },
    /// A pipeline parsed from a string extends another; use a loader.
    #[error("{location}: extends is only followed when loading from files")]
    ExtendsNotFollowed {
        /// The `extends` value.
        location: SourceLocation,
    },
    /// The `extends` chain returns to a pipeline already in it.
    #[error("extends cycle: {}", chain.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" -> "))]
    ExtendsCycle {
        /// The files, from the root to the repeated one.
        chain: Vec<PathBuf>,
    },
    /// A step's prompt could not be loaded.
    #[error("{location}: step `{step}`: {source}")]
    Prompt {
        /// Where the step's `prompt_key` is written.
        location: SourceLocation,
        /// The step id.
        step: String,
        /// Why.
        source: Box<PromptFileError>,
    },
    /// A user-part template cannot be filled.
    #[error("{location}: step `{step}` user_parts `{part}`: {source}")]
    Template {
        /// Where the template (or the part) is written.
        location: SourceLocation,
        /// The step id.
        step: String,
        /// The part's key.
        part: String,
        /// What is wrong.
        source: Box<TemplateError>,
    },
    /// A policy name other than `fail_fast` or `auto_clamp`.
    #[error("{origin}: unknown limits policy {value:?}: expected \"fail_fast\" or \"auto_clamp\"")]
    UnknownPolicy {
        /// Where the name came from, e.g. `PIPELINE_LIMITS_POLICY`.
        origin: String,
        /// The name given.
        value: String,
    },
    /// Under `fail_fast`, a key or action that resembles a budget key.
    #[error("{0}")]
    Typo(Typo),
    /// Under `fail_fast`, the worst-case step exceeds the window.
    #[error(
        "{}pipeline `{pipeline}`: step `{step}` {violation}",
        file_prefix(path)
    )]
    Violation {
        /// The pipeline's file (empty when not known).
        path: PathBuf,
        /// The pipeline name.
        pipeline: String,
        /// The step.
        step: String,
        /// The terms and the excess.
        violation: ContractViolation,
    },
    /// Under `auto_clamp`, a step does not fit even with context cut to 1
    /// token: its output limit would have to drop to 0 or below.
    #[error(
        "{}pipeline `{pipeline}`: cannot clamp the output of step `{step}`: it leaves {allowed} tokens for output (window {} - prompt {} - history {} - context {} - safety {})",
        file_prefix(path), terms.context_window, terms.fixed_prompt_tokens, terms.max_history_tokens, terms.max_context_tokens, terms.safety_margin_tokens
    )]
    OutputClampNotPositive {
        /// The pipeline's file (empty when not known).
        path: PathBuf,
        /// The pipeline name.
        pipeline: String,
        /// The step.
        step: String,
        /// The output it allows, in tokens (<= 0; saturating at `i64::MIN`).
        allowed: i64,
        /// Its terms.
        terms: Box<ContractTerms>,
    },
    /// A path given to check does not exist or cannot be listed.
    #[error("cannot check {}: {source}", path.display())]
    Input {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A pipeline file or `extends` target resolves outside the
    /// directories the loader is limited to ([`PipelineLoader::within`](crate::PipelineLoader::within)).
    #[error("{}: outside the sandbox, not read", path.display())]
    OutsideSandbox {
        /// The file.
        path: PathBuf,
    },
}

/// `path: ` for a known file, nothing for an empty path.
fn file_prefix(path: &Path) -> String {
    if path.as_os_str().is_empty() {
        String::new()
    } else {
        format!("{}: ", path.display())
    }
}

impl ContractError {
    /// This error with the pipeline's file set, where it names a pipeline
    /// but not yet its file.
    pub(crate) fn in_file(mut self, file: &Path) -> Self {
        if let Self::Violation { path, .. } | Self::OutputClampNotPositive { path, .. } = &mut self
            && path.as_os_str().is_empty()
        {
            file.clone_into(path);
        }
        self
    }
}

/// What kind of failure a [`ContractError`] is: the input could not be
/// used, or the pipeline was understood and breaks its budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum FailureKind {
    /// A file could not be read, parsed or understood: unreadable, not
    /// UTF-8, invalid YAML or JSON, a missing or unknown key, a broken
    /// `extends` chain, a missing prompt. `budget check` exits 2.
    Input,
    /// The pipeline breaks its budget contract, or auto-clamp cannot make
    /// it fit. `budget check` exits 1.
    Violation,
}

impl ContractError {
    /// Whether this error is a contract violation or an input error.
    ///
    /// ```
    /// use budget::contract::{ContractError, FailureKind};
    ///
    /// let missing = ContractError::Input {
    ///     path: "pipelines".into(),
    ///     source: std::io::ErrorKind::NotFound.into(),
    /// };
    /// assert_eq!(missing.kind(), FailureKind::Input);
    /// ```
    pub fn kind(&self) -> FailureKind {
        match self {
            Self::Violation { .. } | Self::OutputClampNotPositive { .. } => FailureKind::Violation,
            _ => FailureKind::Input,
        }
    }
}
