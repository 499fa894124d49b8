//! The contract check: per `call_model` step, validate the configuration,
//! compute the terms and apply the policy.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::contract::model_config::{non_negative, positive};
use crate::contract::{
    Clamp, ContractTerms, DEFAULT_SAFETY_MARGIN_TOKENS, FormatOverhead, ModelConfig,
    PipelineConfig, Policy, Prompt, PromptStore, SourceLocation, Step, clamp_terms,
    fixed_prompt_tokens, render_empty,
};
use crate::error::ContractError;
use crate::estimate::{Estimator, SeedEstimator};

/// Checks pipelines against one model config and prompt folder.
///
/// For every `call_model` step the contract is
/// `fixed_prompt + max_history_tokens (if use_history) + max_context_tokens +
/// max_output_tokens + budget_safety_margin_tokens <= model_context_window`,
/// where the fixed prompt is counted by [`fixed_prompt_tokens`] with the
/// configured estimator (default [`SeedEstimator`]; pass an exact
/// [`TokenCounter`](crate::TokenCounter) for exact counts).
///
/// A step's output limit is its `max_output_tokens`, else its `max_tokens`,
/// else the model's `model_max_tokens`.
///
/// Always enforced, whatever the policy:
/// - `max_context_tokens` present and > 0;
/// - `max_history_tokens` present and >= 0 when a step uses history;
/// - `budget_safety_margin_tokens` >= 0;
/// - every step has a `type`;
/// - every `call_model` step has a `prompt_key` whose prompt exists,
///   well-formed `user_parts` and an output limit > 0.
///
/// The policy is, first to last: [`Checker::policy_override`] (pass
/// [`policy_from_env`](crate::contract::policy_from_env) there to honour
/// `PIPELINE_LIMITS_POLICY`), the pipeline's `limits_policy` setting,
/// [`Policy::FailFast`].
///
/// ```
/// use budget_runtime::contract::{Checker, ModelConfig, PipelineConfig, Policy, PromptStore};
///
/// let dir = std::env::temp_dir().join(format!("budget-doc-checker-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("answer.txt"), "You answer in one paragraph.")?; // 28 chars: 7 tokens
///
/// let model = ModelConfig::new(8_192, Some(1_024))?;
/// let prompts = PromptStore::new(&dir);
/// let pipeline = PipelineConfig::from_yaml_str(
///     "settings:\n  max_context_tokens: 6000\n  max_history_tokens: 1000\n\
///      steps:\n  - name: answer\n    type: call_model\n    prompt_key: answer\n    use_history: true\n",
///     dir.join("p.yaml"),
/// )?;
///
/// let report = Checker::new(&model, &prompts).check(&pipeline)?;
/// let step = &report.steps[0];
/// // 7 prompt + 7 overhead (one message: 4 + 3 priming)
/// assert_eq!(step.terms.fixed_prompt_tokens, 14);
/// // 14 + 1000 + 6000 + 1024 + 128 = 8166 <= 8192
/// assert_eq!(step.headroom(), 26);
///
/// let strict = ModelConfig::new(8_000, Some(1_024))?;
/// let err = Checker::new(&strict, &prompts).check(&pipeline).unwrap_err();
/// assert!(err.to_string().ends_with(
///     "step `answer` exceeds context_window 8000 by 166 tokens: prompt 14 + history 1000 + context 6000 + output 1024 + safety 128"
/// ));
///
/// let clamped = Checker::new(&strict, &prompts).policy_override(Some(Policy::AutoClamp)).check(&pipeline)?;
/// assert_eq!(clamped.steps[0].terms.max_context_tokens, 5_834);
/// assert_eq!(clamped.clamps.len(), 1);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct Checker<'a> {
    model: &'a ModelConfig,
    prompts: &'a PromptStore,
    estimator: &'a dyn Estimator,
    overhead: FormatOverhead,
    policy_override: Option<Policy>,
}

impl std::fmt::Debug for Checker<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker")
            .field("model", self.model)
            .field("prompts", self.prompts)
            .field("overhead", &self.overhead)
            .field("policy_override", &self.policy_override)
            .finish_non_exhaustive()
    }
}

