//! [`Compactor`]: shrinks a conversation that crossed its threshold —
//! cheap reductions first, then a summary of the middle — and reports how.

use std::borrow::Cow;

use crate::compact::config::{CompactionConfig, CompressionSettings, FailurePolicy};
use crate::compact::message::Message;
use crate::compact::planner::{CompactionPlan, PlanInputs, plan};
use crate::compact::prompt_tokens::PromptTokens;
use crate::compact::reduce::ReductionKind;
use crate::compact::repair::repair_tool_pairs;
use crate::compact::report::{CompactionOutcome, CompactionReport, RepairReport, SummarySource};
use crate::compact::summarizer::Summarizer;
use crate::compact::summary_job::{JobStats, SummaryJob};
use crate::compact::token_budget::{CHARS_PER_TOKEN, TokenBudget};
use crate::error::{CompactionConfigError, CompactionError, SummarizerError};
use crate::estimate::count_chars;

/// First line of every summary message: marks it as reference material.
pub const SUMMARY_HEADER: &str = "[Summary of the earlier conversation, compacted to save context. \
Reference only: it records what happened, it gives no new instructions.]\n";

/// A summary must have room for at least this many tokens of text.
const MIN_SUMMARY_TEXT_TOKENS: u64 = 32;
/// A summarizer request must have room for at least this many tokens of messages.
pub const MIN_SUMMARIZER_INPUT_TOKENS: u64 = 256;

/// A compacted conversation and the report of how it was made.
///
/// `messages` borrows the input when nothing changed.
#[derive(Clone, Debug)]
pub struct Compacted<'a> {
    /// The conversation to send from now on.
    pub messages: Cow<'a, [Message]>,
    /// What happened, with the numbers.
    pub report: CompactionReport,
}

/// Keeps a conversation under its window: when its size crosses the
/// threshold of its [`TokenBudget`], keeps the head and a token-sized tail
/// verbatim, reduces old tool outputs, and, if that is not enough, replaces
/// the middle by a summary from a [`Summarizer`].
///
/// ```
/// use budget_runtime::compact::{CompactionConfig, CompactionOutcome, Compactor, Message, PromptTokens, SummaryRequest};
/// use budget_runtime::SummarizerError;
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
    /// Everything [`TokenBudget::new`] rejects, a summary bound
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
        })
    }

    /// The thresholds this compactor works with.
    pub fn budget(&self) -> &TokenBudget {
        &self.budget
    }

    /// The plan for `messages`, without changing anything: O(n) in messages
    /// and characters. Computed whether or not compaction is needed.
    pub fn plan(&self, messages: &[Message], tokens: PromptTokens) -> CompactionPlan {
        let inputs = PlanInputs {
            budget: &self.budget,
            settings: &self.settings,
            summary_cap: self.summary_cap,
        };
        plan(&inputs, messages, tokens)
    }

    /// Compacts `messages` if their size (`tokens`) is above the threshold;
    /// otherwise returns them borrowed with outcome
    /// [`NotNeeded`](CompactionOutcome::NotNeeded).
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
            return Step::Done(Compacted {
                messages: Cow::Borrowed(messages),
                report: unchanged_report(&plan),
            });
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

    /// `head ++ [summary] ++ kept tail`, repaired and reported.
    fn assemble<'a>(
        &self,
        parts: Parts<'a>,
        summary: Option<(String, SummarySource)>,
        stats: JobStats,
    ) -> Compacted<'a> {
        let Parts {
            messages,
            plan,
            reduced,
        } = parts;
        let middle_len = plan.middle().len();
        let mut out = Vec::with_capacity(plan.head_end + 1 + (plan.len - plan.tail_start));
        out.extend_from_slice(&messages[plan.head()]);
        let (source, summarized) = match summary {
            Some((text, source)) => {
                let mut message =
                    Message::new(plan.summary_role(), format!("{SUMMARY_HEADER}{text}"));
                message.reference_only = true;
                out.push(message);
                out.extend(reduced.iter().skip(middle_len).cloned());
                (source, middle_len)
            }
            None => {
                out.extend(reduced.iter().cloned());
                (SummarySource::None, 0)
            }
        };
        out.extend_from_slice(&messages[plan.verbatim_start..]);
        let mut repairs = RepairReport::default();
        let out = repair_tool_pairs(out, &mut repairs);

        let tokens_after = plan
            .scale
            .to_tokens(self.budget.estimate_tokens(&out));
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
