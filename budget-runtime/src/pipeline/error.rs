//! [`PipelineError`]: why a pipeline run produced no selection.

use crate::slicer::SlicerError;

/// The pipeline could not produce a selection.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
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
    /// The merged selection exceeds `target_tokens` under [`OverflowStrategy::Throw`](crate::pipeline::OverflowStrategy::Throw).
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
    Slice(#[from] SlicerError),
}
