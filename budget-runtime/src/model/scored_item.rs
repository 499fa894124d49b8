//! [`ScoredItem`]: an item paired with its score, its token count and its
//! place in the input.

use std::fmt;

use crate::model::ContextItem;

/// An item with its relevance score and token count: what scorers, slicers
/// and placers see, and what a hybrid payload is offered.
///
/// `index` is the item's position in the slice the caller passed, so that
/// results map back to the caller's own values. `tokens` is the item's
/// count, read once (by [`ScoredItem::new`], or by the pipeline run a
/// selection came from) so that no stage goes back to the item for it.
///
/// Pipeline stages see items as `dyn ContextItem` (the default `T`); a
/// payload keeps the caller's type, so that it hands back `&T`.
///
/// ```
/// use budget::{ContextItem, Item, model::ScoredItem};
///
/// let item = Item::new("hello", 2)?;
/// let scored = ScoredItem::new(&item, 0, 0.5);
/// assert_eq!((scored.tokens, scored.score), (2, 0.5));
///
/// let items = [
///     Item::builder("a").tokens(1).relevance(0.9).build()?,
///     Item::builder("b").tokens(1).build()?,
/// ];
/// let offers = ScoredItem::from_relevance(&items);
/// assert_eq!((offers[0].score, offers[1].score), (0.9, 0.0)); // no relevance: 0.0
/// # Ok::<(), budget::model::ItemError>(())
/// ```
pub struct ScoredItem<'a, T: ?Sized + 'a = dyn ContextItem + 'a> {
    /// The item, borrowed from the caller.
    pub item: &'a T,
    /// Position of the item in the caller's input.
    pub index: usize,
    /// Relevance score; higher is more relevant, conventionally in
    /// `0.0..=1.0`.
    pub score: f64,
    /// The item's token count.
    pub tokens: u64,
}

impl<'a> ScoredItem<'a> {
    /// `item` at input position `index` with `score`, as pipeline stages see
    /// it; reads its token count. (An item of a concrete type:
    /// [`with_tokens`](Self::with_tokens).)
    pub fn new(item: &'a dyn ContextItem, index: usize, score: f64) -> Self {
        Self::with_tokens(item, index, score, item.tokens())
    }
}

impl<'a, T: ?Sized> ScoredItem<'a, T> {
    /// `item` at input position `index` with `score` and a token count the
    /// caller already has (an exact count, for example).
    ///
    /// ```
    /// use budget::{Item, model::ScoredItem};
    ///
    /// let item = Item::new("alpha", 7)?;
    /// assert_eq!(ScoredItem::with_tokens(&item, 0, 0.5, 9).tokens, 9);
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    pub fn with_tokens(item: &'a T, index: usize, score: f64, tokens: u64) -> Self {
        Self {
            item,
            index,
            score,
            tokens,
        }
    }

    /// The item's token count.
    pub fn tokens(&self) -> u64 {
        self.tokens
    }
}

impl<'a, T: ContextItem> ScoredItem<'a, T> {
    /// Every item of `items`, in order, scored with its
    /// [`relevance`](ContextItem::relevance); items without one score 0.0.
    pub fn from_relevance(items: &'a [T]) -> Vec<Self> {
        items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                Self::with_tokens(item, index, item.relevance().unwrap_or(0.0), item.tokens())
            })
            .collect()
    }
}

impl<T: ?Sized> Clone for ScoredItem<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for ScoredItem<'_, T> {}

impl<T: ContextItem + ?Sized> fmt::Debug for ScoredItem<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScoredItem")
            .field("index", &self.index)
            .field("score", &self.score)
            .field("tokens", &self.tokens)
            .field("content", &self.item.content())
            .finish()
    }
}
