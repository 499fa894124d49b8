//! The contract check: per `call_model` step, validate the configuration,
//! compute the terms and apply the policy.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::clamp::worst_step;
use crate::model_config::{non_negative, positive};
use crate::template::TemplateError;
use crate::{
    Clamp, ContractError, ContractTerms, DEFAULT_FORMAT_OVERHEAD_TOKENS,
    DEFAULT_SAFETY_MARGIN_TOKENS, ModelConfig, PipelineConfig, Policy, Prompt, PromptStore,
    SourceLocation, Step, clamp_steps, fixed_prompt_text, fixed_prompt_tokens, render_empty,
};
use budget_runtime::estimate::{DefaultCounter, Estimator};

/// Checks pipelines against one model config and prompt store.
///
/// For every `call_model` step the contract is the token-budget rules' inequality
///
/// ```text
/// fixed_prompt + max_history_tokens + max_context_tokens + output + safety <= model_context_window
/// ```
///
/// - `fixed_prompt`: the system prompt `<prompts_dir>/<prompt_key>.txt`,
///   a blank line and the `user_parts` templates with `{}` rendered empty,
///   counted as one text by the estimator (default [`DefaultCounter`]:
///   exact `o200k_base`; the token-budget rules' ratios with
///   [`RatioEstimator`](budget_runtime::estimate::RatioEstimator)), plus
///   the per-step format overhead ([`DEFAULT_FORMAT_OVERHEAD_TOKENS`] = 64
///   unless set with [`Checker::format_overhead`]);
/// - `max_history_tokens` (0 when unset) is counted for **every**
///   `call_model` step, whether or not it sets `use_history`, as the token-budget rules
///   document writes the inequality and its reference implementation
///   computes it;
/// - `max_context_tokens` is one pipeline-wide value;
/// - output: the step's `max_output_tokens`, else its `max_tokens`, else
///   the model's `model_max_tokens`;
/// - safety: `budget_safety_margin_tokens`, else
///   [`DEFAULT_SAFETY_MARGIN_TOKENS`] (128).
///
/// Always enforced, whatever the policy: `max_context_tokens` present and
/// above 0; `max_history_tokens` not negative, and present when a step has
/// `use_history: true`; `budget_safety_margin_tokens` not negative; every
/// `call_model` step has a readable prompt, templates with one `{}` and an
/// output limit above 0. Every other action is accepted and not checked.
///
/// Policy, first to last: [`Checker::policy_override`], the pipeline's
/// `limits_policy` setting, [`Policy::FailFast`]. Under `fail_fast` the
/// worst-case step breaking the inequality is an error, and so is a key or
/// action that resembles a budget key ([`Typo`](crate::Typo));
/// under `auto_clamp` typos are `tracing::warn!`ed and the terms are
/// clamped by [`clamp_steps`].
///
/// ```
/// use budget::contract::{Checker, ModelConfig, PipelineConfig, Policy, PromptStore};
///
/// let dir = std::env::temp_dir().join(format!("budget-doc-checker-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("answer.txt"), "You answer in one paragraph.")?; // 28 chars
///
/// let model = ModelConfig::new(8_192, Some(1_024))?;
/// let prompts = PromptStore::new(&dir);
/// let pipeline = PipelineConfig::from_yaml_str(
///     "YAMLpipeline:\n  name: support\n  settings:\n    max_context_tokens: 6000\n    max_history_tokens: 800\n\
///      \x20 steps:\n    - id: answer\n      action: call_model\n      prompt_key: answer\n      use_history: true\n\
///      \x20     user_parts:\n        q:\n          source: user_question\n          template: \"Q: {}\"\n",
///     dir.join("p.yaml"),
/// )?;
///
/// let report = Checker::new(&model, &prompts).check(&pipeline)?;
/// let step = &report.steps[0];
/// // "You answer in one paragraph.\n\nQ: " is 33 chars: 9 tokens + 64 overhead.
/// assert_eq!(step.terms.fixed_prompt_tokens, 73);
/// // 73 + 800 + 6000 + 1024 + 128 = 8025 <= 8192
/// assert_eq!(step.headroom(), 167);
///
/// let small = ModelConfig::new(7_900, Some(1_024))?;
/// let err = Checker::new(&small, &prompts).check(&pipeline).unwrap_err();
/// assert_eq!(err.to_string(), format!(
///     "{}: pipeline `support`: step `answer` exceeds context_window 7900 by 125 tokens: prompt 73 + history 800 + context 6000 + output 1024 + safety 128",
///     dir.join("p.yaml").display()));
///
/// let clamped = Checker::new(&small, &prompts).policy_override(Some(Policy::AutoClamp)).check(&pipeline)?;
/// assert_eq!(clamped.max_context_tokens_after, 5_875);
/// assert_eq!(clamped.clamps.len(), 1);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Checker<'a> {
    model: &'a ModelConfig,
    prompts: &'a PromptStore,
    estimator: &'a dyn Estimator,
    format_overhead_tokens: u64,
    policy_override: Option<Policy>,
    within: &'a [PathBuf],
}

