//! Constructors and leaf entry points: `ContextBudget`, `Item`,
//! `ContextKind`, `Timestamp` formatting, `TierBudget`, the estimators and
//! the scorers on their own.

use budget_runtime::payload::TierBudget;
use budget_runtime::scorer::{
    FrequencyScorer, KindScorer, PriorityScorer, RecencyScorer, ReflexiveScorer, TagScorer,
};
use budget_runtime::{
    ContextBudget, ContextItem, ContextKind, Estimator, Item,
    estimate::{CalibratedEstimator, ContentType, Encoding, EstimateMode, RatioEstimator},
    model::Timestamp,
    scorer::Scorer,
};
use proptest::prelude::*;

use crate::checks::{ensure, numbers_carried};
use crate::hostile;
use crate::ledger::{Broken, Ledger, Verdict};

fn budget_case(
    max: u64,
    target: u64,
    reserve: u64,
    margin: f64,
    slots: &[(ContextKind, i64)],
) -> Verdict {
    let mut builder = ContextBudget::builder(max, target)
        .output_reserve(reserve)
        .safety_margin_percent(margin);
    for (kind, min) in slots {
        builder = builder.reserved_slot(kind.clone(), *min);
    }
    match builder.build() {
        Err(e) => numbers_carried(&e),
        Ok(budget) => {
            // A valid budget's effective budget stays inside it for any pin.
            for pinned in [0, 1, target, max, u64::MAX - 1, u64::MAX] {
                let effective = budget.effective(pinned);
                ensure(
                    effective.target_tokens <= effective.max_tokens
                        && effective.max_tokens <= max.saturating_sub(reserve),
                    || Broken::Overrun(format!("effective {effective:?} for pinned {pinned}")),
                )?;
            }
            Ok(())
        }
    }
}

fn timestamp_case(nanos: i128) -> Verdict {
    let t = Timestamp::from_unix_nanos(nanos);
    let shown = t.to_string();
    let debug = format!("{t:?}");
    ensure(
        shown == debug && shown.ends_with('Z') && shown.contains('T'),
        || Broken::Loss(format!("{nanos} shown as {shown:?}")),
    )
}

fn estimator_case(text: &str) -> Verdict {
    let estimators: [(&str, &dyn Estimator); 4] = [
        ("ratios", &RatioEstimator),
        ("o200k", &CalibratedEstimator::new(Encoding::O200kBase)),
        ("cl100k", &CalibratedEstimator::new(Encoding::Cl100kBase)),
        (
            "o200k upper",
            &CalibratedEstimator::new(Encoding::O200kBase).with_mode(EstimateMode::UpperBound),
        ),
    ];
    for (name, estimator) in estimators {
        for content_type in [ContentType::Code, ContentType::Markdown, ContentType::Prose] {
            let a = estimator.estimate(text, content_type);
            let b = estimator.estimate(text, content_type);
            ensure(a == b, || {
                Broken::Loss(format!("{name} not deterministic: {a} vs {b}"))
            })?;
            ensure(text.is_empty() || a > 0, || {
                Broken::Loss(format!("{name} estimates {} bytes as 0 tokens", text.len()))
            })?;
        }
    }
    Ok(())
}

fn scorer_case(items: &[Item]) -> Verdict {
    let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
    let scorers: Vec<Box<dyn Scorer>> = vec![
        Box::new(RecencyScorer::new()),
        Box::new(PriorityScorer::new()),
        Box::new(KindScorer::new()),
        Box::new(ReflexiveScorer::new()),
        Box::new(FrequencyScorer::new()),
        Box::new(TagScorer::new([("rust", 1.0), ("", 0.5)]).unwrap()),
    ];
    for scorer in &scorers {
        let scores = scorer.scores(&views);
        ensure(scores.len() == items.len(), || {
            Broken::Loss(format!(
                "{scorer:?}: {} scores for {} items",
                scores.len(),
                items.len()
            ))
        })?;
    }
    Ok(())
}

