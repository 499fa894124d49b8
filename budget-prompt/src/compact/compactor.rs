//! [`Compactor`]: shrinks a conversation that crossed its threshold —
//! cheap reductions first, then a summary of the middle — and reports how.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::chat::{Message, SUMMARY_HEADER};
use crate::compact::CompactionConfigError;
use crate::compact::CompactionError;
use crate::compact::SummarizerError;
use crate::compact::compacted::Compacted;
use crate::compact::config::{CompactionConfig, CompressionSettings, FailurePolicy};
use crate::compact::planner::{CompactionPlan, PlanInputs, plan};
use crate::compact::prompt_tokens::PromptTokens;
use crate::compact::reduce::ReductionKind;
use crate::compact::repair::{needs_repair, repair_tool_pairs};
use crate::compact::report::{CompactionOutcome, CompactionReport, RepairReport, SummarySource};
use crate::compact::summarizer::Summarizer;
use crate::compact::summary_job::{JobStats, SummaryJob};
use crate::compact::token_budget::{CHARS_PER_TOKEN, TokenBudget};
use budget_runtime::estimate::{Estimator, count_chars};

/// What stands between the head and the kept tail of a compacted
/// conversation.
#[derive(Clone, Copy)]
enum Middle<'s> {
    /// The middle itself, with the cheap reductions (duplicates, stubs).
    Reduced,
    /// A summary message: the header, then this text.
    Summary(&'s str),
    /// [`OMITTED_NOTE`] in place of the middle.
    Omitted,
    /// Nothing.
    Dropped,
}

/// The message that stands for the middle when no summary fits.
const OMITTED_NOTE: &str = "[Earlier messages omitted to save context.]";

/// A summary must have room for at least this many tokens of text.
const MIN_SUMMARY_TEXT_TOKENS: u64 = 32;
/// A summarizer request must have room for at least this many tokens of
/// messages; see [`CompactionConfigError::SummarizerWindowTooSmall`].
///
/// ```
/// assert_eq!(budget::compact::MIN_SUMMARIZER_INPUT_TOKENS, 256);
/// ```
pub const MIN_SUMMARIZER_INPUT_TOKENS: u64 = 256;

/// Keeps a conversation under its window: when its size crosses its
/// [`threshold`](Self::threshold), keeps the head and a token-sized tail
/// verbatim, reduces old tool outputs, and, if that is not enough, replaces
/// the middle by a summary from a [`Summarizer`].
///
/// ```
/// use budget::compact::{CompactionConfig, CompactionOutcome, Compactor, PromptTokens, SummaryRequest};
/// use budget::chat::Message;
/// use budget::compact::SummarizerError;
///
/// let mut messages = vec![Message::system("You are a helpful assistant.")];
/// for i in 0..60 {
///     messages.push(Message::user(format!("Question {i}. {}", "Some detail. ".repeat(40))));
///     messages.push(Message::assistant(format!("Answer {i}. {}", "More detail. ".repeat(40))));
/// }
/// let toy = |req: SummaryRequest<'_>| -> Result<String, SummarizerError> {
///     Ok(format!("{} earlier messages about questions.", req.messages.len()))
/// };
/// let compactor = Compactor::new(&CompactionConfig::default(), Some(8_000))?;
/// let out = compactor.compact(&messages, PromptTokens::Estimate, &toy)?;
/// assert_eq!(out.report.outcome, CompactionOutcome::ReachedTarget);
/// assert!(out.report.tokens_after <= 1_600);
/// assert_eq!(out.messages[0], messages[0]); // the head survives
/// assert_eq!(out.messages.last(), messages.last()); // so does the tail
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Compactor {
    budget: TokenBudget,
    settings: CompressionSettings,
    summary_cap: u64,
    summarizer_input: u64,
    estimator: Option<SharedEstimator>,
}

/// The estimator a compactor measures conversations with.
#[derive(Clone)]
struct SharedEstimator(Arc<dyn Estimator>);

