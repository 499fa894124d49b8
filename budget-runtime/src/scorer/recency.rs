//! [`RecencyScorer`]: newer items score higher, by rank.

use crate::model::ContextItem;
use crate::scorer::Scorer;
use crate::scorer::rank::rank_scores;

/// Scores by timestamp rank: among the `n` items with a timestamp, an item
/// with `r` strictly older items scores `r / (n − 1)` (the newest 1.0, the
/// oldest 0.0; a lone timestamped item 1.0). Items without a timestamp score
/// 0.0. O(n log n).
///
/// ```
/// use budget_runtime::{Item, Scorer, Timestamp, scorer::RecencyScorer};
///
/// let at = |s| Timestamp::from_unix_seconds(s);
/// let old = Item::builder("old").tokens(1).timestamp(at(1)).build()?;
/// let mid = Item::builder("mid").tokens(1).timestamp(at(2)).build()?;
/// let new = Item::builder("new").tokens(1).timestamp(at(3)).build()?;
/// assert_eq!(RecencyScorer::new().scores(&[&old, &mid, &new]), vec![0.0, 0.5, 1.0]);
/// # Ok::<(), budget_runtime::ItemError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct RecencyScorer;

impl RecencyScorer {
    /// The recency scorer.
    pub const fn new() -> Self {
        Self
    }
}

impl Scorer for RecencyScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        let keys: Vec<_> = items.iter().map(|item| item.timestamp()).collect();
        rank_scores(&keys, scores);
    }
}
