//! Error types, one enum per area. Every message carries the offending numbers.

use thiserror::Error;

use crate::model::ContextKind;

/// A [`ContextKind`] label was rejected.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ContextKindError {
    /// The label was empty or whitespace only.
    #[error("a ContextKind label must not be empty or whitespace only")]
    Blank,
}

/// A content-type name other than `code`, `prose`, `yaml` or `markdown`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown content type {0:?}: expected \"code\", \"prose\", \"yaml\" or \"markdown\"")]
pub struct UnknownContentType(pub String);

/// A [`Timestamp`](crate::Timestamp) outside what `SystemTime` can hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("timestamp {0} ns from the Unix epoch is outside the range of SystemTime")]
pub struct TimestampOutOfRange(pub i128);

/// A [`ContextBudget`](crate::ContextBudget) broke a validation rule.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ContextBudgetError {
    /// Rule 3 (rules 1, 2 and 4, non-negative counts, hold by type: `u64`).
    #[error("target_tokens {target_tokens} exceeds max_tokens {max_tokens}")]
    TargetExceedsMax {
        /// The value given.
        target_tokens: u64,
        /// The ceiling it exceeds.
        max_tokens: u64,
    },
    /// Rule 5.
    #[error("output_reserve {output_reserve} exceeds max_tokens {max_tokens}")]
    OutputReserveExceedsMax {
        /// The value given.
        output_reserve: u64,
        /// The ceiling it exceeds.
        max_tokens: u64,
    },
    /// Rule 6.
    #[error("estimation_safety_margin_percent {percent} is outside 0.0..=100.0")]
    SafetyMarginOutOfRange {
        /// The value given.
        percent: f64,
    },
    /// Rule 7.
    #[error("reserved slot for kind {kind} is negative ({min_items})")]
    NegativeReservedSlot {
        /// The kind of the slot.
        kind: ContextKind,
        /// The value given.
        min_items: i64,
    },
    /// A kind was given more than one reserved slot.
    #[error("kind {kind} has more than one reserved slot")]
    DuplicateReservedSlot {
        /// The repeated kind.
        kind: ContextKind,
    },
}

/// An [`Item`](crate::Item) could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ItemError {
    /// The specification requires non-empty content.
    #[error("item content must not be empty")]
    EmptyContent,
}

/// A scorer could not be constructed from its configuration.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ScorerError {
    /// A weight or parameter that must be finite and positive was not.
    #[error("{name} must be finite and > 0, got {value}")]
    NotPositive {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A weight or parameter that must be finite and non-negative was not.
    #[error("{name} must be finite and >= 0, got {value}")]
    Negative {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// A parameter outside its allowed range.
    #[error("{name} must be within {min}..={max}, got {value}")]
    OutOfRange {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: f64,
        /// Lower bound.
        min: f64,
        /// Upper bound.
        max: f64,
    },
    /// A composite scorer needs at least one child.
    #[error("a composite scorer needs at least one child scorer")]
    NoChildren,
    /// Any other invalid configuration, described.
    #[error("invalid scorer configuration: {0}")]
    Invalid(String),
    /// A kind weight was negative, NaN or infinite.
    #[error("weight for kind {kind} must be finite and >= 0, got {value}")]
    KindWeight {
        /// The kind the weight belongs to.
        kind: ContextKind,
        /// The value given.
        value: f64,
    },
    /// A kind was given more than one weight.
    #[error("kind {kind} is given more than one weight")]
    DuplicateKind {
        /// The repeated kind.
        kind: ContextKind,
    },
    /// A tag weight was negative, NaN or infinite.
    #[error("weight for tag {tag:?} must be finite and >= 0, got {value}")]
    TagWeight {
        /// The tag the weight belongs to.
        tag: String,
        /// The value given.
        value: f64,
    },
    /// A tag was given more than one weight (after case folding, when the
    /// scorer ignores case).
    #[error("tag {tag:?} is given more than one weight")]
    DuplicateTag {
        /// The repeated tag.
        tag: String,
    },
    /// Weights that are each finite add up to infinity.
    #[error("the {count} weights add up to more than f64::MAX; scale them down")]
    WeightSumOverflow {
        /// How many weights were given.
        count: usize,
    },
    /// A composite child's weight was zero, negative, NaN or infinite.
    #[error("weight of child scorer {index} must be finite and > 0, got {value}")]
    ChildWeight {
        /// Position of the child (0-based).
        index: usize,
        /// The value given.
        value: f64,
    },
    /// A step decay curve needs at least one window.
    #[error("a step decay curve needs at least one window")]
    NoStepWindows,
    /// A step window's maximum age was zero.
    #[error("step window {index} has max_age 0; every window must be wider than zero")]
    StepWindowZeroAge {
        /// Position of the window (0-based).
        index: usize,
    },
    /// Step windows were not ordered from youngest to oldest.
    #[error(
        "step window {index} has max_age {max_age_secs} s, not greater than the previous window's {previous_max_age_secs} s; order windows from youngest to oldest"
    )]
    StepWindowsNotAscending {
        /// Position of the out-of-order window (0-based).
        index: usize,
        /// Its maximum age, in seconds.
        max_age_secs: f64,
        /// The previous window's maximum age, in seconds.
        previous_max_age_secs: f64,
    },
    /// A step window's score was outside `0.0..=1.0` or not a number.
    #[error("step window {index} has score {score}; it must be within 0.0..=1.0")]
    StepWindowScore {
        /// Position of the window (0-based).
        index: usize,
        /// The score given.
        score: f64,
    },
}

