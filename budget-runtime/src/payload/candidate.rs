//! [`Candidate`]: an item offered to the payload assembler, with its score.

use std::cmp::Ordering;

use crate::model::ContextItem;
use crate::pipeline::Selection;

/// An item offered to a hybrid payload, with the score that ranks it and
/// its token count.
///
/// The score is whatever ranks the items for this payload, higher is more
/// relevant: a pipeline score ([`Candidate::from_selection`]), the item's own
/// [`relevance`](ContextItem::relevance) ([`Candidate::from_relevance`]), or
/// any number the caller computes. Items are **ranked** by score descending;
/// equal scores rank by position (earlier first); a NaN score ranks below
/// every number. Positions are the order of the candidate list, which is
/// also the order items are presented in within each rendered section.
///
/// `tokens` is the item's count as read once, by [`Candidate::new`] or by
/// the pipeline run a selection came from: the assembler never asks the
/// item again.
///
/// ```
/// use budget::{ContextItem, Item};
/// use budget::payload::Candidate;
///
/// let items = [
///     Item::builder("a").tokens(1).relevance(0.9).build()?,
///     Item::builder("b").tokens(1).build()?,
/// ];
/// let candidates = Candidate::from_relevance(&items);
/// assert_eq!(candidates[0].score, 0.9);
/// assert_eq!(candidates[1].score, 0.0); // no relevance
/// # Ok::<(), budget::model::ItemError>(())
/// ```
#[derive(Debug)]
pub struct Candidate<'a, T: ?Sized> {
    /// The item, borrowed from the caller.
    pub item: &'a T,
    /// Its ranking score; higher is more relevant.
    pub score: f64,
    /// Its token count ([`ContextItem::tokens`], read once).
    pub tokens: u64,
}

impl<T: ?Sized> Clone for Candidate<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Candidate<'_, T> {}

impl<'a, T: ContextItem + ?Sized> Candidate<'a, T> {
    /// A candidate with an explicit score; reads the item's token count.
    ///
    /// ```
    /// use budget::{Item, payload::Candidate};
    ///
    /// let item = Item::new("alpha", 7)?;
    /// let candidate = Candidate::new(&item, 0.5);
    /// assert_eq!((candidate.score, candidate.tokens), (0.5, 7));
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    pub fn new(item: &'a T, score: f64) -> Self {
        Self::with_tokens(item, score, item.tokens())
    }
}

impl<'a, T: ?Sized> Candidate<'a, T> {
    /// A candidate with an explicit score and token count (for example an
    /// exact count the caller already has).
    ///
    /// ```
    /// use budget::{Item, payload::Candidate};
    ///
    /// let item = Item::new("alpha", 7)?;
    /// assert_eq!(Candidate::with_tokens(&item, 0.5, 9).tokens, 9);
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    pub fn with_tokens(item: &'a T, score: f64, tokens: u64) -> Self {
        Self {
            item,
            score,
            tokens,
        }
    }
}

impl<'a, T: ContextItem> Candidate<'a, T> {
    /// The selected items of a pipeline run, in placed order, each scored
    /// with the score the pipeline's report recorded for it (pinned items
    /// score 1.0) and counted with the tokens the run read.
    ///
    /// ```
    /// use budget::{ContextBudget, ContextItem, Item, Pipeline, scorer::PriorityScorer};
    /// use budget::payload::Candidate;
    ///
    /// let items = [
    ///     Item::builder("low").tokens(10).priority(1).build()?,
    ///     Item::builder("high").tokens(10).priority(5).build()?,
    /// ];
    /// let pipeline = Pipeline::builder().scorer(PriorityScorer::new()).build();
    /// let selection = pipeline.run(&items, &ContextBudget::new(100, 100)?)?;
    /// let candidates = Candidate::from_selection(&selection);
    /// assert_eq!(candidates.len(), 2);
    /// let high = candidates.iter().find(|c| c.item.content() == "high").unwrap();
    /// let low = candidates.iter().find(|c| c.item.content() == "low").unwrap();
    /// assert!(high.score > low.score);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_selection(selection: &Selection<'a, T>) -> Vec<Self> {
        selection
            .items()
            .iter()
            .zip(selection.included())
            .map(|(&item, included)| Self::with_tokens(item, included.score, included.tokens))
            .collect()
    }

    /// Every item in `items`, in order, scored with its
    /// [`relevance`](ContextItem::relevance); items without one score 0.0.
    pub fn from_relevance(items: &'a [T]) -> Vec<Self> {
        items
            .iter()
            .map(|item| Self::new(item, item.relevance().unwrap_or(0.0)))
            .collect()
    }
}

/// The total order in which candidates compete: a greater `Rank` is more
/// relevant. Higher score first, NaN below every number, `-0.0 == 0.0`;
/// ties go to the earlier position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rank {
    score: f64,
    pub(crate) position: usize,
}

impl Rank {
    pub(crate) fn new(score: f64, position: usize) -> Self {
        // Every NaN becomes the one negative NaN, which `total_cmp` orders
        // below -inf; adding 0.0 turns -0.0 into 0.0.
        let score = if score.is_nan() {
            -f64::NAN
        } else {
            score + 0.0
        };
        Self { score, position }
    }
}

impl Ord for Rank {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then_with(|| other.position.cmp(&self.position))
    }
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Rank {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Rank {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn higher_score_ranks_higher() {
        assert!(Rank::new(0.9, 5) > Rank::new(0.1, 0));
    }

    #[test]
    fn ties_go_to_the_earlier_position() {
        assert!(Rank::new(0.5, 1) > Rank::new(0.5, 2));
        assert!(Rank::new(0.0, 1) > Rank::new(-0.0, 2));
        assert!(Rank::new(-0.0, 1) > Rank::new(0.0, 2));
    }

    #[test]
    fn nan_ranks_below_every_number() {
        assert!(Rank::new(f64::NAN, 0) < Rank::new(f64::NEG_INFINITY, 1));
        assert!(Rank::new(f64::NAN, 0) < Rank::new(-1e300, 9));
        assert!(Rank::new(f64::NAN, 0) > Rank::new(f64::NAN, 1));
    }
}
