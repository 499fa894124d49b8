//! [`ContextBudget`]: the token limits a selection must respect, validated on construction.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::ContextKind;

/// A minimum number of items of one kind that a quota slicer guarantees.
///
/// ```
/// use budget::{ContextKind, model::ReservedSlot};
///
/// const TOOLS: ReservedSlot = ReservedSlot::new(ContextKind::TOOL_OUTPUT, 2);
/// assert_eq!(TOOLS.min_items, 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ReservedSlot {
    /// The kind the reservation is for.
    pub kind: ContextKind,
    /// Minimum guaranteed items of that kind (must be ≥ 0).
    pub min_items: i64,
}

impl ReservedSlot {
    /// A reservation of `min_items` items of `kind`.
    pub const fn new(kind: ContextKind, min_items: i64) -> Self {
        Self { kind, min_items }
    }
}

/// Which validation rule of a [`ContextBudget`] a set of values breaks.
///
/// The specification's rules that a value can break, plus one for
/// duplicate slot kinds. Rules 1, 2 and 4 (`max_tokens`, `target_tokens`
/// and `output_reserve` are `>= 0`) hold by type: token counts are `u64`.
/// [`ContextBudget::broken_rule`] is the single check used by the fallible
/// constructors, the `const` constructors and the `budget!` macro.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BudgetRule {
    /// Rule 3: `target_tokens <= max_tokens`.
    TargetWithinMax,
    /// Rule 5: `output_reserve <= max_tokens`.
    OutputReserveWithinMax,
    /// Rule 6: `0.0 <= estimation_safety_margin_percent <= 100.0` (NaN breaks it).
    SafetyMarginIsPercentage,
    /// Rule 7: every reserved slot count is `>= 0`.
    ReservedSlotNonNegative,
    /// Each kind has at most one reserved slot.
    ReservedSlotKindsUnique,
}

impl BudgetRule {
    /// A fixed sentence naming the rule, used where numbers cannot be
    /// formatted (panics during constant evaluation).
    pub const fn message(self) -> &'static str {
        match self {
            Self::TargetWithinMax => "invalid ContextBudget: target_tokens exceeds max_tokens",
            Self::OutputReserveWithinMax => {
                "invalid ContextBudget: output_reserve exceeds max_tokens"
            }
            Self::SafetyMarginIsPercentage => {
                "invalid ContextBudget: estimation_safety_margin_percent must be within 0.0..=100.0"
            }
            Self::ReservedSlotNonNegative => {
                "invalid ContextBudget: a reserved slot count must be >= 0"
            }
            Self::ReservedSlotKindsUnique => {
                "invalid ContextBudget: a kind has more than one reserved slot"
            }
        }
    }
}

/// The token limits for one model call (all counts in tokens).
///
/// * `max_tokens`: hard ceiling, the model's context window.
/// * `target_tokens`: soft goal the slicer aims for (`<= max_tokens`).
/// * `output_reserve`: tokens kept free for the model's answer (default 0).
/// * `reserved_slots`: minimum items per kind for quota slicing (default none).
/// * `estimation_safety_margin_percent`: head-room for estimated counts, in
///   percent of the effective budget (default 0.0).
///
/// A `ContextBudget` can only exist in a valid state: [`ContextBudget::new`]
/// and [`ContextBudget::builder`] return a typed error naming the numbers, and
/// the `const` constructors fail compilation (or panic at run time) with a
/// message naming the rule.
///
/// ```
/// use budget::{ContextBudget, model::ContextBudgetError};
///
/// const BUDGET: ContextBudget = ContextBudget::new_const(128_000, 100_000)
///     .with_output_reserve(4_096);
/// assert_eq!(BUDGET.output_reserve(), 4_096);
///
/// let err = ContextBudget::new(800, 900).unwrap_err();
/// assert_eq!(err, ContextBudgetError::TargetExceedsMax { target_tokens: 900, max_tokens: 800 });
/// assert_eq!(err.to_string(), "target_tokens 900 exceeds max_tokens 800");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ContextBudget {
    max_tokens: u64,
    target_tokens: u64,
    output_reserve: u64,
    reserved_slots: Cow<'static, [ReservedSlot]>,
    estimation_safety_margin_percent: f64,
}

