//! [`TierAssignment`]: where one item ended up in a hybrid payload, and why.

use std::fmt;

use crate::model::Tier;
use crate::payload::DemotionCause;

/// Why an item is in its final tier (or none) and not in the tier above it.
///
/// ```
/// use budget::model::Tier;
/// use budget::payload::AssignmentReason;
///
/// let r = AssignmentReason::TierFull { tier: Tier::Raw, needed: 120, available: 80 };
/// assert_eq!(r.to_string(), "RAW full: needs 120 tokens, 80 free");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "reason", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum AssignmentReason {
    /// It fitted the first tier it was offered: RAW, or the tier the item
    /// asked for with [`ContextItem::tier`](crate::ContextItem::tier) (or
    /// earned under the assembler's score thresholds).
    Fitted {
        /// The tier it was first offered.
        requested: Tier,
    },
    /// `tier` was full and its lowest-ranked item ranked at or above this
    /// one, so nothing was demoted for it. (With
    /// [`PayloadAssembler::exact_counts`](crate::payload::PayloadAssembler::exact_counts)
    /// also an item too large for the tier whose count stopped at what was
    /// free: the outcome is the same, the next tier.)
    TierFull {
        /// The full tier.
        tier: Tier,
        /// Tokens it would have cost there (with
        /// [`PayloadAssembler::exact_counts`](crate::payload::PayloadAssembler::exact_counts),
        /// at least this many: counting stops once an item is shown not to
        /// fit).
        needed: u64,
        /// Tokens that were free there.
        available: u64,
    },
    /// It costs more in `tier` than the tier's whole limit.
    TooLarge {
        /// The tier.
        tier: Tier,
        /// Tokens it would have cost there (with
        /// [`PayloadAssembler::exact_counts`](crate::payload::PayloadAssembler::exact_counts),
        /// at least this many).
        needed: u64,
        /// The tier's effective limit.
        limit: u64,
    },
    /// An item ranked at or above it had already been demoted from `tier`;
    /// admitting it would leave a lower-ranked item above a demoted one.
    RanksBelowDemoted {
        /// The tier.
        tier: Tier,
    },
    /// It was placed in `from` and later demoted.
    Demoted {
        /// The tier it left.
        from: Tier,
        /// Why.
        cause: DemotionCause,
    },
    /// It declared a negative token count
    /// ([`negative_tokens`](crate::ContextItem::negative_tokens)), which no
    /// tier can account for.
    NegativeTokens {
        /// The count.
        tokens: i64,
    },
}

impl fmt::Display for AssignmentReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::Fitted { requested } => write!(f, "fits {requested}"),
            Self::TierFull {
                tier,
                needed,
                available,
            } => write!(f, "{tier} full: needs {needed} tokens, {available} free"),
            Self::TooLarge {
                tier,
                needed,
                limit,
            } => write!(f, "too large for {tier}: {needed} tokens, limit {limit}"),
            Self::RanksBelowDemoted { tier } => {
                write!(f, "ranks below an item already demoted from {tier}")
            }
            Self::Demoted {
                from,
                cause: DemotionCause::Displaced { by },
            } => write!(f, "demoted from {from} to make room for #{by}"),
            Self::Demoted {
                from,
                cause: DemotionCause::RenderOverflow,
            } => write!(f, "demoted from {from} so the rendered payload fits"),
            Self::NegativeTokens { tokens } => write!(f, "negative token count {tokens}"),
        }
    }
}

/// Where one candidate ended up.
///
/// Every candidate has exactly one `TierAssignment`, at its position in
/// [`HybridPayload::assignments`](super::HybridPayload::assignments).
///
/// ```
/// use budget::{Item, model::Tier};
/// use budget::payload::{PayloadAssembler, AssignmentReason, TierBudget};
///
/// let items = [Item::builder("notes").tokens(3).tier(Tier::Linked).link("notes.md").build()?];
/// let payload = PayloadAssembler::new(TierBudget::with_total(20_000)?).assemble_items(&items)?;
/// let p = payload.assignments()[0];
/// assert_eq!(p.tier, Some(Tier::Linked));
/// assert_eq!(p.reason, AssignmentReason::Fitted { requested: Tier::Linked });
/// assert_eq!(p.demoted_from, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct TierAssignment<'a, T: ?Sized> {
    /// The item.
    pub item: &'a T,
    /// Its index in the candidate list.
    pub position: usize,
    /// Its ranking score.
    pub score: f64,
    /// The tier it ended in; `None` when it is in none (omitted).
    pub tier: Option<Tier>,
    /// Why it is in `tier`.
    pub reason: AssignmentReason,
    /// Tokens it costs in `tier` (0 when omitted).
    pub tokens: u64,
    /// The most detailed tier it was demoted from, if it was ever demoted.
    pub demoted_from: Option<Tier>,
}

impl<T: ?Sized> Clone for TierAssignment<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for TierAssignment<'_, T> {}
