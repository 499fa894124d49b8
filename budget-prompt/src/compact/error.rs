//! The compaction errors: [`CompactionConfigError`] for a configuration,
//! [`CompactionError`] for one compaction.

use crate::compact::SummarizerError;

/// A [`CompactionConfig`](crate::compact::CompactionConfig) was rejected
/// when building a [`Compactor`](crate::compact::Compactor).
///
/// ```
/// use budget::compact::CompactionConfigError;
/// use budget::compact::{CompactionConfig, Compactor};
///
/// let mut config = CompactionConfig::default();
/// config.compression.threshold = f64::NAN;
/// let err = Compactor::new(&config, None).unwrap_err();
/// assert!(matches!(err, CompactionConfigError::ThresholdOutOfRange { .. }));
/// assert_eq!(err.to_string(), "compression.threshold must be a fraction in (0, 1], got NaN");
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CompactionConfigError {
    /// `compression.threshold` is NaN, infinite or outside `(0, 1]`.
    #[error("compression.threshold must be a fraction in (0, 1], got {value}")]
    ThresholdOutOfRange {
        /// The value given.
        value: f64,
    },
    /// `compression.target_ratio` is NaN, infinite or outside `(0, 1)`.
    #[error("compression.target_ratio must be a fraction in (0, 1), got {value}")]
    TargetRatioOutOfRange {
        /// The value given.
        value: f64,
    },
    /// The context window is 0 tokens.
    #[error("the context window must be at least 1 token, got 0")]
    ZeroWindow,
    /// The target is too close to (or above) the threshold: every
    /// compaction would be followed by another one a turn later.
    #[error(
        "compaction target {target_tokens} tokens must be at least {min_gap_tokens} tokens below the threshold of {threshold_tokens} tokens (window {available_tokens} tokens)"
    )]
    GapTooSmall {
        /// `trunc(window × target_ratio)`.
        target_tokens: u64,
        /// The compaction threshold.
        threshold_tokens: u64,
        /// The minimum gap, 10 % of the window.
        min_gap_tokens: u64,
        /// The window.
        available_tokens: u64,
    },
    /// The summary bound, `min(max_summary_tokens, target / 4)`, cannot hold
    /// the summary's header and a useful text.
    #[error(
        "the summary may use {summary_tokens} tokens, but at least {required_tokens} are needed (raise compression.max_summary_tokens or the window)"
    )]
    SummaryBudgetTooSmall {
        /// The summary bound.
        summary_tokens: u64,
        /// The least accepted.
        required_tokens: u64,
    },
    /// The summarizer's window leaves too little room for messages once the
    /// previous summary and the new one (each up to the summary bound) are
    /// taken out.
    #[error(
        "the summarizer window of {window_tokens} tokens leaves {input_tokens} tokens for messages after two summaries of {summary_tokens} tokens; at least {min_input_tokens} are needed"
    )]
    SummarizerWindowTooSmall {
        /// The summarizer's window.
        window_tokens: u64,
        /// The summary bound.
        summary_tokens: u64,
        /// What is left for messages.
        input_tokens: u64,
        /// The least accepted.
        min_input_tokens: u64,
    },
}

/// A compaction could not complete.
///
/// ```
/// use budget::{compact::{CompactionError, SummarizerError}};
/// use budget::compact::{CompactionConfig, Compactor, FailurePolicy, PromptTokens, SummaryRequest};
/// use budget::chat::Message;
///
/// let mut config = CompactionConfig::default();
/// config.compression.on_summarizer_error = FailurePolicy::Abort;
/// let messages: Vec<Message> = (0..200).map(|i| Message::user(format!("{i} {}", "x".repeat(200)))).collect();
/// let down = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Err(SummarizerError::failed("503")) };
/// let err = Compactor::new(&config, Some(8_000))?
///     .compact(&messages, PromptTokens::Estimate, &down)
///     .unwrap_err();
/// assert!(matches!(err, CompactionError::Summarizer { chunk: 1, .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CompactionError {
    /// The summarizer failed under
    /// [`FailurePolicy::Abort`](crate::compact::FailurePolicy::Abort); the
    /// conversation is unchanged.
    #[error(
        "summarization failed on request {chunk} of {chunks}; the failure policy is abort, so the conversation is unchanged"
    )]
    Summarizer {
        /// 1-based number of the failed request.
        chunk: usize,
        /// Requests the compaction needed.
        chunks: usize,
        /// What the summarizer reported.
        #[source]
        source: SummarizerError,
    },
}
