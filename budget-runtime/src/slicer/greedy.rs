//! [`GreedySlicer`]: fill the budget by value density (score per token).

use crate::model::{EffectiveBudget, ScoredItem};
use crate::pipeline::descending_score;
use crate::slicer::{SliceOutcome, Slicer};

/// Selects by value density `score / tokens`, highest first, taking each
/// item that still fits the target and skipping (not deferring) the rest.
/// Zero-token items have the highest density and are always taken. Ties go
/// to the earlier candidate. O(n log n).
///
/// ```
/// use budget_runtime::{ContextBudget, Item, Pipeline, slicer::GreedySlicer};
///
/// let items = [Item::new("a", 60)?, Item::new("b", 60)?, Item::new("c", 30)?];
/// let pipeline = Pipeline::builder().slicer(GreedySlicer::new()).build();
/// let selection = pipeline.run(&items, &ContextBudget::new(100, 100)?)?;
/// assert_eq!(selection.report().selected_tokens, 90);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedySlicer;

impl GreedySlicer {
    /// The greedy slicer.
    pub const fn new() -> Self {
        Self
    }
}

/// Score per token; zero-token items get `f64::MAX`.
pub(crate) fn density(candidate: &ScoredItem<'_>) -> f64 {
    let tokens = candidate.tokens();
    if tokens == 0 {
        f64::MAX
    } else {
        candidate.score / tokens as f64
    }
}

impl Slicer for GreedySlicer {
    fn slice(&self, sorted: &[ScoredItem<'_>], budget: EffectiveBudget) -> SliceOutcome {
        if sorted.is_empty() || budget.target_tokens <= 0 {
            return SliceOutcome::default();
        }
        let mut order: Vec<(f64, usize)> = sorted
            .iter()
            .enumerate()
            .map(|(pos, candidate)| (density(candidate), pos))
            .collect();
        order.sort_unstable_by(|a, b| descending_score(a.0, b.0).then(a.1.cmp(&b.1)));
        let mut remaining = budget.target_tokens;
        let mut selected = Vec::new();
        for (_, pos) in order {
            let tokens = sorted[pos].tokens();
            if tokens == 0 {
                selected.push(pos);
            } else if tokens > 0 && tokens <= remaining {
                selected.push(pos);
                remaining -= tokens;
            }
        }
        SliceOutcome::selected(selected)
    }
}
