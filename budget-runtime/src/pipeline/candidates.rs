//! [`Candidates`]: the scoreable items between Score and Slice, as parallel
//! columns.

use crate::model::ContextItem;

/// The scoreable items in input order: each item, its input index and its
/// score, one column each, so that a stage reading one of them (the scorer
/// the items, the sort the scores) touches nothing else. Later stages refer
/// to a candidate by its position in these columns.
pub(crate) struct Candidates<'a> {
    pub items: Vec<&'a dyn ContextItem>,
    pub indices: Vec<usize>,
    pub scores: Vec<f64>,
}
