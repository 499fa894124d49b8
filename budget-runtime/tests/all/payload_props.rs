//! Property tests of hybrid payload assembly: tier limits hold, every item
//! ends in exactly one state, demoted items rank below what stays, and the
//! rendered payload fits its total.

use std::cmp::Ordering;

use budget_runtime::payload::{
    ItemState, OfferOrder, PayloadAssembler, PlacementAction, TierBudget,
};
use budget_runtime::{
    ContextItem, Estimator, Item,
    estimate::{ContentType, RatioEstimator},
    model::Tier,
};
use proptest::prelude::*;

fn score() -> impl Strategy<Value = f64> {
    prop_oneof![
        8 => 0.0..1.0f64,
        1 => Just(f64::NAN),
        1 => prop::sample::select(vec![0.0, -0.0, 0.5, 1.0, f64::INFINITY, f64::NEG_INFINITY]),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    (
        "[a-z`\n ]{1,40}",
        -2i64..3_000,
        score(),
        prop::option::of("[a-z]{1,8}(/[a-z]{1,8})?\\.(rs|md|txt)"),
        prop::option::of(prop::sample::select(vec![
            Tier::Raw,
            Tier::Linked,
            Tier::Summary,
        ])),
        prop::option::of("[A-Za-z |]{0,20}"),
    )
        .prop_map(|(content, tokens, score, link, tier, description)| {
            let mut b = Item::builder(content)
                .signed_tokens(tokens)
                .relevance(score);
            if let Some(link) = link {
                b = b.link(link);
            }
            if let Some(tier) = tier {
                b = b.tier(tier);
            }
            if let Some(d) = description {
                b = b.description(d);
            }
            b.build().unwrap()
        })
}

fn budget() -> impl Strategy<Value = TierBudget> {
    (
        1_500u64..40_000,
        0u64..400,
        0.0..30.0f64,
        prop::sample::select(vec![1.0, 5.0, 9.0, 20.0]),
    )
        .prop_filter_map("valid budget", |(total, meta, headroom, summary)| {
            TierBudget::new(total, meta, summary, 10.0, 90.0 - summary, headroom).ok()
        })
}

/// Independent of the library: higher score ranks higher, NaN lowest, -0.0
/// equals 0.0, ties go to the earlier position.
fn ranks_below(a: (f64, usize), b: (f64, usize)) -> bool {
    let by_score = match (a.0.is_nan(), b.0.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => a.0.partial_cmp(&b.0).unwrap(),
    };
    match by_score {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => a.1 > b.1,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn payload_invariants(
        items in prop::collection::vec(item(), 0..60),
        budget in budget(),
        arrival in any::<bool>(),
    ) {
        let order = if arrival { OfferOrder::Arrival } else { OfferOrder::Rank };
        let assembler = PayloadAssembler::new(budget).order(order);
        let Ok(payload) = assembler.assemble_items(&items) else {
            // Only a structure larger than the total may fail, and then
            // only for small totals.
            prop_assert!(budget.total() < 3_000);
            return Ok(());
        };
        let placements = payload.placements();

        // Each item in exactly one state, at its own position.
        prop_assert_eq!(placements.len(), items.len());
        for (i, p) in placements.iter().enumerate() {
            prop_assert_eq!(p.position, i);
            prop_assert!(std::ptr::eq(p.item, &items[i]));
        }

        // Replaying the events gives each item's final state.
        let mut last = vec![None; items.len()];
        for e in payload.events() {
            last[e.position] = Some(match e.action {
                PlacementAction::Placed { tier, .. } => ItemState::of(tier),
                PlacementAction::Omitted => ItemState::Omitted,
                PlacementAction::Demoted { .. } => continue,
                other => panic!("an action this test does not know: {other:?}"),
            });
        }
        for (i, p) in placements.iter().enumerate() {
            prop_assert_eq!(last[i], Some(p.state), "item {}", i);
        }

        // Tier limits never exceeded, and the tally matches the placements.
        for tier in [Tier::Raw, Tier::Linked, Tier::Summary] {
            let used: u64 = placements
                .iter()
                .filter(|p| p.state == ItemState::of(tier))
                .map(|p| p.tokens)
                .sum();
            let account = payload.tally().tier(tier);
            prop_assert_eq!(used, account.used);
            prop_assert!(used <= budget.effective(tier), "{} {} > {}", tier, used, budget.effective(tier));
        }
        // ... at every step, too.
        for (event, tally) in payload.trace() {
            for t in tally.tiers() {
                prop_assert!(t.used <= t.limit, "after {}: {:?}", event, t);
            }
        }

        // A demoted item ranks below every item left in the tier it left.
        for d in placements.iter().filter(|p| p.demoted_from.is_some()) {
            let from = d.demoted_from.unwrap();
            for kept in placements.iter().filter(|p| p.state == ItemState::of(from)) {
                prop_assert!(
                    ranks_below((d.score, d.position), (kept.score, kept.position)),
                    "demoted #{} ({}) vs kept #{} ({}) in {}",
                    d.position, d.score, kept.position, kept.score, from
                );
            }
        }

        // Omitted-for-negative and never placed otherwise.
        for p in placements {
            if p.item.negative_tokens().is_some() {
                prop_assert_eq!(p.state, ItemState::Omitted);
            }
        }

        // The rendered payload fits its total, counted independently.
        let text = payload.markdown();
        let whole = RatioEstimator.estimate(text, ContentType::Markdown);
        prop_assert!(whole <= payload.rendered_tokens());
        prop_assert!(payload.rendered_tokens() <= budget.total());

        // Same input, same bytes.
        let again = assembler.assemble_items(&items).unwrap();
        prop_assert_eq!(again.markdown(), text);
    }
}
