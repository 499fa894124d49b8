//! One pipeline's check outcome as plain data: what `budget check` prints,
//! as a table or as JSON.

use std::path::PathBuf;

use serde::Serialize;

use crate::{
    Checker, Clamp, ContractError, ContractReport, FailureKind, PipelineConfig, StepReport,
};

/// The outcome of checking one pipeline. Serializes (JSON) with exactly the
/// fields `name`, `ok`, `error` (only when not ok),
/// `max_context_tokens_after` (`null` when not ok), `clamps` and `steps`.
///
/// ```
/// use budget::contract::{Checker, ModelConfig, PipelineConfig, PipelineReport, PromptStore};
/// use budget::estimate::RatioEstimator;
///
/// let dir = std::env::temp_dir().join(format!("budget-doc-report-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// // "Answer.\n\n": 9 chars, 3 tokens at the token-budget rules' ratio.
/// std::fs::write(dir.join("a.txt"), "Answer.")?;
/// let pipeline = PipelineConfig::from_yaml_str(
///     "YAMLpipeline:\n  name: p\n  settings:\n    max_context_tokens: 500\n  steps:\n    - id: a\n      action: call_model\n      prompt_key: a\n      max_output_tokens: 100\n",
///     dir.join("p.yaml"),
/// )?;
/// let model = ModelConfig::new(1_000, None)?;
/// let prompts = PromptStore::new(&dir);
/// let checker = Checker::new(&model, &prompts).estimator(&RatioEstimator);
/// let report = PipelineReport::of(&checker, &pipeline);
/// let json = serde_json::to_string(&report)?;
/// assert_eq!(json, r#"{"name":"p","ok":true,"max_context_tokens_after":500,"clamps":[],"steps":[{"id":"a","fixed_prompt_tokens":67,"history_tokens":0,"context_tokens":500,"output_tokens":100,"safety_margin_tokens":128,"total":795,"window":1000,"headroom":205}]}"#);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PipelineReport {
    /// The pipeline's name (the file's path when the file has none to read).
    pub name: String,
    /// Whether the pipeline passes (possibly after clamps).
    pub ok: bool,
    /// Why not, when not ok.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What kind of failure `error` is; `None` when ok.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<FailureKind>,
    /// `max_context_tokens` after clamping; `None` when not ok.
    pub max_context_tokens_after: Option<u64>,
    /// The clamps made (auto_clamp only).
    pub clamps: Vec<Clamp>,
    /// Each `call_model` step's terms: effective ones when ok, as configured
    /// when the policy failed, none when validation failed.
    pub steps: Vec<StepReport>,
    /// The file the pipeline was loaded from (not serialized).
    #[serde(skip)]
    pub path: PathBuf,
    /// What the check noticed without failing, each with the file and line
    /// it concerns (for example a `settings.prompts_dir` the prompt store
    /// does not follow).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl From<&ContractReport> for PipelineReport {
    fn from(report: &ContractReport) -> Self {
        PipelineReport {
            name: report.name.clone(),
            ok: true,
            error: None,
            failure: None,
            max_context_tokens_after: Some(report.max_context_tokens_after),
            clamps: report.clamps.clone(),
            steps: report.steps.clone(),
            warnings: Vec::new(),
            path: report.path.clone(),
        }
    }
}

impl PipelineReport {
    /// Checks `pipeline` with `checker`; every error becomes a report with
    /// `ok: false`.
    pub fn of(checker: &Checker<'_>, pipeline: &PipelineConfig) -> Self {
        let warnings = checker.warnings(pipeline);
        let evaluation = match checker.evaluate(pipeline) {
            Ok(evaluation) => evaluation,
            Err(error) => {
                return Self {
                    warnings,
                    ..Self::failed(pipeline.name(), pipeline.path().to_owned(), &error)
                };
            }
        };
        let configured = evaluation.steps.clone();
        match evaluation.enforce() {
            Ok(report) => Self {
                warnings,
                ..Self::from(&report)
            },
            Err(error) => Self {
                steps: configured,
                warnings,
                ..Self::failed(pipeline.name(), pipeline.path().to_owned(), &error)
            },
        }
    }

    /// A failed report without steps.
    pub fn failed(name: impl Into<String>, path: PathBuf, error: &ContractError) -> Self {
        Self {
            name: name.into(),
            ok: false,
            error: Some(error.to_string()),
            failure: Some(error.kind()),
            max_context_tokens_after: None,
            clamps: Vec::new(),
            steps: Vec::new(),
            path,
            warnings: Vec::new(),
        }
    }
}
