//! The [`Summarizer`] trait and the [`SummaryRequest`] it receives.

use crate::chat::Message;

/// One call to a summarizer: fold `messages` into `previous_summary`.
///
/// ```
/// use budget::compact::SummaryRequest;
/// use budget::chat::Message;
/// let messages = [Message::user("Rename the crate.")];
/// let request = SummaryRequest::new(Some("Set up CI."), &messages, 500);
/// assert_eq!((request.chunk, request.chunks), (0, 1));
/// ```
///
/// The compactor bounds every request: the previous summary plus the
/// messages are at most the summarizer's window minus
/// `max_summary_tokens` (estimated tokens), splitting a long middle into
/// several requests that each extend the summary of the one before.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct SummaryRequest<'a> {
    /// The summary so far: of an earlier compaction, or of the previous
    /// chunk of this one. Its text only, without the reference-only header.
    pub previous_summary: Option<&'a str>,
    /// The messages to fold in, oldest first, possibly reduced (stubbed tool
    /// outputs) or clipped to fit the window.
    pub messages: &'a [Message],
    /// The summary must fit in this many estimated tokens (`ceil(chars / 4)`);
    /// longer summaries are clipped.
    pub max_summary_tokens: u64,
    /// 0-based index of this request among the requests of one compaction.
    pub chunk: usize,
    /// How many requests this compaction makes.
    pub chunks: usize,
}

/// Writes the summary that replaces the middle of a conversation, usually
/// by asking a (small) language model.
///
/// Summaries are iterative: each request carries the previous summary,
/// which the new one must preserve and extend. Returning an error (or an
/// empty summary) triggers the configured
/// [`FailurePolicy`](crate::compact::FailurePolicy).
///
/// Closures `Fn(SummaryRequest<'_>) -> Result<String, SummarizerError>`
/// are summarizers:
///
/// ```
/// use budget::compact::{Summarizer, SummaryRequest};
/// use budget::compact::SummarizerError;
///
/// let count = |req: SummaryRequest<'_>| -> Result<String, SummarizerError> {
///     Ok(format!("{}+{} messages", req.previous_summary.unwrap_or(""), req.messages.len()))
/// };
/// let req = SummaryRequest::new(None, &[], 100);
/// assert_eq!(count.summarize(req)?, "+0 messages");
/// # Ok::<(), SummarizerError>(())
/// ```
pub trait Summarizer {
    /// The new summary covering `request.previous_summary` and `request.messages`.
    ///
    /// # Errors
    /// Any failure to summarize; see [`SummarizerError::failed`].
    fn summarize(&self, request: SummaryRequest<'_>) -> Result<String, SummarizerError>;
}

impl<'a> SummaryRequest<'a> {
    /// A single request (chunk 0 of 1).
    pub fn new(
        previous_summary: Option<&'a str>,
        messages: &'a [Message],
        max_summary_tokens: u64,
    ) -> Self {
        Self {
            previous_summary,
            messages,
            max_summary_tokens,
            chunk: 0,
            chunks: 1,
        }
    }
}

impl<F> Summarizer for F
where
    F: Fn(SummaryRequest<'_>) -> Result<String, SummarizerError>,
{
    fn summarize(&self, request: SummaryRequest<'_>) -> Result<String, SummarizerError> {
        self(request)
    }
}

/// A [`Summarizer`](crate::compact::Summarizer) could not summarize.
///
/// ```
/// use budget::compact::SummarizerError;
/// let err = SummarizerError::failed("HTTP 429: rate limited");
/// assert_eq!(err.to_string(), "the summarizer failed: HTTP 429: rate limited");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SummarizerError {
    /// It returned an empty (or whitespace-only) summary.
    #[error("the summarizer returned an empty summary")]
    Empty,
    /// It failed; the cause is the source.
    #[error("the summarizer failed: {0}")]
    Failed(#[source] Box<dyn std::error::Error + Send + Sync + 'static>),
}

impl SummarizerError {
    /// A failure caused by `source` (an error, or a message as `&str`/`String`).
    pub fn failed(source: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Self {
        Self::Failed(source.into())
    }
}
