//! [`PromptBudget`]: one token budget for a whole agent request.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::chat::{ChatFormat, Message, Role};
use crate::compact::{
    CompactionConfig, CompactionReport, Compactor, PromptTokens, RepairReport, Summarizer,
    needs_repair, repair_tool_pairs, trim_messages,
};
use crate::prompt::context_position::ContextPosition;
use crate::prompt::error::PromptError;
use crate::prompt::fitted_prompt::{FittedPrompt, PromptReport};
use crate::prompt::prompt_budget_builder::PromptBudgetBuilder;
use crate::prompt::turn::Turn;
use budget_runtime::estimate::ContentType;
use budget_runtime::estimate::{Encoding, Estimator};
use budget_runtime::model::{ContextBudget, ContextItem, ItemView};
use budget_runtime::pipeline::{Pipeline, SelectionReport};

/// Output reserve when none is set: this many tokens, at most a quarter of
/// the window.
///
/// ```
/// assert_eq!(budget::prompt::DEFAULT_OUTPUT_RESERVE, 4_096);
/// ```
pub const DEFAULT_OUTPUT_RESERVE: u64 = 4_096;

/// The history's share, when none is set, of what the fixed parts leave.
///
/// ```
/// assert_eq!(budget::prompt::DEFAULT_HISTORY_SHARE, 0.5);
/// ```
pub const DEFAULT_HISTORY_SHARE: f64 = 0.5;

/// First line of the context message that carries pinned and retrieved
/// items, when none is set.
pub const DEFAULT_DOCUMENTS_HEADER: &str = "Context for this request (reference material):";

/// The counter a [`PromptBudget`] uses unless told otherwise: the library's
/// one [`DefaultCounter`](budget_runtime::estimate::DefaultCounter), exact
/// `o200k_base` with the `o200k` feature, else the UTF-8 length of each
/// text, a count no tokenizer with tokens of at least one byte exceeds.
///
/// ```
/// use budget::{Estimator, estimate::ContentType, prompt::default_counter};
///
/// let counter = default_counter();
/// let table = "| a | b |\n|---|---|\n| 1 | 2 |\n";
/// // The facade's default features include `o200k`.
/// use budget::estimate::{Encoding, ExactCounter, TokenCounter};
/// let exact = ExactCounter::new(Encoding::O200kBase)?;
/// assert_eq!(counter.estimate(table, ContentType::Markdown), exact.count_tokens(table));
/// assert!(counter.estimate(table, ContentType::Markdown) <= table.len() as u64);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn default_counter() -> Arc<dyn Estimator> {
    Arc::new(budget_runtime::estimate::DefaultCounter)
}

/// Joins the items of the context message.
const SEPARATOR: &str = "\n\n";