/// The budget the slicer works with after pinned items and the output
/// reserve are taken out (see [`ContextBudget::effective`]). Tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EffectiveBudget {
    /// Hard ceiling for non-pinned items.
    pub max_tokens: u64,
    /// Soft goal for non-pinned items, `target_tokens <= max_tokens`.
    pub target_tokens: u64,
}

impl ContextBudget {
    /// A budget with the given ceiling and target and every other field at its default.
    ///
    /// # Errors
    /// The [`ContextBudgetError`] of the first broken rule.
    pub fn new(max_tokens: u64, target_tokens: u64) -> Result<Self, ContextBudgetError> {
        Self::builder(max_tokens, target_tokens).build()
    }

    /// A builder for a budget with optional fields.
    ///
    /// ```
    /// use budget::{ContextBudget, ContextKind};
    ///
    /// let budget = ContextBudget::builder(200_000, 128_000)
    ///     .output_reserve(4_096)
    ///     .reserved_slot(ContextKind::TOOL_OUTPUT, 2)
    ///     .safety_margin_percent(10.0)
    ///     .build()?;
    /// assert_eq!(budget.reserved_slots().len(), 1);
    /// # Ok::<(), budget::model::ContextBudgetError>(())
    /// ```
    pub fn builder(max_tokens: u64, target_tokens: u64) -> ContextBudgetBuilder {
        ContextBudgetBuilder {
            max_tokens,
            target_tokens,
            output_reserve: 0,
            reserved_slots: Vec::new(),
            estimation_safety_margin_percent: 0.0,
        }
    }

    /// A budget in `const` context with the given ceiling and target.
    ///
    /// # Panics
    /// With [`BudgetRule::message`] if a rule is broken; in a `const` item
    /// this is a compile error.
    pub const fn new_const(max_tokens: u64, target_tokens: u64) -> Self {
        let budget = Self {
            max_tokens,
            target_tokens,
            output_reserve: 0,
            reserved_slots: Cow::Borrowed(&[]),
            estimation_safety_margin_percent: 0.0,
        };
        budget.checked_const()
    }

    /// This budget with another output reserve (tokens), in `const` context.
    ///
    /// # Panics
    /// As [`ContextBudget::new_const`].
    pub const fn with_output_reserve(mut self, output_reserve: u64) -> Self {
        self.output_reserve = output_reserve;
        self.checked_const()
    }

    /// This budget with another safety margin (percent), in `const` context.
    ///
    /// # Panics
    /// As [`ContextBudget::new_const`].
    pub const fn with_safety_margin_percent(mut self, percent: f64) -> Self {
        self.estimation_safety_margin_percent = percent;
        self.checked_const()
    }

    /// This budget with the given reserved slots, in `const` context.
    ///
    /// # Panics
    /// As [`ContextBudget::new_const`].
    pub const fn with_reserved_slots(self, slots: &'static [ReservedSlot]) -> Self {
        let budget = Self {
            max_tokens: self.max_tokens,
            target_tokens: self.target_tokens,
            output_reserve: self.output_reserve,
            reserved_slots: Cow::Borrowed(slots),
            estimation_safety_margin_percent: self.estimation_safety_margin_percent,
        };
        std::mem::forget(self);
        budget.checked_const()
    }

    const fn checked_const(self) -> Self {
        let slots: &[ReservedSlot] = match &self.reserved_slots {
            Cow::Borrowed(slots) => slots,
            // Only reachable at run time: const constructors always borrow.
            Cow::Owned(slots) => slots.as_slice(),
        };
        if let Some(rule) = Self::broken_rule(
            self.max_tokens,
            self.target_tokens,
            self.output_reserve,
            self.estimation_safety_margin_percent,
            slots,
        ) {
            panic!("{}", rule.message());
        }
        self
    }

    /// The first validation rule the given values break, or `None` if they
    /// form a valid budget. Rules are checked in the specification's order.
    ///
    /// `const` code cannot hash, so here the check for duplicate slot kinds
    /// compares every pair: O(n²) in the number of slots, meant for the few
    /// slots of a budget written in code. [`ContextBudgetBuilder::build`]
    /// (and deserialization) check the same rules in the same order with a
    /// hash set, in O(n).
    #[doc(hidden)]
    pub const fn broken_rule(
        max_tokens: u64,
        target_tokens: u64,
        output_reserve: u64,
        estimation_safety_margin_percent: f64,
        reserved_slots: &[ReservedSlot],
    ) -> Option<BudgetRule> {
        if let Some(rule) = Self::broken_rule_before_duplicates(
            max_tokens,
            target_tokens,
            output_reserve,
            estimation_safety_margin_percent,
            reserved_slots,
        ) {
            return Some(rule);
        }
        if first_duplicate_slot(reserved_slots).is_some() {
            return Some(BudgetRule::ReservedSlotKindsUnique);
        }
        None
    }

