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
/// use budget::{Item, scorer::{RecencyScorer, Scorer}, model::Timestamp};
///
/// let at = |s| Timestamp::from_unix_seconds(s);
/// let old = Item::builder("old").tokens(1).timestamp(at(1)).build()?;
/// let mid = Item::builder("mid").tokens(1).timestamp(at(2)).build()?;
/// let new = Item::builder("new").tokens(1).timestamp(at(3)).build()?;
/// assert_eq!(RecencyScorer::new().scores(&[&old, &mid, &new]), vec![0.0, 0.5, 1.0]);
/// # Ok::<(), budget::model::ItemError>(())
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

#[cfg(test)]
mod tests {
    use super::RecencyScorer;
    use crate::model::{ContextItem, Item, Timestamp};
    use crate::scorer::Scorer;

    fn score(timestamps: &[Option<Timestamp>]) -> Vec<f64> {
        let items: Vec<Item> = timestamps
            .iter()
            .map(|t| {
                let builder = Item::builder("x").tokens(100);
                match t {
                    Some(t) => builder.timestamp(*t),
                    None => builder,
                }
                .build()
                .unwrap()
            })
            .collect();
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        RecencyScorer::new().scores(&views)
    }

    fn date(month: u32) -> Option<Timestamp> {
        Timestamp::from_ymd_hms(2024, month, 1, 0, 0, 0)
    }

    /// Vector `recency-basic`: Jan, Jun, Dec → 0.0, 0.5, 1.0.
    #[test]
    fn vector_recency_basic() {
        assert_eq!(score(&[date(1), date(6), date(12)]), vec![0.0, 0.5, 1.0]);
    }

    /// Vector `recency-null-timestamps`: two dated (denominator 1), two not.
    #[test]
    fn vector_recency_null_timestamps() {
        assert_eq!(
            score(&[date(1), date(12), None, None]),
            vec![0.0, 1.0, 0.0, 0.0]
        );
    }

    /// Vector `recency-all-null`.
    #[test]
    fn vector_recency_all_null() {
        assert_eq!(score(&[None, None, None]), vec![0.0, 0.0, 0.0]);
    }

    /// Vector `recency-single-item`.
    #[test]
    fn vector_recency_single_item() {
        assert_eq!(
            score(&[Timestamp::from_ymd_hms(2024, 6, 15, 0, 0, 0)]),
            vec![1.0]
        );
    }

    #[test]
    fn identical_timestamps_all_score_zero() {
        assert_eq!(score(&[date(3), date(3), date(3)]), vec![0.0, 0.0, 0.0]);
    }

    #[test]
    fn extreme_timestamps() {
        let min = Some(Timestamp::from_unix_nanos(i128::MIN));
        let max = Some(Timestamp::from_unix_nanos(i128::MAX));
        assert_eq!(score(&[max, min, date(1)]), vec![1.0, 0.0, 0.5]);
    }
}
