//! [`TierBudget`]: how a hybrid payload's token total is split over its tiers.
//!
//! # The token-budget rules' SUMMARY figure
//!
//! The token-budget rules give SUMMARY a 1% share but prints "800 budget / 720
//! effective" for a 100,000-token payload, next to RAW 90,000 / 81,000 and
//! LINKED 9,000 / 8,100. 1% of 100,000 is 1,000, and with 800 the three
//! nominal budgets would add up to 99,800, leaving 200 tokens that belong to
//! no tier. This type treats the **percentages as authoritative**: the three
//! shares must add up to exactly 100%, and every tier's nominal budget is
//! `floor(total × share / 100)`. With the defaults a 100,000-token payload
//! therefore has SUMMARY 1,000 nominal / 900 effective. The printed 800 / 720
//! is what the same 1% share gives for an 80,000-token payload; the headroom
//! arithmetic (720 = 90% of 800) is the same either way.

use crate::Tier;

/// Which validation rule of a [`TierBudget`] a set of values breaks.
///
/// [`TierBudget::broken_rule`] is the single check used by
/// [`TierBudget::new`], [`TierBudget::new_const`] and the `budget!` macro.
///
/// ```
/// use budget_rules::{TierBudget, TierBudgetRule};
///
/// let rule = TierBudget::broken_rule(100_000, 300, 1.0, 9.0, 80.0, 10.0);
/// assert_eq!(rule, Some(TierBudgetRule::SharesSumTo100));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TierBudgetRule {
    /// Every tier share is a finite percentage within `0.0..=100.0`.
    ShareIsPercentage(Tier),
    /// The SUMMARY, LINKED and RAW shares add up to 100% (within 1e-9).
    SharesSumTo100,
    /// The headroom is a percentage within `0.0..100.0` (NaN breaks it).
    HeadroomIsPercentage,
    /// The META overhead does not exceed the payload total.
    MetaWithinTotal,
    /// Every tier's effective limit is at least one token.
    TierLimitPositive(Tier),
}

impl TierBudgetRule {
    /// A fixed sentence naming the rule, used where numbers cannot be
    /// formatted (panics during constant evaluation).
    ///
    /// ```
    /// use budget_rules::TierBudgetRule;
    ///
    /// assert_eq!(
    ///     TierBudgetRule::MetaWithinTotal.message(),
    ///     "invalid TierBudget: meta tokens exceed the payload total",
    /// );
    /// ```
    pub const fn message(self) -> &'static str {
        match self {
            Self::ShareIsPercentage(Tier::Summary) => {
                "invalid TierBudget: summary_percent must be within 0.0..=100.0"
            }
            Self::ShareIsPercentage(Tier::Linked) => {
                "invalid TierBudget: linked_percent must be within 0.0..=100.0"
            }
            Self::ShareIsPercentage(Tier::Raw | Tier::Skeleton) => {
                "invalid TierBudget: raw_percent must be within 0.0..=100.0"
            }
            Self::SharesSumTo100 => {
                "invalid TierBudget: summary, linked and raw percentages must sum to 100"
            }
            Self::HeadroomIsPercentage => {
                "invalid TierBudget: headroom_percent must be within 0.0..100.0"
            }
            Self::MetaWithinTotal => "invalid TierBudget: meta tokens exceed the payload total",
            Self::TierLimitPositive(Tier::Summary) => {
                "invalid TierBudget: the SUMMARY tier's effective limit is 0 tokens"
            }
            Self::TierLimitPositive(Tier::Linked) => {
                "invalid TierBudget: the LINKED tier's effective limit is 0 tokens"
            }
            Self::TierLimitPositive(Tier::Raw | Tier::Skeleton) => {
                "invalid TierBudget: the RAW tier's effective limit is 0 tokens"
            }
        }
    }
}

