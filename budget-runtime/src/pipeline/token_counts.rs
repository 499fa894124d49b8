//! [`TokenCounts`]: every item's token count, read once per run.

use crate::model::ContextItem;

/// The token count of every input item, by input index, read with one call
/// to [`ContextItem::tokens`] per item at the start of a run.
///
/// Every later stage (classify, score, deduplicate, slice, merge, report)
/// and the payload assembled from the selection use these figures and never
/// ask the item again, so an implementation whose count changes between
/// calls cannot make the stages disagree (for example a pinned item that
/// counts 0 when classified and 900 when merged). A refinement step that
/// replaces estimates by exact counts for chosen items belongs right after
/// [`TokenCounts::read`]: every stage after it sees the refined counts.
pub(crate) struct TokenCounts {
    counts: Vec<i64>,
}

impl TokenCounts {
    /// Reads each item's count once.
    pub(crate) fn read(items: &[&dyn ContextItem]) -> Self {
        Self {
            counts: items.iter().map(|item| item.tokens()).collect(),
        }
    }

    /// The count of the item at input `index`.
    pub(crate) fn get(&self, index: usize) -> i64 {
        self.counts[index]
    }

    /// The exact sum of every count, negative ones included.
    pub(crate) fn total(&self) -> i128 {
        self.counts.iter().map(|&tokens| i128::from(tokens)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Item;

    #[test]
    fn counts_are_read_by_index_and_summed_exactly() {
        let a = Item::new("a", i64::MAX).unwrap();
        let b = Item::new("b", i64::MAX).unwrap();
        let c = Item::new("c", -3).unwrap();
        let counts = TokenCounts::read(&[&a, &b, &c]);
        assert_eq!(counts.get(1), i64::MAX);
        assert_eq!(counts.get(2), -3);
        // 2 × (2⁶³ − 1) − 3 = 18,446,744,073,709,551,611.
        assert_eq!(counts.total(), 18_446_744_073_709_551_611);
    }
}
