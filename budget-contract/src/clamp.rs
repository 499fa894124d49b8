//! Auto-clamping in the order the budget contract states it: one
//! pipeline-wide cut of `max_context_tokens` to what the worst-case step
//! allows (never below its minimum of 1 token), then a step's output limit
//! only if that step still does not fit.

use std::fmt;

use crate::{ContractError, ContractTerms, StepReport};

/// A setting that auto-clamping may reduce; serialized as its
/// configuration key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ClampedSetting {
    /// The pipeline-wide `max_context_tokens`, reduced first.
    MaxContextTokens,
    /// One step's output limit, reduced second.
    MaxOutputTokens,
}

impl ClampedSetting {
    /// The configuration key, also the `kind` in JSON reports.
    pub const fn name(self) -> &'static str {
        match self {
            ClampedSetting::MaxContextTokens => "max_context_tokens",
            ClampedSetting::MaxOutputTokens => "max_output_tokens",
        }
    }
}

impl fmt::Display for ClampedSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One reduction made by auto-clamping, in memory only (files are never
/// written).
///
/// ```
/// use budget::contract::{ClampedSetting, StepReport, clamp_steps};
/// use budget::model::ContractTerms;
///
/// let terms = ContractTerms { fixed_prompt_tokens: 100, max_context_tokens: 900, max_output_tokens: 200, context_window: 1_000, ..Default::default() };
/// let mut steps = vec![StepReport::new("answer", terms)];
/// let clamps = clamp_steps("p", &mut steps)?;
/// assert_eq!(clamps[0].setting, ClampedSetting::MaxContextTokens);
/// assert_eq!((clamps[0].step.as_deref(), clamps[0].before, clamps[0].after), (None, 900, 700));
/// assert_eq!(steps[0].terms.total(), Some(1_000));
/// # Ok::<(), budget::contract::ContractError>(())
/// ```
///
/// Serializes (JSON) as `kind` (the setting's key), `step`, `before` and
/// `after`; the reason is in its `Display`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[non_exhaustive]
pub struct Clamp {
    /// The setting reduced.
    #[serde(rename = "kind")]
    pub setting: ClampedSetting,
    /// The step whose output limit was reduced; `None` for the
    /// pipeline-wide `max_context_tokens`.
    pub step: Option<String>,
    /// Its value before, in tokens.
    pub before: u64,
    /// Its value after, in tokens (> 0).
    pub after: u64,
    /// Why, with the numbers.
    #[serde(skip)]
    pub reason: String,
}

impl fmt::Display for Clamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(step) = &self.step {
            write!(f, "step `{step}`: ")?;
        }
        write!(
            f,
            "{} {} -> {} ({})",
            self.setting, self.before, self.after, self.reason
        )
    }
}

/// `window - (every term except context)`, in tokens: the most context the
/// step allows (negative when even no context does not fit).
fn context_allowed(t: &ContractTerms) -> i128 {
    i128::from(t.context_window)
        - i128::from(t.fixed_prompt_tokens)
        - i128::from(t.max_history_tokens)
        - i128::from(t.max_output_tokens)
        - i128::from(t.safety_margin_tokens)
}

/// `window - (every term except output)`, in tokens.
fn output_allowed(t: &ContractTerms) -> i128 {
    context_allowed(t) + i128::from(t.max_output_tokens) - i128::from(t.max_context_tokens)
}

/// A non-positive allowance as `i64`, saturating.
fn saturate(allowed: i128) -> i64 {
    i64::try_from(allowed).unwrap_or(i64::MIN)
}

/// The step that allows the least context (the first on ties), with that
/// amount; `None` for no steps.
pub(crate) fn worst_step(steps: &[StepReport]) -> Option<(usize, i128)> {
    steps
        .iter()
        .enumerate()
        .map(|(index, step)| (index, context_allowed(&step.terms)))
        .fold(None, |worst, (index, allowed)| match worst {
            Some((_, least)) if least <= allowed => worst,
            _ => Some((index, allowed)),
        })
}