/// The token budget of a hybrid payload, split over its four parts.
///
/// * `total`: tokens the whole rendered payload may use.
/// * `meta`: fixed overhead reserved for the `## META` section (default 300).
/// * `summary_percent`, `linked_percent`, `raw_percent`: each tier's share of
///   `total`, in percent (defaults 1 / 9 / 90; they must sum to 100).
/// * `headroom_percent`: the part of each tier's nominal budget kept free
///   for estimation error (default 10), in `0.0..100.0`.
///
/// A tier's **nominal** budget is `floor(total × share / 100)`; its
/// **effective** limit, the one placement respects, is
/// `floor(nominal × (100 − headroom) / 100)`. META is counted on top of the
/// tiers; the assembled payload guarantees that its rendered estimate stays
/// within `total`. See the module documentation for how the token-budget rules' SUMMARY
/// figure is resolved.
///
/// ```
/// use budget::model::Tier;
/// use budget::payload::TierBudget;
///
/// const BUDGET: TierBudget = TierBudget::new_const(100_000, 300, 1.0, 9.0, 90.0, 10.0);
/// assert_eq!(BUDGET.nominal(Tier::Raw), 90_000);
/// assert_eq!(BUDGET.effective(Tier::Raw), 81_000);
/// assert_eq!(BUDGET.nominal(Tier::Linked), 9_000);
/// assert_eq!(BUDGET.effective(Tier::Linked), 8_100);
/// assert_eq!(BUDGET.nominal(Tier::Summary), 1_000);
/// assert_eq!(BUDGET.effective(Tier::Summary), 900);
///
/// let err = TierBudget::new(100_000, 300, 1.0, 9.0, 80.0, 10.0).unwrap_err();
/// assert_eq!(err.to_string(), "tier shares sum to 90 percent (summary 1 + linked 9 + raw 80), expected 100");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TierBudget {
    total: u64,
    meta: u64,
    summary_percent: f64,
    linked_percent: f64,
    raw_percent: f64,
    headroom_percent: f64,
}

impl TierBudget {
    /// Default META overhead: 300 tokens.
    pub const DEFAULT_META_TOKENS: u64 = 300;
    /// Default SUMMARY share: 1 percent.
    pub const DEFAULT_SUMMARY_PERCENT: f64 = 1.0;
    /// Default LINKED share: 9 percent.
    pub const DEFAULT_LINKED_PERCENT: f64 = 9.0;
    /// Default RAW share: 90 percent.
    pub const DEFAULT_RAW_PERCENT: f64 = 90.0;
    /// Default headroom: 10 percent of each tier's nominal budget.
    pub const DEFAULT_HEADROOM_PERCENT: f64 = 10.0;

    /// A tier budget in `const` context.
    ///
    /// # Panics
    /// With [`TierBudgetRule::message`] if a rule is broken; in a `const`
    /// item this is a compile error.
    ///
    /// ```
    /// use budget::payload::TierBudget;
    ///
    /// const SMALL: TierBudget = TierBudget::new_const(20_000, 200, 2.0, 18.0, 80.0, 5.0);
    /// assert_eq!(SMALL.total(), 20_000);
    /// ```
    pub const fn new_const(
        total: u64,
        meta: u64,
        summary_percent: f64,
        linked_percent: f64,
        raw_percent: f64,
        headroom_percent: f64,
    ) -> Self {
        Self::unchecked(
            total,
            meta,
            summary_percent,
            linked_percent,
            raw_percent,
            headroom_percent,
        )
        .checked_const()
    }

    /// A tier budget of `total` tokens with every other value at its default
    /// (META 300, shares 1 / 9 / 90, headroom 10), in `const` context.
    ///
    /// # Panics
    /// As [`TierBudget::new_const`]: when `total` is below 300 or too small
    /// to give SUMMARY one effective token.
    ///
    /// ```
    /// use budget::{payload::TierBudget, model::Tier};
    ///
    /// const B: TierBudget = TierBudget::with_total_const(50_000);
    /// assert_eq!(B.effective(Tier::Linked), 4_050);
    /// ```
    pub const fn with_total_const(total: u64) -> Self {
        Self::defaults(total).checked_const()
    }

    /// A tier budget validated at run time.
    ///
    /// # Errors
    /// The [`TierBudgetError`] of the first broken rule, with the numbers.
    ///
    /// ```
    /// use budget::payload::TierBudget;
    ///
    /// let err = TierBudget::new(200, 300, 1.0, 9.0, 90.0, 10.0).unwrap_err();
    /// assert_eq!(err.to_string(), "meta 300 tokens exceed the payload total of 200 tokens");
    /// ```
    pub fn new(
        total: u64,
        meta: u64,
        summary_percent: f64,
        linked_percent: f64,
        raw_percent: f64,
        headroom_percent: f64,
    ) -> Result<Self, TierBudgetError> {
        Self::unchecked(
            total,
            meta,
            summary_percent,
            linked_percent,
            raw_percent,
            headroom_percent,
        )
        .validated()
    }

    /// A tier budget of `total` tokens with every other value at its default.
    ///
    /// # Errors
    /// As [`TierBudget::new`].
    ///
    /// ```
    /// use budget::{payload::TierBudget, model::Tier};
    ///
    /// let b = TierBudget::with_total(100_000)?;
    /// assert_eq!(b.meta(), 300);
    /// assert_eq!(b.effective(Tier::Raw), 81_000);
    /// # Ok::<(), budget::payload::TierBudgetError>(())
    /// ```
    pub fn with_total(total: u64) -> Result<Self, TierBudgetError> {
        Self::defaults(total).validated()
    }

