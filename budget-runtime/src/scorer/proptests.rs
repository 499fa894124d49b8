//! Property tests over every scorer: finite inputs give finite scores in
//! each scorer's documented range, one per item, deterministically.

use std::time::Duration;

use proptest::prelude::*;

use crate::model::{ContextItem, ContextKind, Item, Timestamp};
use crate::scorer::{
    CompositeScorer, DecayCurve, DecayScorer, FrequencyScorer, KindScorer, MetadataKeyScorer,
    MetadataTrustScorer, PriorityScorer, RecencyScorer, ReflexiveScorer, ScaledScorer, Scorer,
    TagScorer,
};

const TAGS: [&str; 6] = ["web", "API", "api", "db", "cli", "docs"];

fn item_strategy() -> impl Strategy<Value = Item> {
    (
        1u64..2_000,
        prop::option::of(any::<i64>()),
        prop::option::of(any::<i64>()),
        prop::sample::select(ContextKind::WELL_KNOWN.to_vec()),
        prop::collection::vec(prop::sample::select(TAGS.to_vec()), 0..4),
        prop::option::of(-1e300f64..1e300),
        prop::option::of(prop_oneof![
            (-2.0f64..3.0).prop_map(|v| v.to_string()),
            Just("high".to_owned()),
            Just("NaN".to_owned()),
        ]),
    )
        .prop_map(|(tokens, seconds, priority, kind, tags, hint, trust)| {
            let mut builder = Item::builder("item").tokens(tokens).kind(kind).tags(tags);
            if let Some(s) = seconds {
                builder = builder.timestamp(Timestamp::from_unix_seconds(s));
            }
            if let Some(p) = priority {
                builder = builder.priority(p);
            }
            if let Some(h) = hint {
                builder = builder.relevance_hint(h);
            }
            if let Some(t) = trust {
                builder = builder.metadata("cupel:trust", t.clone()).metadata(
                    "cupel:priority",
                    if t.len() % 2 == 0 { "high" } else { "low" },
                );
            }
            builder.build().expect("content is not empty")
        })
}

/// Every scorer with the range it promises for finite input.
fn scorers() -> Vec<(&'static str, Box<dyn Scorer>, f64, f64)> {
    let hour = Duration::from_secs(3600);
    let now = Timestamp::from_unix_seconds(0);
    let all_in_unit: Vec<(Box<dyn Scorer>, f64)> = vec![
        (Box::new(RecencyScorer::new()), 1.0),
        (Box::new(PriorityScorer::new()), 2.0),
        (Box::new(KindScorer::new()), 0.5),
        (Box::new(FrequencyScorer::new()), 1e300),
        (Box::new(ReflexiveScorer::new()), 1e-300),
    ];
    vec![
        ("recency", Box::new(RecencyScorer::new()), 0.0, 1.0),
        ("priority", Box::new(PriorityScorer::new()), 0.0, 1.0),
        ("kind", Box::new(KindScorer::new()), 0.0, 1.0),
        (
            "tag",
            Box::new(TagScorer::new([("web", 2.0), ("api", 1.0), ("docs", 0.0)]).unwrap()),
            0.0,
            1.0,
        ),
        ("frequency", Box::new(FrequencyScorer::new()), 0.0, 1.0),
        ("reflexive", Box::new(ReflexiveScorer::new()), 0.0, 1.0),
        (
            "metadata_trust",
            Box::new(MetadataTrustScorer::new(0.5).unwrap()),
            0.0,
            1.0,
        ),
        (
            "metadata_key",
            Box::new(MetadataKeyScorer::new("cupel:priority", "high", 2.5).unwrap()),
            1.0,
            2.5,
        ),
        (
            "decay_exponential",
            Box::new(DecayScorer::new(
                now,
                DecayCurve::exponential(hour).unwrap(),
            )),
            0.0,
            1.0,
        ),
        (
            "decay_step",
            Box::new(DecayScorer::new(
                now,
                DecayCurve::step([(hour, 0.9), (24 * hour, 0.4)]).unwrap(),
            )),
            0.0,
            1.0,
        ),
        (
            "decay_window",
            Box::new(DecayScorer::new(now, DecayCurve::window(hour).unwrap())),
            0.0,
            1.0,
        ),
        (
            "scaled",
            Box::new(ScaledScorer::new(ReflexiveScorer::new())),
            0.0,
            1.0,
        ),
        (
            "composite",
            Box::new(CompositeScorer::new(all_in_unit).unwrap()),
            0.0,
            1.0,
        ),
    ]
}

proptest! {
    #[test]
    fn scores_are_finite_and_in_range(items in prop::collection::vec(item_strategy(), 0..40)) {
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        for (name, scorer, lo, hi) in scorers() {
            let scores = scorer.scores(&views);
            prop_assert_eq!(scores.len(), views.len());
            for &score in &scores {
                prop_assert!(score.is_finite(), "{} gave {}", name, score);
                // Composite sums may round a hair past 1.0.
                prop_assert!(
                    score >= lo && score <= hi + 1e-12,
                    "{} gave {} outside {}..={}", name, score, lo, hi
                );
            }
            prop_assert_eq!(scorer.scores(&views), scores, "{} is not deterministic", name);
        }
    }

    /// Scaling spans the full range whenever the inner scores differ.
    #[test]
    fn scaled_hits_both_ends(hints in prop::collection::vec(-1e300f64..1e300, 2..30)) {
        let items: Vec<Item> = hints
            .iter()
            .map(|&h| Item::builder("x").tokens(1).relevance_hint(h).build().unwrap())
            .collect();
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        let inner = ReflexiveScorer::new().scores(&views);
        let scores = ScaledScorer::new(ReflexiveScorer::new()).scores(&views);
        if inner.iter().any(|&s| s != inner[0]) {
            prop_assert!(scores.contains(&0.0));
            prop_assert!(scores.contains(&1.0));
        } else {
            prop_assert!(scores.iter().all(|&s| s == 0.5));
        }
    }
}
