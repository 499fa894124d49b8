//! Placers: each decides the final order of the selected items (one file per placer).

mod chronological;
mod u_shaped;

pub use chronological::ChronologicalPlacer;
pub use u_shaped::UShapedPlacer;

use std::fmt::Debug;

use crate::model::ScoredItem;

/// Orders the merged selection (pinned items first with score 1.0, then
/// sliced items in score-descending order).
///
/// Returns a permutation of `0..merged.len()`: position `k` of the result
/// names the `merged` entry that goes `k`-th in the prompt.
pub trait Placer: Send + Sync + Debug {
    /// The presentation order of `merged`.
    fn place(&self, merged: &[ScoredItem<'_>]) -> Vec<usize>;
}

impl<P: Placer + ?Sized> Placer for Box<P> {
    fn place(&self, merged: &[ScoredItem<'_>]) -> Vec<usize> {
        (**self).place(merged)
    }
}