/// A slicer could not be constructed from its configuration.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SlicerError {
    /// A parameter that must be positive was not.
    #[error("{name} must be > 0, got {value}")]
    NotPositive {
        /// Which parameter.
        name: &'static str,
        /// The value given.
        value: u64,
    },
    /// A percentage outside 0..=100.
    #[error("{name} for kind {kind} must be within 0.0..=100.0, got {value}")]
    PercentOutOfRange {
        /// Which parameter (`require` or `cap`).
        name: &'static str,
        /// The kind it belongs to.
        kind: ContextKind,
        /// The value given.
        value: f64,
    },
    /// A kind's minimum exceeds its maximum.
    #[error("kind {kind}: require {require} exceeds cap {cap}")]
    RequireExceedsCap {
        /// The kind.
        kind: ContextKind,
        /// The minimum.
        require: f64,
        /// The maximum.
        cap: f64,
    },
    /// The required shares of all kinds add up to more than 100 percent.
    #[error("required percentages sum to {sum}, more than 100")]
    RequiredSumExceeds100 {
        /// The sum.
        sum: f64,
    },
    /// A kind was configured twice.
    #[error("kind {kind} is configured more than once")]
    DuplicateKind {
        /// The repeated kind.
        kind: ContextKind,
    },
    /// Any other invalid configuration, described.
    #[error("invalid slicer configuration: {0}")]
    Invalid(String),
    /// A count-quota entry requires more items than it allows.
    #[error("kind {kind}: require_count {require_count} exceeds cap_count {cap_count}")]
    RequireCountExceedsCap {
        /// The kind.
        kind: ContextKind,
        /// Minimum items.
        require_count: usize,
        /// Maximum items.
        cap_count: usize,
    },
    /// A count-quota slicer was given a knapsack slicer as its inner slicer.
    #[error(
        "a count-quota slicer cannot wrap a knapsack slicer; use CountConstrainedKnapsackSlicer instead"
    )]
    KnapsackInsideCountQuota,
}

