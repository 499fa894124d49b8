//! Stage 3, Deduplicate: keep the best-scored of byte-identical contents.

use std::borrow::Cow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::model::ScoredItem;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};

/// Removes byte-identical duplicates from `scored`, keeping for each content
/// the highest score (the earliest on ties) and the survivors' order.
/// Losers are recorded in `excluded` in input order.
pub(crate) fn deduplicate(scored: &mut Vec<ScoredItem<'_>>, excluded: &mut Vec<ExcludedItem>) {
    if scored.len() < 2 {
        return;
    }
    let mut best: HashMap<Cow<'_, str>, usize> = HashMap::with_capacity(scored.len());
    for (pos, candidate) in scored.iter().enumerate() {
        match best.entry(candidate.item.content()) {
            Entry::Vacant(slot) => {
                slot.insert(pos);
            }
            Entry::Occupied(mut slot) => {
                if outranks(candidate.score, scored[*slot.get()].score) {
                    slot.insert(pos);
                }
            }
        }
    }
    if best.len() == scored.len() {
        return;
    }
    let mut keep = vec![false; scored.len()];
    for &pos in best.values() {
        keep[pos] = true;
    }
    for (pos, candidate) in scored.iter().enumerate() {
        if !keep[pos] {
            let winner = best[&candidate.item.content()];
            excluded.push(ExcludedItem {
                index: candidate.index,
                score: candidate.score,
                reason: ExclusionReason::Deduplicated {
                    deduplicated_against: scored[winner].index,
                },
            });
        }
    }
    let mut pos = 0;
    scored.retain(|_| {
        let kept = keep[pos];
        pos += 1;
        kept
    });
}

/// Whether `challenger` beats `holder`; NaN never beats anything.
fn outranks(challenger: f64, holder: f64) -> bool {
    challenger > holder || (holder.is_nan() && !challenger.is_nan())
}