pub fn run(ledger: &Ledger) {
    // Hand-made extremes.
    for (max, target, reserve, margin) in [
        (u64::MAX, u64::MAX, u64::MAX, 100.0),
        (u64::MAX, 0, 0, f64::MIN_POSITIVE),
        (0, 0, 0, 0.0),
        (u64::MAX, u64::MAX, u64::MAX, f64::NAN),
        (10, 20, 5, 0.0),
        (10, 5, 20, f64::INFINITY),
    ] {
        ledger.hand_made(
            "ContextBudget::build",
            (max, target, reserve, margin),
            |&(a, b, c, d)| budget_case(a, b, c, d, &[]),
        );
    }
    let many: Vec<(ContextKind, i64)> = (0..20_000)
        .map(|i| (ContextKind::new(format!("kind{i}")).unwrap(), 1))
        .collect();
    ledger.hand_made("ContextBudget::build", "20,000 reserved slots", |_| {
        budget_case(1_000, 1_000, 0, 0.0, &many)
    });
    for label in ["", " ", "\u{3000}", "\u{2028}\u{85}", "\t\n"] {
        ledger.hand_made("ContextKind::new", label, |label| {
            ensure(ContextKind::new(*label).is_err(), || {
                Broken::Loss("blank label accepted".into())
            })
        });
    }
    for nanos in [
        i128::MIN,
        i128::MAX,
        i128::from(i64::MAX) * 86_400_000_000_000,
        0,
        -1,
    ] {
        ledger.hand_made("Timestamp Display/Debug", nanos, |&n| timestamp_case(n));
    }
    for text in hostile::EDGE_TEXTS {
        ledger.hand_made("Estimator::estimate", text, |t| estimator_case(t));
    }
    for (len, c) in [(1_000, 'ᄀ'), (4_000, '!'), (1_000, '\0'), (100_000, '😀')] {
        let text: String = std::iter::repeat_n(c, len).collect();
        ledger.hand_made("Estimator::estimate", (len, c), |_| estimator_case(&text));
    }

    ledger.random(
        "ContextBudget::build",
        (
            hostile::budget_tokens(),
            hostile::budget_tokens(),
            hostile::budget_tokens(),
            hostile::float(),
            prop::collection::vec(
                (
                    hostile::kind(),
                    prop_oneof![0i64..5, Just(-1i64), Just(i64::MAX)],
                ),
                0..6,
            ),
        ),
        |(max, target, reserve, margin, slots)| {
            budget_case(*max, *target, *reserve, *margin, slots)
        },
    );
    ledger.random("Item::builder().build()", hostile::item_spec(3), |spec| {
        match spec.build() {
            Some(item) => ensure(
                match spec.negative {
                    Some(negative) => {
                        item.tokens() == 0 && item.negative_tokens() == Some(negative)
                    }
                    None => item.tokens() == spec.tokens && item.negative_tokens().is_none(),
                } && item.content() == spec.content.as_str(),
                || Broken::Loss("item fields changed".into()),
            ),
            None => {
                // Rejected: the only rejection is an empty content.
                ensure(spec.content.is_empty(), || {
                    Broken::BadError(format!("rejected {spec:?}"))
                })
            }
        }
    });
    ledger.random("ContextKind::new", hostile::text(), |label| {
        let blank = label.chars().all(char::is_whitespace);
        match ContextKind::new(label.clone()) {
            Ok(kind) => ensure(!blank && kind.as_str() == label, || {
                Broken::Loss(format!("accepted {label:?}"))
            }),
            Err(e) => {
                ensure(blank, || Broken::BadError(format!("rejected {label:?}")))?;
                ensure(!e.to_string().is_empty(), || {
                    Broken::BadError("empty message".into())
                })
            }
        }
    });
    ledger.random("Timestamp Display/Debug", any::<i128>(), |&nanos| {
        timestamp_case(nanos)
    });
    ledger.random(
        "TierBudget::new",
        (
            prop_oneof![0u64..100_000, any::<u64>()],
            prop_oneof![0u64..1_000, any::<u64>()],
            [
                hostile::float(),
                hostile::float(),
                hostile::float(),
                hostile::float(),
            ],
        ),
        |(total, meta, [s, l, r, h])| match TierBudget::new(*total, *meta, *s, *l, *r, *h) {
            Err(e) => numbers_carried(&e),
            Ok(budget) => ensure(budget.total() == *total, || {
                Broken::Loss("total changed".into())
            }),
        },
    );
    ledger.random("Estimator::estimate", hostile::text(), |text| {
        estimator_case(text)
    });
    ledger.random("Scorer::score_all", hostile::items(3, 40), |items| {
        scorer_case(items)
    });
}
