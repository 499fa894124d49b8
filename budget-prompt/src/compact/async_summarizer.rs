//! [`AsyncSummarizer`]: the [`Summarizer`](crate::compact::Summarizer)
//! contract for summarizers that await a model (feature `async`).

use std::future::Future;

use crate::compact::SummarizerError;
use crate::compact::summarizer::SummaryRequest;

/// A summarizer that awaits, for example, an HTTP call to a model. Same
/// contract as [`Summarizer`](crate::compact::Summarizer); used by
/// [`Compactor::compact_async`](crate::compact::Compactor::compact_async).
///
/// Implement it with `async fn`; the returned future must be `Send` so
/// that compaction can run on a multi-threaded executor. No runtime is
/// required by this crate.
///
/// ```
/// use budget::compact::{AsyncSummarizer, SummaryRequest};
/// use budget::compact::SummarizerError;
///
/// struct Remote;
/// impl AsyncSummarizer for Remote {
///     async fn summarize(&self, request: SummaryRequest<'_>) -> Result<String, SummarizerError> {
///         // a real implementation would await an HTTP client here
///         Ok(format!("{} messages summarized", request.messages.len()))
///     }
/// }
/// ```
pub trait AsyncSummarizer {
    /// The new summary covering `request.previous_summary` and `request.messages`.
    fn summarize(
        &self,
        request: SummaryRequest<'_>,
    ) -> impl Future<Output = Result<String, SummarizerError>> + Send;
}
