//! [`ScoredItem`]: an item paired with its score, its token count and its
//! place in the input.

use std::fmt;

use crate::model::ContextItem;

/// An item with its relevance score, as scorers, slicers and placers see it.
///
/// `index` is the item's position in the slice the caller passed to the
/// pipeline, so results map back to the caller's own values. `tokens` is
/// the item's token count, read once by [`ScoredItem::new`] so that stages
/// working in score order do not go back to the item for it.
///
/// ```
/// use budget::{Item, model::ScoredItem};
///
/// let item = Item::new("hello", 2)?;
/// let scored = ScoredItem::new(&item, 0, 0.5);
/// assert_eq!((scored.tokens, scored.score), (2, 0.5));
/// # Ok::<(), budget::model::ItemError>(())
/// ```
#[derive(Clone, Copy)]
pub struct ScoredItem<'a> {
    /// The item, borrowed from the caller.
    pub item: &'a dyn ContextItem,
    /// Position of the item in the caller's input.
    pub index: usize,
    /// Relevance score, conventionally in `0.0..=1.0`.
    pub score: f64,
    /// The item's token count (`item.tokens()`).
    pub tokens: u64,
}

impl<'a> ScoredItem<'a> {
    /// `item` at input position `index` with `score`; reads its token count.
    pub fn new(item: &'a dyn ContextItem, index: usize, score: f64) -> Self {
        Self {
            item,
            index,
            score,
            tokens: item.tokens(),
        }
    }

    /// The item's token count.
    pub fn tokens(&self) -> u64 {
        self.tokens
    }
}

impl fmt::Debug for ScoredItem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScoredItem")
            .field("index", &self.index)
            .field("score", &self.score)
            .field("tokens", &self.tokens)
            .field("content", &self.item.content())
            .finish()
    }
}