    /// The values as given, not yet validated.
    const fn unchecked(
        total: u64,
        meta: u64,
        summary_percent: f64,
        linked_percent: f64,
        raw_percent: f64,
        headroom_percent: f64,
    ) -> Self {
        Self {
            total,
            meta,
            summary_percent,
            linked_percent,
            raw_percent,
            headroom_percent,
        }
    }

    /// `total` with every other value at its default, not yet validated.
    const fn defaults(total: u64) -> Self {
        Self::unchecked(
            total,
            Self::DEFAULT_META_TOKENS,
            Self::DEFAULT_SUMMARY_PERCENT,
            Self::DEFAULT_LINKED_PERCENT,
            Self::DEFAULT_RAW_PERCENT,
            Self::DEFAULT_HEADROOM_PERCENT,
        )
    }

    /// [`TierBudget::broken_rule`] of these values.
    const fn first_broken_rule(&self) -> Option<TierBudgetRule> {
        Self::broken_rule(
            self.total,
            self.meta,
            self.summary_percent,
            self.linked_percent,
            self.raw_percent,
            self.headroom_percent,
        )
    }

    /// These values, or a panic naming the first broken rule.
    const fn checked_const(self) -> Self {
        if let Some(rule) = self.first_broken_rule() {
            panic!("{}", rule.message());
        }
        self
    }

    /// These values, or the error of the first broken rule.
    fn validated(self) -> Result<Self, TierBudgetError> {
        match self.first_broken_rule() {
            None => Ok(self),
            Some(rule) => Err(self.error_for(rule)),
        }
    }

    /// The first rule the given values break, or `None` if they form a valid
    /// tier budget. Checked in the order of [`TierBudgetRule`]'s variants;
    /// tiers in the order SUMMARY, LINKED, RAW.
    ///
    /// ```
    /// use budget_rules::{Tier, TierBudget, TierBudgetRule};
    ///
    /// assert_eq!(TierBudget::broken_rule(100_000, 300, 1.0, 9.0, 90.0, 10.0), None);
    /// assert_eq!(
    ///     TierBudget::broken_rule(100_000, 300, 1.0, 9.0, 90.0, 100.0),
    ///     Some(TierBudgetRule::HeadroomIsPercentage),
    /// );
    /// assert_eq!(
    ///     TierBudget::broken_rule(50, 0, 1.0, 9.0, 90.0, 10.0),
    ///     Some(TierBudgetRule::TierLimitPositive(Tier::Summary)),
    /// );
    /// ```
    #[doc(hidden)]
    pub const fn broken_rule(
        total: u64,
        meta: u64,
        summary_percent: f64,
        linked_percent: f64,
        raw_percent: f64,
        headroom_percent: f64,
    ) -> Option<TierBudgetRule> {
        let shares = [
            (Tier::Summary, summary_percent),
            (Tier::Linked, linked_percent),
            (Tier::Raw, raw_percent),
        ];
        let mut i = 0;
        while i < shares.len() {
            let (tier, percent) = shares[i];
            if !(percent >= 0.0 && percent <= 100.0) {
                return Some(TierBudgetRule::ShareIsPercentage(tier));
            }
            i += 1;
        }
        let sum = summary_percent + linked_percent + raw_percent;
        if (sum - 100.0).abs() > SHARE_SUM_TOLERANCE {
            return Some(TierBudgetRule::SharesSumTo100);
        }
        if !(headroom_percent >= 0.0 && headroom_percent < 100.0) {
            return Some(TierBudgetRule::HeadroomIsPercentage);
        }
        if meta > total {
            return Some(TierBudgetRule::MetaWithinTotal);
        }
        let mut i = 0;
        while i < shares.len() {
            let (tier, percent) = shares[i];
            if effective_tokens(total, percent, headroom_percent) == 0 {
                return Some(TierBudgetRule::TierLimitPositive(tier));
            }
            i += 1;
        }
        None
    }

    /// Tokens the whole rendered payload may use.
    pub const fn total(&self) -> u64 {
        self.total
    }

    /// Tokens reserved for the META section.
    pub const fn meta(&self) -> u64 {
        self.meta
    }

    /// Headroom kept free in every tier, in percent of its nominal budget.
    pub const fn headroom_percent(&self) -> f64 {
        self.headroom_percent
    }

    /// The share of `tier`, in percent of [`total`](Self::total). SKELETON
    /// draws on RAW's share ([`Tier::budget_tier`]): the two tiers have one
    /// limit between them.
    ///
    /// ```
    /// use budget::{payload::TierBudget, model::Tier};
    /// assert_eq!(TierBudget::with_total_const(1_000).percent(Tier::Linked), 9.0);
    /// ```
    pub const fn percent(&self, tier: Tier) -> f64 {
        match tier {
            Tier::Summary => self.summary_percent,
            Tier::Linked => self.linked_percent,
            Tier::Raw | Tier::Skeleton => self.raw_percent,
        }
    }

