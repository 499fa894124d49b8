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
    /// Rule 1.
    #[error("max_tokens {max_tokens} is negative")]
    NegativeMaxTokens {
        /// The value given.
        max_tokens: i64,
    },
    /// Rule 2.
    #[error("target_tokens {target_tokens} is negative")]
    NegativeTargetTokens {
        /// The value given.
        target_tokens: i64,
    },
    /// Rule 3.
    #[error("target_tokens {target_tokens} exceeds max_tokens {max_tokens}")]
    TargetExceedsMax {
        /// The value given.
        target_tokens: i64,
        /// The ceiling it exceeds.
        max_tokens: i64,
    },
    /// Rule 4.
    #[error("output_reserve {output_reserve} is negative")]
    NegativeOutputReserve {
        /// The value given.
        output_reserve: i64,
    },
    /// Rule 5.
    #[error("output_reserve {output_reserve} exceeds max_tokens {max_tokens}")]
    OutputReserveExceedsMax {
        /// The value given.
        output_reserve: i64,
        /// The ceiling it exceeds.
        max_tokens: i64,
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
        value: i64,
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
        /// Sum of pinned items' tokens.
        pinned_tokens: i64,
        /// `max_tokens - output_reserve`.
        available_tokens: i64,
    },
    /// The merged selection exceeds `target_tokens` under [`OverflowStrategy::Throw`](crate::OverflowStrategy::Throw).
    #[error(
        "selected items require {selected_tokens} tokens, exceeding the target budget of {target_tokens}"
    )]
    Overflow {
        /// Tokens of the merged selection.
        selected_tokens: i64,
        /// The budget's target.
        target_tokens: i64,
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
        content_type: crate::model::ContentType,
        /// The feature's name.
        feature: &'static str,
        /// The value given.
        value: f64,
    },
    /// A safety factor was below 1, NaN or infinite.
    #[error("safety factor {value} for {content_type} must be finite and >= 1")]
    InvalidSafetyFactor {
        /// The content type whose coefficients hold the factor.
        content_type: crate::model::ContentType,
        /// The value given.
        value: f64,
    },
}

/// An exact tokenizer could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TokenizerError {
    /// The vocabulary shipped for `encoding` failed to parse.
    #[error("failed to load the {encoding} vocabulary: {reason}")]
    Load {
        /// The encoding that failed.
        encoding: crate::estimate::Encoding,
        /// The tokenizer library's message.
        reason: String,
    },
}
