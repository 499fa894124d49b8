//! Slicers: each picks, from score-sorted candidates, what fits the budget
//! (one file per slicer).
//!
//! | Slicer | Selects | Cost |
//! |---|---|---|
//! | [`GreedySlicer`] | by score per token | O(n log n) |
//! | [`KnapsackSlicer`] | the best total score (0/1 knapsack) | O(n × capacity) |
//! | [`QuotaSlicer`] | per-kind token shares, then an inner slicer | O(n log n) + inner |
//! | [`CountQuotaSlicer`] | per-kind item counts, then an inner slicer | O(n log n) + inner |
//! | [`CountConstrainedKnapsackSlicer`] | per-kind item counts, then a knapsack | O(n log n + n × capacity) |

mod count_constrained_knapsack;
mod count_policy;
mod count_quota;
mod delegate;
mod error;
mod greedy;
mod knapsack;
mod quota;
#[cfg(test)]
mod test_support;

pub use count_constrained_knapsack::CountConstrainedKnapsackSlicer;
pub use count_policy::{CountQuotaEntry, ScarcityBehavior};
pub use count_quota::CountQuotaSlicer;
pub use error::SlicerError;
pub use greedy::GreedySlicer;
pub use knapsack::KnapsackSlicer;
pub use quota::{QuotaEntry, QuotaSlicer};

use std::fmt::Debug;

use crate::model::{ContextKind, EffectiveBudget, ScoredItem};

/// What a slicer selected, by position in the sorted candidate list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SliceOutcome {
    /// Positions in `sorted` of the selected candidates, in the slicer's
    /// selection order (greedy: by density; knapsack: zero-token items, then
    /// the solution in reverse candidate order). Wrapping slicers that cap
    /// counts consume them in this order.
    pub selected: Vec<usize>,
    /// Positions of candidates a count cap excluded (count-quota slicers).
    pub cap_excluded: Vec<usize>,
    /// Kinds whose required count could not be met (count-quota slicers).
    pub shortfalls: Vec<CountShortfall>,
}

impl SliceOutcome {
    /// An outcome that selects `selected` and reports nothing else.
    pub fn selected(selected: Vec<usize>) -> Self {
        Self {
            selected,
            ..Self::default()
        }
    }
}

/// A kind whose required item count could not be met.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CountShortfall {
    /// The kind.
    pub kind: ContextKind,
    /// Items required.
    pub required: usize,
    /// Items that could be selected.
    pub satisfied: usize,
}

/// Selects candidates within a token budget.
///
/// `sorted` is in score-descending order (ties by input order). `budget` is
/// the effective budget (pinned items and the output reserve already taken
/// out). The slicer must keep the selected tokens within
/// `budget.target_tokens`, never reorder (the placer decides order), and
/// never select a position twice.
///
/// ```
/// use budget::{Item, slicer::{GreedySlicer, Slicer}, model::{EffectiveBudget, ScoredItem}};
///
/// let (a, b) = (Item::new("a", 60)?, Item::new("b", 60)?);
/// let sorted = [
///     ScoredItem::new(&a, 0, 0.9),
///     ScoredItem::new(&b, 1, 0.5),
/// ];
/// let budget = EffectiveBudget { max_tokens: 100, target_tokens: 100 };
/// let outcome = GreedySlicer::new().slice(&sorted, budget)?;
/// assert_eq!(outcome.selected, vec![0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Slicer: Send + Sync + Debug {
    /// The selection for `sorted` under `budget`.
    ///
    /// # Errors
    /// A [`SlicerError`] when the input cannot be sliced as configured (for
    /// example an unmet count requirement under [`ScarcityBehavior::Throw`]).
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        budget: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError>;

    /// Whether this slicer optimises globally over all candidates (a
    /// knapsack), so that its selection order carries no ranking.
    /// [`CountQuotaSlicer`] refuses such inner slicers. Default `false`.
    fn optimizes_globally(&self) -> bool {
        false
    }
}

impl<S: Slicer + ?Sized> Slicer for Box<S> {
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        budget: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError> {
        (**self).slice(sorted, budget)
    }

    fn optimizes_globally(&self) -> bool {
        (**self).optimizes_globally()
    }
}