/// The pipeline could not produce a selection.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PipelineError {
    /// Pinned items alone exceed `max_tokens - output_reserve` (raised by Classify).
    #[error(
        "pinned items require {pinned_tokens} tokens, but only {available_tokens} are available (max_tokens - output_reserve)"
    )]
    PinnedExceedsBudget {
        /// Sum of pinned items' tokens (saturating at `u64::MAX`).
        pinned_tokens: u64,
        /// `max_tokens - output_reserve`.
        available_tokens: u64,
    },
    /// The merged selection exceeds `target_tokens` under [`OverflowStrategy::Throw`](crate::OverflowStrategy::Throw).
    #[error(
        "selected items require {selected_tokens} tokens, exceeding the target budget of {target_tokens}"
    )]
    Overflow {
        /// Tokens of the merged selection.
        selected_tokens: u64,
        /// The budget's target.
        target_tokens: u64,
    },
    /// A placer returned something other than a permutation of its input.
    #[error(
        "placer returned {returned} positions that are not a permutation of the {len} merged items"
    )]
    PlacerNotPermutation {
        /// Number of positions returned.
        returned: usize,
        /// Number of merged items.
        len: usize,
    },
    /// A slicer returned an index outside the candidates it was given.
    #[error("slicer returned index {index} but was given {len} candidates")]
    SlicerIndexOutOfRange {
        /// The bad index.
        index: usize,
        /// Number of candidates.
        len: usize,
    },
    /// The slicer could not select for this input.
    #[error(transparent)]
    Slice(#[from] SliceError),
}

/// A slicer could not produce a selection for this particular input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SliceError {
    /// Under [`ScarcityBehavior::Throw`](crate::slicer::ScarcityBehavior::Throw),
    /// a kind had fewer candidates that fit the budget than its `require_count`.
    #[error(
        "kind {kind} requires {required} items but only {satisfied} candidates could be selected within the budget"
    )]
    CountRequirementUnmet {
        /// The kind.
        kind: ContextKind,
        /// The configured `require_count`.
        required: usize,
        /// Items that could be committed.
        satisfied: usize,
    },
    /// The knapsack keep table cannot fit its memory limit even with one
    /// 64-bit word per candidate.
    #[error(
        "knapsack keep table for {candidates} candidates needs at least {needed_bits} bits, over the limit of {limit_bits} bits"
    )]
    KnapsackTableTooLarge {
        /// Candidates taking part in the dynamic programme.
        candidates: usize,
        /// Smallest possible table size, in bits.
        needed_bits: u128,
        /// The configured limit, in bits.
        limit_bits: u64,
    },
    /// A wrapped slicer returned a position outside the candidates it was given.
    #[error("inner slicer returned position {index} but was given {len} candidates")]
    InnerIndexOutOfRange {
        /// The bad position.
        index: usize,
        /// Number of candidates given to the inner slicer.
        len: usize,
    },
    /// A wrapped slicer returned the same position twice.
    #[error("inner slicer returned position {index} more than once")]
    InnerDuplicateIndex {
        /// The repeated position.
        index: usize,
    },
}

#[cfg(feature = "contract")]
pub use crate::contract::ContractError;

/// A [`CompactionConfig`](crate::compact::CompactionConfig) was rejected
/// when building a [`TokenBudget`](crate::compact::TokenBudget) or a
/// [`Compactor`](crate::compact::Compactor).
///
/// ```
/// use budget_runtime::CompactionConfigError;
/// use budget_runtime::compact::{CompactionConfig, TokenBudget};
///
/// let mut config = CompactionConfig::default();
/// config.compression.threshold = f64::NAN;
/// let err = TokenBudget::new(&config, None).unwrap_err();
/// assert!(matches!(err, CompactionConfigError::ThresholdOutOfRange { .. }));
/// assert_eq!(err.to_string(), "compression.threshold must be a fraction in (0, 1], got NaN");
/// ```
#[derive(Debug, Clone, PartialEq, Error)]
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

