//! The terms of one model call's budget contract and the inequality they
//! must satisfy: `prompt + history + context + output + safety <= window`.

use std::fmt;

/// The safety margin of a contract that sets none, in tokens: what
/// `budget!(contract { .. })` uses without `safety_margin`, and the
/// contract checker without `budget_safety_margin_tokens`.
///
/// ```
/// use budget::model::{ContractTerms, DEFAULT_SAFETY_MARGIN_TOKENS};
///
/// let terms = ContractTerms {
///     max_output_tokens: 1_024,
///     safety_margin_tokens: DEFAULT_SAFETY_MARGIN_TOKENS,
///     context_window: 2_048,
///     ..ContractTerms::default()
/// };
/// assert_eq!(terms.total(), Some(1_152));
/// ```
pub const DEFAULT_SAFETY_MARGIN_TOKENS: u64 = 128;

/// The token terms of one model call, all in tokens.
///
/// The contract holds when
/// `fixed_prompt_tokens + max_history_tokens + max_context_tokens +
/// max_output_tokens + safety_margin_tokens <= context_window`.
///
/// ```
/// use budget::model::ContractTerms;
///
/// let terms = ContractTerms {
///     fixed_prompt_tokens: 1_040,
///     max_history_tokens: 2_000,
///     max_context_tokens: 12_000,
///     max_output_tokens: 1_024,
///     safety_margin_tokens: 128,
///     context_window: 16_384,
/// };
/// assert_eq!(terms.total(), Some(16_192));
/// assert!(terms.check().is_ok());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ContractTerms {
    /// Tokens of the fixed prompt: system prompt, empty-rendered user parts
    /// and per-message format overhead.
    pub fixed_prompt_tokens: u64,
    /// Tokens reserved for conversation history (0 when the call uses none).
    pub max_history_tokens: u64,
    /// Tokens reserved for retrieved context.
    pub max_context_tokens: u64,
    /// Tokens reserved for the model's answer.
    pub max_output_tokens: u64,
    /// Tokens kept free to absorb estimation error.
    pub safety_margin_tokens: u64,
    /// The model's context window in tokens.
    pub context_window: u64,
}

impl ContractTerms {
    /// The sum of every term except the window, or `None` if it overflows `u64`
    /// (which always exceeds any window).
    ///
    /// ```
    /// use budget::model::ContractTerms;
    ///
    /// let terms = ContractTerms { max_context_tokens: u64::MAX, max_output_tokens: 1, ..Default::default() };
    /// assert_eq!(terms.total(), None);
    /// ```
    pub const fn total(&self) -> Option<u64> {
        let terms = [
            self.fixed_prompt_tokens,
            self.max_history_tokens,
            self.max_context_tokens,
            self.max_output_tokens,
            self.safety_margin_tokens,
        ];
        let mut sum: u64 = 0;
        let mut i = 0;
        while i < terms.len() {
            sum = match sum.checked_add(terms[i]) {
                Some(next) => next,
                None => return None,
            };
            i += 1;
        }
        Some(sum)
    }

    /// `Ok` when the terms fit the window, otherwise the violation with every
    /// term and the excess.
    ///
    /// ```
    /// use budget::model::ContractTerms;
    ///
    /// let terms = ContractTerms {
    ///     fixed_prompt_tokens: 1_040,
    ///     max_history_tokens: 2_000,
    ///     max_context_tokens: 13_000,
    ///     max_output_tokens: 1_024,
    ///     safety_margin_tokens: 128,
    ///     context_window: 16_384,
    /// };
    /// let violation = terms.check().unwrap_err();
    /// assert_eq!(violation.excess_tokens(), 808);
    /// assert_eq!(
    ///     violation.to_string(),
    ///     "exceeds context_window 16384 by 808 tokens: prompt 1040 + history 2000 + context 13000 + output 1024 + safety 128"
    /// );
    /// ```
    pub fn check(&self) -> Result<(), ContractViolation> {
        match self.total() {
            Some(total) if total <= self.context_window => Ok(()),
            _ => Err(ContractViolation { terms: *self }),
        }
    }

    /// The exact sum of the terms, which cannot overflow `u128`.
    fn wide_total(&self) -> u128 {
        [
            self.fixed_prompt_tokens,
            self.max_history_tokens,
            self.max_context_tokens,
            self.max_output_tokens,
            self.safety_margin_tokens,
        ]
        .iter()
        .map(|&t| u128::from(t))
        .sum()
    }
}

/// Terms whose total exceeds the context window; created by
/// [`ContractTerms::check`].
///
/// ```
/// use budget::model::ContractTerms;
///
/// let terms = ContractTerms { max_context_tokens: 10, context_window: 8, ..Default::default() };
/// let violation = terms.check().unwrap_err();
/// assert_eq!(violation.terms(), &terms);
/// assert_eq!(violation.excess_tokens(), 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ContractViolation {
    terms: ContractTerms,
}

impl ContractViolation {
    /// The terms that do not fit.
    pub const fn terms(&self) -> &ContractTerms {
        &self.terms
    }

    /// Tokens by which the total exceeds the window (always > 0; `u128`
    /// because the sum of five `u64` terms can exceed `u64::MAX`).
    pub fn excess_tokens(&self) -> u128 {
        self.terms
            .wide_total()
            .saturating_sub(u128::from(self.terms.context_window))
    }
}

impl fmt::Display for ContractViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.terms;
        write!(
            f,
            "exceeds context_window {} by {} tokens: prompt {} + history {} + context {} + output {} + safety {}",
            t.context_window,
            self.excess_tokens(),
            t.fixed_prompt_tokens,
            t.max_history_tokens,
            t.max_context_tokens,
            t.max_output_tokens,
            t.safety_margin_tokens,
        )
    }
}

impl std::error::Error for ContractViolation {}

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

    #[test]
    fn exactly_full_window_holds() {
        // 100 + 200 + 300 + 400 + 24 = 1024
        let t = terms(100, 200, 300, 400, 24, 1024);
        assert_eq!(t.total(), Some(1024));
        assert_eq!(t.check(), Ok(()));
    }

    #[test]
    fn one_token_over_is_a_violation() {
        let t = terms(100, 200, 300, 400, 25, 1024);
        let v = t.check().unwrap_err();
        assert_eq!(v.excess_tokens(), 1);
        assert_eq!(
            v.to_string(),
            "exceeds context_window 1024 by 1 tokens: prompt 100 + history 200 + context 300 + output 400 + safety 25"
        );
    }

    #[test]
    fn overflowing_total_is_a_violation_with_exact_excess() {
        let t = terms(u64::MAX, u64::MAX, 0, 0, 2, 1);
        assert_eq!(t.total(), None);
        let v = t.check().unwrap_err();
        // 2 * (2^64 - 1) + 2 - 1 = 2^65 - 1
        assert_eq!(v.excess_tokens(), (1u128 << 65) - 1);
    }

    #[test]
    fn zero_window_rejects_any_positive_term() {
        assert!(terms(0, 0, 0, 0, 0, 0).check().is_ok());
        assert!(terms(0, 0, 1, 0, 0, 0).check().is_err());
    }
}
