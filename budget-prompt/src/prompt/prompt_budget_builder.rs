//! [`PromptBudgetBuilder`]: the settings of a [`PromptBudget`], checked
//! when it is built.

use std::fmt;
use std::sync::Arc;

use crate::chat::ChatFormat;
use crate::compact::CompactionConfig;
use crate::prompt::context_position::ContextPosition;
use crate::prompt::error::PromptError;
use crate::prompt::prompt_budget::{DEFAULT_OUTPUT_RESERVE, PromptBudget};
use budget_runtime::estimate::Estimator;
use budget_runtime::pipeline::{OverflowStrategy, Pipeline};

/// Builds a [`PromptBudget`]; see [`PromptBudget::builder`].
#[must_use = "call .build() to get the budget"]
pub struct PromptBudgetBuilder {
    pub(super) window: u64,
    pub(super) output_reserve: Option<u64>,
    pub(super) safety_margin: u64,
    pub(super) history_limit: Option<u64>,
    pub(super) context_limit: Option<u64>,
    pub(super) format: ChatFormat,
    pub(super) counter: Arc<dyn Estimator>,
    pub(super) history_share: f64,
    pub(super) compaction: CompactionConfig,
    pub(super) pipeline: Option<Pipeline>,
    pub(super) documents_header: String,
    pub(super) context_position: ContextPosition,
}

impl fmt::Debug for PromptBudgetBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PromptBudgetBuilder")
            .field("window", &self.window)
            .finish_non_exhaustive()
    }
}

impl PromptBudgetBuilder {
    /// Tokens kept free for the reply (default [`DEFAULT_OUTPUT_RESERVE`],
    /// at most a quarter of the window).
    pub fn output_reserve(mut self, tokens: u64) -> Self {
        self.output_reserve = Some(tokens);
        self
    }
    /// Tokens kept free besides the output reserve, for counting error
    /// (default 0). The request is fitted to `window - output_reserve -
    /// safety_margin_tokens`.
    pub fn safety_margin_tokens(mut self, tokens: u64) -> Self {
        self.safety_margin = tokens;
        self
    }
    /// At most this many tokens of history, whatever its share allows
    /// (default: no limit besides the share).
    pub fn max_history_tokens(mut self, tokens: u64) -> Self {
        self.history_limit = Some(tokens);
        self
    }
    /// At most this many tokens for the context message (pinned and
    /// retrieved items with their framing), whatever room is left (default:
    /// no limit besides the room). Pinned items are never dropped: when
    /// they alone exceed it, the turn fails with
    /// [`PromptError::ContextExceedsLimit`].
    pub fn max_context_tokens(mut self, tokens: u64) -> Self {
        self.context_limit = Some(tokens);
        self
    }
    /// How requests are framed (default [`ChatFormat::openai`] for
    /// `o200k_base`).
    pub fn chat_format(mut self, format: ChatFormat) -> Self {
        self.format = format;
        self
    }
    /// What every text is counted with: an exact counter (every
    /// [`TokenCounter`](budget_runtime::estimate::TokenCounter) is an [`Estimator`]) or an
    /// estimator that does not undercount (default [`default_counter`](crate::prompt::default_counter)). An
    /// estimator that can undercount (such as
    /// [`NON_LATIN_SAFE_ESTIMATOR`](budget_runtime::estimate::NON_LATIN_SAFE_ESTIMATOR), up to
    /// 21% under on Markdown tables) can overflow the window; give it a
    /// [`safety_margin_tokens`](Self::safety_margin_tokens) that covers its
    /// worst case.
    pub fn counter(mut self, counter: impl Estimator + 'static) -> Self {
        self.counter = Arc::new(counter);
        self
    }
    /// The history's share (`0.0..=1.0`) of what the fixed parts leave
    /// (default [`DEFAULT_HISTORY_SHARE`](crate::prompt::DEFAULT_HISTORY_SHARE)); retrieved items get the rest and
    /// whatever the history does not use.
    pub fn history_share(mut self, share: f64) -> Self {
        self.history_share = share;
        self
    }
    /// How the history is compacted when over its share (default
    /// [`CompactionConfig::default`]; its window is set to the share).
    pub fn compaction(mut self, config: CompactionConfig) -> Self {
        self.compaction = config;
        self
    }
    /// The pipeline selecting retrieved items (default: relevance scorer,
    /// greedy slicer, chronological placer, truncation on overflow).
    pub fn pipeline(mut self, pipeline: Pipeline) -> Self {
        self.pipeline = Some(pipeline);
        self
    }
    /// The first line of the context message (default
    /// [`DEFAULT_DOCUMENTS_HEADER`](crate::prompt::DEFAULT_DOCUMENTS_HEADER)).
    pub fn documents_header(mut self, header: impl Into<String>) -> Self {
        self.documents_header = header.into();
        self
    }
    /// Where the context message goes (default
    /// [`ContextPosition::BeforeLatestUser`], which keeps the request's
    /// prefix cacheable across retrievals).
    pub fn context_position(mut self, position: ContextPosition) -> Self {
        self.context_position = position;
        self
    }

    /// The budget.
    ///
    /// # Errors
    /// [`PromptError::ReserveExceedsWindow`] when the reserve and the
    /// safety margin together are not below the window;
    /// [`PromptError::ShareOutOfRange`] for a history share that is NaN or
    /// outside `0.0..=1.0`.
    pub fn build(self) -> Result<PromptBudget, PromptError> {
        let output_reserve = self
            .output_reserve
            .unwrap_or(DEFAULT_OUTPUT_RESERVE.min(self.window / 4));
        if output_reserve.saturating_add(self.safety_margin) >= self.window {
            return Err(PromptError::ReserveExceedsWindow {
                output_reserve,
                safety_margin_tokens: self.safety_margin,
                window: self.window,
            });
        }
        if !(0.0..=1.0).contains(&self.history_share) {
            return Err(PromptError::ShareOutOfRange {
                share: self.history_share,
            });
        }
        let pipeline = self.pipeline.unwrap_or_else(|| {
            Pipeline::builder()
                .overflow_strategy(OverflowStrategy::Truncate)
                .build()
        });
        Ok(PromptBudget {
            window: self.window,
            output_reserve,
            safety_margin: self.safety_margin,
            history_limit: self.history_limit,
            context_limit: self.context_limit,
            format: self.format,
            counter: self.counter,
            history_share: self.history_share,
            compaction: self.compaction,
            pipeline,
            documents_header: self.documents_header,
            context_position: self.context_position,
        })
    }
}
