//! Stage 6, Place: merge pinned and sliced items, handle overflow, order.

use crate::error::PipelineError;
use crate::model::ScoredItem;
use crate::pipeline::report::ExcludedItem;
use crate::pipeline::{OverflowStrategy, PinnedLoad};

/// The merged list after overflow handling, and the tokens over target that
/// were accepted (`Proceed` only).
pub(crate) struct Merged<'a> {
    pub items: Vec<ScoredItem<'a>>,
    pub tokens: u64,
    pub accepted_overflow: Option<u64>,
}

/// Applies the overflow strategy to `merged` (pinned first, then sliced by
/// score). Truncation exclusions are recorded in `excluded`.
pub(crate) fn handle_overflow<'a>(
    merged: Vec<ScoredItem<'a>>,
    target_tokens: u64,
    strategy: OverflowStrategy,
    pinned: Option<PinnedLoad>,
    excluded: &mut Vec<ExcludedItem>,
) -> Result<Merged<'a>, PipelineError> {
    let tokens = sum_tokens(&merged);
    if tokens <= target_tokens {
        return Ok(Merged {
            items: merged,
            tokens,
            accepted_overflow: None,
        });
    }
    match strategy {
        OverflowStrategy::Throw => Err(PipelineError::Overflow {
            selected_tokens: tokens,
            target_tokens,
        }),
        OverflowStrategy::Proceed => {
            let over = tokens.saturating_sub(target_tokens);
            tracing::warn!(
                selected_tokens = tokens,
                target_tokens,
                over,
                "selection exceeds target_tokens; proceeding as configured"
            );
            Ok(Merged {
                items: merged,
                tokens,
                accepted_overflow: Some(over),
            })
        }
        OverflowStrategy::Truncate => {
            let mut kept = Vec::with_capacity(merged.len());
            let mut current: u64 = 0;
            for candidate in merged {
                let item_tokens = candidate.tokens();
                if candidate.item.pinned() || current.saturating_add(item_tokens) <= target_tokens {
                    current = current.saturating_add(item_tokens);
                    kept.push(candidate);
                    continue;
                }
                let available_tokens = target_tokens.saturating_sub(current);
                excluded.push(ExcludedItem {
                    index: candidate.index,
                    score: candidate.score,
                    reason: PinnedLoad::exclusion(pinned, item_tokens, available_tokens),
                });
            }
            Ok(Merged {
                items: kept,
                tokens: current,
                accepted_overflow: None,
            })
        }
    }
}

/// Sum of the candidates' tokens. Callers pass sets already held within a
/// budget; the sum saturates rather than wraps if one is not.
pub(crate) fn sum_tokens(candidates: &[ScoredItem<'_>]) -> u64 {
    candidates
        .iter()
        .fold(0u64, |sum, c| sum.saturating_add(c.tokens()))
}

/// Whether `order` is a permutation of `0..len`.
pub(crate) fn is_permutation(order: &[usize], len: usize) -> bool {
    if order.len() != len {
        return false;
    }
    let mut seen = vec![false; len];
    for &pos in order {
        match seen.get_mut(pos) {
            Some(slot) if !*slot => *slot = true,
            _ => return false,
        }
    }
    true
}