    /// Every rule of [`ContextBudget::broken_rule`] but the last, the
    /// uniqueness of slot kinds.
    const fn broken_rule_before_duplicates(
        max_tokens: u64,
        target_tokens: u64,
        output_reserve: u64,
        estimation_safety_margin_percent: f64,
        reserved_slots: &[ReservedSlot],
    ) -> Option<BudgetRule> {
        if target_tokens > max_tokens {
            return Some(BudgetRule::TargetWithinMax);
        }
        if output_reserve > max_tokens {
            return Some(BudgetRule::OutputReserveWithinMax);
        }
        let margin = estimation_safety_margin_percent;
        if !(margin >= 0.0 && margin <= 100.0) {
            return Some(BudgetRule::SafetyMarginIsPercentage);
        }
        if first_negative_slot(reserved_slots).is_some() {
            return Some(BudgetRule::ReservedSlotNonNegative);
        }
        None
    }

    /// Hard ceiling, the model's context window (tokens).
    pub const fn max_tokens(&self) -> u64 {
        self.max_tokens
    }

    /// Soft goal for the selection (tokens).
    pub const fn target_tokens(&self) -> u64 {
        self.target_tokens
    }

    /// Tokens reserved for the model's output.
    pub const fn output_reserve(&self) -> u64 {
        self.output_reserve
    }

    /// Minimum items per kind, for quota slicing.
    pub fn reserved_slots(&self) -> &[ReservedSlot] {
        &self.reserved_slots
    }

    /// The reserved minimum for `kind` (case-insensitive), 0 when none is set.
    pub fn reserved_for(&self, kind: &ContextKind) -> i64 {
        self.reserved_slots
            .iter()
            .find(|slot| &slot.kind == kind)
            .map_or(0, |slot| slot.min_items)
    }

    /// Head-room for estimated counts, in percent.
    pub const fn estimation_safety_margin_percent(&self) -> f64 {
        self.estimation_safety_margin_percent
    }

    /// The budget left for non-pinned items once `pinned_tokens` are placed.
    ///
    /// ```text
    /// max    = max(0, max_tokens - output_reserve - pinned_tokens)
    /// target = min(max(0, target_tokens - pinned_tokens), max)
    /// ```
    /// then, when the safety margin `m` is non-zero, both are reduced to
    /// `floor(value × (100 − m) / 100)`. Arithmetic saturates at 0.
    ///
    /// It is a `const fn`, so a budget known at compile time has a `const`
    /// effective budget. Call it on a `static` or a `&'static` budget: a
    /// by-value copy of a `const` budget would have to be dropped, which
    /// `const` code cannot do yet.
    ///
    /// ```
    /// use budget::{ContextBudget, model::EffectiveBudget};
    ///
    /// let budget = ContextBudget::builder(1_000, 800).output_reserve(100).build()?;
    /// assert_eq!(budget.effective(300), EffectiveBudget { max_tokens: 600, target_tokens: 500 });
    /// assert_eq!(budget.effective(2_000), EffectiveBudget { max_tokens: 0, target_tokens: 0 });
    ///
    /// static BUDGET: ContextBudget =
    ///     ContextBudget::new_const(1_000, 800).with_safety_margin_percent(10.0);
    /// const EFFECTIVE: EffectiveBudget = BUDGET.effective(0);
    /// assert_eq!(EFFECTIVE, EffectiveBudget { max_tokens: 900, target_tokens: 720 });
    ///
    /// const SMALL: &ContextBudget = &ContextBudget::new_const(100, 50);
    /// const SMALL_EFFECTIVE: EffectiveBudget = SMALL.effective(20);
    /// assert_eq!(SMALL_EFFECTIVE, EffectiveBudget { max_tokens: 80, target_tokens: 30 });
    /// # Ok::<(), budget::model::ContextBudgetError>(())
    /// ```
    pub const fn effective(&self, pinned_tokens: u64) -> EffectiveBudget {
        let max = self
            .max_tokens
            .saturating_sub(self.output_reserve)
            .saturating_sub(pinned_tokens);
        let target = self.target_tokens.saturating_sub(pinned_tokens);
        let target = if target > max { max } else { target };
        EffectiveBudget {
            max_tokens: self.apply_safety_margin(max),
            target_tokens: self.apply_safety_margin(target),
        }
    }

