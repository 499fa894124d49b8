//! Slicers: each picks, from score-sorted candidates, what fits the budget
//! (one file per slicer).

mod greedy;

pub use greedy::GreedySlicer;

use std::fmt::Debug;

use crate::model::{ContextKind, EffectiveBudget, ScoredItem};

/// What a slicer selected, by position in the sorted candidate list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SliceOutcome {
    /// Positions in `sorted` of the selected candidates, in any order.
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
pub trait Slicer: Send + Sync + Debug {
    /// The selection for `sorted` under `budget`.
    fn slice(&self, sorted: &[ScoredItem<'_>], budget: EffectiveBudget) -> SliceOutcome;
}

impl<S: Slicer + ?Sized> Slicer for Box<S> {
    fn slice(&self, sorted: &[ScoredItem<'_>], budget: EffectiveBudget) -> SliceOutcome {
        (**self).slice(sorted, budget)
    }
}
