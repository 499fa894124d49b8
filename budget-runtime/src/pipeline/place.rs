//! Stage 6, Place: merge pinned and sliced items, handle overflow, order.

use crate::error::PipelineError;
use crate::model::ScoredItem;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};
use crate::pipeline::{OverflowStrategy, PinnedLoad, descending_score};

/// The merged list after overflow handling, and the tokens over target that
/// were accepted (`Proceed` only).
pub(crate) struct Merged<'a> {
    pub items: Vec<ScoredItem<'a>>,
    pub tokens: i64,
    pub accepted_overflow: Option<i64>,
}

/// Applies the overflow strategy to `merged` (its first `pinned_count`
/// items pinned, then the sliced ones by score). Truncation keeps every
/// pinned item and the pinned items stay first; its exclusions are recorded
/// in `excluded`.
pub(crate) fn handle_overflow<'a>(
    merged: Vec<ScoredItem<'a>>,
    pinned_count: usize,
    target_tokens: i64,
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
            let mut kept = Vec::with_capacity(ranked.len());
            let mut current: i64 = 0;
            for (is_pinned, candidate) in ranked {
                let item_tokens = candidate.tokens();
                if is_pinned || current.saturating_add(item_tokens) <= target_tokens {
                    current = current.saturating_add(item_tokens);
                    kept.push(candidate);
                    continue;
                }
                let available_tokens = target_tokens.saturating_sub(current).max(0);
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
/// (`max_tokens - output_reserve`),
/// recording each as `BudgetExceeded`. Built-in slicers only get here through
/// count quotas, which commit required items whatever the budget, under an
/// overflow strategy that kept them; a custom slicer may overshoot too.
pub(crate) fn hold_ceiling<'a>(
    mut merged: Merged<'a>,
    pinned_count: usize,
    ceiling_tokens: i64,
    excluded: &mut Vec<ExcludedItem>,
) -> Merged<'a> {
    // Exact sums: `merged.tokens` saturates, and subtracting from a
    // saturated sum would undercount (even below zero).
    let mut total: i128 = merged.items.iter().map(|c| i128::from(c.tokens())).sum();
    let ceiling = i128::from(ceiling_tokens);
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
        let candidate = &merged.items[pos];
        total -= i128::from(candidate.tokens());
        keep[pos] = false;
        let available = (ceiling - total).clamp(0, i128::from(i64::MAX));
        excluded.push(ExcludedItem {
            index: candidate.index,
            score: candidate.score,
            reason: ExclusionReason::BudgetExceeded {
                item_tokens: candidate.tokens(),
                available_tokens: i64::try_from(available).unwrap_or(i64::MAX),
            },
        });
    }
    merged.tokens = i64::try_from(total).unwrap_or(i64::MAX);
    let mut keep = keep.into_iter();
    merged.items.retain(|_| keep.next().unwrap_or(true));
    merged
}

/// Sum of the candidates' tokens. Callers pass sets already held within an
/// `i64` budget; the sum saturates rather than wraps if one is not.
pub(crate) fn sum_tokens(candidates: &[ScoredItem<'_>]) -> i64 {
    let exact: i128 = candidates.iter().map(|c| i128::from(c.tokens())).sum();
    i64::try_from(exact).unwrap_or(if exact < 0 { i64::MIN } else { i64::MAX })
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

    /// Found by the adversarial suite: a rogue slicer picked `i64::MAX` and
    /// 1 tokens, whose saturated sum (`i64::MAX`) minus both gave a
    /// selection of -1 tokens. The exact sum drops only what it must.
    #[test]
    fn hold_ceiling_counts_exactly_past_saturation() {
        let (huge, one) = (
            Item::new("huge", i64::MAX).unwrap(),
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
        assert_eq!(merged.tokens, i64::MAX);
        let mut excluded = Vec::new();
        let held = hold_ceiling(merged, 0, i64::MAX, &mut excluded);
        // i64::MAX + 1 is one over: dropping the lowest-scored item is enough.
        assert_eq!(held.tokens, i64::MAX);
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
