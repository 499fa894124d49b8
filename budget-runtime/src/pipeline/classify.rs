//! Stage 1, Classify: drop negative-token items, split pinned from scoreable,
//! and check that pinned items fit.

use crate::error::PipelineError;
use crate::model::{ContextBudget, ContextItem};
use crate::pipeline::groups::pinned_groups;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};

/// The partition of the input, by input index.
pub(crate) struct Classified {
    pub pinned: Vec<usize>,
    pub scoreable: Vec<usize>,
    pub pinned_tokens: u64,
    /// Sum of every item's declared count, negative ones included (the
    /// specification's `total_tokens_considered`).
    pub total_tokens_considered: i128,
}

/// Partitions `items`, recording negative-token exclusions in `excluded`.
///
/// Negative counts ([`ContextItem::negative_tokens`]) are excluded here and
/// nowhere else: every later stage sees only `u64` counts. A member of a
/// group with a pinned member is pinned too.
pub(crate) fn classify(
    items: &[&dyn ContextItem],
    budget: &ContextBudget,
    excluded: &mut Vec<ExcludedItem>,
) -> Result<Classified, PipelineError> {
    let mut pinned = Vec::new();
    let mut scoreable = Vec::with_capacity(items.len());
    let mut pinned_tokens: u64 = 0;
    let mut total_tokens_considered: i128 = 0;
    let pinned_groups = pinned_groups(items);
    for (index, item) in items.iter().enumerate() {
        if let Some(tokens) = item.negative_tokens() {
            total_tokens_considered += i128::from(tokens);
            excluded.push(ExcludedItem {
                index,
                score: 0.0,
                reason: ExclusionReason::NegativeTokens { tokens },
            });
            continue;
        }
        let tokens = item.tokens();
        total_tokens_considered += i128::from(tokens);
        if item.pinned() || item.group().is_some_and(|g| pinned_groups.contains(&g)) {
            pinned.push(index);
            pinned_tokens = pinned_tokens.saturating_add(tokens);
        } else {
            scoreable.push(index);
        }
    }
    let available_tokens = budget.max_tokens().saturating_sub(budget.output_reserve());
    if pinned_tokens > available_tokens {
        return Err(PipelineError::PinnedExceedsBudget {
            pinned_tokens,
            available_tokens,
        });
    }
    Ok(Classified {
        pinned,
        scoreable,
        pinned_tokens,
        total_tokens_considered,
    })
}
