//! Stage 1, Classify: drop negative-token items, split pinned from scoreable,
//! and check that pinned items fit.

use crate::error::PipelineError;
use crate::model::{ContextBudget, ContextItem};
use crate::pipeline::report::{ExcludedItem, ExclusionReason};
use crate::pipeline::token_counts::TokenCounts;

/// The partition of the input, by input index.
pub(crate) struct Classified {
    pub pinned: Vec<usize>,
    pub scoreable: Vec<usize>,
    pub pinned_tokens: i64,
}

/// Partitions `items` by their `tokens` and by asking each once whether it
/// is pinned, recording negative-token exclusions in `excluded`.
pub(crate) fn classify(
    items: &[&dyn ContextItem],
    tokens: &TokenCounts,
    budget: &ContextBudget,
    excluded: &mut Vec<ExcludedItem>,
) -> Result<Classified, PipelineError> {
    let mut pinned = Vec::new();
    let mut scoreable = Vec::with_capacity(items.len());
    // i128: a sum of i64 counts cannot overflow it, so no over-budget set of
    // pinned items can hide behind saturation.
    let mut pinned_tokens: i128 = 0;
    for (index, item) in items.iter().enumerate() {
        let tokens = tokens.get(index);
        if tokens < 0 {
            excluded.push(ExcludedItem {
                index,
                score: 0.0,
                reason: ExclusionReason::NegativeTokens { tokens },
            });
        } else if item.pinned() {
            pinned.push(index);
            pinned_tokens += i128::from(tokens);
        } else {
            scoreable.push(index);
        }
    }
    let available_tokens = budget.max_tokens().saturating_sub(budget.output_reserve());
    if pinned_tokens > i128::from(available_tokens) {
        return Err(PipelineError::PinnedExceedsBudget {
            pinned_tokens,
            available_tokens,
        });
    }
    Ok(Classified {
        pinned,
        scoreable,
        // Bounded by `available_tokens` above.
        pinned_tokens: pinned_tokens as i64,
    })
}
