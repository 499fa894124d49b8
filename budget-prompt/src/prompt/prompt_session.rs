//! [`PromptSession`]: the requests of one agent session, fitted so that
//! each repeats as much of the previous one as it can.

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::chat::{Message, ToolDefinition};
use crate::compact::Summarizer;
use crate::prompt::{FittedPrompt, PromptBudget, PromptError, StablePrefix, Turn};
use budget_runtime::model::ContextItem;

/// The share of its limit a history is shrunk to when it must shrink
/// (default of [`PromptSession::shrink_to`]).
pub const DEFAULT_SHRINK_TO: f64 = 0.8;

/// Fits every request of one session (an agent's calls to the model over a
/// conversation) with one [`PromptBudget`], remembering how the previous
/// request presented the history, so that consecutive requests share a
/// long prefix a provider's cache can serve:
///
/// * the context message goes where the budget puts it (by default before
///   the newest user message), so a new retrieval leaves the system prompt
///   and the older history in place;
/// * once the history has been compacted or trimmed, the next requests send
///   the same summary and the same kept messages and only append, until the
///   history outgrows its share again;
/// * when it must shrink, it shrinks to [`shrink_to`](Self::shrink_to) of
///   its share (default [`DEFAULT_SHRINK_TO`]), not just below it, so that
///   the following requests append instead of shrinking by one message
///   each time.
///
/// Every request keeps every promise of [`PromptBudget::fit`]: within the
/// window, valid tool pairs, the newest user message kept, documents in
/// relevance order. Each [`PromptReport`](crate::prompt::PromptReport) says
/// how much repeats the previous request
/// ([`stable_prefix`](crate::prompt::PromptReport::stable_prefix)) and where
/// an Anthropic request would put its cache breakpoint
/// ([`cache_breakpoint`](crate::prompt::PromptReport::cache_breakpoint)).
///
/// Pass the application's whole history every time, with the new messages
/// appended; a history that no longer starts as the session remembers
/// (another conversation, edited messages) starts the session afresh.
///
/// ```
/// use budget::chat::Message;
/// use budget::prompt::{PromptBudget, Turn};
/// use budget::compact::{SummarizerError, SummaryRequest};
///
/// let budget = PromptBudget::builder(2_048).output_reserve(256).build()?;
/// let mut session = budget.session();
/// let summarize = |r: SummaryRequest<'_>| -> Result<String, SummarizerError> {
///     Ok(format!("{} earlier messages about tides", r.messages.len()))
/// };
/// let mut history = Vec::new();
/// let mut shared = Vec::new();
/// for i in 0..40 {
///     history.push(Message::user(format!("Question {i} about the tides of the northern harbour?")));
///     let fitted = session.fit(Turn::new("You answer questions about tides.").history(&history), &summarize)?;
///     assert!(fitted.report.total_tokens + 256 <= 2_048);
///     shared.push(fitted.report.stable_prefix.unwrap().messages);
///     history.push(Message::assistant(format!("Answer {i}: the tide turns twice a day, {}", "roughly ".repeat(20))));
/// }
/// // Most requests repeat all of the previous one but the new messages.
/// assert!(shared.iter().filter(|&&n| n > 1).count() > 30);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct PromptSession<'b> {
    budget: &'b PromptBudget,
    shrink_to: f64,
    memory: Option<Memory>,
    previous: Option<Previous>,
}

/// How the session presents the application's history: `replacement`
/// stands for its first `resume` messages.
#[derive(Debug)]
struct Memory {
    resume: usize,
    /// A digest of the application's first `resume` messages, to notice a
    /// different history.
    replaced: u64,
    replacement: Vec<Message>,
}

/// The previous request, for the stable prefix.
#[derive(Debug)]
struct Previous {
    messages: Vec<Message>,
    tools: Vec<ToolDefinition>,
}

