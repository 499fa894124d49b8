//! Stage 6, Place: merge pinned and sliced items, handle overflow, order.

use std::collections::HashMap;

use crate::error::PipelineError;
use crate::model::ScoredItem;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};
use crate::pipeline::{OverflowStrategy, PinnedLoad, descending_score};

/// The merged list after overflow handling, and the tokens over target that
/// were accepted (`Proceed` only).
pub(crate) struct Merged<'a> {
    pub items: Vec<ScoredItem<'a>>,
    pub tokens: u64,
    pub accepted_overflow: Option<u64>,
}

/// Applies the overflow strategy to `merged` (pinned first, then sliced by
/// score). Truncation exclusions are recorded in `excluded`; it keeps or
/// drops a group's members together, deciding at its best-scored member
/// with the group's total tokens.
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
            // Keep from the front, highest-scored first, as the specification
            // intends: pinned items, then by score (stable, so ties keep the
            // slicer's order). Count quotas return their committed items by
            // kind, not by score, so the merged order alone would not do.
            let mut merged = merged;
            merged.sort_by(|a, b| {
                b.item
                    .pinned()
                    .cmp(&a.item.pinned())
                    .then(descending_score(a.score, b.score))
            });
            let group_tokens = group_tokens(&merged);
            let mut group_kept: HashMap<u64, bool> = HashMap::new();
            let mut kept = Vec::with_capacity(merged.len());
            let mut current: u64 = 0;
            for candidate in merged {
                let item_tokens = candidate.tokens();
                let is_pinned = candidate.item.pinned();
                let group = candidate.item.group().filter(|_| !is_pinned);
                let keep = match group.and_then(|g| group_kept.get(&g)) {
                    Some(&decided) => decided,
                    None => {
                        let unit_tokens = group
                            .and_then(|g| group_tokens.get(&g).copied())
                            .unwrap_or(item_tokens);
                        let keep =
                            is_pinned || current.saturating_add(unit_tokens) <= target_tokens;
                        if let Some(g) = group {
                            group_kept.insert(g, keep);
                        }
                        keep
                    }
                };
                if keep {
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

/// Drops the lowest-scored unpinned items (the later one first on ties)
/// until `merged` fits `ceiling_tokens` (`max_tokens - output_reserve`),
/// recording each as `BudgetExceeded`; dropping a group's member drops the
/// whole group. Built-in slicers only get here through
/// count quotas, which commit required items whatever the budget, under an
/// overflow strategy that kept them; a custom slicer may overshoot too.
pub(crate) fn hold_ceiling<'a>(
    mut merged: Merged<'a>,
    ceiling_tokens: u64,
    excluded: &mut Vec<ExcludedItem>,
) -> Merged<'a> {
    if merged.tokens <= ceiling_tokens {
        return merged;
    }
    tracing::warn!(
        selected_tokens = merged.tokens,
        ceiling_tokens,
        "selection exceeds max_tokens - output_reserve; dropping its lowest-scored items"
    );
    let mut by_rank: Vec<usize> = (0..merged.items.len())
        .filter(|&pos| !merged.items[pos].item.pinned())
        .collect();
    by_rank.sort_by(|&a, &b| {
        merged.items[a]
            .score
            .total_cmp(&merged.items[b].score)
            .then(b.cmp(&a))
    });
    let mut keep = vec![true; merged.items.len()];
    for pos in by_rank {
        if merged.tokens <= ceiling_tokens {
            break;
        }
        if !keep[pos] {
            continue;
        }
        let group = merged.items[pos].item.group();
        let unit: Vec<usize> = match group {
            Some(g) => (0..merged.items.len())
                .filter(|&p| keep[p] && merged.items[p].item.group() == Some(g))
                .collect(),
            None => vec![pos],
        };
        let unit_tokens = unit
            .iter()
            .fold(0u64, |sum, &p| sum.saturating_add(merged.items[p].tokens()));
        merged.tokens = merged.tokens.saturating_sub(unit_tokens);
        for p in unit {
            let candidate = &merged.items[p];
            keep[p] = false;
            excluded.push(ExcludedItem {
                index: candidate.index,
                score: candidate.score,
                reason: ExclusionReason::BudgetExceeded {
                    item_tokens: unit_tokens,
                    available_tokens: ceiling_tokens.saturating_sub(merged.tokens),
                },
            });
        }
    }
    let mut keep = keep.into_iter();
    merged.items.retain(|_| keep.next().unwrap_or(true));
    merged
}

/// The summed tokens of each group among the unpinned candidates.
fn group_tokens(candidates: &[ScoredItem<'_>]) -> HashMap<u64, u64> {
    let mut sums: HashMap<u64, u64> = HashMap::new();
    for candidate in candidates.iter().filter(|c| !c.item.pinned()) {
        if let Some(group) = candidate.item.group() {
            let sum = sums.entry(group).or_insert(0);
            *sum = sum.saturating_add(candidate.tokens());
        }
    }
    sums
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
