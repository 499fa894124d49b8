//! [`SlicerError`]: a slicer's configuration rejected, or an input it
//! cannot slice.

use crate::model::ContextKind;

/// A slicer could not be constructed from its configuration (returned by
/// the constructors), or could not produce a selection for one input
/// (returned by [`Slicer::slice`](crate::slicer::Slicer::slice)).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
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
