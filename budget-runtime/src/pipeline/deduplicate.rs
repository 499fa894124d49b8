//! Stage 3, Deduplicate: keep the best-scored of byte-identical contents.
//! Items with empty content and members of a group are never merged: their
//! content does not show everything the model sees (tool calls, ids, role).

use std::borrow::Cow;
use std::collections::HashMap;

use crate::model::ScoredItem;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};

/// Removes byte-identical duplicates from `scored`, keeping for each content
/// the highest score (the earliest on ties) and the survivors' order.
/// Losers are recorded in `excluded` in input order. Candidates with empty
/// content or a [`group`](crate::ContextItem::group) are each their own class.
pub(crate) fn deduplicate(scored: &mut Vec<ScoredItem<'_>>, excluded: &mut Vec<ExcludedItem>) {
    if scored.len() < 2 {
        return;
    }
    // One hash per candidate: contents map to a group, each group remembers
    // its best position so far. foldhash is seeded per process, so crafted
    // contents cannot force collisions.
    let mut groups: HashMap<Cow<'_, str>, usize, foldhash::fast::RandomState> =
        HashMap::with_capacity_and_hasher(scored.len(), Default::default());
    let mut best_of_group: Vec<usize> = Vec::with_capacity(scored.len());
    let mut group_of: Vec<usize> = Vec::with_capacity(scored.len());
    for (pos, candidate) in scored.iter().enumerate() {
        let next = best_of_group.len();
        let content = candidate.item.content();
        let group = if content.is_empty() || candidate.item.group().is_some() {
            next
        } else {
            *groups.entry(content).or_insert(next)
        };
        if group == next {
            best_of_group.push(pos);
        } else if outranks(candidate.score, scored[best_of_group[group]].score) {
            best_of_group[group] = pos;
        }
        group_of.push(group);
    }
    if best_of_group.len() == scored.len() {
        return;
    }
    for (pos, candidate) in scored.iter().enumerate() {
        let winner = best_of_group[group_of[pos]];
        if winner != pos {
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
        let kept = best_of_group[group_of[pos]] == pos;
        pos += 1;
        kept
    });
}

/// Whether `challenger` beats `holder`; NaN never beats anything.
fn outranks(challenger: f64, holder: f64) -> bool {
    challenger > holder || (holder.is_nan() && !challenger.is_nan())
}