/// One budget for a whole agent request: the window, the output reserve,
/// the chat format and counter every part is counted with, the history's
/// share, how history is compacted and how retrieved items are selected.
/// [`fit`](Self::fit) turns a [`Turn`] into the messages to send;
/// [`session`](Self::session) fits the requests of one agent session so
/// that each repeats as much of the previous one as it can.
///
/// For each turn:
/// 1. The fixed parts are counted: system prompt and reply priming, tool
///    definitions ([`ChatFormat::tools_tokens`]), pinned items. If they
///    exceed `window - output_reserve`: [`PromptError::DoesNotFit`].
/// 2. The history gets `history_share` of the rest. Over it, the
///    [`Compactor`] (window = that share, measuring with the counter)
///    compacts it, and if it is still over, the oldest messages are
///    trimmed ([`trim_messages`]): a tool call never loses its results.
/// 3. The retrieved items get what is left, selected by the [`Pipeline`]
///    (default: [`RelevanceScorer`](budget_runtime::scorer::RelevanceScorer), greedy,
///    truncate on overflow), each counted with the counter.
/// 4. The request is assembled (the system prompt, then the history with
///    the context message at the [`ContextPosition`], by default before the
///    newest user message) and counted as a whole
///    ([`ChatFormat::request_tokens`]); while it exceeds the window minus
///    the reserve, the lowest-scored retrieved item is dropped, then the
///    oldest history. So `total + output_reserve <= window` holds for the
///    counter and chat format chosen, or the turn fails with the numbers.
///
/// Defaults: [`ChatFormat::openai`] for `o200k_base`, counted by
/// [`default_counter`]: exact `o200k_base` with the `o200k` feature (on by
/// default in `context-budget`), else the UTF-8 length, which never
/// undercounts any tokenizer whose tokens are at least a byte (about 4×
/// over on English); output reserve
/// [`DEFAULT_OUTPUT_RESERVE`] (at most a quarter of the window), history
/// share [`DEFAULT_HISTORY_SHARE`], [`CompactionConfig::default`].
///
/// ```
/// use budget::compact::SummaryRequest;
/// use budget::chat::{Message, ToolCall};
/// use budget::prompt::{PromptBudget, Turn};
/// use budget::chat::ToolDefinition;
/// use budget::{ContextItem, Item, compact::SummarizerError};
///
/// let budget = PromptBudget::builder(16_384).output_reserve(2_048).build()?;
/// let tools = [ToolDefinition::new("search", "Search the documentation")];
/// let history = [
///     Message::user("Why does my borrow fail?"),
///     Message::assistant_with_tool_calls("", vec![ToolCall::new("c1", "search", r#"{"q":"borrow"}"#)]),
///     Message::tool_result("c1", "E0502: cannot borrow as mutable because it is also borrowed as immutable"),
/// ];
/// let docs: Vec<Item> = (0..40)
///     .map(|i| Item::builder(format!("Doc {i}: {}", "borrowing rules ".repeat(300))).relevance(f64::from(i) / 40.0).build())
///     .collect::<Result<_, _>>()?;
/// let summarize = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok("earlier talk".into()) };
///
/// let turn = Turn::new("You are a Rust tutor.").tools(&tools).history(&history).documents(&docs);
/// let fitted = budget.fit(turn, &summarize)?;
/// let report = &fitted.report;
/// assert!(report.total_tokens + 2_048 <= 16_384);
/// assert!(!report.documents_left_out.is_empty()); // 40 × ~600 tokens do not fit
/// // the best were kept: every item left out scores below every item kept
/// let worst_kept = fitted.documents.iter().filter_map(|d| d.relevance()).fold(1.0, f64::min);
/// assert!(report.documents_left_out.iter().all(|&i| docs[i].relevance() < Some(worst_kept)));
/// assert_eq!(fitted.messages.last(), history.last());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct PromptBudget {
    pub(super) window: u64,
    pub(super) output_reserve: u64,
    pub(super) safety_margin: u64,
    pub(super) history_limit: Option<u64>,
    pub(super) context_limit: Option<u64>,
    pub(super) format: ChatFormat,
    pub(super) counter: Arc<dyn Estimator>,
    pub(super) history_share: f64,
    pub(super) compaction: CompactionConfig,
    pub(super) pipeline: Pipeline,
    pub(super) documents_header: String,
    pub(super) context_position: ContextPosition,
}

impl fmt::Debug for PromptBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PromptBudget")
            .field("window", &self.window)
            .field("output_reserve", &self.output_reserve)
            .field("safety_margin", &self.safety_margin)
            .field("history_limit", &self.history_limit)
            .field("context_limit", &self.context_limit)
            .field("format", &self.format)
            .field("history_share", &self.history_share)
            .field("compaction", &self.compaction)
            .field("pipeline", &self.pipeline)
            .field("documents_header", &self.documents_header)
            .field("context_position", &self.context_position)
            .finish_non_exhaustive()
    }
}

/// The history as fitted: messages, compaction report, messages trimmed.
struct FittedHistory<'h> {
    messages: Cow<'h, [Message]>,
    compaction: Option<CompactionReport>,
    trimmed: usize,
    /// Tool pairs repaired in a history that needed no compaction.
    repair: RepairReport,
}