impl std::fmt::Debug for Checker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker")
            .field("model", self.model)
            .field("prompts", self.prompts)
            .field("format_overhead_tokens", &self.format_overhead_tokens)
            .field("policy_override", &self.policy_override)
            .finish_non_exhaustive()
    }
}

/// A pipeline's policy and validated pipeline-wide terms, in tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Budget {
    policy: Policy,
    max_context_tokens: u64,
    max_history_tokens: u64,
    safety_margin_tokens: u64,
}

/// The terms of one `call_model` step, in tokens.
///
/// ```
/// use budget::contract::StepReport;
/// use budget::model::ContractTerms;
///
/// let step = StepReport::new("answer", ContractTerms { max_context_tokens: 900, context_window: 800, ..Default::default() });
/// assert_eq!(step.headroom(), -100);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct StepReport {
    /// The step's `id`.
    pub id: String,
    /// Its terms.
    pub terms: ContractTerms,
}

/// The JSON of a step: `id`, the five terms (`fixed_prompt_tokens`,
/// `history_tokens`, `context_tokens`, `output_tokens`,
/// `safety_margin_tokens`), their `total`, the `window` and the `headroom`,
/// all in tokens.
impl serde::Serialize for StepReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let t = &self.terms;
        let mut row = serializer.serialize_struct("StepReport", 9)?;
        row.serialize_field("id", &self.id)?;
        row.serialize_field("fixed_prompt_tokens", &t.fixed_prompt_tokens)?;
        row.serialize_field("history_tokens", &t.max_history_tokens)?;
        row.serialize_field("context_tokens", &t.max_context_tokens)?;
        row.serialize_field("output_tokens", &t.max_output_tokens)?;
        row.serialize_field("safety_margin_tokens", &t.safety_margin_tokens)?;
        row.serialize_field("total", &self.total())?;
        row.serialize_field("window", &t.context_window)?;
        row.serialize_field("headroom", &self.headroom())?;
        row.end()
    }
}

impl StepReport {
    /// A step's terms.
    pub fn new(id: impl Into<String>, terms: ContractTerms) -> Self {
        Self {
            id: id.into(),
            terms,
        }
    }

    /// The sum of every term except the window, exact.
    pub fn total(&self) -> u128 {
        let t = &self.terms;
        [
            t.fixed_prompt_tokens,
            t.max_history_tokens,
            t.max_context_tokens,
            t.max_output_tokens,
            t.safety_margin_tokens,
        ]
        .iter()
        .map(|&v| u128::from(v))
        .sum()
    }

    /// `context_window - total`, in tokens: negative when over the window.
    pub fn headroom(&self) -> i128 {
        let total = i128::try_from(self.total()).unwrap_or(i128::MAX);
        i128::from(self.terms.context_window) - total
    }
}

/// A validated pipeline's step terms before the policy is applied.
///
/// ```
/// use budget::contract::{Evaluation, Policy, StepReport};
/// use budget::model::ContractTerms;
///
/// let over = ContractTerms { max_context_tokens: 900, max_output_tokens: 10, context_window: 800, ..Default::default() };
/// let evaluation = Evaluation::new("p", "p.yaml", Policy::AutoClamp, 900, vec![StepReport::new("answer", over)]);
/// let report = evaluation.enforce()?;
/// assert_eq!(report.max_context_tokens_after, 790);
/// # Ok::<(), budget::contract::ContractError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Evaluation {
    /// The pipeline's name.
    pub name: String,
    /// The file it was loaded from.
    pub path: PathBuf,
    /// The policy that [`Evaluation::enforce`] applies.
    pub policy: Policy,
    /// The pipeline-wide `max_context_tokens` as configured.
    pub max_context_tokens: u64,
    /// Each `call_model` step's terms as configured, in order.
    pub steps: Vec<StepReport>,
}

