//! [`PriorityScorer`]: higher caller priority scores higher, by rank.

use crate::model::ContextItem;
use crate::scorer::Scorer;
use crate::scorer::rank::rank_scores;

/// Scores by priority rank: among the `n` items with a priority, an item
/// with `r` strictly lower priorities scores `r / (n − 1)` (the highest 1.0,
/// the lowest 0.0; a lone prioritised item 1.0). Items without a priority
/// score 0.0. O(n log n).
///
/// ```
/// use budget_runtime::{Item, Scorer, scorer::PriorityScorer};
///
/// let low = Item::builder("low").tokens(1).priority(1).build()?;
/// let high = Item::builder("high").tokens(1).priority(10).build()?;
/// let none = Item::new("none", 1)?;
/// assert_eq!(PriorityScorer::new().scores(&[&low, &high, &none]), vec![0.0, 1.0, 0.0]);
/// # Ok::<(), budget_runtime::ItemError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct PriorityScorer;

impl PriorityScorer {
    /// The priority scorer.
    pub const fn new() -> Self {
        Self
    }
}

impl Scorer for PriorityScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        let keys: Vec<_> = items.iter().map(|item| item.priority()).collect();
        rank_scores(&keys, scores);
    }
}
