//! Auto-clamping: reduce `max_context_tokens`, then the output limit, until
//! a step's terms fit its window.

use std::fmt;

use crate::contract::{ContractTerms, ContractViolation};

/// The smallest value a clamp leaves in a setting, in tokens: a call with no
/// context or no output at all is not a call worth making.
pub const CLAMP_FLOOR_TOKENS: u64 = 1;

/// A setting that auto-clamping may reduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClampedSetting {
    /// `max_context_tokens`, reduced first.
    MaxContextTokens,
    /// The step's output limit, reduced second.
    MaxOutputTokens,
}

impl ClampedSetting {
    /// The configuration key.
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

/// One reduction made by auto-clamping, in memory only.
///
/// ```
/// use budget_runtime::contract::{ClampedSetting, ContractTerms, clamp_terms};
///
/// let terms = ContractTerms { max_context_tokens: 900, max_output_tokens: 200, context_window: 1_000, ..Default::default() };
/// let (fitted, clamps) = clamp_terms("answer", terms).unwrap();
/// assert_eq!(clamps[0].setting, ClampedSetting::MaxContextTokens);
/// assert_eq!((clamps[0].before, clamps[0].after), (900, 800));
/// assert_eq!(
///     clamps[0].to_string(),
///     "step `answer`: max_context_tokens 900 -> 800 (total 1100 exceeds context_window 1000 by 100 tokens)"
/// );
/// assert_eq!(fitted.total(), Some(1_000));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Clamp {
    /// The step whose terms were reduced.
    pub step: String,
    /// The setting reduced.
    pub setting: ClampedSetting,
    /// Its value before, in tokens.
    pub before: u64,
    /// Its value after, in tokens.
    pub after: u64,
    /// Why, with the numbers.
    pub reason: String,
}

impl fmt::Display for Clamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "step `{}`: {} {} -> {} ({})",
            self.step, self.setting, self.before, self.after, self.reason
        )
    }
}

