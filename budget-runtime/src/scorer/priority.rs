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
/// use budget::{Item, scorer::{PriorityScorer, Scorer}};
///
/// let low = Item::builder("low").tokens(1).priority(1).build()?;
/// let high = Item::builder("high").tokens(1).priority(10).build()?;
/// let none = Item::new("none", 1)?;
/// assert_eq!(PriorityScorer::new().scores(&[&low, &high, &none]), vec![0.0, 1.0, 0.0]);
/// # Ok::<(), budget::model::ItemError>(())
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

#[cfg(test)]
mod tests {
    use super::PriorityScorer;
    use crate::model::{ContextItem, Item};
    use crate::scorer::Scorer;

    fn score(priorities: &[Option<i64>]) -> Vec<f64> {
        let items: Vec<Item> = priorities
            .iter()
            .map(|p| {
                let builder = Item::builder("x").tokens(100);
                match p {
                    Some(p) => builder.priority(*p),
                    None => builder,
                }
                .build()
                .unwrap()
            })
            .collect();
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        PriorityScorer::new().scores(&views)
    }

    /// Vector `priority-basic`: 1, 5, 10 → 0.0, 0.5, 1.0.
    #[test]
    fn vector_priority_basic() {
        assert_eq!(score(&[Some(1), Some(5), Some(10)]), vec![0.0, 0.5, 1.0]);
    }

    /// Vector `priority-null`: 3, 7, none → 0.0, 1.0, 0.0.
    #[test]
    fn vector_priority_null() {
        assert_eq!(score(&[Some(3), Some(7), None]), vec![0.0, 1.0, 0.0]);
    }

    #[test]
    fn i64_extremes_rank_without_overflow() {
        assert_eq!(
            score(&[Some(i64::MAX), Some(i64::MIN), Some(0), Some(-1)]),
            vec![1.0, 0.0, 2.0 / 3.0, 1.0 / 3.0]
        );
    }
}