impl fmt::Debug for SharedEstimator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("dyn Estimator")
    }
}

/// A planned and reduced compaction.
struct Parts<'a> {
    messages: &'a [Message],
    plan: CompactionPlan,
    /// Reduced copies of the messages in `plan.head_end..plan.verbatim_start`.
    reduced: Vec<Message>,
}

/// Either finished without a summarizer, or waiting for one.
enum Step<'a> {
    Done(Compacted<'a>),
    Summarize(Parts<'a>, SummaryJob),
}

impl Compactor {
    /// A compactor for `config`, with `model_window` (tokens) as the model's
    /// window when `context.max_tokens` is not set.
    ///
    /// # Errors
    /// A threshold or target ratio out of range, a zero window, a target
    /// closer than 10% of the window to the threshold, a summary bound
    /// (`min(max_summary_tokens, target / 4)`) too small for the summary
    /// header plus 32 tokens, or a summarizer window leaving fewer than
    /// [`MIN_SUMMARIZER_INPUT_TOKENS`] for messages.
    pub fn new(
        config: &CompactionConfig,
        model_window: Option<u64>,
    ) -> Result<Self, CompactionConfigError> {
        let budget = TokenBudget::new(config, model_window)?;
        let settings = config.compression.clone();
        let summary_cap = settings
            .max_summary_tokens
            .min(budget.compaction_target() / 4);
        let required = budget
            .tokens_for(count_chars(SUMMARY_HEADER), 1)
            .saturating_add(MIN_SUMMARY_TEXT_TOKENS);
        if summary_cap < required {
            return Err(CompactionConfigError::SummaryBudgetTooSmall {
                summary_tokens: summary_cap,
                required_tokens: required,
            });
        }
        let window = settings
            .summarizer_window_tokens
            .unwrap_or(budget.available_tokens());
        let summarizer_input = window.saturating_sub(summary_cap.saturating_mul(2));
        if summarizer_input < MIN_SUMMARIZER_INPUT_TOKENS {
            return Err(CompactionConfigError::SummarizerWindowTooSmall {
                window_tokens: window,
                summary_tokens: summary_cap,
                input_tokens: summarizer_input,
                min_input_tokens: MIN_SUMMARIZER_INPUT_TOKENS,
            });
        }
        Ok(Self {
            budget,
            settings,
            summary_cap,
            summarizer_input,
            estimator: None,
        })
    }

    /// This compactor, measuring conversations with `estimator` instead of
    /// the token-budget rules' `ceil(chars / 4)`: with [`PromptTokens::Estimate`] the
    /// size that decides whether to compact, `tokens_before` and
    /// `tokens_after` are [`PromptTokens::counted`] with `estimator` (plus
    /// the per-message overhead), and the plan is converted into it as for a
    /// reported count. Use an estimator that does not undercount the
    /// conversation's scripts (`NON_LATIN_SAFE_ESTIMATOR`, the guaranteed
    /// `CalibratedEstimator::upper_bound`, or an exact counter): `chars / 4` counts Chinese at about a third of its
    /// tokens.
    ///
    /// ```
    /// use budget::{estimate::{CalibratedEstimator, Encoding}};
    /// use budget::compact::{CompactionConfig, Compactor, PromptTokens};
    /// use budget::chat::Message;
    ///
    /// let chinese = vec![Message::user("东京的天气今天晴朗，气温二十度。".repeat(800))];
    /// let ratios = Compactor::new(&CompactionConfig::default(), Some(8_000))?;
    /// let calibrated = ratios.clone().with_estimator(CalibratedEstimator::upper_bound(Encoding::O200kBase));
    /// // 12 800 characters: 3 200 + 4 tokens at chars / 4, above the 6 800 threshold in o200k_base
    /// assert!(!ratios.plan(&chinese, PromptTokens::Estimate).needed());
    /// assert!(calibrated.plan(&chinese, PromptTokens::Estimate).needed());
    /// # Ok::<(), budget::compact::CompactionConfigError>(())
    /// ```
    #[must_use]
    pub fn with_estimator(self, estimator: impl Estimator + 'static) -> Self {
        self.with_shared_estimator(Arc::new(estimator))
    }

    /// [`with_estimator`](Self::with_estimator) with an estimator shared
    /// with its owner.
    #[must_use]
    pub(crate) fn with_shared_estimator(mut self, estimator: Arc<dyn Estimator>) -> Self {
        self.estimator = Some(SharedEstimator(estimator));
        self
    }

    /// `tokens`, or with [`PromptTokens::Estimate`] and an estimator, the
    /// estimator's count of `messages`.
    fn measured(&self, messages: &[Message], tokens: PromptTokens) -> PromptTokens {
        match (&self.estimator, tokens) {
            (Some(SharedEstimator(estimator)), PromptTokens::Estimate) => PromptTokens::counted(
                messages,
                estimator.as_ref(),
                self.budget.per_message_overhead_tokens(),
            ),
            _ => tokens,
        }
    }

    /// The thresholds this compactor works with.
    #[cfg(test)]
    pub(crate) fn budget(&self) -> &TokenBudget {
        &self.budget
    }

    /// The window compaction keeps the conversation under (tokens):
    /// `context.max_tokens`, else the model window, else
    /// [`DEFAULT_CONTEXT_WINDOW`](crate::compact::DEFAULT_CONTEXT_WINDOW).
    ///
    /// ```
    /// use budget::compact::{CompactionConfig, Compactor};
    ///
    /// let compactor = Compactor::new(&CompactionConfig::default(), Some(8_000))?;
    /// assert_eq!(compactor.window(), 8_000);
    /// assert_eq!(compactor.threshold(), 6_800); // min(max(8000 × 0.5, 64K), 8000 × 0.85)
    /// assert_eq!(compactor.target(), 1_600); // 8000 × 0.2
    /// # Ok::<(), budget::compact::CompactionConfigError>(())
    /// ```
    pub const fn window(&self) -> u64 {
        self.budget.available_tokens()
    }

    /// The size above which a conversation needs compaction (tokens):
    /// `min(max(window × threshold, 64K), window × 0.85)`
    /// ([`compaction_threshold`](crate::compact::compaction_threshold)).
    pub const fn threshold(&self) -> u64 {
        self.budget.compaction_threshold()
    }

    /// The size compaction aims for (tokens): `window × target_ratio`.
    pub const fn target(&self) -> u64 {
        self.budget.compaction_target()
    }

    /// The token-budget rules' estimate of `messages` (tokens):
    /// `ceil(chars / 4)` plus the per-message overhead for each message.
    /// What [`needs_compaction`](Self::needs_compaction) and the report's
    /// figures are measured with, unless the compactor has its own
    /// estimator ([`with_estimator`](Self::with_estimator)).
    pub fn estimate_tokens(&self, messages: &[Message]) -> u64 {
        self.budget.estimate_tokens(messages)
    }

    /// Whether `messages`, at their [`estimate`](Self::estimate_tokens),
    /// are over the threshold (never when compression is disabled).
    ///
    /// ```
    /// use budget::{chat::Message, compact::{CompactionConfig, Compactor}};
    ///
    /// let compactor = Compactor::new(&CompactionConfig::default(), Some(8_000))?;
    /// assert!(!compactor.needs_compaction(&[Message::user("hi")]));
    /// assert!(compactor.needs_compaction(&[Message::user("x".repeat(40_000))]));
    /// # Ok::<(), budget::compact::CompactionConfigError>(())
    /// ```
    pub fn needs_compaction(&self, messages: &[Message]) -> bool {
        self.budget.needs_compaction(messages)
    }

    /// Whether a conversation of `prompt_tokens` is over the threshold
    /// (never when compression is disabled).
    pub const fn needs_compaction_at(&self, prompt_tokens: u64) -> bool {
        self.budget.needs_compaction_at(prompt_tokens)
    }

    /// The plan for `messages`, without changing anything: O(n) in messages
    /// and characters. Computed whether or not compaction is needed.
    pub fn plan(&self, messages: &[Message], tokens: PromptTokens) -> CompactionPlan {
        let inputs = PlanInputs {
            budget: &self.budget,
            settings: &self.settings,
            summary_cap: self.summary_cap,
        };
        plan(&inputs, messages, self.measured(messages, tokens))
    }

    /// Compacts `messages` if their size (`tokens`) is above the threshold;
    /// otherwise returns them borrowed with outcome
    /// [`NotNeeded`](CompactionOutcome::NotNeeded).
    ///
    /// The result is never larger than the input but for the placeholders
    /// a repair adds (below), and `tokens_after` is always the size of the
    /// messages returned. As in Hermes, a summary
    /// that would not make the conversation smaller is clipped to the room
    /// there is ([`CompactionReport::summary_clipped`]); when nothing of it
    /// fits, the middle is replaced by a one-line note, or left out. Only
    /// when none of these is smaller (an empty middle) are `messages`
    /// returned, with outcome [`NotSmaller`](CompactionOutcome::NotSmaller)
    /// and the size of the last attempt.
    ///
    /// Every path repairs tool pairs (a result without its call is removed,
    /// a call without its result gets a placeholder; a chat API rejects
    /// both): `messages` come back borrowed only when nothing needed
    /// repair, and [`CompactionReport::repairs`] lists what was fixed.
    ///
    /// # Errors
    /// [`CompactionError::Summarizer`] when the summarizer fails and the
    /// policy is [`FailurePolicy::Abort`]; `messages` is untouched.
    pub fn compact<'a, S>(
        &self,
        messages: &'a [Message],
        tokens: PromptTokens,
        summarizer: &S,
    ) -> Result<Compacted<'a>, CompactionError>
    where
        S: Summarizer + ?Sized,
    {
        let (parts, mut job) = match self.prepare(messages, tokens) {
            Step::Done(done) => return Ok(done),
            Step::Summarize(parts, job) => (parts, job),
        };
        while let Some(request) = job.request() {
            let answer = summarizer.summarize(request);
            if let Err(error) = job.accept(answer) {
                return self.after_failure(parts, job, error);
            }
        }
        let stats = job.stats();
        let summary = (job.finish(), SummarySource::Summarizer);
        Ok(self.assemble(parts, Some(summary), stats))
    }

    /// [`compact`](Self::compact) with a summarizer that awaits (feature `async`).
    ///
    /// # Errors
    /// As [`compact`](Self::compact).
    #[cfg(feature = "async")]
    pub async fn compact_async<'a, S>(
        &self,
        messages: &'a [Message],
        tokens: PromptTokens,
        summarizer: &S,
    ) -> Result<Compacted<'a>, CompactionError>
    where
        S: crate::compact::AsyncSummarizer + ?Sized,
    {
        let (parts, mut job) = match self.prepare(messages, tokens) {
            Step::Done(done) => return Ok(done),
            Step::Summarize(parts, job) => (parts, job),
        };
        while let Some(request) = job.request() {
            let answer = summarizer.summarize(request).await;
            if let Err(error) = job.accept(answer) {
                return self.after_failure(parts, job, error);
            }
        }
        let stats = job.stats();
        let summary = (job.finish(), SummarySource::Summarizer);
        Ok(self.assemble(parts, Some(summary), stats))
    }

    /// Plans and reduces; finishes unless a summary is needed.
    fn prepare<'a>(&self, messages: &'a [Message], tokens: PromptTokens) -> Step<'a> {
        let plan = self.plan(messages, tokens);
        if !plan.needed() {
            return Step::Done(self.repaired(&plan, messages, unchanged_report(&plan)));
        }
        // Reduced copies of the middle and of the non-verbatim tail.
        let reduced_range = plan.head_end..plan.verbatim_start;
        let mut reduced: Vec<Message> = messages[reduced_range.clone()].to_vec();
        for reduction in plan.reductions() {
            reduced[reduction.index - reduced_range.start]
                .content
                .clone_from(&reduction.replacement);
        }
        let middle = plan.middle();
        if plan.reductions_suffice() || middle.is_empty() {
            let parts = Parts {
                messages,
                plan,
                reduced,
            };
            return Step::Done(self.assemble(parts, None, JobStats::default()));
        }
        let previous = plan
            .previous_summary()
            .map(|i| summary_text(&messages[i].content));
        let to_summarize: Vec<Message> = reduced[..middle.len()]
            .iter()
            .enumerate()
            .filter(|&(offset, _)| Some(offset + middle.start) != plan.previous_summary())
            .map(|(_, m)| m.clone())
            .collect();
        let job = SummaryJob::new(
            to_summarize,
            previous,
            &self.budget,
            self.summarizer_input,
            self.summary_text_chars(&plan),
        );
        tracing::debug!(
            middle = middle.len(),
            requests = job.chunks(),
            "compaction summarizes the middle"
        );
        let parts = Parts {
            messages,
            plan,
            reduced,
        };
        Step::Summarize(parts, job)
    }

    /// Applies the failure policy after `error`.
    fn after_failure<'a>(
        &self,
        parts: Parts<'a>,
        job: SummaryJob,
        error: SummarizerError,
    ) -> Result<Compacted<'a>, CompactionError> {
        match self.settings.on_summarizer_error {
            FailurePolicy::Abort => {
                tracing::warn!(%error, "summarizer failed; compaction aborted, conversation unchanged");
                Err(CompactionError::Summarizer {
                    chunk: job.next_chunk() + 1,
                    chunks: job.chunks(),
                    source: error,
                })
            }
            FailurePolicy::Fallback => {
                tracing::warn!(%error, "summarizer failed; using the local fallback summary");
                let stats = job.stats();
                let summary = (
                    job.fallback(&error),
                    SummarySource::Fallback {
                        error: error.to_string(),
                    },
                );
                Ok(self.assemble(parts, Some(summary), stats))
            }
        }
    }

    /// Characters the summary text may use so that the whole summary
    /// message (header, text, overhead) fits the plan's summary bound.
    fn summary_text_chars(&self, plan: &CompactionPlan) -> u64 {
        plan.summary_tokens()
            .saturating_sub(self.budget.per_message_overhead_tokens())
            .saturating_mul(CHARS_PER_TOKEN)
            .saturating_sub(count_chars(SUMMARY_HEADER))
    }

    /// `head ++ middle ++ kept tail`, repaired and measured.
    fn build(&self, parts: &Parts<'_>, middle: Middle<'_>) -> Built {
        let Parts {
            messages,
            plan,
            reduced,
        } = parts;
        let middle_len = plan.middle().len();
        let mut out = Vec::with_capacity(plan.head_end + 1 + (plan.len - plan.tail_start));
        out.extend_from_slice(&messages[plan.head()]);
        let note = match middle {
            Middle::Reduced => None,
            Middle::Summary(text) => Some(format!("{SUMMARY_HEADER}{text}")),
            Middle::Omitted => Some(OMITTED_NOTE.to_owned()),
            Middle::Dropped => Some(String::new()),
        };
        match note {
            Some(text) => {
                if !text.is_empty() {
                    let mut message = Message::new(plan.summary_role(), text);
                    message.reference_only = true;
                    out.push(message);
                }
                out.extend(reduced.iter().skip(middle_len).cloned());
            }
            None => out.extend(reduced.iter().cloned()),
        }
        out.extend_from_slice(&messages[plan.verbatim_start..]);
        let mut repairs = RepairReport::default();
        let out = repair_tool_pairs(out, &mut repairs);
        let tokens = self.tokens_of(plan, &out);
        Built {
            messages: out,
            repairs,
            tokens,
        }
    }

    /// The size of `messages` as the plan measures conversations.
    fn tokens_of(&self, plan: &CompactionPlan, messages: &[Message]) -> u64 {
        match self.measured(messages, PromptTokens::Estimate) {
            PromptTokens::Reported(counted) => counted,
            PromptTokens::Estimate => plan.scale.to_tokens(self.budget.estimate_tokens(messages)),
        }
    }

    /// The conversation with `summary` in place of the middle, and when that
    /// is not smaller than the input, as Hermes does, with the summary
    /// clipped to the room there is (a shorter static note would fit only
    /// where a clipped summary does). `Err` with the last attempt when no
    /// such conversation is smaller.
    fn smaller(
        &self,
        parts: &Parts<'_>,
        summary: Option<(String, SummarySource)>,
        stats: &mut JobStats,
    ) -> Result<(Built, SummarySource), Built> {
        let before = parts.plan.tokens_before();
        let Some((text, source)) = summary else {
            let built = self.build(parts, Middle::Reduced);
            return if built.tokens < before {
                Ok((built, SummarySource::None))
            } else {
                Err(built)
            };
        };
        let built = self.build(parts, Middle::Summary(&text));
        if built.tokens < before {
            return Ok((built, source));
        }
        // Clip the summary by the excess (in characters) until it fits or
        // nothing is left; each round keeps fewer characters, so it ends.
        let mut clipped = text;
        let mut last = built;
        loop {
            let excess = last.tokens - before + 1;
            let keep = count_chars(&clipped)
                .saturating_sub(excess.saturating_mul(CHARS_PER_TOKEN).saturating_add(1));
            if keep == 0 {
                return self.without_summary(parts, last, stats);
            }
            clipped = clip_chars(&clipped, keep);
            last = self.build(parts, Middle::Summary(&clipped));
            if last.tokens < before {
                tracing::debug!(
                    tokens = last.tokens,
                    before,
                    "summary clipped to make the conversation smaller"
                );
                stats.summary_clipped = true;
                return Ok((last, source));
            }
        }
    }

    /// `messages` unchanged, or repaired when a tool result lacks its call
    /// or a call its result (a chat API rejects both), with `report` saying
    /// so and giving the repaired conversation's size.
    fn repaired<'a>(
        &self,
        plan: &CompactionPlan,
        messages: &'a [Message],
        mut report: CompactionReport,
    ) -> Compacted<'a> {
        if !needs_repair(messages) {
            return Compacted {
                messages: Cow::Borrowed(messages),
                report,
            };
        }
        let mut repairs = RepairReport::default();
        let out = repair_tool_pairs(messages.to_vec(), &mut repairs);
        report.messages_after = out.len();
        report.tokens_after = self.tokens_of(plan, &out);
        report.repairs = repairs;
        Compacted {
            messages: Cow::Owned(out),
            report,
        }
    }

    /// When even an empty summary would not make the conversation smaller
    /// (a middle of a few short messages, or a reported count that the
    /// estimate undershoots by orders of magnitude, which scales a summary's
    /// header up with it): the middle replaced by a one-line note, else
    /// left out. Both are valid conversations, and smaller whenever the
    /// middle holds anything; `Err(last)` only when it holds nothing.
    fn without_summary(
        &self,
        parts: &Parts<'_>,
        last: Built,
        stats: &mut JobStats,
    ) -> Result<(Built, SummarySource), Built> {
        let before = parts.plan.tokens_before();
        for (middle, source) in [
            (Middle::Omitted, SummarySource::Note),
            (Middle::Dropped, SummarySource::None),
        ] {
            let built = self.build(parts, middle);
            if built.tokens < before {
                tracing::debug!(
                    tokens = built.tokens,
                    before,
                    "no summary fits: the middle is left out"
                );
                stats.summary_clipped = true;
                return Ok((built, source));
            }
        }
        Err(last)
    }

    /// The compacted conversation and its report: the smallest valid one of
    /// [`smaller`](Self::smaller), or the input (repaired) when none is
    /// smaller.
    fn assemble<'a>(
        &self,
        parts: Parts<'a>,
        summary: Option<(String, SummarySource)>,
        mut stats: JobStats,
    ) -> Compacted<'a> {
        let summarized = if summary.is_some() {
            parts.plan.middle().len()
        } else {
            0
        };
        let (built, source) = match self.smaller(&parts, summary, &mut stats) {
            Ok(found) => found,
            Err(attempt) => {
                let Parts { messages, plan, .. } = parts;
                tracing::warn!(
                    tokens_after = attempt.tokens,
                    tokens_before = plan.tokens_before(),
                    "no compacted conversation is smaller; returning the input, repaired"
                );
                let mut report = unchanged_report(&plan);
                report.outcome = CompactionOutcome::NotSmaller {
                    compacted_tokens: attempt.tokens,
                };
                report.summarizer_calls = stats.calls;
                return self.repaired(&plan, messages, report);
            }
        };
        let Parts { messages, plan, .. } = parts;
        let Built {
            messages: out,
            repairs,
            tokens: tokens_after,
        } = built;
        let outcome = if tokens_after <= plan.target_tokens {
            CompactionOutcome::ReachedTarget
        } else if tokens_after <= plan.threshold_tokens {
            CompactionOutcome::AboveTarget
        } else {
            tracing::warn!(
                tokens_after,
                threshold = plan.threshold_tokens,
                protected = plan.protected_tokens(),
                "compaction was ineffective: the conversation is still above the threshold"
            );
            CompactionOutcome::Ineffective
        };
        let count = |dup: bool| {
            plan.reductions()
                .iter()
                .filter(|r| matches!(r.kind, ReductionKind::Duplicate { .. }) == dup)
                .count()
        };
        let report = CompactionReport {
            outcome,
            tokens_before: plan.tokens_before(),
            tokens_after,
            threshold_tokens: plan.threshold_tokens,
            target_tokens: plan.target_tokens,
            messages_before: messages.len(),
            messages_after: out.len(),
            head_messages: plan.head().len(),
            tail_messages: plan.tail().len(),
            summarized_messages: summarized,
            deduplicated_tool_outputs: count(true),
            stubbed_tool_outputs: count(false),
            summary: source,
            summarizer_calls: stats.calls,
            clipped_for_summarizer: stats.clipped_for_summarizer,
            summary_clipped: stats.summary_clipped,
            role_conflict: plan.role_conflict(),
            repairs,
        };
        Compacted {
            messages: Cow::Owned(out),
            report,
        }
    }
}

