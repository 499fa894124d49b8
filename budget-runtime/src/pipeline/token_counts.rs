//! [`TokenCounts`]: every item's token count, read once per run.

use crate::model::ContextItem;

/// The token count of every input item, by input index, read with one call
/// to [`ContextItem::tokens`] per item at the start of a run.
///
/// Every later stage (classify, score, deduplicate, slice, groups, merge,
/// ceiling, report) and the payload assembled from the selection use these
/// figures and never ask the item again, so an implementation whose count
/// changes between calls cannot make the stages disagree (for example a
/// pinned item that counts 0 when classified and 900 when merged). A
/// refinement step that replaces estimates by exact counts for chosen items
/// belongs right after [`TokenCounts::read`]: every stage after it sees the
/// refined counts.
#[derive(Debug)]
pub(crate) struct TokenCounts {
    counts: Vec<u64>,
}

impl TokenCounts {
    /// Reads each item's count once.
    pub(crate) fn read<T: ContextItem>(items: &[T]) -> Self {
        Self {
            counts: items.iter().map(|item| item.tokens()).collect(),
        }
    }

    /// The count of the item at input `index` (tokens).
    pub(crate) fn get(&self, index: usize) -> u64 {
        self.counts[index]
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;
    use crate::model::Item;

    /// Answers 1, 2, 3, ... on successive calls to `tokens()`.
    struct Drifting {
        inner: Item,
        calls: Cell<u64>,
    }

    impl ContextItem for Drifting {
        fn content(&self) -> std::borrow::Cow<'_, str> {
            self.inner.content()
        }
        fn tokens(&self) -> u64 {
            self.calls.set(self.calls.get() + 1);
            self.calls.get()
        }
        fn kind(&self) -> &crate::model::ContextKind {
            self.inner.kind()
        }
    }

    #[test]
    fn counts_are_read_once_by_index() {
        let a = Item::new("a", u64::MAX).unwrap();
        let drifting = Drifting {
            inner: Item::new("b", 0).unwrap(),
            calls: Cell::new(0),
        };
        let counts = TokenCounts::read::<&dyn ContextItem>(&[&a, &drifting]);
        assert_eq!(counts.get(0), u64::MAX);
        assert_eq!(counts.get(1), 1);
        assert_eq!(counts.get(1), 1);
        assert_eq!(drifting.calls.get(), 1);
    }
}
