//! Stage 3, Deduplicate: keep one of byte-identical contents (with
//! `PinnedWins`, a pinned one when there is one), else the best-scored.
//! Items with empty content and members of a group are never merged: their
//! content does not show everything the model sees (tool calls, ids, role).

use std::borrow::Cow;
use std::hash::{BuildHasher, Hasher};

use crate::model::ContextItem;
use crate::pipeline::candidates::Candidates;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};

/// How a [`Pipeline`](crate::Pipeline) deduplicates byte-identical
/// contents. Items with empty content and members of a group are never
/// deduplicated: they differ in what the content does not show (tool calls,
/// their ids and arguments, the role).
///
/// ```
/// use budget::pipeline::Deduplication;
/// use budget::{ContextBudget, Item, Pipeline};
///
/// let items = [
///     Item::builder("be brief").tokens(3).pinned(true).build()?,
///     Item::builder("be brief").tokens(3).priority(5).build()?,
/// ];
/// let budget = ContextBudget::new(100, 100)?;
/// // The Cupel specification deduplicates scored items only: both stay.
/// assert_eq!(Pipeline::default().run(&items, &budget)?.items().len(), 2);
/// // PinnedWins drops the scored copy of a pinned content.
/// let pinned_wins = Pipeline::builder().deduplication(Deduplication::PinnedWins).build();
/// assert_eq!(pinned_wins.run(&items, &budget)?.items().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Deduplication {
    /// No deduplication.
    Off,
    /// The Cupel specification's rule, the default: among scored (unpinned)
    /// items, the best-scored copy of each content stays (the earliest on
    /// ties); pinned items are never compared.
    #[default]
    AmongScored,
    /// As [`AmongScored`](Self::AmongScored), and a scored item whose
    /// content equals a pinned item's is dropped as its duplicate: the
    /// pinned copy is always in the window already. Departs from the Cupel
    /// specification; choose it explicitly.
    PinnedWins,
}

/// Which item a class of identical contents keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
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

/// The keepers by content hash: open addressing with linear probing over
/// slots holding a keeper's number (plus one; 0 is empty), at most two
/// thirds full; contents are compared only when full hashes agree.
struct Keepers {
    slots: Vec<usize>,
    /// Each keeper with its content's hash, in the order they claimed.
    claimed: Vec<(u64, Keeper)>,
    mask: u64,
}

impl Keepers {
    /// Room for `len` keepers.
    fn with_room_for(len: usize) -> Self {
        let slots = len
            .saturating_add(len / 2)
            .saturating_add(1)
            .next_power_of_two();
        Self {
            slots: vec![0; slots],
            claimed: Vec::with_capacity(len),
            mask: u64::try_from(slots - 1).unwrap_or(u64::MAX),
        }
    }

    /// The keeper of the content hashing to `hash` for which `same` holds,
    /// if there is one; else `keeper` becomes its keeper (`None`).
    fn claim(
        &mut self,
        hash: u64,
        keeper: Keeper,
        same: impl Fn(Keeper) -> bool,
    ) -> Option<Keeper> {
        // `mask` is below the slot count, so the index always fits.
        let mut slot = usize::try_from(hash & self.mask).unwrap_or(0);
        loop {
            match self.slots[slot].checked_sub(1) {
                None => {
                    self.claimed.push((hash, keeper));
                    self.slots[slot] = self.claimed.len();
                    return None;
                }
                Some(number) => {
                    let (known_hash, known) = self.claimed[number];
                    if known_hash == hash && same(known) {
                        return Some(known);
                    }
                    slot = (slot + 1) & (self.slots.len() - 1);
                }
            }
        }
    }
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
    items: &[impl ContextItem],
    pinned: &[usize],
    grouped: bool,
    excluded: &mut Vec<ExcludedItem>,
) {
    if order.is_empty() || (order.len() < 2 && pinned.is_empty()) {
        return;
    }
    // One hash per item. foldhash is seeded per process, so crafted
    // contents cannot force collisions.
    let state = foldhash::fast::RandomState::default();
    let hash_of = |content: &str| {
        let mut hasher = state.build_hasher();
        hasher.write(content.as_bytes());
        hasher.finish()
    };
    let content_of = |keeper: Keeper| match keeper {
        Keeper::Pinned(index) => items[index].content(),
        Keeper::Scored(pos) => candidates.items[pos].content(),
    };
    let mut keepers = Keepers::with_room_for(order.len() + pinned.len());
    for &index in pinned {
        if let Some(content) = merge_key(&items[index], grouped) {
            keepers.claim(hash_of(&content), Keeper::Pinned(index), |known| {
                content_of(known) == content
            });
        }
    }
    let mut kept = 0;
    for next in 0..order.len() {
        let pos = order[next];
        let winner = merge_key(candidates.items[pos], grouped).and_then(|content| {
            keepers.claim(hash_of(&content), Keeper::Scored(pos), |known| {
                content_of(known) == content
            })
        });
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

#[cfg(test)]
mod tests {
    use super::{Keeper, Keepers};

    /// Contents whose hashes collide each keep their own slot (probing past
    /// the last slot wraps to the first), and a later copy finds its keeper
    /// past the others.
    #[test]
    fn colliding_hashes_probe_on_and_wrap() {
        let mut keepers = Keepers::with_room_for(3);
        assert_eq!(keepers.slots.len(), 8);
        let last = 7;
        assert_eq!(keepers.claim(last, Keeper::Pinned(4), |_| false), None);
        assert_eq!(keepers.claim(last, Keeper::Scored(0), |_| false), None);
        assert_eq!(keepers.slots[0], 2, "wrapped to the first slot");
        assert_eq!(
            keepers.claim(last, Keeper::Scored(1), |k| k == Keeper::Scored(0)),
            Some(Keeper::Scored(0))
        );
        // Equal contents with another hash are another class.
        assert_eq!(keepers.claim(3, Keeper::Scored(2), |_| true), None);
        assert_eq!(keepers.claimed.len(), 3);
    }
}