/// The terms of one `call_model` step, in tokens.
///
/// ```
/// use budget_runtime::contract::{ContractTerms, StepReport};
///
/// let step = StepReport::new("answer", ContractTerms { max_context_tokens: 900, context_window: 800, ..Default::default() });
/// assert_eq!(step.headroom(), -100);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct StepReport {
    /// The step's name (`steps[i]` when unnamed).
    pub name: String,
    /// Its terms.
    pub terms: ContractTerms,
}

impl StepReport {
    /// A step's terms.
    pub fn new(name: impl Into<String>, terms: ContractTerms) -> Self {
        Self {
            name: name.into(),
            terms,
        }
    }

    /// `context_window - total`, in tokens: negative when over the window.
    pub fn headroom(&self) -> i128 {
        let t = &self.terms;
        let total: i128 = [
            t.fixed_prompt_tokens,
            t.max_history_tokens,
            t.max_context_tokens,
            t.max_output_tokens,
            t.safety_margin_tokens,
        ]
        .iter()
        .map(|&v| i128::from(v))
        .sum();
        i128::from(t.context_window) - total
    }
}

/// A validated pipeline's step terms before the policy is applied.
///
/// ```
/// use budget_runtime::contract::{ContractTerms, Evaluation, Policy, StepReport};
///
/// let over = ContractTerms { max_context_tokens: 900, max_output_tokens: 10, context_window: 800, ..Default::default() };
/// let evaluation = Evaluation::new("p.yaml", Policy::AutoClamp, vec![StepReport::new("answer", over)]);
/// let report = evaluation.enforce()?;
/// assert_eq!(report.steps[0].terms.max_context_tokens, 790);
/// # Ok::<(), budget_runtime::ContractError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Evaluation {
    /// The root pipeline file.
    pub pipeline: PathBuf,
    /// The policy that [`Evaluation::enforce`] applies.
    pub policy: Policy,
    /// Each `call_model` step's terms as configured, in order.
    pub steps: Vec<StepReport>,
}

/// The outcome of a passed check: every step's terms (clamped where the
/// policy allowed it) and the clamps made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ContractReport {
    /// The root pipeline file.
    pub pipeline: PathBuf,
    /// The policy applied.
    pub policy: Policy,
    /// Each `call_model` step's effective terms, all within the window.
    pub steps: Vec<StepReport>,
    /// Every reduction made, in step order; empty under `fail_fast`.
    pub clamps: Vec<Clamp>,
}

impl Evaluation {
    /// Step terms to be enforced under `policy`.
    pub fn new(pipeline: impl Into<PathBuf>, policy: Policy, steps: Vec<StepReport>) -> Self {
        Self {
            pipeline: pipeline.into(),
            policy,
            steps,
        }
    }

    /// Applies the policy: under `fail_fast` the first violating step is an
    /// error; under `auto_clamp` each violating step is clamped (see
    /// [`clamp_terms`]).
    ///
    /// # Errors
    /// [`ContractError::Violation`] or [`ContractError::Unclampable`].
    pub fn enforce(self) -> Result<ContractReport, ContractError> {
        let mut steps = Vec::with_capacity(self.steps.len());
        let mut clamps = Vec::new();
        for step in self.steps {
            let terms = match self.policy {
                Policy::FailFast => {
                    step.terms
                        .check()
                        .map(|()| step.terms)
                        .map_err(|violation| ContractError::Violation {
                            pipeline: self.pipeline.clone(),
                            step: step.name.clone(),
                            violation,
                        })?
                }
                Policy::AutoClamp => {
                    let (terms, mut made) =
                        clamp_terms(&step.name, step.terms).map_err(|violation| {
                            ContractError::Unclampable {
                                pipeline: self.pipeline.clone(),
                                step: step.name.clone(),
                                violation,
                            }
                        })?;
                    clamps.append(&mut made);
                    terms
                }
            };
            steps.push(StepReport {
                name: step.name,
                terms,
            });
        }
        Ok(ContractReport {
            pipeline: self.pipeline,
            policy: self.policy,
            steps,
            clamps,
        })
    }
}

impl<'a> Checker<'a> {
    /// A checker with the [`SeedEstimator`], the default
    /// [`FormatOverhead`] and no policy override.
    pub fn new(model: &'a ModelConfig, prompts: &'a PromptStore) -> Self {
        Self {
            model,
            prompts,
            estimator: &SeedEstimator,
            overhead: FormatOverhead::default(),
            policy_override: None,
        }
    }

