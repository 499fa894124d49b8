//! The tier-assignment engine: offers items to tiers in rank order and demotes
//! the lowest-ranked item of a full tier, with one min-heap per tier so that
//! `n` items cost O(n log n).
//!
//! # The rules
//!
//! An item is offered to its starting tier (RAW unless it asks for less).
//! In tier `t` with effective limit `L`:
//!
//! 1. If an item ranked at or above it was already demoted from `t`, it is
//!    not admitted ([`AssignmentReason::RanksBelowDemoted`]), so a demoted
//!    item always ranks below every item left in `t`.
//! 2. If its cost in `t` exceeds `L` on its own, nothing can make room
//!    ([`AssignmentReason::TooLarge`]).
//! 3. If it fits in what is left of `L`, it enters `t`.
//! 4. Otherwise `t` is full. If the lowest-ranked item of `t` ranks below
//!    the newcomer, that item is demoted one tier down (offered there by the
//!    same rules, which may cascade), and the newcomer is re-checked once: if
//!    it fits now it enters `t`. The newcomer itself is never the demotion
//!    target: when it ranks lowest, nothing is demoted.
//! 5. Otherwise it is offered to the next tier down
//!    ([`AssignmentReason::TierFull`]); below SUMMARY it is omitted.
//!
//! These are the token-budget rules (RAW full: demote the lowest-scoring RAW item
//! to LINKED and re-check; LINKED full: SUMMARY mention; SUMMARY full:
//! omitted), applied the same way in every tier, with the comparison that
//! keeps the highest-ranked content in the highest tier. When items arrive
//! in rank order the newcomer always ranks lowest, so rule 4 never demotes
//! and items that do not fit fall to the next tier; demotions then come from
//! items that arrive out of rank order and from the render-overflow pass.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::model::Tier;
use crate::payload::candidate::Rank;
use crate::payload::tally::slot;
use crate::payload::{
    AssignmentAction, AssignmentEvent, AssignmentReason, DemotionCause, ItemState, Tally,
};

/// Tokens an item costs in a tier.
pub(crate) trait TierCost {
    /// The cost of the item at `position` in `tier`, in tokens, when it is
    /// at most `room`; otherwise either that cost or any count that exceeds
    /// `room` without exceeding the cost (a lower bound that proves the
    /// item does not fit, so that counting can stop at `room`).
    fn cost(&mut self, position: usize, tier: Tier, room: u64) -> u64;

    /// Whether the item at `position` has a form in `tier` (only items
    /// with a skeleton have one in SKELETON); a tier it has none in is
    /// passed over. Default: every tier.
    fn offers(&self, position: usize, tier: Tier) -> bool {
        let _ = (position, tier);
        true
    }
}

/// The engine's record of one item.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    pub(crate) state: ItemState,
    pub(crate) reason: AssignmentReason,
    pub(crate) tokens: u64,
    pub(crate) demoted_from: Option<Tier>,
}

/// Places items into tiers; see the module documentation for the rules.
pub(crate) struct TierAssigner<C> {
    ranks: Vec<Rank>,
    costs: C,
    tally: Tally,
    members: [BinaryHeap<Reverse<Rank>>; 4],
    watermark: [Option<Rank>; 4],
    slots: Vec<Slot>,
    events: Vec<AssignmentEvent>,
}

impl<C: TierCost> TierAssigner<C> {
    /// An engine for items with `scores` (by position), limits from `tally`.
    pub(crate) fn new(tally: Tally, scores: &[f64], costs: C) -> Self {
        let ranks = scores
            .iter()
            .enumerate()
            .map(|(position, &score)| Rank::new(score, position))
            .collect();
        let unplaced = Slot {
            state: ItemState::Omitted,
            reason: AssignmentReason::Fitted {
                requested: Tier::Raw,
            },
            tokens: 0,
            demoted_from: None,
        };
        Self {
            ranks,
            costs,
            tally,
            members: Default::default(),
            watermark: [None; 4],
            slots: vec![unplaced; scores.len()],
            events: Vec::with_capacity(scores.len()),
        }
    }

    /// Offers the item at `position` to `start` and the tiers below it.
    pub(crate) fn place(&mut self, position: usize, start: Tier) {
        self.offer(
            position,
            Some(start),
            AssignmentReason::Fitted { requested: start },
        );
    }

