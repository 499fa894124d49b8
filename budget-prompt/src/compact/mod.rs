//! Compaction: deciding when a conversation must shrink, and shrinking it
//! without breaking it.
//!
//! * [`Compactor`] holds the thresholds of the token-budget rules: the
//!   [`window`](Compactor::window), the [`threshold`](Compactor::threshold)
//!   (`min(max(window × ratio, 64K), window × 0.85)`) and the
//!   [`target`](Compactor::target), all in tokens, and estimates
//!   conversations at `ceil(chars / 4)` plus a per-message overhead.
//!   It keeps a head (system prompt, first messages) and a
//!   token-sized tail verbatim, never separates a tool call from its
//!   results, first replaces duplicate and large old tool outputs by
//!   one-line stubs, and if that is not enough replaces the middle by a
//!   reference-only summary from a [`Summarizer`] (or, on failure, a
//!   bounded local digest or an abort, as configured). Every change is
//!   counted in a [`CompactionReport`].
//!
//! ```
//! use budget::compact::{CompactionConfig, Compactor, PromptTokens, SummaryRequest};
//! use budget::chat::Message;
//! use budget::compact::SummarizerError;
//!
//! let compactor = Compactor::new(&CompactionConfig::default(), Some(8_000))?;
//! let short = vec![Message::system("be brief"), Message::user("hi")];
//! let toy = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok("…".into()) };
//! let out = compactor.compact(&short, PromptTokens::Estimate, &toy)?;
//! assert!(matches!(out.messages, std::borrow::Cow::Borrowed(_))); // nothing to do
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "async")]
mod async_summarizer;
mod clip;
mod compacted;
mod compactor;
mod config;
mod error;
mod fallback;
mod planner;
mod prompt_tokens;
mod reduce;
mod repair;
pub(crate) use repair::{needs_repair, repair_tool_pairs};
mod report;
mod summarizer;
mod summary_job;
mod token_budget;
mod tool_pairs;
mod trim;
mod trim_history;

#[cfg(feature = "async")]
pub use async_summarizer::AsyncSummarizer;
pub use compacted::Compacted;
pub use compactor::{Compactor, MIN_SUMMARIZER_INPUT_TOKENS};
pub use config::{CompactionConfig, CompressionSettings, ContextSettings, FailurePolicy};
pub use error::{CompactionConfigError, CompactionError};
pub use planner::CompactionPlan;
pub use prompt_tokens::PromptTokens;
pub use reduce::{Reduction, ReductionKind};
pub use report::{CompactionOutcome, CompactionReport, RepairReport, SummarySource};
pub use summarizer::{Summarizer, SummarizerError, SummaryRequest};
pub use token_budget::{
    CHARS_PER_TOKEN, DEFAULT_CONTEXT_WINDOW, MAX_WINDOW_FRACTION, MIN_THRESHOLD_TARGET_GAP,
    MINIMUM_CONTEXT_LENGTH, compaction_target, compaction_threshold,
};
pub(crate) use trim::fitting_suffix_start;
pub use trim::trim_messages;
pub use trim_history::trim_history;