    /// The nominal budget of `tier` in tokens: `floor(total × share / 100)`.
    ///
    /// ```
    /// use budget::{payload::TierBudget, model::Tier};
    /// assert_eq!(TierBudget::with_total_const(100_000).nominal(Tier::Linked), 9_000);
    /// ```
    pub const fn nominal(&self, tier: Tier) -> u64 {
        percent_of(self.total, self.percent(tier))
    }

    /// The effective limit of `tier` in tokens, the one placement respects:
    /// `floor(nominal × (100 − headroom) / 100)`, always ≥ 1.
    ///
    /// ```
    /// use budget::{payload::TierBudget, model::Tier};
    /// assert_eq!(TierBudget::with_total_const(100_000).effective(Tier::Linked), 8_100);
    /// ```
    pub const fn effective(&self, tier: Tier) -> u64 {
        effective_tokens(self.total, self.percent(tier), self.headroom_percent)
    }

    fn error_for(&self, rule: TierBudgetRule) -> TierBudgetError {
        match rule {
            TierBudgetRule::ShareIsPercentage(tier) => TierBudgetError::ShareOutOfRange {
                tier,
                percent: self.percent(tier),
            },
            TierBudgetRule::SharesSumTo100 => TierBudgetError::SharesDoNotSumTo100 {
                summary_percent: self.summary_percent,
                linked_percent: self.linked_percent,
                raw_percent: self.raw_percent,
                sum: self.summary_percent + self.linked_percent + self.raw_percent,
            },
            TierBudgetRule::HeadroomIsPercentage => TierBudgetError::HeadroomOutOfRange {
                headroom_percent: self.headroom_percent,
            },
            TierBudgetRule::MetaWithinTotal => TierBudgetError::MetaExceedsTotal {
                meta: self.meta,
                total: self.total,
            },
            TierBudgetRule::TierLimitPositive(tier) => TierBudgetError::TierLimitZero {
                tier,
                total: self.total,
                percent: self.percent(tier),
                nominal: self.nominal(tier),
            },
        }
    }
}

/// How far the three shares may sum from 100 and still count as 100, so that
/// e.g. `33.3 + 33.3 + 33.4` is accepted despite binary rounding.
const SHARE_SUM_TOLERANCE: f64 = 1e-9;

/// `floor(tokens × percent / 100)`, never more than `tokens`. `percent` must
/// already be validated (finite, `0..=100`).
const fn percent_of(tokens: u64, percent: f64) -> u64 {
    let scaled = (tokens as f64 * percent / 100.0).floor();
    // The conversion saturates; `min` guards against f64 rounding above `tokens`.
    let value = crate::convert::saturating_u64_from_f64(scaled);
    if value > tokens { tokens } else { value }
}

const fn effective_tokens(total: u64, share_percent: f64, headroom_percent: f64) -> u64 {
    percent_of(percent_of(total, share_percent), 100.0 - headroom_percent)
}

/// A [`TierBudget`] broke a validation rule.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TierBudgetError {
    /// A tier share is not a finite percentage within `0.0..=100.0`.
    #[error("{tier} share {percent} percent is outside 0.0..=100.0")]
    ShareOutOfRange {
        /// The tier.
        tier: crate::Tier,
        /// The value given.
        percent: f64,
    },
    /// The three shares do not add up to 100 percent.
    #[error(
        "tier shares sum to {sum} percent (summary {summary_percent} + linked {linked_percent} + raw {raw_percent}), expected 100"
    )]
    SharesDoNotSumTo100 {
        /// SUMMARY share given.
        summary_percent: f64,
        /// LINKED share given.
        linked_percent: f64,
        /// RAW share given.
        raw_percent: f64,
        /// Their sum.
        sum: f64,
    },
    /// The headroom is not within `0.0..100.0`.
    #[error("headroom_percent {headroom_percent} is outside 0.0..100.0")]
    HeadroomOutOfRange {
        /// The value given.
        headroom_percent: f64,
    },
    /// The META overhead is larger than the whole payload.
    #[error("meta {meta} tokens exceed the payload total of {total} tokens")]
    MetaExceedsTotal {
        /// META tokens given.
        meta: u64,
        /// The payload total.
        total: u64,
    },
    /// A tier would get no tokens at all after headroom.
    #[error(
        "{tier} effective limit is 0 tokens ({percent} percent of {total} = {nominal} nominal, minus headroom)"
    )]
    TierLimitZero {
        /// The tier.
        tier: crate::Tier,
        /// The payload total.
        total: u64,
        /// The tier's share.
        percent: f64,
        /// The tier's nominal budget.
        nominal: u64,
    },
}

#[cfg(test)]
mod tests;