    const fn apply_safety_margin(&self, tokens: u64) -> u64 {
        let margin = self.estimation_safety_margin_percent;
        if margin == 0.0 {
            return tokens;
        }
        let kept = crate::convert::saturating_u64_from_f64(
            (tokens as f64 * (100.0 - margin) / 100.0).floor(),
        );
        // f64 can round large counts up: never keep more than there was.
        if kept > tokens { tokens } else { kept }
    }
}

const fn first_negative_slot(slots: &[ReservedSlot]) -> Option<usize> {
    let mut i = 0;
    while i < slots.len() {
        if slots[i].min_items < 0 {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// The index of the first slot whose kind already appeared earlier, by
/// comparing every pair (for `const` code; see [`first_duplicate_slot_hashed`]).
const fn first_duplicate_slot(slots: &[ReservedSlot]) -> Option<usize> {
    let mut i = 1;
    while i < slots.len() {
        let mut j = 0;
        while j < i {
            if labels_equal_ignore_case(slots[i].kind_label(), slots[j].kind_label()) {
                return Some(i);
            }
            j += 1;
        }
        i += 1;
    }
    None
}

const fn labels_equal_ignore_case(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !a[i].eq_ignore_ascii_case(&b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// [`first_duplicate_slot`] in O(n): [`ContextKind`] hashes and compares
/// its label with ASCII case folded, the same equality as
/// `labels_equal_ignore_case`.
fn first_duplicate_slot_hashed(slots: &[ReservedSlot]) -> Option<usize> {
    let mut seen: HashSet<&ContextKind, foldhash::fast::RandomState> =
        HashSet::with_capacity_and_hasher(slots.len(), Default::default());
    slots.iter().position(|slot| !seen.insert(&slot.kind))
}

impl ReservedSlot {
    const fn kind_label(&self) -> &str {
        self.kind.as_str()
    }
}

/// Builds a [`ContextBudget`] at run time; see [`ContextBudget::builder`].
#[derive(Clone, Debug)]
#[must_use = "call .build() to get the budget"]
pub struct ContextBudgetBuilder {
    max_tokens: u64,
    target_tokens: u64,
    output_reserve: u64,
    reserved_slots: Vec<ReservedSlot>,
    estimation_safety_margin_percent: f64,
}

impl ContextBudgetBuilder {
    /// Tokens reserved for the model's output (default 0).
    pub fn output_reserve(mut self, tokens: u64) -> Self {
        self.output_reserve = tokens;
        self
    }

    /// Adds a minimum of `min_items` items of `kind`.
    pub fn reserved_slot(mut self, kind: ContextKind, min_items: i64) -> Self {
        self.reserved_slots.push(ReservedSlot { kind, min_items });
        self
    }

    /// Head-room for estimated counts, in percent (default 0.0).
    pub fn safety_margin_percent(mut self, percent: f64) -> Self {
        self.estimation_safety_margin_percent = percent;
        self
    }

    /// The validated budget, in O(n) time for `n` reserved slots.
    ///
    /// # Errors
    /// The [`ContextBudgetError`] of the first broken rule, with its numbers.
    pub fn build(self) -> Result<ContextBudget, ContextBudgetError> {
        let rule = ContextBudget::broken_rule_before_duplicates(
            self.max_tokens,
            self.target_tokens,
            self.output_reserve,
            self.estimation_safety_margin_percent,
            &self.reserved_slots,
        )
        .or_else(|| {
            first_duplicate_slot_hashed(&self.reserved_slots)
                .map(|_| BudgetRule::ReservedSlotKindsUnique)
        });
        match rule {
            None => Ok(ContextBudget {
                max_tokens: self.max_tokens,
                target_tokens: self.target_tokens,
                output_reserve: self.output_reserve,
                reserved_slots: Cow::Owned(self.reserved_slots),
                estimation_safety_margin_percent: self.estimation_safety_margin_percent,
            }),
            Some(rule) => Err(self.error_for(rule)),
        }
    }

    fn error_for(&self, rule: BudgetRule) -> ContextBudgetError {
        let slot = |index: Option<usize>| index.map(|i| self.reserved_slots[i].clone());
        match rule {
            BudgetRule::TargetWithinMax => ContextBudgetError::TargetExceedsMax {
                target_tokens: self.target_tokens,
                max_tokens: self.max_tokens,
            },
            BudgetRule::OutputReserveWithinMax => ContextBudgetError::OutputReserveExceedsMax {
                output_reserve: self.output_reserve,
                max_tokens: self.max_tokens,
            },
            BudgetRule::SafetyMarginIsPercentage => ContextBudgetError::SafetyMarginOutOfRange {
                percent: self.estimation_safety_margin_percent,
            },
            BudgetRule::ReservedSlotNonNegative => {
                let slot = slot(first_negative_slot(&self.reserved_slots))
                    .unwrap_or_else(|| ReservedSlot::new(ContextKind::MESSAGE, -1));
                ContextBudgetError::NegativeReservedSlot {
                    kind: slot.kind,
                    min_items: slot.min_items,
                }
            }
            BudgetRule::ReservedSlotKindsUnique => {
                let slot = slot(first_duplicate_slot_hashed(&self.reserved_slots))
                    .unwrap_or_else(|| ReservedSlot::new(ContextKind::MESSAGE, 0));
                ContextBudgetError::DuplicateReservedSlot { kind: slot.kind }
            }
        }
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Raw {
        max_tokens: u64,
        target_tokens: u64,
        #[serde(default)]
        output_reserve: u64,
        #[serde(default)]
        reserved_slots: Vec<ReservedSlot>,
        #[serde(default)]
        estimation_safety_margin_percent: f64,
    }

    impl serde::Serialize for ContextBudget {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            Raw {
                max_tokens: self.max_tokens,
                target_tokens: self.target_tokens,
                output_reserve: self.output_reserve,
                reserved_slots: self.reserved_slots.to_vec(),
                estimation_safety_margin_percent: self.estimation_safety_margin_percent,
            }
            .serialize(serializer)
        }
    }

    impl<'de> serde::Deserialize<'de> for ContextBudget {
        /// Deserializes and validates: an invalid budget is a deserialization error.
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let raw = Raw::deserialize(deserializer)?;
            ContextBudgetBuilder {
                max_tokens: raw.max_tokens,
                target_tokens: raw.target_tokens,
                output_reserve: raw.output_reserve,
                reserved_slots: raw.reserved_slots,
                estimation_safety_margin_percent: raw.estimation_safety_margin_percent,
            }
            .build()
            .map_err(serde::de::Error::custom)
        }
    }
}

/// A [`ContextBudget`] broke a validation rule.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ContextBudgetError {
    /// Rule 3 (rules 1, 2 and 4, non-negative counts, hold by type: `u64`).
    #[error("target_tokens {target_tokens} exceeds max_tokens {max_tokens}")]
    TargetExceedsMax {
        /// The value given.
        target_tokens: u64,
        /// The ceiling it exceeds.
        max_tokens: u64,
    },
    /// Rule 5.
    #[error("output_reserve {output_reserve} exceeds max_tokens {max_tokens}")]
    OutputReserveExceedsMax {
        /// The value given.
        output_reserve: u64,
        /// The ceiling it exceeds.
        max_tokens: u64,
    },
    /// Rule 6.
    #[error("estimation_safety_margin_percent {percent} is outside 0.0..=100.0")]
    SafetyMarginOutOfRange {
        /// The value given.
        percent: f64,
    },
    /// Rule 7.
    #[error("reserved slot for kind {kind} is negative ({min_items})")]
    NegativeReservedSlot {
        /// The kind of the slot.
        kind: ContextKind,
        /// The value given.
        min_items: i64,
    },
    /// A kind was given more than one reserved slot.
    #[error("kind {kind} has more than one reserved slot")]
    DuplicateReservedSlot {
        /// The repeated kind.
        kind: ContextKind,
    },
}

#[cfg(test)]
mod tests;