impl PromptBudget {
    /// A builder for a `window`-token model.
    pub fn builder(window: u64) -> PromptBudgetBuilder {
        PromptBudgetBuilder {
            window,
            output_reserve: None,
            safety_margin: 0,
            history_limit: None,
            context_limit: None,
            format: ChatFormat::openai(Encoding::O200kBase),
            counter: default_counter(),
            history_share: DEFAULT_HISTORY_SHARE,
            compaction: CompactionConfig::default(),
            pipeline: None,
            documents_header: DEFAULT_DOCUMENTS_HEADER.to_owned(),
            context_position: ContextPosition::default(),
        }
    }

    /// A builder for the model `name` of the built-in registry
    /// ([`ModelRegistry::builtin`](crate::profile::ModelRegistry::builtin);
    /// names and aliases such as `gpt-4o`, `claude-sonnet-4-5`,
    /// `Qwen/Qwen2.5-7B-Instruct`, `llama3.1`): see
    /// [`for_profile`](Self::for_profile).
    ///
    /// ```
    /// use budget::prompt::PromptBudget;
    ///
    /// let budget = PromptBudget::for_model("gpt-4o")?.build()?;
    /// assert_eq!((budget.window(), budget.output_reserve()), (128_000, 16_384));
    /// assert!(PromptBudget::for_model("gpt-4oo").is_err()); // did you mean "gpt-4o"?
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`ProfileError::UnknownModel`](crate::profile::ProfileError::UnknownModel)
    /// with the closest name, or the tokenizer file's error.
    pub fn for_model(name: &str) -> Result<PromptBudgetBuilder, crate::profile::ProfileError> {
        let registry = crate::profile::ModelRegistry::builtin();
        Ok(Self::for_profile(registry.lookup(name)?)?)
    }

    /// A builder for `profile`: its window, its
    /// [`output_reserve`](crate::profile::ModelProfile::output_reserve), its
    /// [counter](crate::profile::ModelProfile::counter) (exact where its
    /// tokenizer is at hand, else an estimate with the profile's margin) and
    /// its chat template's [`ChatFormat`] counted with that counter.
    ///
    /// # Errors
    /// The [`TokenizerError`](budget_runtime::estimate::TokenizerError) of a tokenizer
    /// file the profile names by path.
    pub fn for_profile(
        profile: &crate::profile::ModelProfile,
    ) -> Result<PromptBudgetBuilder, budget_runtime::estimate::TokenizerError> {
        let counter = profile.counter()?;
        let format = profile.template.format(counter.counter.as_ref());
        let mut builder = Self::builder(profile.context_window)
            .output_reserve(profile.output_reserve())
            .chat_format(format);
        builder.counter = counter.counter;
        Ok(builder)
    }

    /// A builder for the terms of a budget contract: the window is
    /// `context_window`, the output reserve `max_output_tokens`, the safety
    /// margin `safety_margin_tokens`, and the history and the context
    /// message are held to `max_history_tokens` and `max_context_tokens`.
    /// The fixed parts (system prompt, tools) are measured each turn, not
    /// taken from `fixed_prompt_tokens`; a turn's
    /// [`PromptReport::terms`] says what it used, in the same terms.
    ///
    /// ```
    /// use budget::model::ContractTerms;
    /// use budget::prompt::{PromptBudget, Turn};
    /// use budget::{Item, chat::Message, compact::{SummaryRequest, SummarizerError}};
    ///
    /// let terms = ContractTerms {
    ///     fixed_prompt_tokens: 500,
    ///     max_history_tokens: 1_000,
    ///     max_context_tokens: 2_000,
    ///     max_output_tokens: 1_024,
    ///     safety_margin_tokens: 256,
    ///     context_window: 8_192,
    /// };
    /// terms.check()?;
    /// let budget = PromptBudget::from_terms(&terms).build()?;
    /// let docs: Vec<Item> = (0..50)
    ///     .map(|i| Item::builder(format!("Fact {i}. {}", "detail ".repeat(30))).relevance(0.5).build())
    ///     .collect::<Result<_, _>>()?;
    /// let history = [Message::user("What do the facts say?")];
    /// let turn = Turn::new("Answer from the facts.").history(&history).documents(&docs);
    /// let no_summaries = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { unreachable!() };
    /// let report = budget.fit(turn, &no_summaries)?.report;
    /// let used = report.terms();
    /// assert!(used.max_context_tokens <= 2_000 && used.max_history_tokens <= 1_000);
    /// assert_eq!((used.max_output_tokens, used.safety_margin_tokens), (1_024, 256));
    /// used.check()?; // what was sent fits the window with the reserve and margin
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_terms(terms: &budget_rules::ContractTerms) -> PromptBudgetBuilder {
        Self::builder(terms.context_window)
            .output_reserve(terms.max_output_tokens)
            .safety_margin_tokens(terms.safety_margin_tokens)
            .max_history_tokens(terms.max_history_tokens)
            .max_context_tokens(terms.max_context_tokens)
    }

    /// The window, in tokens.
    pub fn window(&self) -> u64 {
        self.window
    }

    /// Tokens kept free for the reply.
    pub fn output_reserve(&self) -> u64 {
        self.output_reserve
    }

    /// The chat format requests are counted with.
    pub fn chat_format(&self) -> &ChatFormat {
        &self.format
    }

    /// The counter every text is counted with.
    pub fn counter(&self) -> &dyn Estimator {
        self.counter.as_ref()
    }

    /// Fits `turn` into the window (see the type docs for the steps);
    /// `summarizer` writes the summary when the history must be compacted.
    ///
    /// # Errors
    /// [`PromptError::DoesNotFit`] when what cannot be left out exceeds
    /// the window minus the reserve; [`PromptError::Compaction`] when the
    /// summarizer fails under [`FailurePolicy::Abort`](crate::compact::FailurePolicy::Abort);
    /// [`PromptError::Selection`] when a custom pipeline fails.
    pub fn fit<'a, T, S>(
        &self,
        turn: Turn<'a, T>,
        summarizer: &S,
    ) -> Result<FittedPrompt<'a, T>, PromptError>
    where
        T: ContextItem,
        S: Summarizer + ?Sized,
    {
        let history = turn.history;
        self.fit_turn(turn, history, 1.0, summarizer)
    }

    /// [`fit`](Self::fit) with `history` in place of the turn's, shrunk (when
    /// over its share) to `shrink` of the share: below 1.0, the following
    /// turns can append before it must shrink again.
    pub(crate) fn fit_turn<'a, T, S>(
        &self,
        turn: Turn<'a, T>,
        history: &[Message],
        shrink: f64,
        summarizer: &S,
    ) -> Result<FittedPrompt<'a, T>, PromptError>
    where
        T: ContextItem,
        S: Summarizer + ?Sized,
    {
        let counter = self.counter.as_ref();
        let format = &self.format;
        // build() checked reserve + margin < window
        let available = self.window - self.output_reserve - self.safety_margin;
        let system = (!turn.system.is_empty()).then(|| Message::system(turn.system));
        let system_tokens = system
            .as_ref()
            .map_or(0, |m| format.message_tokens(m, counter));
        let system_tokens = system_tokens.saturating_add(format.reply_priming);
        let tools_tokens = format.tools_tokens(turn.tools, counter);
        let framing =
            format.message_tokens(&Message::system(self.documents_header.as_str()), counter);
        let pinned_tokens = if turn.pinned.is_empty() {
            0
        } else {
            turn.pinned.iter().fold(framing, |sum, &item| {
                sum.saturating_add(self.item_tokens(item))
            })
        };
        let fixed = system_tokens
            .saturating_add(tools_tokens)
            .saturating_add(pinned_tokens);
        let does_not_fit = |history_tokens: u64| PromptError::DoesNotFit {
            required_tokens: fixed.saturating_add(history_tokens),
            system_tokens,
            tools_tokens,
            pinned_tokens,
            history_tokens,
            available_tokens: available,
            window: self.window,
            output_reserve: self.output_reserve,
            safety_margin_tokens: self.safety_margin,
        };
        let Some(rest) = available.checked_sub(fixed) else {
            return Err(does_not_fit(0));
        };
        let history_budget =
            share_of(rest, self.history_share).min(self.history_limit.unwrap_or(u64::MAX));
        let history = self.fit_history(
            history,
            history_budget,
            share_of(history_budget, shrink),
            summarizer,
        )?;
        let mut history_messages = history.messages;
        let mut history_tokens = self.messages_tokens(&history_messages);

        // Retrieved items: what the history left, minus the context
        // message's framing if the pinned items did not already pay it.
        let context_framing = if turn.pinned.is_empty() { framing } else { 0 };
        let room = rest
            .saturating_sub(history_tokens)
            .min(
                self.context_limit
                    .map_or(u64::MAX, |limit| limit.saturating_sub(pinned_tokens)),
            )
            .saturating_sub(context_framing);
        let selection = self.select(turn.documents, room)?;
        // (input index, score) of the selected items, in placed order.
        let mut chosen: Vec<(usize, f64)> = selection
            .iter()
            .flat_map(|s| &s.included)
            .map(|i| (i.index, i.score))
            .collect();

        let mut trimmed = history.trimmed;
        loop {
            let (messages, context_at) = self.assemble(
                system.as_ref(),
                turn.pinned,
                turn.documents,
                &chosen,
                &history_messages,
            );
            let total = format.request_tokens(&messages, turn.tools, counter);
            let context_tokens = total
                .saturating_sub(system_tokens)
                .saturating_sub(tools_tokens)
                .saturating_sub(history_tokens);
            let context_over = self.context_limit.filter(|&limit| context_tokens > limit);
            if total <= available && context_over.is_none() {
                let mut left_out: Vec<usize> = selection
                    .as_ref()
                    .map(|s| s.excluded.iter().map(|e| e.index).collect())
                    .unwrap_or_default();
                left_out.extend(
                    selection
                        .iter()
                        .flat_map(|s| &s.included)
                        .filter(|i| !chosen.iter().any(|(c, _)| *c == i.index))
                        .map(|i| i.index),
                );
                let report = PromptReport {
                    window: self.window,
                    output_reserve: self.output_reserve,
                    safety_margin_tokens: self.safety_margin,
                    total_tokens: total,
                    system_tokens,
                    tools_tokens,
                    context_tokens,
                    history_tokens,
                    history_budget_tokens: history_budget,
                    compaction: history.compaction,
                    history_messages_trimmed: trimmed,
                    tool_pairs_repaired: history.repair,
                    documents_included: chosen.iter().map(|&(index, _)| index).collect(),
                    documents_left_out: left_out,
                    selection,
                    cache_breakpoint: cache_breakpoint(&messages, context_at),
                    stable_prefix: None,
                };
                return Ok(FittedPrompt {
                    history_start: usize::from(system.is_some()),
                    context_at,
                    messages,
                    documents: chosen
                        .iter()
                        .map(|&(index, _)| &turn.documents[index])
                        .collect(),
                    report,
                });
            }
            // Over: the lowest-scored retrieved item goes first, then the
            // oldest history (tool calls with their results).
            if let Some(lowest) = lowest_scored(&chosen) {
                chosen.remove(lowest);
                continue;
            }
            if let Some(max_context_tokens) = context_over {
                return Err(PromptError::ContextExceedsLimit {
                    context_tokens,
                    max_context_tokens,
                });
            }
            let excess = total - available;
            let kept = trim_messages(
                &history_messages,
                history_tokens.saturating_sub(excess),
                |m| format.message_tokens(m, counter),
            );
            let dropped = history_messages.len() - kept.len();
            if dropped == 0 || drops_newest_user_message(&history_messages, dropped) {
                return Err(does_not_fit(history_tokens));
            }
            trimmed += history_messages.len() - kept.len();
            history_messages = Cow::Owned(kept.to_vec());
            history_tokens = self.messages_tokens(&history_messages);
        }
    }

    /// An item's tokens in the context message: its content under the
    /// counter plus one separator.
    fn item_tokens(&self, item: &dyn ContextItem) -> u64 {
        let counter = self.counter.as_ref();
        counter
            .estimate(&item.content(), item.content_type())
            .saturating_add(counter.estimate(SEPARATOR, ContentType::Prose))
    }

    /// The messages' tokens under the chat format (no reply priming).
    fn messages_tokens(&self, messages: &[Message]) -> u64 {
        messages.iter().fold(0u64, |sum, m| {
            sum.saturating_add(self.format.message_tokens(m, self.counter.as_ref()))
        })
    }

    /// `history` within `limit`: unchanged if it fits, else compacted and,
    /// if still over, trimmed, to `budget` (at most `limit`).
    fn fit_history<'h, S: Summarizer + ?Sized>(
        &self,
        history: &'h [Message],
        limit: u64,
        budget: u64,
        summarizer: &S,
    ) -> Result<FittedHistory<'h>, PromptError> {
        if self.messages_tokens(history) <= limit {
            // It fits as it is, but a chat API would still reject a result
            // without its call or a call without its result: repair those.
            let mut repair = RepairReport::default();
            let messages = if needs_repair(history) {
                let repaired = repair_tool_pairs(history.to_vec(), &mut repair);
                if self.messages_tokens(&repaired) <= limit {
                    Cow::Owned(repaired)
                } else {
                    // Placeholder results made it larger: trim it below.
                    return self.trim_history(Cow::Owned(repaired), budget, None, repair);
                }
            } else {
                Cow::Borrowed(history)
            };
            return Ok(FittedHistory {
                messages,
                compaction: None,
                trimmed: 0,
                repair,
            });
        }
        let mut config = self.compaction.clone();
        config.context.max_tokens = Some(budget);
        // The newest user message and what follows it are never summarized:
        // the request must carry the question it answers.
        if let Some(newest_user) = history.iter().rposition(|m| m.role == Role::User) {
            let tail = history.len() - newest_user;
            config.compression.min_tail_messages = config.compression.min_tail_messages.max(tail);
        }
        // One per-message overhead model: the chat format's framing (and
        // its role, one token in every supported tokenizer).
        config.compression.per_message_overhead_tokens =
            self.format.per_message + u64::from(self.format.role_text);
        let (messages, compaction) = match Compactor::new(&config, None) {
            Ok(compactor) => {
                let compacted = compactor
                    .with_shared_estimator(Arc::clone(&self.counter))
                    .compact(history, PromptTokens::Estimate, summarizer)
                    .map_err(PromptError::Compaction)?;
                (compacted.messages, Some(compacted.report))
            }
            Err(error) => {
                tracing::warn!(%error, budget, "history share too small to compact; trimming the oldest messages instead");
                (Cow::Borrowed(history), None)
            }
        };
        self.trim_history(messages, budget, compaction, RepairReport::default())
    }

    /// The newest messages of `messages` that fit `budget`, never separating
    /// a tool call from its results and never dropping the newest user
    /// message: the share bounds the older messages only. Whether the
    /// newest user message fits the window is for [`fit`](Self::fit) to
    /// decide ([`PromptError::DoesNotFit`] when it cannot).
    fn trim_history<'h>(
        &self,
        messages: Cow<'h, [Message]>,
        budget: u64,
        compaction: Option<CompactionReport>,
        repair: RepairReport,
    ) -> Result<FittedHistory<'h>, PromptError> {
        let newest_user = messages.iter().rposition(|m| m.role == Role::User);
        let floor = newest_user.map_or(0, |at| self.messages_tokens(&messages[at..]));
        let kept = trim_messages(&messages, budget.max(floor), |m| {
            self.format.message_tokens(m, self.counter.as_ref())
        });
        let trimmed = messages.len() - kept.len();
        let messages = match messages {
            Cow::Borrowed(all) => Cow::Borrowed(&all[trimmed..]),
            Cow::Owned(mut all) => Cow::Owned(all.split_off(trimmed)),
        };
        Ok(FittedHistory {
            messages,
            compaction,
            trimmed,
            repair,
        })
    }

    /// The pipeline's selection of the retrieved items that fit `room`
    /// tokens (`None` without items).
    fn select<T: ContextItem>(
        &self,
        documents: &[T],
        room: u64,
    ) -> Result<Option<SelectionReport>, PromptError> {
        if documents.is_empty() {
            return Ok(None);
        }
        // Each item counted with the budget's counter, never pinned: pinned
        // items have their own place in the turn.
        let views: Vec<ItemView<'_>> = documents
            .iter()
            .map(|item| ItemView {
                inner: item,
                tokens: self.item_tokens(item),
                pinned: false,
            })
            .collect();
        let budget = ContextBudget::new(room, room).map_err(PromptError::Budget)?;
        let selection = self
            .pipeline
            .run(&views, &budget)
            .map_err(PromptError::Selection)?;
        Ok(Some(selection.report().clone()))
    }

    /// The system message, then the history with the context message at
    /// the budget's [`ContextPosition`], and where the context message is.
    fn assemble<T: ContextItem>(
        &self,
        system: Option<&Message>,
        pinned: &[&dyn ContextItem],
        documents: &[T],
        chosen: &[(usize, f64)],
        history: &[Message],
    ) -> (Vec<Message>, Option<usize>) {
        let mut messages = Vec::with_capacity(history.len() + 2);
        messages.extend(system.cloned());
        let context = (!pinned.is_empty() || !chosen.is_empty()).then(|| {
            let mut text = self.documents_header.clone();
            let contents = pinned
                .iter()
                .map(|item| item.content())
                .chain(chosen.iter().map(|&(index, _)| documents[index].content()));
            for content in contents {
                text.push_str(SEPARATOR);
                text.push_str(&content);
            }
            Message::system(text)
        });
        let split = match self.context_position {
            ContextPosition::AfterSystem => 0,
            ContextPosition::BeforeLatestUser => history
                .iter()
                .rposition(|m| m.role == Role::User)
                .unwrap_or(history.len()),
        };
        messages.extend_from_slice(&history[..split]);
        let context_at = context.map(|message| {
            messages.push(message);
            messages.len() - 1
        });
        messages.extend_from_slice(&history[split..]);
        (messages, context_at)
    }
}

