//! Stage 3, Deduplicate: keep one of byte-identical contents, a pinned one
//! when there is one, else the best-scored.
//! Items with empty content and members of a group are never merged: their
//! content does not show everything the model sees (tool calls, ids, role).

use std::borrow::Cow;
use std::collections::HashMap;

use crate::model::{ContextItem, ScoredItem};
use crate::pipeline::report::{ExcludedItem, ExclusionReason};

/// Which item a class of identical contents keeps.
#[derive(Clone, Copy, PartialEq)]
enum Keeper {
    /// A pinned item, by input index: it is always included, so every
    /// scored copy of its content is a duplicate of it.
    Pinned(usize),
    /// The best scored copy so far, by position in `scored`.
    Scored(usize),
}

/// The content `item` is merged by, or `None` when it is its own class
/// (empty content, or a member of a [`group`](crate::ContextItem::group)).
fn merge_key<'a>(item: &'a dyn ContextItem) -> Option<Cow<'a, str>> {
    if item.group().is_some() {
        return None;
    }
    Some(item.content()).filter(|content| !content.is_empty())
}

/// Removes from `scored` every item whose content is byte-identical to a
/// pinned item's (input indices `pinned` of `items`) or to a better-scored
/// item's, keeping for each content the pinned item, else the highest score
/// (the earliest on ties), and the survivors' order. Pinned items are never
/// removed. Items with empty content or a
/// [`group`](crate::ContextItem::group) are each their own class. Losers are
/// recorded in `excluded` in input order.
pub(crate) fn deduplicate(
    scored: &mut Vec<ScoredItem<'_>>,
    items: &[&dyn ContextItem],
    pinned: &[usize],
    excluded: &mut Vec<ExcludedItem>,
) {
    if scored.is_empty() || (scored.len() < 2 && pinned.is_empty()) {
        return;
    }
    // One hash per item: contents map to a class, each class remembers its
    // keeper so far. foldhash is seeded per process, so crafted contents
    // cannot force collisions.
    let mut classes: HashMap<Cow<'_, str>, usize, foldhash::fast::RandomState> =
        HashMap::with_capacity_and_hasher(scored.len() + pinned.len(), Default::default());
    let mut keepers: Vec<Keeper> = Vec::with_capacity(scored.len() + pinned.len());
    for &index in pinned {
        let next = keepers.len();
        if let Some(content) = merge_key(items[index])
            && *classes.entry(content).or_insert(next) == next
        {
            keepers.push(Keeper::Pinned(index));
        }
    }
    let mut class_of: Vec<usize> = Vec::with_capacity(scored.len());
    for (pos, candidate) in scored.iter().enumerate() {
        let next = keepers.len();
        let class = match merge_key(candidate.item) {
            Some(content) => *classes.entry(content).or_insert(next),
            None => next,
        };
        if class == next {
            keepers.push(Keeper::Scored(pos));
        } else if let Keeper::Scored(best) = keepers[class]
            && outranks(candidate.score, scored[best].score)
        {
            keepers[class] = Keeper::Scored(pos);
        }
        class_of.push(class);
    }
    let kept = |pos: usize, class: usize| keepers[class] == Keeper::Scored(pos);
    if class_of
        .iter()
        .enumerate()
        .all(|(pos, &class)| kept(pos, class))
    {
        return;
    }
    for (pos, candidate) in scored.iter().enumerate() {
        let deduplicated_against = match keepers[class_of[pos]] {
            Keeper::Scored(winner) if winner == pos => continue,
            Keeper::Scored(winner) => scored[winner].index,
            Keeper::Pinned(index) => index,
        };
        excluded.push(ExcludedItem {
            index: candidate.index,
            score: candidate.score,
            reason: ExclusionReason::Deduplicated {
                deduplicated_against,
            },
        });
    }
    let mut pos = 0;
    scored.retain(|_| {
        let keep = kept(pos, class_of[pos]);
        pos += 1;
        keep
    });
}

/// Whether `challenger` beats `holder`; NaN never beats anything.
fn outranks(challenger: f64, holder: f64) -> bool {
    challenger > holder || (holder.is_nan() && !challenger.is_nan())
}