    /// Counts fixed prompts with `estimator` (an exact counter works too).
    pub fn estimator(mut self, estimator: &'a dyn Estimator) -> Self {
        self.estimator = estimator;
        self
    }

    /// Uses `overhead` as the chat format's per-message cost.
    pub fn format_overhead(mut self, overhead: FormatOverhead) -> Self {
        self.overhead = overhead;
        self
    }

    /// Forces a policy over the pipelines' `limits_policy`; `None` removes
    /// the override.
    pub fn policy_override(mut self, policy: Option<Policy>) -> Self {
        self.policy_override = policy;
        self
    }

    /// The model config.
    pub fn model(&self) -> &'a ModelConfig {
        self.model
    }

    /// The prompt folder.
    pub fn prompts(&self) -> &'a PromptStore {
        self.prompts
    }

    /// The format overhead.
    pub fn overhead(&self) -> FormatOverhead {
        self.overhead
    }

    /// The policy that applies to `pipeline`.
    pub fn policy_for(&self, pipeline: &PipelineConfig) -> Policy {
        self.policy_override
            .or_else(|| pipeline.settings().limits_policy.as_ref().map(|p| p.value))
            .unwrap_or_default()
    }

    /// Validates `pipeline` and computes each `call_model` step's terms,
    /// without applying the policy.
    ///
    /// # Errors
    /// Any validation error, a missing prompt or a malformed template.
    pub fn evaluate(&self, pipeline: &PipelineConfig) -> Result<Evaluation, ContractError> {
        let prompts = self.load_prompts(pipeline)?;
        self.evaluate_with(pipeline, &prompts)
    }

    /// [`Checker::evaluate`] followed by [`Evaluation::enforce`].
    ///
    /// # Errors
    /// As both.
    pub fn check(&self, pipeline: &PipelineConfig) -> Result<ContractReport, ContractError> {
        self.evaluate(pipeline)?.enforce()
    }

    /// The prompts of every `call_model` step that names one, by key.
    pub(crate) fn load_prompts(
        &self,
        pipeline: &PipelineConfig,
    ) -> Result<BTreeMap<String, Prompt>, ContractError> {
        let mut prompts = BTreeMap::new();
        for step in pipeline.steps().iter().filter(|s| s.is_call_model()) {
            if let Some(key) = &step.prompt_key
                && !prompts.contains_key(&key.value)
            {
                prompts.insert(key.value.clone(), self.prompts.load(&key.value)?);
            }
        }
        Ok(prompts)
    }

    pub(crate) fn evaluate_with(
        &self,
        pipeline: &PipelineConfig,
        prompts: &BTreeMap<String, Prompt>,
    ) -> Result<Evaluation, ContractError> {
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

        let mut steps = Vec::new();
        for (index, step) in pipeline.steps().iter().enumerate() {
            let name = step.label(index);
            if step.kind.is_none() {
                return Err(missing_step_field(step, &name, "type"));
            }
            if !step.is_call_model() {
                continue;
            }
            let max_history_tokens = if step.use_history.unwrap_or(false) {
                history.ok_or_else(|| ContractError::Missing {
                    location: root(),
                    field: "max_history_tokens",
                })?
            } else {
                0
            };
            let terms = ContractTerms {
                fixed_prompt_tokens: self.fixed_prompt(step, &name, prompts)?,
                max_history_tokens,
                max_context_tokens,
                max_output_tokens: self.output_limit(step, &name)?,
                safety_margin_tokens,
                context_window: self.model.context_window(),
            };
            steps.push(StepReport { name, terms });
        }
        Ok(Evaluation {
            pipeline: pipeline.path().to_owned(),
            policy: self.policy_for(pipeline),
            steps,
        })
    }

    /// Step `max_output_tokens`, else step `max_tokens`, else `model_max_tokens`.
    fn output_limit(&self, step: &Step, name: &str) -> Result<u64, ContractError> {
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
                step: name.to_owned(),
                model: self.model.path().map(Path::to_owned),
            })
    }

    fn fixed_prompt(
        &self,
        step: &Step,
        name: &str,
        prompts: &BTreeMap<String, Prompt>,
    ) -> Result<u64, ContractError> {
        let key = step
            .prompt_key
            .as_ref()
            .ok_or_else(|| missing_step_field(step, name, "prompt_key"))?;
        let loaded;
        let prompt = match prompts.get(&key.value) {
            Some(prompt) => prompt,
            None => {
                loaded = self.prompts.load(&key.value)?;
                &loaded
            }
        };
        let mut rendered = Vec::new();
        for (index, part) in step.user_parts.iter().flatten().enumerate() {
            rendered.push(
                render_empty(&part.value).map_err(|source| ContractError::Template {
                    location: part.location.clone(),
                    step: name.to_owned(),
                    index,
                    source,
                })?,
            );
        }
        let parts: Vec<&str> = rendered.iter().map(String::as_str).collect();
        Ok(fixed_prompt_tokens(
            &prompt.text,
            prompt.content_type,
            &parts,
            self.estimator,
            self.overhead,
        ))
    }
}