/// Makes `terms` fit by reducing `max_context_tokens` first, then
/// `max_output_tokens`, neither below [`CLAMP_FLOOR_TOKENS`] (a value
/// already below the floor is left alone). Each reduction is logged with
/// `tracing::warn!` (step, setting, before, after, reason) and returned.
/// Terms that already fit come back unchanged with no clamps.
///
/// ```
/// use budget_runtime::contract::{ContractTerms, clamp_terms};
///
/// // 50 + 10 + 30 + 20 + 0 = 110 > 100: context goes 10 -> 1, output 20 -> 19.
/// let terms = ContractTerms {
///     fixed_prompt_tokens: 50, max_history_tokens: 30, max_context_tokens: 10,
///     max_output_tokens: 20, safety_margin_tokens: 0, context_window: 100,
/// };
/// let (fitted, clamps) = clamp_terms("s", terms).unwrap();
/// assert_eq!((fitted.max_context_tokens, fitted.max_output_tokens), (1, 19));
/// assert_eq!(clamps.len(), 2);
///
/// // The fixed prompt alone is too large: no clamp can help.
/// let hopeless = ContractTerms { fixed_prompt_tokens: 200, ..terms };
/// assert!(clamp_terms("s", hopeless).is_err());
/// ```
///
/// # Errors
/// The violation of the terms as clamped to the floor when even that does
/// not fit.
pub fn clamp_terms(
    step: &str,
    terms: ContractTerms,
) -> Result<(ContractTerms, Vec<Clamp>), ContractViolation> {
    let Err(violation) = terms.check() else {
        return Ok((terms, Vec::new()));
    };
    let original_excess = violation.excess_tokens();
    let total = u128::from(terms.context_window) + original_excess;
    let mut clamped = terms;
    let mut excess = original_excess;
    let mut clamps = Vec::new();
    for setting in [
        ClampedSetting::MaxContextTokens,
        ClampedSetting::MaxOutputTokens,
    ] {
        if excess == 0 {
            break;
        }
        let before = match setting {
            ClampedSetting::MaxContextTokens => clamped.max_context_tokens,
            ClampedSetting::MaxOutputTokens => clamped.max_output_tokens,
        };
        let reducible = before.saturating_sub(CLAMP_FLOOR_TOKENS);
        // The cut is at most `reducible`, so it fits u64.
        let cut = u64::try_from(excess.min(u128::from(reducible))).unwrap_or(reducible);
        if cut == 0 {
            continue;
        }
        let after = before - cut;
        let reason = if clamps.is_empty() {
            format!(
                "total {total} exceeds context_window {} by {original_excess} tokens",
                terms.context_window
            )
        } else {
            format!(
                "total still exceeds context_window {} by {excess} tokens with max_context_tokens at {}",
                terms.context_window, clamped.max_context_tokens
            )
        };
        match setting {
            ClampedSetting::MaxContextTokens => clamped.max_context_tokens = after,
            ClampedSetting::MaxOutputTokens => clamped.max_output_tokens = after,
        }
        tracing::warn!(
            step,
            setting = setting.name(),
            before,
            after,
            reason = reason.as_str(),
            "budget contract: clamped {setting} of step `{step}` from {before} to {after}"
        );
        excess -= u128::from(cut);
        clamps.push(Clamp {
            step: step.to_owned(),
            setting,
            before,
            after,
            reason,
        });
    }
    match clamped.check() {
        Ok(()) => Ok((clamped, clamps)),
        Err(still) => Err(still),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::terms::terms;

    #[test]
    fn fitting_terms_are_untouched() {
        let t = terms(1, 2, 3, 4, 5, 15);
        assert_eq!(clamp_terms("s", t).unwrap(), (t, vec![]));
    }

    #[test]
    fn context_absorbs_the_whole_excess_when_it_can() {
        // 1040 + 2000 + 13000 + 1024 + 128 = 17192; window 16384; excess 808.
        let (fitted, clamps) =
            clamp_terms("answer", terms(1040, 2000, 13000, 1024, 128, 16384)).unwrap();
        assert_eq!(fitted.max_context_tokens, 12192);
        assert_eq!(fitted.max_output_tokens, 1024);
        assert_eq!(fitted.total(), Some(16384));
        assert_eq!(clamps.len(), 1);
        assert_eq!(
            clamps[0].reason,
            "total 17192 exceeds context_window 16384 by 808 tokens"
        );
    }

    #[test]
    fn output_is_reduced_only_after_context_reaches_the_floor() {
        // 100 + 0 + 50 + 500 + 0 = 650 > 600: context 50 -> 1 (49), output 500 -> 499 (1).
        let (fitted, clamps) = clamp_terms("s", terms(100, 0, 50, 500, 0, 600)).unwrap();
        assert_eq!(
            (fitted.max_context_tokens, fitted.max_output_tokens),
            (1, 499)
        );
        assert_eq!(clamps[1].setting, ClampedSetting::MaxOutputTokens);
        assert_eq!(
            clamps[1].reason,
            "total still exceeds context_window 600 by 1 tokens with max_context_tokens at 1"
        );
    }

    #[test]
    fn cannot_fit_reports_terms_at_the_floor() {
        // prompt 100 + safety 10 + 1 + 1 = 112 > 111.
        let v = clamp_terms("s", terms(100, 0, 40, 40, 10, 111)).unwrap_err();
        assert_eq!(v.terms().max_context_tokens, 1);
        assert_eq!(v.terms().max_output_tokens, 1);
        assert_eq!(v.excess_tokens(), 1);
    }

    #[test]
    fn huge_terms_clamp_without_overflow() {
        let (fitted, _) = clamp_terms("s", terms(0, 0, u64::MAX, u64::MAX, 0, u64::MAX)).unwrap();
        assert_eq!(fitted.max_context_tokens, 1);
        assert_eq!(fitted.max_output_tokens, u64::MAX - 1);
        assert_eq!(fitted.total(), Some(u64::MAX));
    }
}