/// Clamps `steps` (all sharing one `max_context_tokens`) of the pipeline
/// `pipeline` in place and returns the clamps made, each logged with
/// `tracing::warn!`:
///
/// 1. if the shared `max_context_tokens` exceeds what the worst-case step
///    allows (`window - fixed - history - output - safety`), it is lowered
///    to that, once, for every step, but never below 1 token (context must
///    stay positive);
/// 2. then, "if still over budget", any step that does not fit has its
///    output limit lowered to `window - fixed - history - context - safety`.
///
/// So a step whose prompt, history and output leave no room for context
/// gets context 1 and a smaller output limit; the pipeline fails only when
/// even that output limit would be 0 or below.
///
/// # Errors
/// [`ContractError::OutputClampNotPositive`] when a step does not fit even
/// with context 1 and an output limit of 1.
pub fn clamp_steps(pipeline: &str, steps: &mut [StepReport]) -> Result<Vec<Clamp>, ContractError> {
    let mut clamps = Vec::new();
    if let Some((worst, allowed)) = worst_step(steps) {
        let before = steps[worst].terms.max_context_tokens;
        if i128::from(before) > allowed.max(1) {
            // `allowed < before <= u64::MAX`: the conversion cannot fail.
            let after = u64::try_from(allowed.max(1)).unwrap_or(before);
            let step = &steps[worst];
            let reason = if allowed >= 1 {
                format!(
                    "max_context_tokens {before} exceeds the {after} that step `{}` allows in context_window {}",
                    step.id, step.terms.context_window
                )
            } else {
                format!(
                    "step `{}` leaves {allowed} tokens for context in context_window {}: max_context_tokens {before} is cut to its minimum of 1, output limits next",
                    step.id, step.terms.context_window
                )
            };
            tracing::warn!(
                pipeline,
                setting = "max_context_tokens",
                before,
                after,
                reason = reason.as_str(),
                "budget contract: clamped max_context_tokens of pipeline `{pipeline}` from {before} to {after}"
            );
            for step in steps.iter_mut() {
                step.terms.max_context_tokens = after;
            }
            clamps.push(Clamp {
                setting: ClampedSetting::MaxContextTokens,
                step: None,
                before,
                after,
                reason,
            });
        }
    }
    for step in steps.iter_mut() {
        if step.terms.check().is_ok() {
            continue;
        }
        let allowed = output_allowed(&step.terms);
        let before = step.terms.max_output_tokens;
        let after = u64::try_from(allowed)
            .ok()
            .filter(|&a| a > 0)
            .ok_or_else(|| ContractError::OutputClampNotPositive {
                path: std::path::PathBuf::new(),
                pipeline: pipeline.to_owned(),
                step: step.id.clone(),
                allowed: saturate(allowed),
                terms: Box::new(step.terms),
            })?;
        let reason = format!(
            "output limit {before} exceeds the {after} left in context_window {}",
            step.terms.context_window
        );
        tracing::warn!(
            pipeline,
            step = step.id.as_str(),
            setting = "max_output_tokens",
            before,
            after,
            reason = reason.as_str(),
            "budget contract: clamped max_output_tokens of step `{}` from {before} to {after}",
            step.id
        );
        step.terms.max_output_tokens = after;
        clamps.push(Clamp {
            setting: ClampedSetting::MaxOutputTokens,
            step: Some(step.id.clone()),
            before,
            after,
            reason,
        });
    }
    Ok(clamps)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Terms in declaration order, for tests: prompt, history, context,
    /// output, safety, window.
    fn terms(
        prompt: u64,
        history: u64,
        context: u64,
        output: u64,
        safety: u64,
        window: u64,
    ) -> ContractTerms {
        ContractTerms {
            fixed_prompt_tokens: prompt,
            max_history_tokens: history,
            max_context_tokens: context,
            max_output_tokens: output,
            safety_margin_tokens: safety,
            context_window: window,
        }
    }

    fn steps(all: &[ContractTerms]) -> Vec<StepReport> {
        all.iter()
            .enumerate()
            .map(|(i, t)| StepReport::new(format!("s{i}"), *t))
            .collect()
    }

    #[test]
    fn fitting_steps_are_untouched() {
        let mut s = steps(&[terms(1, 2, 3, 4, 5, 15)]);
        assert!(clamp_steps("p", &mut s).unwrap().is_empty());
        assert_eq!(s[0].terms, terms(1, 2, 3, 4, 5, 15));
    }

    #[test]
    fn context_is_cut_once_to_the_worst_step() {
        // allowed: s0 = 1000 - 100 - 50 - 200 - 10 = 640; s1 = 1000 - 300 - 50 - 100 - 10 = 540.
        let mut s = steps(&[
            terms(100, 50, 700, 200, 10, 1000),
            terms(300, 50, 700, 100, 10, 1000),
        ]);
        let clamps = clamp_steps("p", &mut s).unwrap();
        assert_eq!(clamps.len(), 1);
        assert_eq!(
            (clamps[0].step.as_ref(), clamps[0].before, clamps[0].after),
            (None, 700, 540)
        );
        assert_eq!(
            clamps[0].reason,
            "max_context_tokens 700 exceeds the 540 that step `s1` allows in context_window 1000"
        );
        assert!(s.iter().all(|st| st.terms.max_context_tokens == 540));
        assert_eq!(s[1].terms.total(), Some(1000));
        assert_eq!(s[0].terms.total(), Some(900));
    }

    #[test]
    fn no_room_for_context_keeps_one_token_and_cuts_the_output() {
        // allowed context = 1000 - 500 - 0 - 500 - 0 = 0: context 10 -> 1,
        // then output 500 -> 1000 - 500 - 0 - 1 - 0 = 499.
        let mut s = steps(&[terms(500, 0, 10, 500, 0, 1000)]);
        let clamps = clamp_steps("p", &mut s).unwrap();
        let made: Vec<_> = clamps
            .iter()
            .map(|c| (c.setting, c.step.as_deref(), c.before, c.after))
            .collect();
        assert_eq!(
            made,
            [
                (ClampedSetting::MaxContextTokens, None, 10, 1),
                (ClampedSetting::MaxOutputTokens, Some("s0"), 500, 499),
            ]
        );
        assert_eq!(
            clamps[0].reason,
            "step `s0` leaves 0 tokens for context in context_window 1000: max_context_tokens 10 is cut to its minimum of 1, output limits next"
        );
        assert_eq!(s[0].terms.total(), Some(1000));
    }

    #[test]
    fn no_room_even_for_one_token_of_output_is_an_error() {
        // With context 1: output allowed = 1000 - 999 - 0 - 1 - 0 = 0.
        let mut s = steps(&[terms(999, 0, 10, 500, 0, 1000)]);
        let err = clamp_steps("p", &mut s).unwrap_err();
        assert!(
            matches!(&err, ContractError::OutputClampNotPositive { allowed: 0, step, .. } if step == "s0"),
            "{err:?}"
        );
    }

    #[test]
    fn output_is_cut_when_a_step_still_does_not_fit() {
        // Steps given different contexts: s0 (the worst, allows 100) holds 100, so context
        // stays; s1 holds 250 and overflows by 50, so its output goes 100 -> 50.
        let mut s = steps(&[
            terms(100, 0, 100, 100, 0, 300),
            terms(0, 0, 250, 100, 0, 300),
        ]);
        let clamps = clamp_steps("p", &mut s).unwrap();
        assert_eq!(clamps.len(), 1);
        assert_eq!(clamps[0].setting, ClampedSetting::MaxOutputTokens);
        assert_eq!(
            (clamps[0].step.as_deref(), clamps[0].before, clamps[0].after),
            (Some("s1"), 100, 50)
        );
        assert_eq!(s[1].terms.total(), Some(300));
    }

    #[test]
    fn output_clamp_to_zero_is_an_error() {
        let mut s = steps(&[
            terms(100, 0, 100, 100, 0, 300),
            terms(0, 0, 300, 100, 0, 300),
        ]);
        let err = clamp_steps("p", &mut s).unwrap_err();
        assert!(
            matches!(&err, ContractError::OutputClampNotPositive { allowed: 0, step, .. } if step == "s1"),
            "{err:?}"
        );
    }
}
