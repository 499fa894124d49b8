//! [`SelectionReport`]: why every candidate was included or excluded.

use crate::model::{ContextKind, EffectiveBudget};
use crate::pipeline::GroupSelection;
use crate::slicer::CountShortfall;

/// Why an item made it into the selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "reason"))]
#[non_exhaustive]
pub enum InclusionReason {
    /// Selected on its score within the budget.
    Scored,
    /// Pinned: bypassed scoring and slicing.
    Pinned,
    /// Costs no tokens.
    ZeroToken,
}

/// Why an item was left out, with the numbers behind the decision.
///
/// Item references are indices into the caller's input.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "reason"))]
#[non_exhaustive]
pub enum ExclusionReason {
    /// The item did not fit in what was left of the budget (tokens).
    BudgetExceeded {
        /// The item's tokens.
        item_tokens: u64,
        /// Tokens still available when it was considered.
        available_tokens: u64,
    },
    /// Scored below a threshold (reserved: no built-in stage emits it).
    ScoredTooLow {
        /// The item's score.
        score: f64,
        /// The threshold it missed.
        threshold: f64,
    },
    /// A byte-identical item with a better score (or earlier position) was kept.
    Deduplicated {
        /// Input index of the kept item.
        deduplicated_against: usize,
    },
    /// Its kind reached a count or share cap.
    QuotaCapExceeded {
        /// The kind.
        kind: ContextKind,
        /// The cap.
        cap: i64,
        /// How many the kind would have had.
        actual: i64,
    },
    /// Displaced to satisfy another kind's requirement (reserved).
    QuotaRequireDisplaced {
        /// The kind whose requirement displaced it.
        displaced_by_kind: ContextKind,
    },
    /// The item declared a negative token count (Classify; see
    /// [`ContextItem::negative_tokens`](crate::ContextItem::negative_tokens)).
    NegativeTokens {
        /// The count, below zero.
        tokens: i64,
    },
    /// It would have fit had pinned items not taken the budget.
    PinnedOverride {
        /// Input index of the (largest) pinned item that took the budget.
        displaced_by: usize,
    },
    /// Removed by a user filter (reserved).
    Filtered {
        /// The filter's name.
        filter_name: String,
    },
}

/// An included item: its input index, score and reason.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct IncludedItem {
    /// Position in the caller's input.
    pub index: usize,
    /// Score at inclusion (1.0 for pinned items).
    pub score: f64,
    /// Its token count as the run read it, once, from
    /// [`ContextItem::tokens`](crate::ContextItem::tokens): the figure every
    /// stage used and the one a payload assembled from the selection uses.
    pub tokens: u64,
    /// Why it was included.
    pub reason: InclusionReason,
}

/// An excluded item: its input index, score and reason.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExcludedItem {
    /// Position in the caller's input.
    pub index: usize,
    /// Score at exclusion (0.0 when excluded before scoring).
    pub score: f64,
    /// Why it was excluded.
    pub reason: ExclusionReason,
}

/// The diagnostic record of one pipeline run.
///
/// `included` is in final placed order; `excluded` is by score descending,
/// ties in the order the pipeline excluded them. Every candidate appears in
/// exactly one of the two lists.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SelectionReport {
    /// Selected items in placed order.
    pub included: Vec<IncludedItem>,
    /// Items left out, best score first.
    pub excluded: Vec<ExcludedItem>,
    /// Number of candidates (`included.len() + excluded.len()`).
    pub total_candidates: usize,
    /// Sum of all candidates' tokens (exact). Signed: as the specification
    /// defines it, the declared negative counts of items excluded with
    /// [`ExclusionReason::NegativeTokens`] are added too.
    pub total_tokens_considered: i128,
    /// Tokens of the pinned items.
    pub pinned_tokens: u64,
    /// Tokens of the final selection.
    pub selected_tokens: u64,
    /// The budget the slicer worked with.
    pub effective_budget: EffectiveBudget,
    /// Tokens over `target_tokens` accepted under `OverflowStrategy::Proceed`.
    pub overflow_tokens: Option<u64>,
    /// Kinds whose required item count a count-quota slicer could not meet.
    pub shortfalls: Vec<CountShortfall>,
    /// Every atomic group that reached the slicer, and whether it was
    /// included whole (members in `included`) or left out whole (members in
    /// `excluded`); empty when no item has a [`group`](crate::ContextItem::group).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub groups: Vec<GroupSelection>,
}

impl SelectionReport {
    /// The exclusion of the item at input `index`, if it was excluded.
    pub fn exclusion_of(&self, index: usize) -> Option<&ExclusionReason> {
        self.excluded
            .iter()
            .find(|e| e.index == index)
            .map(|e| &e.reason)
    }

    /// The inclusion of the item at input `index`, if it was included.
    pub fn inclusion_of(&self, index: usize) -> Option<&IncludedItem> {
        self.included.iter().find(|i| i.index == index)
    }
}
