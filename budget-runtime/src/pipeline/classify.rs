//! Stage 1, Classify: drop negative-token items, split pinned from scoreable,
//! and check that pinned items fit.

use crate::model::{ContextBudget, ContextItem};
use crate::pipeline::PipelineError;
use crate::pipeline::groups::pinned_groups;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};
use crate::pipeline::token_counts::TokenCounts;

/// The partition of the input, by input index.
pub(crate) struct Classified {
    pub pinned: Vec<usize>,
    pub scoreable: Vec<usize>,
    pub pinned_tokens: u64,
    /// Sum of every item's declared count, negative ones included (the
    /// specification's `total_tokens_considered`).
    pub total_tokens_considered: i128,
}

/// Partitions `items` by their `tokens` (read once per run) and by asking
/// each once whether it is pinned, recording negative-token exclusions in
/// `excluded`.
///
/// Negative counts ([`ContextItem::negative_tokens`]) are excluded here and
/// nowhere else: every later stage sees only `u64` counts. A member of a
/// group with a pinned member is pinned too.
pub(crate) fn classify(
    items: &[&dyn ContextItem],
    tokens: &TokenCounts,
    budget: &ContextBudget,
    excluded: &mut Vec<ExcludedItem>,
) -> Result<Classified, PipelineError> {
    let mut pinned = Vec::new();
    let mut scoreable = Vec::with_capacity(items.len());
    // u128: a sum of u64 counts cannot overflow it, so no over-budget set of
    // pinned items can hide behind saturation.
    let mut pinned_tokens: u128 = 0;
    let mut total_tokens_considered: i128 = 0;
    let pinned_flags: Vec<bool> = items.iter().map(|item| item.pinned()).collect();
    let pinned_groups = pinned_groups(items, &pinned_flags);
    for ((index, item), is_pinned) in items.iter().enumerate().zip(pinned_flags) {
        if let Some(tokens) = item.negative_tokens() {
            total_tokens_considered += i128::from(tokens);
            excluded.push(ExcludedItem {
                index,
                score: 0.0,
                reason: ExclusionReason::NegativeTokens { tokens },
            });
            continue;
        }
        let tokens = tokens.get(index);
        total_tokens_considered += i128::from(tokens);
        if is_pinned || item.group().is_some_and(|g| pinned_groups.contains(&g)) {
            pinned.push(index);
            pinned_tokens += u128::from(tokens);
        } else {
            scoreable.push(index);
        }
    }
    let available_tokens = budget.max_tokens().saturating_sub(budget.output_reserve());
    let Some(pinned_tokens) = u64::try_from(pinned_tokens)
        .ok()
        .filter(|&tokens| tokens <= available_tokens)
    else {
        return Err(PipelineError::PinnedExceedsBudget {
            pinned_tokens: u64::try_from(pinned_tokens).unwrap_or(u64::MAX),
            available_tokens,
        });
    };
    Ok(Classified {
        pinned,
        scoreable,
        pinned_tokens,
        total_tokens_considered,
    })
}
