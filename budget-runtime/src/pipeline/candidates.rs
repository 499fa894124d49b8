//! [`Candidates`]: the scoreable items between Score and Slice, as parallel
//! columns.

use crate::model::{ContextItem, ScoredItem};
use crate::pipeline::token_counts::TokenCounts;

/// The scoreable items in input order: each item, its input index and its
/// score, one column each, so that a stage reading one of them (the scorer
/// the items, the sort the scores) touches nothing else. Later stages refer
/// to a candidate by its position in these columns.
pub(crate) struct Candidates<'a> {
    pub items: Vec<&'a dyn ContextItem>,
    pub indices: Vec<usize>,
    pub scores: Vec<f64>,
}

impl<'a> Candidates<'a> {
    /// The candidates at positions `order`, in that order, each with its
    /// score and the count this run read.
    pub(crate) fn in_order(&self, order: &[usize], tokens: &TokenCounts) -> Vec<ScoredItem<'a>> {
        order
            .iter()
            .map(|&pos| {
                let index = self.indices[pos];
                ScoredItem::with_tokens(self.items[pos], index, self.scores[pos], tokens.get(index))
            })
            .collect()
    }
}
