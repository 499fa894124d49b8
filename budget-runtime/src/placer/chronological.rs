//! [`ChronologicalPlacer`]: oldest first, undated items last.

use crate::model::ScoredItem;
use crate::placer::Placer;

/// Orders items by ascending timestamp; items without a timestamp follow in
/// their merged order; equal timestamps keep their merged order. Scores are
/// not used. O(n log n).
///
/// ```
/// use budget_runtime::{Item, placer::{ChronologicalPlacer, Placer}, model::{ScoredItem, Timestamp}};
///
/// let new = Item::builder("new").tokens(1).timestamp(Timestamp::from_unix_seconds(20)).build()?;
/// let old = Item::builder("old").tokens(1).timestamp(Timestamp::from_unix_seconds(10)).build()?;
/// let undated = Item::new("undated", 1)?;
/// let merged = [
///     ScoredItem::new(&undated, 0, 1.0),
///     ScoredItem::new(&new, 1, 0.9),
///     ScoredItem::new(&old, 2, 0.1),
/// ];
/// assert_eq!(ChronologicalPlacer::new().place(&merged), vec![2, 1, 0]);
/// # Ok::<(), budget_runtime::model::ItemError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ChronologicalPlacer;

impl ChronologicalPlacer {
    /// The chronological placer.
    pub const fn new() -> Self {
        Self
    }
}

impl Placer for ChronologicalPlacer {
    fn place(&self, merged: &[ScoredItem<'_>]) -> Vec<usize> {
        let mut keyed: Vec<_> = merged
            .iter()
            .enumerate()
            .map(|(pos, candidate)| (candidate.item.timestamp(), pos))
            .collect();
        // `None` must sort after every timestamp: compare (is_none, timestamp, pos).
        keyed.sort_unstable_by_key(|&(timestamp, pos)| (timestamp.is_none(), timestamp, pos));
        keyed.into_iter().map(|(_, pos)| pos).collect()
    }
}