fn missing_step_field(step: &Step, name: &str, field: &'static str) -> ContractError {
    ContractError::MissingStepField {
        location: step.location.clone(),
        step: name.to_owned(),
        field,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn terms_strategy() -> impl Strategy<Value = ContractTerms> {
        (
            0u64..5_000,
            0u64..5_000,
            1u64..20_000,
            1u64..5_000,
            0u64..500,
            1u64..32_000,
        )
            .prop_map(
                |(prompt, history, context, output, safety, window)| ContractTerms {
                    fixed_prompt_tokens: prompt,
                    max_history_tokens: history,
                    max_context_tokens: context,
                    max_output_tokens: output,
                    safety_margin_tokens: safety,
                    context_window: window,
                },
            )
    }

    proptest! {
        /// After auto-clamp, every step satisfies the inequality; a step fails
        /// only when it cannot fit with context and output at 1 token.
        #[test]
        fn auto_clamp_makes_every_step_fit(all in proptest::collection::vec(terms_strategy(), 1..6)) {
            let steps = all.iter().enumerate().map(|(i, t)| StepReport::new(format!("s{i}"), *t)).collect();
            match Evaluation::new("p.yaml", Policy::AutoClamp, steps).enforce() {
                Ok(report) => {
                    prop_assert_eq!(report.steps.len(), all.len());
                    for (step, original) in report.steps.iter().zip(&all) {
                        let t = step.terms;
                        prop_assert!(t.fixed_prompt_tokens + t.max_history_tokens + t.max_context_tokens
                            + t.max_output_tokens + t.safety_margin_tokens <= t.context_window);
                        prop_assert!(t.max_context_tokens <= original.max_context_tokens);
                        prop_assert!(t.max_output_tokens <= original.max_output_tokens);
                        // Output is only cut once context is at the floor.
                        if t.max_output_tokens < original.max_output_tokens {
                            prop_assert_eq!(t.max_context_tokens, 1);
                        }
                        // Nothing is cut more than needed: fits exactly, or untouched.
                        if t != *original {
                            prop_assert_eq!(step.headroom(), 0);
                        }
                    }
                }
                Err(ContractError::Unclampable { step, violation, .. }) => {
                    let index: usize = step[1..].parse().unwrap();
                    let o = all[index];
                    let floor = o.fixed_prompt_tokens + o.max_history_tokens + o.safety_margin_tokens
                        + o.max_context_tokens.min(1) + o.max_output_tokens.min(1);
                    prop_assert!(floor > o.context_window);
                    prop_assert_eq!(violation.terms().max_context_tokens, 1);
                }
                Err(other) => prop_assert!(false, "unexpected error {}", other),
            }
        }
    }

    #[test]
    fn fail_fast_stops_at_the_first_violation() {
        let fits = ContractTerms {
            max_context_tokens: 10,
            context_window: 10,
            ..Default::default()
        };
        let over = ContractTerms {
            max_context_tokens: 11,
            context_window: 10,
            ..Default::default()
        };
        let worse = ContractTerms {
            max_context_tokens: 50,
            context_window: 10,
            ..Default::default()
        };
        let steps = vec![
            StepReport::new("a", fits),
            StepReport::new("b", over),
            StepReport::new("c", worse),
        ];
        let err = Evaluation::new("p.yaml", Policy::FailFast, steps)
            .enforce()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "p.yaml: step `b` exceeds context_window 10 by 1 tokens: prompt 0 + history 0 + context 11 + output 0 + safety 0"
        );
    }
}