/// The outcome of a passed check: every step's terms (clamped where the
/// policy allowed it) and the clamps made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ContractReport {
    /// The pipeline's name.
    pub name: String,
    /// The file it was loaded from.
    pub path: PathBuf,
    /// The policy applied.
    pub policy: Policy,
    /// `max_context_tokens` as configured.
    pub max_context_tokens_before: u64,
    /// `max_context_tokens` after clamping (equal to before when nothing was clamped).
    pub max_context_tokens_after: u64,
    /// Each `call_model` step's effective terms, all within the window.
    pub steps: Vec<StepReport>,
    /// Every reduction made: the context clamp first, then output clamps in
    /// step order; empty under `fail_fast`.
    pub clamps: Vec<Clamp>,
}

impl Evaluation {
    /// Step terms to be enforced under `policy`.
    pub fn new(
        name: impl Into<String>,
        path: impl Into<PathBuf>,
        policy: Policy,
        max_context_tokens: u64,
        steps: Vec<StepReport>,
    ) -> Self {
        Self {
            name: name.into(),
            path: path.into(),
            policy,
            max_context_tokens,
            steps,
        }
    }

    /// Applies the policy: under `fail_fast` a worst-case step over the
    /// window is an error; under `auto_clamp` the terms are clamped by
    /// [`clamp_steps`].
    ///
    /// # Errors
    /// [`ContractError::Violation`] or
    /// [`ContractError::OutputClampNotPositive`].
    pub fn enforce(self) -> Result<ContractReport, ContractError> {
        let mut steps = self.steps;
        let clamps = match self.policy {
            Policy::FailFast => {
                let over = worst_step(&steps)
                    .map(|(index, _)| &steps[index])
                    .into_iter()
                    .chain(steps.iter())
                    .find_map(|s| s.terms.check().err().map(|v| (s, v)));
                if let Some((step, violation)) = over {
                    return Err(ContractError::Violation {
                        path: self.path,
                        pipeline: self.name,
                        step: step.id.clone(),
                        violation,
                    });
                }
                Vec::new()
            }
            Policy::AutoClamp => {
                clamp_steps(&self.name, &mut steps).map_err(|e| e.in_file(&self.path))?
            }
        };
        let max_context_tokens_after = clamps
            .iter()
            .find(|c| c.step.is_none())
            .map_or(self.max_context_tokens, |c| c.after);
        Ok(ContractReport {
            name: self.name,
            path: self.path,
            policy: self.policy,
            max_context_tokens_before: self.max_context_tokens,
            max_context_tokens_after,
            steps,
            clamps,
        })
    }
}

impl<'a> Checker<'a> {
    /// A checker with the [`DefaultCounter`],
    /// [`DEFAULT_FORMAT_OVERHEAD_TOKENS`] and no policy override.
    pub fn new(model: &'a ModelConfig, prompts: &'a PromptStore) -> Self {
        Self {
            model,
            prompts,
            estimator: &DefaultCounter,
            format_overhead_tokens: DEFAULT_FORMAT_OVERHEAD_TOKENS,
            policy_override: None,
            within: &[],
        }
    }

    /// Counts fixed prompts with `estimator` (an exact counter works too).
    pub fn estimator(mut self, estimator: &'a dyn Estimator) -> Self {
        self.estimator = estimator;
        self
    }

    /// Adds `tokens` per step for the chat format instead of
    /// [`DEFAULT_FORMAT_OVERHEAD_TOKENS`].
    pub fn format_overhead(mut self, tokens: u64) -> Self {
        self.format_overhead_tokens = tokens;
        self
    }

    /// Forces a policy over the pipelines' `limits_policy`; `None` removes
    /// the override.
    pub fn policy_override(mut self, policy: Option<Policy>) -> Self {
        self.policy_override = policy;
        self
    }