impl PromptBudget {
    /// A session of requests fitted with this budget; see [`PromptSession`].
    pub fn session(&self) -> PromptSession<'_> {
        PromptSession {
            budget: self,
            shrink_to: DEFAULT_SHRINK_TO,
            memory: None,
            previous: None,
        }
    }
}

impl<'b> PromptSession<'b> {
    /// The share (`0.0..=1.0`) of its limit the history is shrunk to when it
    /// outgrows it (default [`DEFAULT_SHRINK_TO`]): lower keeps the prefix
    /// stable for more requests, higher keeps more history in each. Values
    /// outside the range are clamped; NaN is the default.
    #[must_use]
    pub fn shrink_to(mut self, share: f64) -> Self {
        self.shrink_to = if share.is_nan() {
            DEFAULT_SHRINK_TO
        } else {
            share.clamp(0.0, 1.0)
        };
        self
    }

    /// The budget the session fits with.
    pub fn budget(&self) -> &'b PromptBudget {
        self.budget
    }

    /// Fits `turn` as [`PromptBudget::fit`] does, presenting the history as
    /// the previous request did where it can; the report's
    /// [`stable_prefix`](crate::prompt::PromptReport::stable_prefix) says
    /// how much repeats the previous request.
    ///
    /// # Errors
    /// As [`PromptBudget::fit`].
    pub fn fit<'a, T, S>(
        &mut self,
        turn: Turn<'a, T>,
        summarizer: &S,
    ) -> Result<FittedPrompt<'a, T>, PromptError>
    where
        T: ContextItem,
        S: Summarizer + ?Sized,
    {
        let history = turn.history;
        let tools = turn.tools;
        let remembered = self.memory.as_ref().filter(|memory| {
            memory.resume <= history.len() && digest(&history[..memory.resume]) == memory.replaced
        });
        let presented: Vec<Message> = match remembered {
            Some(memory) => memory
                .replacement
                .iter()
                .chain(&history[memory.resume..])
                .cloned()
                .collect(),
            None => history.to_vec(),
        };
        let mut fitted = self
            .budget
            .fit_turn(turn, &presented, self.shrink_to, summarizer)?;
        let sent = fitted.history();
        self.memory = Some(remember(history, &sent));
        fitted.report.stable_prefix = Some(self.stable_prefix(&fitted.messages, tools));
        self.previous = Some(Previous {
            messages: fitted.messages.clone(),
            tools: tools.to_vec(),
        });
        Ok(fitted)
    }

    /// The leading messages (and tools) of `messages` that repeat the
    /// previous request.
    fn stable_prefix(&self, messages: &[Message], tools: &[ToolDefinition]) -> StablePrefix {
        let Some(previous) = &self.previous else {
            return StablePrefix::default();
        };
        let same = messages
            .iter()
            .zip(&previous.messages)
            .take_while(|(a, b)| a == b)
            .count();
        let format = self.budget.chat_format();
        let counter = self.budget.counter();
        let mut tokens = messages[..same]
            .iter()
            .map(|m| format.message_tokens(m, counter))
            .fold(0u64, u64::saturating_add);
        if previous.tools == tools {
            tokens = tokens.saturating_add(format.tools_tokens(tools, counter));
        }
        StablePrefix {
            messages: same,
            tokens,
        }
    }
}

/// How `sent` (the history as sent) presents `history`: the longest suffix
/// they share stays the application's own; the rest of `sent` stands for
/// the rest of `history`.
fn remember(history: &[Message], sent: &[Message]) -> Memory {
    let shared = history
        .iter()
        .rev()
        .zip(sent.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let resume = history.len() - shared;
    Memory {
        resume,
        replaced: digest(&history[..resume]),
        replacement: sent[..sent.len() - shared].to_vec(),
    }
}

/// A digest of `messages` (not a cryptographic one: it tells a history
/// from an edited one within one process).
fn digest(messages: &[Message]) -> u64 {
    let mut hasher = DefaultHasher::new();
    messages.hash(&mut hasher);
    hasher.finish()
}
