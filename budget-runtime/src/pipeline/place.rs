//! Stage 6, Place: merge pinned and sliced items, handle overflow, order.

use std::collections::HashMap;

use crate::model::ScoredItem;
use crate::model::descending_score;
use crate::pipeline::PipelineError;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};
use crate::pipeline::{OverflowStrategy, PinnedLoad};

/// The merged list after overflow handling, and the tokens over target that
/// were accepted (`Proceed` only).
pub(crate) struct Merged<'a> {
    pub items: Vec<ScoredItem<'a>>,
    pub tokens: u64,
    pub accepted_overflow: Option<u64>,
}

/// Applies the overflow strategy to `merged` (its first `pinned_count`
/// items pinned, then the sliced ones by score). Truncation keeps every
/// pinned item and the pinned items stay first; it keeps or drops a group's
/// members together, deciding at its best-scored member with the group's
/// total tokens. Its exclusions are recorded in `excluded`.
pub(crate) fn handle_overflow<'a>(
    merged: Vec<ScoredItem<'a>>,
    pinned_count: usize,
    target_tokens: u64,
    strategy: OverflowStrategy,
    pinned: Option<PinnedLoad>,
    excluded: &mut Vec<ExcludedItem>,
) -> Result<Merged<'a>, PipelineError> {
    let tokens = sum_tokens(&merged);
    if exact_sum(&merged) <= u128::from(target_tokens) {
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
            // Whether an item is pinned comes from its position, as read
            // once by Classify, never from asking the item again.
            let mut ranked: Vec<(bool, ScoredItem<'a>)> = merged
                .into_iter()
                .enumerate()
                .map(|(pos, candidate)| (pos < pinned_count, candidate))
                .collect();
            ranked.sort_by(|(a_pinned, a), (b_pinned, b)| {
                b_pinned
                    .cmp(a_pinned)
                    .then(descending_score(a.score, b.score))
            });
            let group_tokens = group_tokens(&ranked);
            let mut group_kept: HashMap<u64, bool> = HashMap::new();
            let mut kept = Vec::with_capacity(ranked.len());
            let mut current: u64 = 0;
            for (is_pinned, candidate) in ranked {
                let item_tokens = candidate.tokens();
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

/// Drops the lowest-scored unpinned items (the later one first on ties;
/// the first `pinned_count` items are the pinned ones, as every overflow
/// strategy leaves them) until `merged` fits `ceiling_tokens`
/// (`max_tokens - output_reserve`), recording each as `BudgetExceeded`;
/// dropping a group's member drops the whole group. Sums are exact, never
/// saturated. Built-in slicers only get here through
/// count quotas, which commit required items whatever the budget, under an
/// overflow strategy that kept them; a custom slicer may overshoot too.
pub(crate) fn hold_ceiling<'a>(
    mut merged: Merged<'a>,
    pinned_count: usize,
    ceiling_tokens: u64,
    excluded: &mut Vec<ExcludedItem>,
) -> Merged<'a> {
    // Exact sums: `merged.tokens` saturates, and subtracting from a
    // saturated sum would undercount (even below zero).
    let mut total = exact_sum(&merged.items);
    let ceiling = u128::from(ceiling_tokens);
    if total <= ceiling {
        return merged;
    }
    tracing::warn!(
        selected_tokens = merged.tokens,
        ceiling_tokens,
        "selection exceeds max_tokens - output_reserve; dropping its lowest-scored items"
    );
    let mut by_rank: Vec<usize> = (pinned_count..merged.items.len()).collect();
    by_rank.sort_by(|&a, &b| {
        merged.items[a]
            .score
            .total_cmp(&merged.items[b].score)
            .then(b.cmp(&a))
    });
    let mut keep = vec![true; merged.items.len()];
    for pos in by_rank {
        if total <= ceiling {
            break;
        }
        if !keep[pos] {
            continue;
        }
        let group = merged.items[pos].item.group();
        let unit: Vec<usize> = match group {
            Some(g) => (pinned_count..merged.items.len())
                .filter(|&p| keep[p] && merged.items[p].item.group() == Some(g))
                .collect(),
            None => vec![pos],
        };
        let unit_tokens: u128 = unit
            .iter()
            .map(|&p| u128::from(merged.items[p].tokens()))
            .sum();
        total -= unit_tokens;
        let item_tokens = u64::try_from(unit_tokens).unwrap_or(u64::MAX);
        let available_tokens = u64::try_from(ceiling.saturating_sub(total)).unwrap_or(u64::MAX);
        for p in unit {
            let candidate = &merged.items[p];
            keep[p] = false;
            excluded.push(ExcludedItem {
                index: candidate.index,
                score: candidate.score,
                reason: ExclusionReason::BudgetExceeded {
                    item_tokens,
                    available_tokens,
                },
            });
        }
    }
    merged.tokens = u64::try_from(total).unwrap_or(u64::MAX);
    let mut keep = keep.into_iter();
    merged.items.retain(|_| keep.next().unwrap_or(true));
    merged
}

/// The summed tokens of each group among the unpinned candidates (those
/// flagged `false`).
fn group_tokens(candidates: &[(bool, ScoredItem<'_>)]) -> HashMap<u64, u64> {
    let mut sums: HashMap<u64, u64> = HashMap::new();
    for (_, candidate) in candidates.iter().filter(|(is_pinned, _)| !is_pinned) {
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

/// The exact sum of the candidates' tokens (a `u128` cannot overflow).
fn exact_sum(candidates: &[ScoredItem<'_>]) -> u128 {
    candidates.iter().map(|c| u128::from(c.tokens())).sum()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Item;

    /// Found by the adversarial suite: a rogue slicer picked `u64::MAX` and
    /// 1 tokens, whose saturated sum (`u64::MAX`) hid the overrun. The exact
    /// sum drops only what it must.
    #[test]
    fn hold_ceiling_counts_exactly_past_saturation() {
        let (huge, one) = (
            Item::new("huge", u64::MAX).unwrap(),
            Item::new("one", 1).unwrap(),
        );
        let items = vec![
            ScoredItem::new(&huge, 0, 0.9),
            ScoredItem::new(&one, 1, 0.1),
        ];
        let merged = Merged {
            tokens: sum_tokens(&items),
            items,
            accepted_overflow: None,
        };
        assert_eq!(merged.tokens, u64::MAX);
        let mut excluded = Vec::new();
        let held = hold_ceiling(merged, 0, u64::MAX, &mut excluded);
        // u64::MAX + 1 is one over: dropping the lowest-scored item is enough.
        assert_eq!(held.tokens, u64::MAX);
        assert_eq!(held.items.len(), 1);
        assert_eq!(held.items[0].index, 0);
        assert_eq!(excluded.len(), 1);
        assert_eq!(
            excluded[0].reason,
            ExclusionReason::BudgetExceeded {
                item_tokens: 1,
                available_tokens: 0
            }
        );
    }
}
