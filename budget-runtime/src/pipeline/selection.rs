//! [`Selection`]: the result of a pipeline run, borrowing the caller's items.

use crate::pipeline::report::SelectionReport;

/// The items a pipeline run selected, in placed order, plus its report.
///
/// Items are references into the slice passed to
/// [`Pipeline::run`](crate::Pipeline::run): nothing is copied.
#[derive(Debug)]
pub struct Selection<'a, T> {
    pub(crate) items: Vec<&'a T>,
    pub(crate) report: SelectionReport,
}

impl<'a, T> Selection<'a, T> {
    /// The selected items in the order they go into the prompt.
    pub fn items(&self) -> &[&'a T] {
        &self.items
    }

    /// Why each candidate was included or excluded.
    pub fn report(&self) -> &SelectionReport {
        &self.report
    }

    /// The selected items, giving up the report.
    pub fn into_items(self) -> Vec<&'a T> {
        self.items
    }

    /// The selected items and the report.
    pub fn into_parts(self) -> (Vec<&'a T>, SelectionReport) {
        (self.items, self.report)
    }

    /// Total tokens of the selected items.
    pub fn tokens(&self) -> u64 {
        self.report.selected_tokens
    }
}
