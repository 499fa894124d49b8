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
            Some(Tier::Raw),
            Some(Tier::Skeleton),
            Some(Tier::Linked),
            Some(Tier::Linked)
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
    assert_eq!(e.slots()[0].tier, Some(Tier::Linked));
    // Then the SKELETON item, to LINKED.
    assert!(e.demote_for_overflow());
    assert_eq!(e.slots()[1].tier, Some(Tier::Linked));
    assert_eq!(e.tally().room(Tier::Raw), 100);
}

fn states<C: TierCost>(e: &TierAssigner<C>) -> Vec<Option<Tier>> {
    e.slots().iter().map(|s| s.tier).collect()
}

#[test]
fn fits_go_to_raw_and_fill_the_tally() {
    let mut e = engine(&[(0.9, [60, 3, 1]), (0.8, [40, 3, 1])]);
    e.place(0, Tier::Raw);
    e.place(1, Tier::Raw);
    assert_eq!(states(&e), [Some(Tier::Raw), Some(Tier::Raw)]);
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
        [Some(Tier::Linked), Some(Tier::Raw), Some(Tier::Raw)]
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
        [Some(Tier::Linked), Some(Tier::Raw), Some(Tier::Linked)]
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
            Some(Tier::Raw),
            Some(Tier::Linked),
            Some(Tier::Linked),
            Some(Tier::Summary),
            None,
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
            Some(Tier::Linked),
            Some(Tier::Summary),
            None,
            Some(Tier::Raw),
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
    assert_eq!(states(&e), [Some(Tier::Raw), Some(Tier::Linked)]);
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
            Some(Tier::Linked),
            Some(Tier::Raw),
            Some(Tier::Linked),
            Some(Tier::Linked)
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
    assert_eq!(states(&e), [Some(Tier::Linked)]);
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
    assert_eq!(states(&e), [Some(Tier::Raw), Some(Tier::Linked)]);
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
    assert_eq!(states(&e), [None, None]);
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
