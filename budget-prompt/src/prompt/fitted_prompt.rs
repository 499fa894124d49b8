//! [`FittedPrompt`] and [`PromptReport`]: a turn fitted into its window,
//! and what it cost.

use budget_rules::ContractTerms;

use crate::chat::Message;
use crate::compact::{CompactionReport, RepairReport};
use budget_runtime::pipeline::SelectionReport;

/// The outcome of [`PromptBudget::fit`](crate::prompt::PromptBudget::fit):
/// the messages to send, in order, the retrieved items that made it, and
/// the report.
///
/// Messages: the system prompt, then the history (compacted or trimmed if
/// it was over its share) with one context message (pinned items, then the
/// selected retrieved items in placed order, after the budget's documents
/// header), when there is any, at the budget's
/// [`ContextPosition`](crate::prompt::ContextPosition): by default just
/// before the newest user message.
#[derive(Debug)]
pub struct FittedPrompt<'a, T> {
    /// The request's messages, in order.
    pub messages: Vec<Message>,
    /// The retrieved items included, in the order they appear.
    pub documents: Vec<&'a T>,
    /// What went in, what was compacted or left out, with the numbers.
    pub report: PromptReport,
    /// Where the history starts in `messages`.
    pub(crate) history_start: usize,
    /// Where the context message is in `messages`, if there is one.
    pub(crate) context_at: Option<usize>,
}

impl<T> FittedPrompt<'_, T> {
    /// The history as sent (compacted or trimmed): the conversation to
    /// continue from on the next turn.
    ///
    /// ```
    /// use budget::compact::SummaryRequest;
    /// use budget::chat::Message;
    /// use budget::prompt::{PromptBudget, Turn};
    /// use budget::compact::SummarizerError;
    ///
    /// let history = [Message::user("hi"), Message::assistant("hello")];
    /// let none = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok(String::new()) };
    /// let fitted = PromptBudget::builder(4_096).build()?.fit(Turn::new("Be brief.").history(&history), &none)?;
    /// assert_eq!(fitted.history(), history);
    /// assert_eq!(fitted.messages.len(), 3); // system + history
    /// # Ok::<(), budget::prompt::PromptError>(())
    /// ```
    pub fn history(&self) -> Vec<Message> {
        self.messages[self.history_start..]
            .iter()
            .enumerate()
            .filter(|&(at, _)| Some(at + self.history_start) != self.context_at)
            .map(|(_, message)| message.clone())
            .collect()
    }
}

/// How much of a request repeats the previous request of the same
/// [`PromptSession`](crate::prompt::PromptSession) byte for byte: what a
/// provider's prompt cache can serve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StablePrefix {
    /// Leading messages identical to the previous request's.
    pub messages: usize,
    /// Their tokens, plus the tool definitions' when those are unchanged
    /// (they come before the messages in every provider's prefix).
    pub tokens: u64,
}

/// What a fitted prompt costs, in tokens under the budget's counter and chat
/// format, and what was compacted or left out.
///
/// `total_tokens = system_tokens + tools_tokens + context_tokens +
/// history_tokens`, and `total_tokens + output_reserve +
/// safety_margin_tokens <= window` always: [`terms`](Self::terms) states
/// the request in a budget contract's terms, and they always pass
/// [`ContractTerms::check`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct PromptReport {
    /// The window.
    pub window: u64,
    /// Tokens kept free for the reply.
    pub output_reserve: u64,
    /// Tokens kept free besides the reply's, for counting error.
    pub safety_margin_tokens: u64,
    /// The counted request: messages, reply priming and tool definitions.
    pub total_tokens: u64,
    /// The system message and the reply priming.
    pub system_tokens: u64,
    /// The tool definitions.
    pub tools_tokens: u64,
    /// The context message (pinned and retrieved items), 0 when absent.
    pub context_tokens: u64,
    /// The history as sent.
    pub history_tokens: u64,
    /// The history's share of the window (after the fixed parts).
    pub history_budget_tokens: u64,
    /// The compaction, when the history was over its share.
    pub compaction: Option<CompactionReport>,
    /// Oldest history messages dropped after compaction to fit the share
    /// (never separating a tool call from its results).
    pub history_messages_trimmed: usize,
    /// Tool calls and results repaired in a history that fitted its share
    /// unchanged (a result without its call removed, a call without its
    /// result given a placeholder): a chat API rejects both. Compaction
    /// reports its own repairs in [`compaction`](Self::compaction).
    pub tool_pairs_repaired: RepairReport,
    /// Indices (into the turn's documents) of the retrieved items included.
    pub documents_included: Vec<usize>,
    /// Indices of the retrieved items left out: not selected, or dropped
    /// when the request was counted as a whole.
    pub documents_left_out: Vec<usize>,
    /// The pipeline's report on the retrieved items, when there were any.
    pub selection: Option<SelectionReport>,
    /// The index in the messages of the last one that does not depend on
    /// this turn's retrieval (the message before the context message, or
    /// the last message without one): where an Anthropic request puts its
    /// `cache_control` breakpoint. `None` when the context comes first.
    pub cache_breakpoint: Option<usize>,
    /// What repeats the previous request of the same session; `None` for a
    /// stateless [`fit`](crate::prompt::PromptBudget::fit).
    pub stable_prefix: Option<StablePrefix>,
}

impl PromptReport {
    /// The request as sent, in a budget contract's terms: the fixed prompt
    /// is the system message, reply priming and tool definitions; history
    /// and context are what was sent of each; output reserve, safety margin
    /// and window are the budget's. Their sum never exceeds the window.
    pub fn terms(&self) -> ContractTerms {
        ContractTerms {
            fixed_prompt_tokens: self.system_tokens.saturating_add(self.tools_tokens),
            max_history_tokens: self.history_tokens,
            max_context_tokens: self.context_tokens,
            max_output_tokens: self.output_reserve,
            safety_margin_tokens: self.safety_margin_tokens,
            context_window: self.window,
        }
    }
}