/// A [`Summarizer`](crate::compact::Summarizer) could not summarize.
///
/// ```
/// use budget_runtime::SummarizerError;
/// let err = SummarizerError::failed("HTTP 429: rate limited");
/// assert_eq!(err.to_string(), "the summarizer failed: HTTP 429: rate limited");
/// ```
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SummarizerError {
    /// It returned an empty (or whitespace-only) summary.
    #[error("the summarizer returned an empty summary")]
    Empty,
    /// It failed; the cause is the source.
    #[error("the summarizer failed: {0}")]
    Failed(Box<dyn std::error::Error + Send + Sync + 'static>),
}

impl SummarizerError {
    /// A failure caused by `source` (an error, or a message as `&str`/`String`).
    pub fn failed(source: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>) -> Self {
        Self::Failed(source.into())
    }
}

/// A compaction could not complete.
///
/// ```
/// use budget_runtime::{CompactionError, SummarizerError};
/// use budget_runtime::compact::{CompactionConfig, Compactor, FailurePolicy, Message, PromptTokens, SummaryRequest};
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
#[derive(Debug, Error)]
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

/// A [`TierBudget`](crate::payload::TierBudget) broke a validation rule.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum TierBudgetError {
    /// A tier share is not a finite percentage within `0.0..=100.0`.
    #[error("{tier} share {percent} percent is outside 0.0..=100.0")]
    ShareOutOfRange {
        /// The tier.
        tier: crate::model::Tier,
        /// The value given.
        percent: f64,
    },
    /// The three shares do not add up to 100 percent.
    #[error(
        "tier shares sum to {sum} percent (summary {summary_percent} + linked {linked_percent} + raw {raw_percent}), expected 100"
    )]
    SharesDoNotSumTo100 {
        /// SUMMARY share given.
        summary_percent: f64,
        /// LINKED share given.
        linked_percent: f64,
        /// RAW share given.
        raw_percent: f64,
        /// Their sum.
        sum: f64,
    },
    /// The headroom is not within `0.0..100.0`.
    #[error("headroom_percent {headroom_percent} is outside 0.0..100.0")]
    HeadroomOutOfRange {
        /// The value given.
        headroom_percent: f64,
    },
    /// The META overhead is larger than the whole payload.
    #[error("meta {meta} tokens exceed the payload total of {total} tokens")]
    MetaExceedsTotal {
        /// META tokens given.
        meta: u64,
        /// The payload total.
        total: u64,
    },
    /// A tier would get no tokens at all after headroom.
    #[error(
        "{tier} effective limit is 0 tokens ({percent} percent of {total} = {nominal} nominal, minus headroom)"
    )]
    TierLimitZero {
        /// The tier.
        tier: crate::model::Tier,
        /// The payload total.
        total: u64,
        /// The tier's share.
        percent: f64,
        /// The tier's nominal budget.
        nominal: u64,
    },
}

/// A hybrid payload could not be assembled within its total.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PayloadError {
    /// With every item omitted, the rendered structure alone is over the total.
    #[error(
        "the payload structure alone is estimated at {rendered_tokens} tokens with every item omitted, over the total of {total_tokens}"
    )]
    StructureExceedsTotal {
        /// Estimated tokens of the rendered structure.
        rendered_tokens: u64,
        /// The payload total.
        total_tokens: u64,
    },
}

/// An encoding name other than `o200k_base` or `cl100k_base`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown encoding {0:?}: expected \"o200k_base\" or \"cl100k_base\"")]
pub struct UnknownEncoding(pub String);

/// A [`Calibration`](crate::estimate::Calibration) was rejected: its weights
/// must be finite and non-negative, its safety factors finite and at least 1.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum CalibrationError {
    /// A weight was negative, NaN or infinite.
    #[error("weight {value} of feature {feature} for {content_type} must be finite and >= 0")]
    InvalidWeight {
        /// The content type whose coefficients hold the weight.
        content_type: crate::estimate::ContentType,
        /// The feature's name.
        feature: &'static str,
        /// The value given.
        value: f64,
    },
    /// A safety factor was below 1, NaN or infinite.
    #[error("safety factor {value} for {content_type} must be finite and >= 1")]
    InvalidSafetyFactor {
        /// The content type whose coefficients hold the factor.
        content_type: crate::estimate::ContentType,
        /// The value given.
        value: f64,
    },
}

/// An exact tokenizer could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TokenizerError {
    /// The vocabulary of `encoding` is not compiled in.
    #[error("the {encoding} vocabulary is not compiled in: enable the cargo feature `{feature}`")]
    NotCompiled {
        /// The encoding asked for.
        encoding: crate::estimate::Encoding,
        /// The cargo feature of `budget-runtime` that compiles it in.
        feature: &'static str,
    },
}
