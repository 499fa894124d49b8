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
use crate::payload::rank::Rank;
use crate::payload::tally::slot;
use crate::payload::{AssignmentAction, AssignmentEvent, AssignmentReason, DemotionCause, Tally};

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
    pub(crate) tier: Option<Tier>,
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
            tier: None,
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
            tier: None,
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
        record.tier = Some(tier);
        record.reason = reason;
        record.tokens = tokens;
        self.record(AssignmentEvent {
            position,
            action: AssignmentAction::Placed { tier, tokens },
        });
    }

    fn omit_after_offer(&mut self, position: usize, reason: AssignmentReason) {
        let record = &mut self.slots[position];
        record.tier = None;
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
mod tests;
