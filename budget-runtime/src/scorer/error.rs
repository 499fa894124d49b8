//! [`ScorerError`]: a scorer could not be constructed from its configuration.

use crate::model::ContextKind;

/// A scorer could not be constructed from its configuration.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
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