/// A candidate compacted conversation.
struct Built {
    messages: Vec<Message>,
    repairs: RepairReport,
    tokens: u64,
}

/// `text` cut to its first `keep` characters, `…` marking the cut.
fn clip_chars(text: &str, keep: u64) -> String {
    let keep = usize::try_from(keep).unwrap_or(usize::MAX);
    match text.char_indices().nth(keep) {
        Some((cut, _)) => format!("{}…", text[..cut].trim_end()),
        None => text.to_owned(),
    }
}

/// The text of an earlier summary message, without its header.
fn summary_text(content: &str) -> &str {
    content.strip_prefix(SUMMARY_HEADER).unwrap_or(content)
}

/// The report of a conversation left as it was.
fn unchanged_report(plan: &CompactionPlan) -> CompactionReport {
    CompactionReport {
        outcome: CompactionOutcome::NotNeeded,
        tokens_before: plan.tokens_before(),
        tokens_after: plan.tokens_before(),
        threshold_tokens: plan.threshold_tokens,
        target_tokens: plan.target_tokens,
        messages_before: plan.len,
        messages_after: plan.len,
        head_messages: 0,
        tail_messages: 0,
        summarized_messages: 0,
        deduplicated_tool_outputs: 0,
        stubbed_tool_outputs: 0,
        summary: SummarySource::None,
        summarizer_calls: 0,
        clipped_for_summarizer: 0,
        summary_clipped: false,
        role_conflict: false,
        repairs: RepairReport::default(),
    }
}

#[cfg(test)]
mod tests;
