//! `PayloadAssembler::assemble`: hostile items, scores, tier budgets and
//! estimators (including ones that answer nonsense or panic).

use std::panic::{AssertUnwindSafe, catch_unwind};

use budget_runtime::model::{ScoredItem, Tier};
use budget_runtime::payload::{Format, OfferOrder, PayloadAssembler, TierBudget};
use budget_runtime::{
    ContextItem, Estimator, Item,
    estimate::{CalibratedEstimator, ContentType, Encoding, RatioEstimator},
};
use proptest::prelude::*;

use crate::checks::{ensure, numbers_carried};
use crate::hostile;
use crate::ledger::{Broken, Ledger, Verdict, panic_message};

const USER_PANIC: &str = "user estimator panicked on purpose";

/// Estimators, well-behaved and not.
#[derive(Clone, Copy, Debug)]
enum EstimatorSpec {
    Seed,
    Calibrated,
    /// Always this many tokens, whatever the text.
    Constant(u64),
    Panicking,
}

struct Constant(u64);

impl Estimator for Constant {
    fn estimate(&self, _: &str, _: ContentType) -> u64 {
        self.0
    }
}

struct Panicking;

impl Estimator for Panicking {
    fn estimate(&self, _: &str, _: ContentType) -> u64 {
        panic!("{USER_PANIC}");
    }
}

fn estimator_spec() -> impl Strategy<Value = EstimatorSpec> {
    prop_oneof![
        4 => Just(EstimatorSpec::Seed),
        2 => Just(EstimatorSpec::Calibrated),
        2 => prop_oneof![Just(0u64), Just(1u64), Just(u64::MAX), 0u64..10_000].prop_map(EstimatorSpec::Constant),
        1 => Just(EstimatorSpec::Panicking),
    ]
}

#[derive(Clone, Debug)]
struct BudgetSpec {
    total: u64,
    meta: u64,
    percents: [f64; 4],
}

fn budget_spec() -> impl Strategy<Value = BudgetSpec> {
    let percent = prop_oneof![4 => 0.0f64..=100.0, 1 => hostile::float()];
    (
        prop_oneof![4 => 0u64..50_000, 1 => Just(u64::MAX), 1 => any::<u64>()],
        prop_oneof![3 => 0u64..1_000, 1 => any::<u64>()],
        [percent.clone(), percent.clone(), percent.clone(), percent],
    )
        .prop_map(|(total, meta, percents)| BudgetSpec {
            total,
            meta,
            percents,
        })
}

fn case(
    items: &[Item],
    scores: &[f64],
    budget: &BudgetSpec,
    estimator: EstimatorSpec,
    arrival: bool,
    format: Format,
) -> Verdict {
    let [summary, linked, raw, headroom] = budget.percents;
    let tier_budget =
        match TierBudget::new(budget.total, budget.meta, summary, linked, raw, headroom) {
            Ok(b) => b,
            Err(e) => return numbers_carried(&e),
        };
    let (seed, calibrated, constant) = (
        RatioEstimator,
        CalibratedEstimator::new(Encoding::O200kBase),
        Constant(match estimator {
            EstimatorSpec::Constant(n) => n,
            _ => 0,
        }),
    );
    let estimator: &dyn Estimator = match estimator {
        EstimatorSpec::Seed => &seed,
        EstimatorSpec::Calibrated => &calibrated,
        EstimatorSpec::Constant(_) => &constant,
        EstimatorSpec::Panicking => &Panicking,
    };
    let order = if arrival {
        OfferOrder::Arrival
    } else {
        OfferOrder::Rank
    };
    let candidates: Vec<ScoredItem<'_, Item>> = items
        .iter()
        .zip(scores.iter().cycle())
        .enumerate()
        .map(|(index, (item, &score))| ScoredItem::with_tokens(item, index, score, item.tokens()))
        .collect();
    let assembler = PayloadAssembler::new(tier_budget)
        .estimator(estimator)
        .order(order)
        .format(format);
    let result = match catch_unwind(AssertUnwindSafe(|| assembler.assemble(candidates))) {
        Ok(result) => result,
        Err(payload) => {
            let message = panic_message(&*payload);
            if message == USER_PANIC {
                return Ok(());
            }
            std::panic::resume_unwind(payload);
        }
    };
    let payload = match result {
        Ok(p) => p,
        Err(e) => return numbers_carried(&e),
    };
    ensure(payload.rendered_tokens() <= budget.total, || {
        Broken::Overrun(format!(
            "rendered {} over total {}",
            payload.rendered_tokens(),
            budget.total
        ))
    })?;
    let assignments = payload.assignments();
    ensure(assignments.len() == items.len(), || {
        Broken::Loss(format!(
            "{} assignments for {} items",
            assignments.len(),
            items.len()
        ))
    })?;
    // Every format parses with an independent parser.
    let parsed = match format {
        Format::Xml => roxmltree::Document::parse(payload.text())
            .err()
            .map(|e| e.to_string()),
        Format::Json => serde_json::from_str::<serde_json::Value>(payload.text())
            .err()
            .map(|e| e.to_string()),
        _ => None,
    };
    if let Some(error) = parsed {
        return Err(Broken::Loss(format!(
            "{format} payload does not parse: {error}"
        )));
    }
    for (position, assignment) in assignments.iter().enumerate() {
        ensure(assignment.position == position, || {
            Broken::Loss(format!("assignment {position} out of order"))
        })?;
        if assignment.tier == Some(Tier::Raw) && format == Format::Markdown {
            // Carried in full: the content is in the text.
            let content = items[position].content();
            ensure(payload.text().contains(content.as_ref()), || {
                Broken::Loss(format!("RAW item {position} missing from the text"))
            })?;
        }
    }
    Ok(())
}

pub fn run(ledger: &Ledger) {
    // Hand-made: the audit's 20 files of 8 KiB declaring 1 token.
    let files: Vec<Item> = (0..20)
        .map(|i| {
            Item::builder("x".repeat(8_192))
                .tokens(1)
                .link(format!("f{i}.rs"))
                .build()
                .unwrap()
        })
        .collect();
    let budget = BudgetSpec {
        total: 20_000,
        meta: 300,
        percents: [1.0, 9.0, 90.0, 10.0],
    };
    ledger.hand_made(
        "PayloadAssembler::assemble",
        (files.len(), budget.clone()),
        |(_, budget)| {
            case(
                &files,
                &[0.5],
                budget,
                EstimatorSpec::Seed,
                false,
                Format::Markdown,
            )?;
            let payload = PayloadAssembler::new(TierBudget::with_total(20_000).unwrap())
                .assemble_items(&files)
                .unwrap();
            ensure(payload.omitted().count() == 0, || {
                Broken::Loss("understated files omitted".into())
            })
        },
    );
    for estimator in [
        EstimatorSpec::Constant(u64::MAX),
        EstimatorSpec::Constant(0),
        EstimatorSpec::Panicking,
    ] {
        ledger.hand_made("PayloadAssembler::assemble", estimator, |&estimator| {
            case(
                &files,
                &[f64::NAN],
                &budget,
                estimator,
                true,
                Format::Markdown,
            )
        });
    }

    ledger.random(
        "PayloadAssembler::assemble",
        (
            hostile::items(0, 30),
            prop::collection::vec(hostile::float(), 1..6),
            budget_spec(),
            estimator_spec(),
            any::<bool>(),
            prop::sample::select(Format::ALL.to_vec()),
        ),
        |(items, scores, budget, estimator, arrival, format)| {
            case(items, scores, budget, *estimator, *arrival, *format)
        },
    );
}