/// The last message of the request's part that does not depend on this
/// turn's retrieval: the one before the context message, or the last
/// message without one; `None` when the context message comes first.
fn cache_breakpoint(messages: &[Message], context_at: Option<usize>) -> Option<usize> {
    match context_at {
        Some(at) => at.checked_sub(1),
        None => messages.len().checked_sub(1),
    }
}

/// `floor(tokens × share)`, for a share within `0.0..=1.0`.
fn share_of(tokens: u64, share: f64) -> u64 {
    // Exact for every count below 2^53; larger windows do not exist.
    let scaled = (tokens as f64 * share).floor();
    if scaled >= tokens as f64 {
        tokens
    } else {
        budget_rules::convert::saturating_u64_from_f64(scaled)
    }
}

/// Position in `chosen` of the lowest score (the latest on ties).
fn lowest_scored(chosen: &[(usize, f64)]) -> Option<usize> {
    chosen
        .iter()
        .enumerate()
        .min_by(|(a, (_, x)), (b, (_, y))| x.total_cmp(y).then(b.cmp(a)))
        .map(|(pos, _)| pos)
}

/// Whether dropping the first `dropped` of `messages` drops the newest user
/// message (the kept part is a suffix: it holds the newest user message
/// exactly when it holds any).
fn drops_newest_user_message(messages: &[Message], dropped: usize) -> bool {
    let had = messages.iter().any(|m| m.role == Role::User);
    had && !messages[dropped..].iter().any(|m| m.role == Role::User)
}