    /// Records the item at `position` as omitted for `reason` without
    /// offering it to any tier.
    pub(crate) fn omit(&mut self, position: usize, reason: AssignmentReason) {
        self.slots[position] = Slot {
            state: ItemState::Omitted,
            reason,
            tokens: 0,
            demoted_from: None,
        };
        self.record(AssignmentEvent {
            position,
            action: AssignmentAction::Omitted,
        });
    }

    /// Demotes the lowest-ranked item of the most detailed non-empty tier
    /// because the rendered payload is too large. `false` when every tier
    /// is empty.
    pub(crate) fn demote_for_overflow(&mut self) -> bool {
        Tier::ALL
            .into_iter()
            .any(|tier| self.demote_lowest(tier, DemotionCause::RenderOverflow))
    }

    /// The current tally.
    pub(crate) fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Every item's record, by position.
    pub(crate) fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// The events so far.
    pub(crate) fn events(&self) -> &[AssignmentEvent] {
        &self.events
    }

    /// The slots and events, giving up the engine.
    pub(crate) fn into_parts(self) -> (Vec<Slot>, Vec<AssignmentEvent>, Tally) {
        (self.slots, self.events, self.tally)
    }

    fn offer(&mut self, position: usize, mut tier: Option<Tier>, mut reason: AssignmentReason) {
        let rank = self.ranks[position];
        while let Some(t) = tier {
            tier = t.below();
            if !self.costs.offers(position, t) {
                continue;
            }
            let s = slot(t);
            if self.watermark[s].is_some_and(|demoted| demoted >= rank) {
                reason = AssignmentReason::RanksBelowDemoted { tier: t };
                continue;
            }
            let limit = self.tally.tier(t).limit;
            let lowest_ranks_below = self.members[s]
                .peek()
                .is_some_and(|Reverse(lowest)| *lowest < rank);
            // Exact up to what is left; up to the limit when a demotion
            // could make room (rule 4 needs the cost, rule 2 a cost over
            // the limit, and a lower bound over what is left gives neither).
            let room = if lowest_ranks_below {
                limit
            } else {
                self.tally.room(t)
            };
            let cost = self.costs.cost(position, t, room);
            if cost > limit {
                reason = AssignmentReason::TooLarge {
                    tier: t,
                    needed: cost,
                    limit,
                };
                continue;
            }
            if cost <= self.tally.room(t) {
                self.enter(position, t, cost, reason);
                return;
            }
            if lowest_ranks_below {
                self.demote_lowest(t, DemotionCause::Displaced { by: position });
                if cost <= self.tally.room(t) {
                    self.enter(position, t, cost, reason);
                    return;
                }
            }
            reason = AssignmentReason::TierFull {
                tier: t,
                needed: cost,
                available: self.tally.room(t),
            };
        }
        self.omit_after_offer(position, reason);
    }

    fn enter(&mut self, position: usize, tier: Tier, tokens: u64, reason: AssignmentReason) {
        self.members[slot(tier)].push(Reverse(self.ranks[position]));
        let record = &mut self.slots[position];
        record.state = ItemState::of(tier);
        record.reason = reason;
        record.tokens = tokens;
        self.record(AssignmentEvent {
            position,
            action: AssignmentAction::Placed { tier, tokens },
        });
    }

    fn omit_after_offer(&mut self, position: usize, reason: AssignmentReason) {
        let record = &mut self.slots[position];
        record.state = ItemState::Omitted;
        record.reason = reason;
        record.tokens = 0;
        self.record(AssignmentEvent {
            position,
            action: AssignmentAction::Omitted,
        });
    }

    /// Demotes the lowest-ranked member of `tier` one tier down; `false`
    /// when `tier` is empty.
    fn demote_lowest(&mut self, tier: Tier, cause: DemotionCause) -> bool {
        let s = slot(tier);
        let Some(Reverse(lowest)) = self.members[s].pop() else {
            return false;
        };
        let position = lowest.position;
        self.watermark[s] = self.watermark[s].max(Some(lowest));
        let record = &mut self.slots[position];
        let tokens = record.tokens;
        record.demoted_from = Some(record.demoted_from.map_or(tier, |d| d.max(tier)));
        self.record(AssignmentEvent {
            position,
            action: AssignmentAction::Demoted {
                from: tier,
                tokens,
                cause,
            },
        });
        self.offer(
            position,
            tier.below(),
            AssignmentReason::Demoted { from: tier, cause },
        );
        true
    }

