//! [`CompactionReport`]: what a compaction did, with the numbers.

/// How a compaction ended relative to the target and the threshold.
///
/// ```
/// use budget::compact::CompactionOutcome;
/// assert!(CompactionOutcome::Ineffective.is_ineffective());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum CompactionOutcome {
    /// The conversation was at or below the threshold (or compaction is
    /// disabled); nothing changed but the repairs of tool pairs, if any.
    NotNeeded,
    /// The result is at or below the target.
    ReachedTarget,
    /// The result is above the target but at or below the threshold: the
    /// protected head and tail left too little room.
    AboveTarget,
    /// The result is still above the threshold: the next turn would compact
    /// again. Usually the protected parts alone exceed it; shrink
    /// `protect_first_n`, `min_tail_messages` or `tail_tokens`.
    Ineffective,
    /// The best compaction would not have been smaller than the input (for
    /// example a summary longer than the short middle it replaces, beside
    /// one huge protected message), so the input is returned unchanged.
    /// The report's counts describe the returned, unchanged conversation,
    /// except `summarizer_calls`: the calls that were made.
    NotSmaller {
        /// Size of the rejected compacted conversation, in tokens (at least
        /// `tokens_before`).
        compacted_tokens: u64,
    },
}

impl CompactionOutcome {
    /// True for [`CompactionOutcome::Ineffective`] and
    /// [`CompactionOutcome::NotSmaller`]: the conversation is still above
    /// the threshold.
    ///
    /// ```
    /// use budget::compact::CompactionOutcome;
    /// assert!(CompactionOutcome::NotSmaller { compacted_tokens: 9 }.is_ineffective());
    /// assert!(!CompactionOutcome::ReachedTarget.is_ineffective());
    /// ```
    pub const fn is_ineffective(self) -> bool {
        matches!(self, Self::Ineffective | Self::NotSmaller { .. })
    }
}

/// Where the summary of the middle came from.
///
/// ```
/// use budget::compact::SummarySource;
/// let source = SummarySource::Fallback { error: "timeout".into() };
/// assert!(matches!(source, SummarySource::Fallback { .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "source", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SummarySource {
    /// No summary: nothing to compact, or the cheap reductions sufficed.
    None,
    /// The summarizer wrote it.
    Summarizer,
    /// The summarizer failed; a deterministic local summary replaced it.
    Fallback {
        /// The summarizer's error, as text.
        error: String,
    },
    /// No summary made the conversation smaller: a one-line note stands
    /// for the middle instead.
    Note,
}

/// What the final repair pass fixed so every tool result has its call and
/// every call its result. Only malformed input needs repairs: the planner
/// never separates a call from its results.
///
/// ```
/// use budget::compact::{CompactionConfig, Compactor, PromptTokens, SummaryRequest};
/// use budget::chat::Message;
/// use budget::compact::SummarizerError;
///
/// // a tool result whose call was never recorded
/// let mut messages = vec![Message::system("s"), Message::tool_result("lost", "?")];
/// messages.extend((0..200).map(|i| Message::user(format!("{i} {}", "x".repeat(200)))));
/// let toy = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok("…".into()) };
/// let out = Compactor::new(&CompactionConfig::default(), Some(8_000))?
///     .compact(&messages, PromptTokens::Estimate, &toy)?;
/// assert_eq!(out.report.repairs.removed_orphan_results, ["lost"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RepairReport {
    /// Call ids of tool results removed because no earlier call issued them
    /// (or that answered an already answered call); empty string when the
    /// result had no id.
    pub removed_orphan_results: Vec<String>,
    /// Ids of calls that had no result; a placeholder result was inserted.
    pub placeholder_results: Vec<String>,
    /// Call ids used more than once by one assistant message (a chat API
    /// rejects them): each repeat, and the result that answers it, was
    /// renamed `<id>~2`, `<id>~3`, … in call order. Listed once per repeat.
    pub renamed_duplicate_calls: Vec<String>,
}

impl RepairReport {
    /// True when nothing was repaired.
    ///
    /// ```
    /// use budget::compact::RepairReport;
    /// assert!(RepairReport::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.removed_orphan_results.is_empty()
            && self.placeholder_results.is_empty()
            && self.renamed_duplicate_calls.is_empty()
    }
}

/// What one compaction did. Token counts are estimates unless the caller
/// passed [`PromptTokens::Reported`](crate::compact::PromptTokens::Reported),
/// in which case they are in the provider's tokens. When nothing was needed
/// ([`CompactionOutcome::NotNeeded`]) every count of changes, and the head
/// and tail counts, are 0.
///
/// ```
/// use budget::compact::{CompactionConfig, CompactionOutcome, Compactor, PromptTokens, SummaryRequest};
/// use budget::chat::Message;
/// use budget::compact::SummarizerError;
///
/// let messages: Vec<Message> = (0..200).map(|i| Message::user(format!("{i} {}", "x".repeat(200)))).collect();
/// let toy = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok("earlier numbers".into()) };
/// let report = Compactor::new(&CompactionConfig::default(), Some(8_000))?
///     .compact(&messages, PromptTokens::Estimate, &toy)?
///     .report;
/// assert_eq!(report.messages_before, 200);
/// assert_eq!(report.messages_after, report.head_messages + 1 + report.tail_messages);
/// assert!(report.tokens_after <= report.target_tokens);
/// assert_eq!(report.outcome, CompactionOutcome::ReachedTarget);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct CompactionReport {
    /// How it ended.
    pub outcome: CompactionOutcome,
    /// Size before, in tokens.
    pub tokens_before: u64,
    /// Size after, in tokens.
    pub tokens_after: u64,
    /// The threshold compaction fires above, in tokens.
    pub threshold_tokens: u64,
    /// The target, in tokens.
    pub target_tokens: u64,
    /// Messages before.
    pub messages_before: usize,
    /// Messages after.
    pub messages_after: usize,
    /// Messages kept verbatim at the start (system prompt and first messages).
    pub head_messages: usize,
    /// Messages kept verbatim at the end.
    pub tail_messages: usize,
    /// Messages replaced by the summary (0 when no summary was written).
    pub summarized_messages: usize,
    /// Older copies of identical tool outputs replaced by a pointer to the newest copy.
    pub deduplicated_tool_outputs: usize,
    /// Large old tool outputs replaced by a one-line stub.
    pub stubbed_tool_outputs: usize,
    /// Where the summary came from.
    pub summary: SummarySource,
    /// How many times the summarizer was called.
    pub summarizer_calls: usize,
    /// Messages (or a previous summary) clipped to fit the summarizer's window.
    pub clipped_for_summarizer: usize,
    /// Whether a summary longer than its bound was clipped. When nothing of
    /// it fits (the conversation would not get smaller), the middle is
    /// replaced by a one-line note ([`summary`](Self::summary) is
    /// [`SummarySource::Note`]) or left out (it is [`SummarySource::None`]).
    pub summary_clipped: bool,
    /// The summary has the same role as a neighbour because no cut point
    /// nearby allowed alternating roles.
    pub role_conflict: bool,
    /// What the repair pass fixed.
    pub repairs: RepairReport,
}
