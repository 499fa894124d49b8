//! [`PendingReport`]: what a run decided, kept as it was computed, from
//! which the [`SelectionReport`] is assembled when it is first read.

use crate::pipeline::report::{ExcludedItem, SelectionReport};
use crate::pipeline::token_counts::TokenCounts;
use crate::pipeline::{PinnedLoad, descending_key};

/// The facts of one run. Most candidates are usually left out by the
/// slicer; their exclusions are not written out one by one during the run
/// but derived from the slicer's input and choice ([`SliceChoice`]) when the
/// report is assembled, so a caller who never reads the report never pays
/// for it.
#[derive(Debug)]
pub(crate) struct PendingReport {
    /// The report with every field final except `excluded`, left empty.
    pub summary: SelectionReport,
    /// Exclusions recorded before slicing (Classify, Deduplicate), in order.
    pub excluded_before_slice: Vec<ExcludedItem>,
    /// The candidates the slicer did not select.
    pub unsliced: Unsliced,
    /// Exclusions recorded after slicing (overflow, hard ceiling), in order.
    pub excluded_after_slice: Vec<ExcludedItem>,
}

/// The candidates the slicer did not select.
#[derive(Debug)]
pub(crate) enum Unsliced {
    /// Derived when the report is assembled.
    Deferred(SliceChoice),
    /// Written out during the run (atomic groups: each member excluded for
    /// its group's tokens), in the order the slicer saw them.
    Listed(Vec<ExcludedItem>),
}

impl Unsliced {
    /// Appends the exclusions, in the order the slicer saw the candidates.
    fn exclusions(&self, excluded: &mut Vec<ExcludedItem>) {
        match self {
            Self::Deferred(choice) => choice.exclusions(excluded),
            Self::Listed(listed) => excluded.extend_from_slice(listed),
        }
    }

    /// Number of exclusions.
    fn len(&self) -> usize {
        match self {
            Self::Deferred(choice) => choice.chosen.iter().filter(|&&chosen| !chosen).count(),
            Self::Listed(listed) => listed.len(),
        }
    }
}

/// The slicer's input (without atomic groups, the candidates themselves)
/// and choice: the candidates it did not select are excluded, each for its
/// tokens against what the selection left of the target.
#[derive(Debug)]
pub(crate) struct SliceChoice {
    /// Candidate positions in the order the slicer saw them (score order).
    pub order: Vec<usize>,
    /// Input index of each candidate position.
    pub indices: Vec<usize>,
    /// Score of each candidate position.
    pub scores: Vec<f64>,
    /// Token count of every input item, as the run read it.
    pub tokens: TokenCounts,
    /// Whether the slicer selected each entry of `order`.
    pub chosen: Vec<bool>,
    /// Target tokens the slicer's selection left over.
    pub available_tokens: u64,
    /// The pinned items' hold on the budget.
    pub pinned: Option<PinnedLoad>,
}

impl SliceChoice {
    /// Appends the exclusion of every candidate the slicer did not select,
    /// in the order the slicer saw them.
    fn exclusions(&self, excluded: &mut Vec<ExcludedItem>) {
        for (&pos, _) in self
            .order
            .iter()
            .zip(&self.chosen)
            .filter(|(_, chosen)| !**chosen)
        {
            let index = self.indices[pos];
            // Count-cap exclusions are reported like budget ones: the
            // specification reserves `QuotaCapExceeded` for custom stages.
            excluded.push(ExcludedItem {
                index,
                score: self.scores[pos],
                reason: PinnedLoad::exclusion(
                    self.pinned,
                    self.tokens.get(index),
                    self.available_tokens,
                ),
            });
        }
    }
}

impl PendingReport {
    /// The report: exclusions by score descending, ties in the order the
    /// run excluded them (Classify, Deduplicate, Slice, overflow, ceiling).
    pub(crate) fn assemble(&self) -> SelectionReport {
        SelectionReport {
            excluded: self.excluded(),
            ..self.summary.clone()
        }
    }

    /// [`PendingReport::assemble`], consuming the facts.
    pub(crate) fn into_report(self) -> SelectionReport {
        SelectionReport {
            excluded: self.excluded(),
            ..self.summary
        }
    }

    fn excluded(&self) -> Vec<ExcludedItem> {
        let mut excluded = Vec::with_capacity(
            self.excluded_before_slice.len()
                + self.unsliced.len()
                + self.excluded_after_slice.len(),
        );
        excluded.extend_from_slice(&self.excluded_before_slice);
        self.unsliced.exclusions(&mut excluded);
        excluded.extend_from_slice(&self.excluded_after_slice);
        // Stable and run-adaptive: the slicer's exclusions are in score
        // order already, so this is close to linear.
        excluded.sort_by_key(|e| descending_key(e.score));
        excluded
    }
}