    fn record(&mut self, event: AssignmentEvent) {
        self.tally.apply(&event);
        self.events.push(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fixed costs per position: `[raw, linked, summary]`, and the
    /// skeleton's cost of the items that have one.
    struct Fixed(Vec<[u64; 3]>, Vec<Option<u64>>);

    impl TierCost for Fixed {
        fn cost(&mut self, position: usize, tier: Tier, _room: u64) -> u64 {
            let [raw, linked, summary] = self.0[position];
            match tier {
                Tier::Raw => raw,
                Tier::Skeleton => self.1[position].unwrap_or(u64::MAX),
                Tier::Linked => linked,
                Tier::Summary => summary,
            }
        }
        fn offers(&self, position: usize, tier: Tier) -> bool {
            tier != Tier::Skeleton || self.1[position].is_some()
        }
    }

    /// RAW 100 (shared with SKELETON), LINKED 10, SUMMARY 4 tokens.
    fn engine(items: &[(f64, [u64; 3])]) -> TierAssigner<Fixed> {
        with_skeletons(items, &vec![None; items.len()])
    }

    fn with_skeletons(items: &[(f64, [u64; 3])], skeletons: &[Option<u64>]) -> TierAssigner<Fixed> {
        let scores: Vec<f64> = items.iter().map(|(s, _)| *s).collect();
        let costs = Fixed(items.iter().map(|(_, c)| *c).collect(), skeletons.to_vec());
        TierAssigner::new(Tally::with_limits(1_000, 0, 100, 10, 4), &scores, costs)
    }

    /// An item that does not fit RAW whole enters SKELETON, which draws on
    /// RAW's limit; an item without a skeleton goes on to LINKED.
    #[test]
    fn a_file_too_large_for_raw_falls_to_its_skeleton_in_the_same_budget() {
        let mut e = with_skeletons(
            &[
                (0.9, [70, 3, 1]),
                (0.8, [50, 3, 1]),
                (0.7, [60, 3, 1]),
                (0.6, [40, 3, 1]),
            ],
            &[None, Some(20), None, Some(15)],
        );
        for p in 0..4 {
            e.place(p, Tier::Raw);
        }
        // 70 RAW; #1 (50) does not fit the 30 left, its skeleton (20) does;
        // #2 has no skeleton: LINKED; #3's skeleton (15) does not fit the 10 left.
        assert_eq!(
            states(&e),
            [
                ItemState::Raw,
                ItemState::Skeleton,
                ItemState::Linked,
                ItemState::Linked
            ]
        );
        assert_eq!(e.tally().tier(Tier::Skeleton).used, 20);
        assert_eq!(e.tally().room(Tier::Raw), 10);
        assert_eq!(
            e.slots()[3].reason,
            AssignmentReason::TierFull {
                tier: Tier::Skeleton,
                needed: 15,
                available: 10
            }
        );
        assert_eq!(
            e.slots()[2].reason,
            AssignmentReason::TierFull {
                tier: Tier::Raw,
                needed: 60,
                available: 10
            }
        );
        // Overflow demotes RAW to SKELETON only where there is a skeleton:
        // #0 has none, so it goes to LINKED.
        assert!(e.demote_for_overflow());
        assert_eq!(e.slots()[0].state, ItemState::Linked);
        // Then the SKELETON item, to LINKED.
        assert!(e.demote_for_overflow());
        assert_eq!(e.slots()[1].state, ItemState::Linked);
        assert_eq!(e.tally().room(Tier::Raw), 100);
    }

    fn states<C: TierCost>(e: &TierAssigner<C>) -> Vec<ItemState> {
        e.slots().iter().map(|s| s.state).collect()
    }

    #[test]
    fn fits_go_to_raw_and_fill_the_tally() {
        let mut e = engine(&[(0.9, [60, 3, 1]), (0.8, [40, 3, 1])]);
        e.place(0, Tier::Raw);
        e.place(1, Tier::Raw);
        assert_eq!(states(&e), [ItemState::Raw, ItemState::Raw]);
        assert_eq!(e.tally().tier(Tier::Raw).used, 100);
        assert_eq!(e.tally().tier(Tier::Raw).remaining(), 0);
    }

    /// RAW full: the lowest RAW item (0.5) is demoted to LINKED, the new
    /// item (0.9) fits on re-check and goes to RAW.
    #[test]
    fn raw_full_demotes_the_lowest_raw_item_and_admits_the_newcomer() {
        let mut e = engine(&[(0.5, [60, 3, 1]), (0.7, [30, 3, 1]), (0.9, [50, 3, 1])]);
        for p in 0..3 {
            e.place(p, Tier::Raw);
        }
        // 60 + 30 = 90; 0.9 needs 50; demote #0 (60) → 30 + 50 = 80.
        assert_eq!(
            states(&e),
            [ItemState::Linked, ItemState::Raw, ItemState::Raw]
        );
        assert_eq!(e.tally().tier(Tier::Raw).used, 80);
        assert_eq!(e.tally().tier(Tier::Linked).used, 3);
        assert_eq!(
            e.slots()[0].reason,
            AssignmentReason::Demoted {
                from: Tier::Raw,
                cause: DemotionCause::Displaced { by: 2 }
            }
        );
        assert_eq!(e.slots()[0].demoted_from, Some(Tier::Raw));
        assert_eq!(e.slots()[0].tokens, 3);
    }

    /// RAW full, one demotion does not make room: the newcomer goes to LINKED.
    #[test]
    fn raw_full_newcomer_goes_to_linked_when_one_demotion_is_not_enough() {
        let mut e = engine(&[(0.5, [30, 3, 1]), (0.6, [60, 3, 1]), (0.9, [50, 4, 1])]);
        for p in 0..3 {
            e.place(p, Tier::Raw);
        }
        // 30 + 60 = 90; demote #0 (30) → 60 + 50 = 110 > 100 → #2 to LINKED.
        assert_eq!(
            states(&e),
            [ItemState::Linked, ItemState::Raw, ItemState::Linked]
        );
        assert_eq!(e.tally().tier(Tier::Raw).used, 60);
        assert_eq!(e.tally().tier(Tier::Linked).used, 7);
        assert_eq!(
            e.slots()[2].reason,
            AssignmentReason::TierFull {
                tier: Tier::Raw,
                needed: 50,
                available: 40
            }
        );
    }

    /// In rank order the newcomer ranks lowest: it is never demoted-for,
    /// it falls to LINKED, then SUMMARY, then is omitted.
    #[test]
    fn in_rank_order_the_current_item_falls_through_the_tiers() {
        let mut e = engine(&[
            (0.9, [100, 5, 2]),
            (0.8, [50, 5, 2]),
            (0.7, [50, 5, 2]),
            (0.6, [50, 6, 2]),
            (0.5, [50, 6, 3]),
        ]);
        for p in 0..5 {
            e.place(p, Tier::Raw);
        }
        // RAW 100/100 after #0; LINKED 5 + 5 = 10/10 after #1, #2;
        // #3 → SUMMARY 2/4; #4 needs 3 with 2 free → omitted.
        assert_eq!(
            states(&e),
            [
                ItemState::Raw,
                ItemState::Linked,
                ItemState::Linked,
                ItemState::Summary,
                ItemState::Omitted,
            ]
        );
        assert_eq!(e.tally().tier(Tier::Linked).used, 10);
        assert_eq!(e.tally().tier(Tier::Summary).used, 2);
        assert_eq!(
            e.slots()[3].reason,
            AssignmentReason::TierFull {
                tier: Tier::Linked,
                needed: 6,
                available: 0
            }
        );
        assert_eq!(
            e.slots()[4].reason,
            AssignmentReason::TierFull {
                tier: Tier::Summary,
                needed: 3,
                available: 2
            }
        );
        assert!(
            e.events()
                .iter()
                .all(|ev| !matches!(ev.action, AssignmentAction::Demoted { .. }))
        );
    }

    /// LINKED full: a demoted RAW item that outranks LINKED's lowest item
    /// pushes that one down to a SUMMARY mention.
    #[test]
    fn demotion_cascades_through_linked_and_summary() {
        let mut e = engine(&[
            (0.2, [200, 6, 4]), // too large for RAW → LINKED
            (0.3, [10, 5, 4]),  // RAW
            (0.1, [200, 4, 4]), // too large → LINKED full (6 + 4 = 10) → LINKED
            (0.9, [95, 5, 2]),  // needs RAW room: demote #1
        ]);
        for p in 0..4 {
            e.place(p, Tier::Raw);
        }
        // #1 leaves RAW (10 freed), enters LINKED needing 5 with 0 free;
        // LINKED's lowest is #2 (0.1) < 0.3 → #2 to SUMMARY (4 of 4);
        // 6 + 5 = 11 > 10 still → #1 falls to SUMMARY, full (4/4), lowest
        // there is #2 (0.1) < 0.3 → #2 omitted, #1 mentioned.
        assert_eq!(
            states(&e),
            [
                ItemState::Linked,
                ItemState::Summary,
                ItemState::Omitted,
                ItemState::Raw,
            ]
        );
        assert_eq!(e.slots()[1].demoted_from, Some(Tier::Raw));
        // Demoted from LINKED, then from SUMMARY: the most detailed is LINKED.
        assert_eq!(e.slots()[2].demoted_from, Some(Tier::Linked));
        assert_eq!(e.tally().tier(Tier::Raw).used, 95);
        assert_eq!(e.tally().tier(Tier::Linked).used, 6);
        assert_eq!(e.tally().tier(Tier::Summary).used, 4);
    }

    #[test]
    fn too_large_items_skip_the_tier_without_demoting() {
        let mut e = engine(&[(0.1, [50, 3, 1]), (0.9, [101, 3, 1])]);
        e.place(0, Tier::Raw);
        e.place(1, Tier::Raw);
        assert_eq!(states(&e), [ItemState::Raw, ItemState::Linked]);
        assert_eq!(
            e.slots()[1].reason,
            AssignmentReason::TooLarge {
                tier: Tier::Raw,
                needed: 101,
                limit: 100
            }
        );
    }

    /// After #0 (0.5) is demoted from RAW, a lower-ranked small item may
    /// not slip into the room it left.
    #[test]
    fn nothing_ranked_below_a_demoted_item_enters_its_tier() {
        let mut e = engine(&[
            (0.5, [40, 3, 1]),
            (0.6, [60, 3, 1]),
            (0.9, [41, 3, 1]),
            (0.1, [1, 3, 1]),
        ]);
        for p in 0..4 {
            e.place(p, Tier::Raw);
        }
        // 40 + 60 = 100; #2 demotes #0 → 60 + 41 = 101 > 100 → #2 LINKED.
        // #3 would fit RAW (60 + 1) but ranks below demoted #0.
        assert_eq!(
            states(&e),
            [
                ItemState::Linked,
                ItemState::Raw,
                ItemState::Linked,
                ItemState::Linked
            ]
        );
        assert_eq!(
            e.slots()[3].reason,
            AssignmentReason::RanksBelowDemoted { tier: Tier::Raw }
        );
    }

    #[test]
    fn requested_tier_is_the_starting_tier() {
        let mut e = engine(&[(0.9, [10, 3, 1])]);
        e.place(0, Tier::Linked);
        assert_eq!(states(&e), [ItemState::Linked]);
        assert_eq!(
            e.slots()[0].reason,
            AssignmentReason::Fitted {
                requested: Tier::Linked
            }
        );
    }

    #[test]
    fn overflow_demotes_from_the_most_detailed_tier_first() {
        let mut e = engine(&[(0.9, [50, 3, 1]), (0.8, [40, 3, 1])]);
        e.place(0, Tier::Raw);
        e.place(1, Tier::Raw);
        assert!(e.demote_for_overflow());
        assert_eq!(states(&e), [ItemState::Raw, ItemState::Linked]);
        assert_eq!(
            e.slots()[1].reason,
            AssignmentReason::Demoted {
                from: Tier::Raw,
                cause: DemotionCause::RenderOverflow
            }
        );
        // Keep demoting: #0 to LINKED, then both to SUMMARY, then omitted.
        let mut steps = 0;
        while e.demote_for_overflow() {
            steps += 1;
        }
        assert_eq!(states(&e), [ItemState::Omitted, ItemState::Omitted]);
        assert_eq!(steps, 5);
        assert_eq!(e.tally().used(), 0);
    }

    #[test]
    fn events_replay_to_the_final_tally() {
        let mut e = engine(&[(0.5, [60, 3, 1]), (0.7, [30, 3, 1]), (0.9, [50, 3, 1])]);
        for p in 0..3 {
            e.place(p, Tier::Raw);
        }
        let mut replay = Tally::with_limits(1_000, 0, 100, 10, 4);
        for event in e.events() {
            replay.apply(event);
        }
        assert_eq!(&replay, e.tally());
        assert_eq!(e.events().len(), 5); // 3 placed + 1 demoted + 1 placed in LINKED
    }
}