    /// Reads pipelines only inside `dirs` ([`PipelineLoader::within`](crate::PipelineLoader::within)
    /// for [`check_paths`](crate::check_paths)).
    #[must_use]
    pub fn within(mut self, dirs: &'a [PathBuf]) -> Self {
        self.within = dirs;
        self
    }

    /// The directories pipelines are read in (empty: anywhere).
    pub fn within_dirs(&self) -> &'a [PathBuf] {
        self.within
    }

    /// The model config.
    pub fn model(&self) -> &'a ModelConfig {
        self.model
    }

    /// The prompt store.
    pub fn prompts(&self) -> &'a PromptStore {
        self.prompts
    }

    /// The per-step format overhead, in tokens.
    pub fn overhead(&self) -> u64 {
        self.format_overhead_tokens
    }

    /// The policy that applies to `pipeline`.
    pub fn policy_for(&self, pipeline: &PipelineConfig) -> Policy {
        self.policy_override
            .or_else(|| pipeline.settings().limits_policy.as_ref().map(|p| p.value))
            .unwrap_or_default()
    }

    /// Validates `pipeline` and computes each `call_model` step's terms,
    /// without applying the policy (typos are handled per the policy).
    ///
    /// # Errors
    /// Any validation error, an unreadable prompt, a malformed template, or
    /// under `fail_fast` a typo.
    pub fn evaluate(&self, pipeline: &PipelineConfig) -> Result<Evaluation, ContractError> {
        let budget = self.budget(pipeline)?;
        let prompts = self.load_prompts(pipeline)?;
        self.evaluate_with(pipeline, &budget, &prompts)
    }

    /// [`Checker::evaluate`] followed by [`Evaluation::enforce`].
    ///
    /// # Errors
    /// As both.
    pub fn check(&self, pipeline: &PipelineConfig) -> Result<ContractReport, ContractError> {
        self.evaluate(pipeline)?.enforce()
    }

    /// What checking `pipeline` notices without failing: a
    /// `settings.prompts_dir` that a one-folder prompt store
    /// ([`PromptStore::new`], `budget check --prompts DIR`) overrides.
    pub fn warnings(&self, pipeline: &PipelineConfig) -> Vec<String> {
        let mut warnings = Vec::new();
        if let Some(dir) = &pipeline.settings().prompts_dir
            && !self.prompts.follows_settings()
        {
            warnings.push(format!(
                "{}: settings.prompts_dir `{}` is ignored: prompts are read from {} for every pipeline",
                dir.location,
                dir.value,
                self.prompts.folder(None).display()
            ));
        }
        warnings
    }

    /// The prompts of every `call_model` step that names one, by key.
    pub(crate) fn load_prompts(
        &self,
        pipeline: &PipelineConfig,
    ) -> Result<BTreeMap<String, Prompt>, ContractError> {
        let prompts_dir = pipeline
            .settings()
            .prompts_dir
            .as_ref()
            .map(|d| d.value.as_str());
        let mut prompts = BTreeMap::new();
        for step in pipeline.steps().iter().filter(|s| s.is_call_model()) {
            if let Some(key) = &step.prompt_key
                && !prompts.contains_key(&key.value)
            {
                let prompt = self
                    .prompts
                    .load(&key.value, prompts_dir)
                    .map_err(|source| ContractError::Prompt {
                        location: key.location.clone(),
                        step: step.id.clone(),
                        source: Box::new(source),
                    })?;
                prompts.insert(key.value.clone(), prompt);
            }
        }
        Ok(prompts)
    }

    /// The policy and the pipeline-wide settings, validated; typos are
    /// errors or warnings per the policy. Runs before any prompt is read.
    pub(crate) fn budget(&self, pipeline: &PipelineConfig) -> Result<Budget, ContractError> {
        let policy = self.policy_for(pipeline);
        for typo in pipeline.typos() {
            match policy {
                Policy::FailFast => return Err(ContractError::Typo(typo.clone())),
                Policy::AutoClamp => tracing::warn!(
                    location = %typo.location,
                    key = typo.written.as_str(),
                    resembles = typo.resembles,
                    "budget contract: {typo}"
                ),
            }
        }
        let root = || SourceLocation::file(pipeline.path());
        let settings = pipeline.settings();
        let context =
            settings
                .max_context_tokens
                .as_ref()
                .ok_or_else(|| ContractError::Missing {
                    location: root(),
                    field: "max_context_tokens",
                })?;
        let max_context_tokens = positive(
            context.value,
            "max_context_tokens",
            context.location.clone(),
        )?;
        let safety_margin_tokens = match &settings.budget_safety_margin_tokens {
            Some(s) => non_negative(s.value, "budget_safety_margin_tokens", s.location.clone())?,
            None => DEFAULT_SAFETY_MARGIN_TOKENS,
        };
        let history = settings
            .max_history_tokens
            .as_ref()
            .map(|h| non_negative(h.value, "max_history_tokens", h.location.clone()))
            .transpose()?;
        let uses_history = pipeline
            .steps()
            .iter()
            .any(|s| s.is_call_model() && s.use_history);
        if history.is_none() && uses_history {
            return Err(ContractError::Missing {
                location: root(),
                field: "max_history_tokens",
            });
        }
        Ok(Budget {
            policy,
            max_context_tokens,
            max_history_tokens: history.unwrap_or(0),
            safety_margin_tokens,
        })
    }

    pub(crate) fn evaluate_with(
        &self,
        pipeline: &PipelineConfig,
        budget: &Budget,
        prompts: &BTreeMap<String, Prompt>,
    ) -> Result<Evaluation, ContractError> {
        let calls: Vec<&Step> = pipeline
            .steps()
            .iter()
            .filter(|s| s.is_call_model())
            .collect();
        let mut steps = Vec::with_capacity(calls.len());
        for step in calls {
            let terms = ContractTerms {
                fixed_prompt_tokens: self.fixed_prompt(step, prompts)?,
                max_history_tokens: budget.max_history_tokens,
                max_context_tokens: budget.max_context_tokens,
                max_output_tokens: self.output_limit(step)?,
                safety_margin_tokens: budget.safety_margin_tokens,
                context_window: self.model.context_window(),
            };
            steps.push(StepReport::new(step.id.clone(), terms));
        }
        Ok(Evaluation {
            name: pipeline.name().to_owned(),
            path: pipeline.path().to_owned(),
            policy: budget.policy,
            max_context_tokens: budget.max_context_tokens,
            steps,
        })
    }

    /// Step `max_output_tokens`, else step `max_tokens`, else `model_max_tokens`.
    fn output_limit(&self, step: &Step) -> Result<u64, ContractError> {
        if let Some(limit) = &step.max_output_tokens {
            return positive(limit.value, "max_output_tokens", limit.location.clone());
        }
        if let Some(limit) = &step.max_tokens {
            return positive(limit.value, "max_tokens", limit.location.clone());
        }
        self.model
            .max_tokens()
            .ok_or_else(|| ContractError::NoOutputLimit {
                location: step.location.clone(),
                step: step.id.clone(),
                model: self.model.path().map(Path::to_owned),
            })
    }

    fn fixed_prompt(
        &self,
        step: &Step,
        prompts: &BTreeMap<String, Prompt>,
    ) -> Result<u64, ContractError> {
        let key = step
            .prompt_key
            .as_ref()
            .ok_or_else(|| ContractError::MissingStepField {
                location: step.location.clone(),
                step: step.id.clone(),
                field: "prompt_key",
            })?;
        let prompt = prompts
            .get(&key.value)
            .ok_or_else(|| ContractError::MissingStepField {
                location: key.location.clone(),
                step: step.id.clone(),
                field: "prompt_key",
            })?;
        let mut rendered = Vec::with_capacity(step.user_parts.len());
        for part in &step.user_parts {
            let template_error = |location: &SourceLocation, source| ContractError::Template {
                location: location.clone(),
                step: step.id.clone(),
                part: part.name.clone(),
                source: Box::new(source),
            };
            let template = part
                .template
                .as_ref()
                .ok_or_else(|| template_error(&part.location, TemplateError::NoSlot))?;
            rendered.push(
                render_empty(&template.value)
                    .map_err(|source| template_error(&template.location, source))?,
            );
        }
        let text = fixed_prompt_text(&prompt.text, &rendered);
        Ok(fixed_prompt_tokens(
            &text,
            self.estimator,
            self.format_overhead_tokens,
        ))
    }
}
