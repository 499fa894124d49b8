//! [`Selection`]: the result of a pipeline run, borrowing the caller's items.

use std::fmt;
use std::sync::OnceLock;

use crate::model::ScoredItem;
use crate::pipeline::pending_report::PendingReport;
use crate::pipeline::report::{IncludedItem, SelectionReport};

/// The items a pipeline run selected, in placed order, plus its report.
///
/// Items are references into the slice passed to
/// [`Pipeline::run`](crate::Pipeline::run): nothing is copied. The report
/// is assembled from the run's decisions the first time it is read, so a
/// caller who needs only the items does not pay for it.
pub struct Selection<'a, T> {
    pub(crate) items: Vec<&'a T>,
    pub(crate) pending: PendingReport,
    pub(crate) report: OnceLock<SelectionReport>,
}

impl<'a, T> Selection<'a, T> {
    /// The selected items in the order they go into the prompt.
    pub fn items(&self) -> &[&'a T] {
        &self.items
    }

    /// Why each candidate was included or excluded (assembled on the first
    /// call, then kept).
    pub fn report(&self) -> &SelectionReport {
        self.report.get_or_init(|| self.pending.assemble())
    }

    /// The report's `included` list, without assembling the report.
    pub(crate) fn included(&self) -> &[IncludedItem] {
        &self.pending.summary.included
    }

    /// The selected items in placed order, each with the score the report
    /// records for it (pinned items score 1.0) and the tokens the run read:
    /// the offers of a hybrid payload
    /// ([`PayloadAssembler::assemble`](crate::payload::PayloadAssembler::assemble)).
    ///
    /// ```
    /// use budget::{ContextBudget, ContextItem, Item, Pipeline, scorer::PriorityScorer};
    ///
    /// let items = [
    ///     Item::builder("low").tokens(10).priority(1).build()?,
    ///     Item::builder("high").tokens(10).priority(5).build()?,
    /// ];
    /// let pipeline = Pipeline::builder().scorer(PriorityScorer::new()).build();
    /// let selection = pipeline.run(&items, &ContextBudget::new(100, 100)?)?;
    /// let scored = selection.scored();
    /// let high = scored.iter().find(|c| c.item.content() == "high").unwrap();
    /// let low = scored.iter().find(|c| c.item.content() == "low").unwrap();
    /// assert!(high.score > low.score);
    /// assert_eq!((high.index, low.index), (1, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn scored(&self) -> Vec<ScoredItem<'a, T>> {
        self.items
            .iter()
            .zip(self.included())
            .map(|(&item, included)| {
                ScoredItem::with_tokens(item, included.index, included.score, included.tokens)
            })
            .collect()
    }

    /// The selected items, giving up the report.
    pub fn into_items(self) -> Vec<&'a T> {
        self.items
    }

    /// The selected items and the report.
    pub fn into_parts(self) -> (Vec<&'a T>, SelectionReport) {
        let report = match self.report.into_inner() {
            Some(report) => report,
            None => self.pending.into_report(),
        };
        (self.items, report)
    }

    /// Total tokens of the selected items.
    pub fn tokens(&self) -> u64 {
        self.pending.summary.selected_tokens
    }
}

impl<T: fmt::Debug> fmt::Debug for Selection<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Selection")
            .field("items", &self.items)
            .field("report", self.report())
            .finish()
    }
}
