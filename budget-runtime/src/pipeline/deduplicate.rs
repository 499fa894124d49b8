//! Stage 3, Deduplicate: keep one of byte-identical contents, a pinned one
//! when there is one, else the best-scored.
//! Items with empty content and members of a group are never merged: their
//! content does not show everything the model sees (tool calls, ids, role).

use std::borrow::Cow;
use std::hash::BuildHasher;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use crate::model::ContextItem;
use crate::pipeline::candidates::Candidates;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};

/// Which item a class of identical contents keeps.
#[derive(Clone, Copy)]
enum Keeper {
    /// A pinned item, by input index: it is always included, so every
    /// scored copy of its content is a duplicate of it.
    Pinned(usize),
    /// The first copy met in score order, by candidate position.
    Scored(usize),
}

/// The content `item` is merged by, or `None` when it is its own class
/// (empty content, or a member of a [`group`](crate::ContextItem::group),
/// asked only when some item of the run has one: `grouped`).
fn merge_key(item: &dyn ContextItem, grouped: bool) -> Option<Cow<'_, str>> {
    if grouped && item.group().is_some() {
        return None;
    }
    Some(item.content()).filter(|content| !content.is_empty())
}

/// Removes from `order` (candidate positions in score order: score
/// descending, ties and NaN scores in position order) every candidate whose
/// content is byte-identical to a pinned item's (input indices `pinned` of
/// `items`) or to an earlier candidate's in `order`, keeping for each
/// content the pinned item, else the highest score (the earliest on ties),
/// and the survivors' order. Losers are recorded in `excluded` in score
/// order. Items with empty content or (when `grouped`, some item of the
/// run has one) a [`group`](crate::ContextItem::group) are each their own
/// class.
///
/// Walking the score order, the first candidate met with a content is its
/// keeper: no later one outranks it.
pub(crate) fn deduplicate(
    candidates: &Candidates<'_>,
    order: &mut Vec<usize>,
    items: &[&dyn ContextItem],
    pinned: &[usize],
    grouped: bool,
    excluded: &mut Vec<ExcludedItem>,
) {
    if order.is_empty() || (order.len() < 2 && pinned.is_empty()) {
        return;
    }
    // One hash per item; the table holds the keepers and compares contents
    // only when hashes agree. foldhash is seeded per process, so crafted
    // contents cannot force collisions.
    let state = foldhash::fast::RandomState::default();
    let content_of = |keeper: &Keeper| match *keeper {
        Keeper::Pinned(index) => items[index].content(),
        Keeper::Scored(pos) => candidates.items[pos].content(),
    };
    let mut keepers: HashTable<Keeper> = HashTable::with_capacity(order.len() + pinned.len());
    let mut claim = |content: &str, keeper: Keeper| match keepers.entry(
        state.hash_one(content),
        |known| *content_of(known) == *content,
        |known| state.hash_one(&*content_of(known)),
    ) {
        Entry::Vacant(slot) => {
            slot.insert(keeper);
            None
        }
        Entry::Occupied(known) => Some(*known.get()),
    };
    for &index in pinned {
        if let Some(content) = merge_key(items[index], grouped) {
            claim(&content, Keeper::Pinned(index));
        }
    }
    let mut kept = 0;
    for next in 0..order.len() {
        let pos = order[next];
        let winner = match merge_key(candidates.items[pos], grouped) {
            Some(content) => claim(&content, Keeper::Scored(pos)),
            None => None,
        };
        let deduplicated_against = match winner {
            None => {
                order[kept] = pos;
                kept += 1;
                continue;
            }
            Some(Keeper::Pinned(index)) => index,
            Some(Keeper::Scored(winner)) => candidates.indices[winner],
        };
        excluded.push(ExcludedItem {
            index: candidates.indices[pos],
            score: candidates.scores[pos],
            reason: ExclusionReason::Deduplicated {
                deduplicated_against,
            },
        });
    }
    order.truncate(kept);
}
