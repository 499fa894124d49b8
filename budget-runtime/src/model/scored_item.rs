//! [`ScoredItem`]: an item paired with its score and its place in the input.

use std::fmt;

use crate::model::ContextItem;

/// An item with its relevance score, as scorers, slicers and placers see it.
///
/// `index` is the item's position in the slice the caller passed to the
/// pipeline, so results map back to the caller's own values.
#[derive(Clone, Copy)]
pub struct ScoredItem<'a> {
    /// The item, borrowed from the caller.
    pub item: &'a dyn ContextItem,
    /// Position of the item in the caller's input.
    pub index: usize,
    /// Relevance score, conventionally in `0.0..=1.0`.
    pub score: f64,
}

impl ScoredItem<'_> {
    /// The item's token count.
    pub fn tokens(&self) -> i64 {
        self.item.tokens()
    }
}

impl fmt::Debug for ScoredItem<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScoredItem")
            .field("index", &self.index)
            .field("score", &self.score)
            .field("tokens", &self.item.tokens())
            .field("content", &self.item.content())
            .finish()
    }
}
