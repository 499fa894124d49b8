//! `Pipeline::run` and the slicers: every built-in stage, hostile scorers,
//! slicers and placers, unstable items, extreme budgets.

use std::panic::{AssertUnwindSafe, catch_unwind};

use budget_runtime::placer::{ChronologicalPlacer, UShapedPlacer};
use budget_runtime::scorer::{
    CompositeScorer, FrequencyScorer, KindScorer, PriorityScorer, RecencyScorer, ReflexiveScorer,
    TagScorer,
};
use budget_runtime::slicer::{
    CountConstrainedKnapsackSlicer, CountQuotaEntry, CountQuotaSlicer, GreedySlicer,
    KnapsackSlicer, QuotaEntry, QuotaSlicer, ScarcityBehavior, SliceOutcome,
};
use budget_runtime::{
    ContextBudget, ContextItem, ContextKind, Item, Pipeline,
    model::{EffectiveBudget, ScoredItem},
    pipeline::OverflowStrategy,
    placer::Placer,
    scorer::Scorer,
    slicer::{Slicer, SlicerError},
};
use proptest::prelude::*;

use crate::checks::{each_index_once, ensure, numbers_carried};
use crate::hostile::{self, Unstable};
use crate::ledger::{Broken, Ledger, Verdict, panic_message};

/// The message of the panic a [`Stage::Panicking`] scorer raises.
const USER_PANIC: &str = "user scorer panicked on purpose";

/// A scorer that returns whatever it was given, cycled (NaN, infinities…).
#[derive(Debug)]
struct Garbage(Vec<f64>);

impl Scorer for Garbage {
    fn score_all(&self, _: &[&dyn ContextItem], scores: &mut [f64]) {
        for (slot, value) in scores.iter_mut().zip(self.0.iter().cycle()) {
            *slot = *value;
        }
    }
}

/// A scorer that panics: the panic must reach the caller unchanged.
#[derive(Debug)]
struct Panicking;

impl Scorer for Panicking {
    fn score_all(&self, _: &[&dyn ContextItem], _: &mut [f64]) {
        panic!("{USER_PANIC}");
    }
}

/// A slicer breaking its contract: positions out of range, repeated, or
/// every candidate regardless of the budget.
#[derive(Debug)]
struct Rogue(Vec<usize>);

impl Slicer for Rogue {
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        _: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError> {
        let selected = if self.0.is_empty() {
            (0..sorted.len()).collect()
        } else {
            self.0.clone()
        };
        Ok(SliceOutcome::selected(selected))
    }
}

/// A placer returning something other than a permutation.
#[derive(Debug)]
struct RoguePlacer;

impl Placer for RoguePlacer {
    fn place(&self, merged: &[ScoredItem<'_>]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..merged.len()).collect();
        if let Some(first) = order.first().copied() {
            order.push(first);
        }
        order
    }
}

#[derive(Clone, Debug)]
enum ScorerSpec {
    Recency,
    Priority,
    Kind,
    Reflexive,
    Frequency,
    Tag(Vec<(String, f64)>),
    Composite(f64, f64),
    Garbage(Vec<f64>),
    Panicking,
}

#[derive(Clone, Debug)]
enum SlicerSpec {
    Greedy,
    Knapsack {
        bucket: u64,
        table_bits: u64,
    },
    Quota {
        kind: ContextKind,
        require: f64,
        cap: f64,
    },
    CountQuota {
        kind: ContextKind,
        require: usize,
        cap: usize,
        throw: bool,
    },
    CountKnapsack {
        kind: ContextKind,
        require: usize,
        cap: usize,
        bucket: u64,
    },
    Rogue(Vec<usize>),
}

#[derive(Clone, Debug)]
struct PipelineSpec {
    scorer: ScorerSpec,
    slicer: SlicerSpec,
    placer: u8,
    deduplicate: bool,
    overflow: OverflowStrategy,
}

fn scorer_spec() -> impl Strategy<Value = ScorerSpec> {
    prop_oneof![
        2 => Just(ScorerSpec::Recency),
        2 => Just(ScorerSpec::Priority),
        2 => Just(ScorerSpec::Kind),
        2 => Just(ScorerSpec::Reflexive),
        2 => Just(ScorerSpec::Frequency),
        2 => prop::collection::vec((hostile::text(), hostile::float()), 0..3).prop_map(ScorerSpec::Tag),
        2 => (hostile::float(), hostile::float()).prop_map(|(a, b)| ScorerSpec::Composite(a, b)),
        2 => prop::collection::vec(hostile::float(), 1..5).prop_map(ScorerSpec::Garbage),
        1 => Just(ScorerSpec::Panicking),
    ]
}

fn slicer_spec() -> impl Strategy<Value = SlicerSpec> {
    let bucket = prop_oneof![4 => 1u64..300, 1 => Just(u64::MAX), 1 => Just(0u64)];
    let table_bits = prop_oneof![
        Just(KnapsackSlicer::DEFAULT_MAX_TABLE_BITS),
        0u64..100_000,
        Just(1u64 << 20)
    ];
    prop_oneof![
        2 => Just(SlicerSpec::Greedy),
        2 => (bucket.clone(), table_bits).prop_map(|(bucket, table_bits)| SlicerSpec::Knapsack { bucket, table_bits }),
        1 => (hostile::kind(), hostile::float(), hostile::float())
            .prop_map(|(kind, require, cap)| SlicerSpec::Quota { kind, require, cap }),
        1 => (hostile::kind(), 0usize..5, 0usize..5, any::<bool>())
            .prop_map(|(kind, require, cap, throw)| SlicerSpec::CountQuota { kind, require, cap, throw }),
        1 => (hostile::kind(), 0usize..5, 0usize..5, bucket)
            .prop_map(|(kind, require, cap, bucket)| SlicerSpec::CountKnapsack { kind, require, cap, bucket }),
        1 => prop::collection::vec(0usize..50, 0..6).prop_map(SlicerSpec::Rogue),
    ]
}

fn pipeline_spec() -> impl Strategy<Value = PipelineSpec> {
    (
        scorer_spec(),
        slicer_spec(),
        0u8..3,
        any::<bool>(),
        prop::sample::select(
            &[
                OverflowStrategy::Throw,
                OverflowStrategy::Truncate,
                OverflowStrategy::Proceed,
            ][..],
        ),
    )
        .prop_map(
            |(scorer, slicer, placer, deduplicate, overflow)| PipelineSpec {
                scorer,
                slicer,
                placer,
                deduplicate,
                overflow,
            },
        )
}

/// A budget from hostile values, or `None` when they are invalid (the
/// builder is exercised on its own elsewhere).
fn budget() -> impl Strategy<Value = Option<ContextBudget>> {
    (
        hostile::budget_tokens(),
        hostile::budget_tokens(),
        hostile::budget_tokens(),
        prop_oneof![3 => Just(0.0), 1 => 0.0f64..=100.0, 1 => hostile::float()],
    )
        .prop_map(|(max, target, reserve, margin)| {
            let (target, max) = (target.min(max), max.max(target));
            ContextBudget::builder(max, target)
                .output_reserve(reserve.min(max))
                .safety_margin_percent(margin)
                .build()
                .ok()
        })
}

/// The pipeline for `spec`, or the typed error a constructor returned.
fn build(spec: &PipelineSpec) -> Result<Pipeline, Verdict> {
    let scorer: Box<dyn Scorer> = match &spec.scorer {
        ScorerSpec::Recency => Box::new(RecencyScorer::new()),
        ScorerSpec::Priority => Box::new(PriorityScorer::new()),
        ScorerSpec::Kind => Box::new(KindScorer::new()),
        ScorerSpec::Reflexive => Box::new(ReflexiveScorer::new()),
        ScorerSpec::Frequency => Box::new(FrequencyScorer::new()),
        ScorerSpec::Tag(weights) => match TagScorer::new(weights.clone()) {
            Ok(s) => Box::new(s),
            Err(e) => return Err(numbers_carried(&e)),
        },
        ScorerSpec::Composite(a, b) => {
            let children: Vec<(Box<dyn Scorer>, f64)> = vec![
                (Box::new(RecencyScorer::new()), *a),
                (Box::new(PriorityScorer::new()), *b),
            ];
            match CompositeScorer::new(children) {
                Ok(s) => Box::new(s),
                Err(e) => return Err(numbers_carried(&e)),
            }
        }
        ScorerSpec::Garbage(values) => Box::new(Garbage(values.clone())),
        ScorerSpec::Panicking => Box::new(Panicking),
    };
    let knapsack = |bucket: u64| KnapsackSlicer::new(bucket).map_err(|e| numbers_carried(&e));
    let slicer: Box<dyn Slicer> = match &spec.slicer {
        SlicerSpec::Greedy => Box::new(GreedySlicer::new()),
        SlicerSpec::Knapsack { bucket, table_bits } => {
            Box::new(knapsack(*bucket)?.with_max_table_bits(*table_bits))
        }
        SlicerSpec::Quota { kind, require, cap } => {
            let entry =
                QuotaEntry::new(kind.clone(), *require, *cap).map_err(|e| numbers_carried(&e))?;
            Box::new(
                QuotaSlicer::new(vec![entry], Box::new(GreedySlicer::new()))
                    .map_err(|e| numbers_carried(&e))?,
            )
        }
        SlicerSpec::CountQuota {
            kind,
            require,
            cap,
            throw,
        } => {
            let entry = CountQuotaEntry::new(kind.clone(), *require, *cap)
                .map_err(|e| numbers_carried(&e))?;
            let scarcity = if *throw {
                ScarcityBehavior::Throw
            } else {
                ScarcityBehavior::Degrade
            };
            Box::new(
                CountQuotaSlicer::new(vec![entry], Box::new(GreedySlicer::new()), scarcity)
                    .map_err(|e| numbers_carried(&e))?,
            )
        }
        SlicerSpec::CountKnapsack {
            kind,
            require,
            cap,
            bucket,
        } => {
            let entry = CountQuotaEntry::new(kind.clone(), *require, *cap)
                .map_err(|e| numbers_carried(&e))?;
            let knapsack = knapsack(*bucket)?.with_max_table_bits(1 << 20);
            Box::new(
                CountConstrainedKnapsackSlicer::new(
                    vec![entry],
                    knapsack,
                    ScarcityBehavior::Degrade,
                )
                .map_err(|e| numbers_carried(&e))?,
            )
        }
        SlicerSpec::Rogue(picks) => Box::new(Rogue(picks.clone())),
    };
    let builder = Pipeline::builder()
        .scorer(scorer)
        .slicer(slicer)
        .deduplicate(spec.deduplicate)
        .overflow_strategy(spec.overflow);
    Ok(match spec.placer {
        0 => builder.placer(ChronologicalPlacer::new()),
        1 => builder.placer(UShapedPlacer::new()),
        _ => builder.placer(RoguePlacer),
    }
    .build())
}

/// What an input item looked like to a run that reads it once.
struct Snapshot {
    tokens: u64,
    pinned: bool,
}

/// Runs `pipeline` on `items` and checks every promise against the
/// snapshot (first answers) of each item.
fn run_and_check<T: ContextItem>(
    pipeline: &Pipeline,
    spec: &PipelineSpec,
    items: &[T],
    snapshot: &[Snapshot],
    budget: &ContextBudget,
) -> Verdict {
    let outcome = catch_unwind(AssertUnwindSafe(|| pipeline.run(items, budget)));
    let result = match outcome {
        Ok(result) => result,
        Err(payload) => {
            let message = panic_message(&*payload);
            // A user scorer's own panic reaches the caller unchanged; any
            // other panic is the library's.
            if matches!(spec.scorer, ScorerSpec::Panicking) && message == USER_PANIC {
                return Ok(());
            }
            std::panic::resume_unwind(payload);
        }
    };
    let n = items.len();
    let selection = match result {
        Ok(selection) => selection,
        Err(error) => return numbers_carried(&error),
    };
    let report = selection.report();
    ensure(report.total_candidates == n, || {
        Broken::Loss(format!(
            "total_candidates {} for {n} items",
            report.total_candidates
        ))
    })?;
    each_index_once(
        n,
        report
            .included
            .iter()
            .map(|i| i.index)
            .chain(report.excluded.iter().map(|e| e.index)),
        "included + excluded",
    )?;
    ensure(selection.items().len() == report.included.len(), || {
        Broken::Loss("selection and report disagree".into())
    })?;
    let mut sum: i128 = 0;
    let mut pinned: i128 = 0;
    for included in &report.included {
        let seen = &snapshot[included.index];
        ensure(included.tokens == seen.tokens, || {
            Broken::Overrun(format!(
                "item {} counted {} but read as {}",
                included.index, included.tokens, seen.tokens
            ))
        })?;
        sum += i128::from(seen.tokens);
        if seen.pinned {
            pinned += i128::from(seen.tokens);
        }
    }
    ensure(sum == i128::from(report.selected_tokens), || {
        Broken::Overrun(format!(
            "selected_tokens {} but items sum to {sum}",
            report.selected_tokens
        ))
    })?;
    let window = i128::from(budget.max_tokens()) - i128::from(budget.output_reserve());
    ensure(sum <= window, || {
        Broken::Overrun(format!("{sum} tokens in a window of {window}"))
    })?;
    ensure(
        sum - pinned <= i128::from(report.effective_budget.max_tokens),
        || {
            Broken::Overrun(format!(
                "{} unpinned tokens over the effective ceiling {}",
                sum - pinned,
                report.effective_budget.max_tokens
            ))
        },
    )?;
    let target = i128::from(budget.target_tokens());
    let allowed = match spec.overflow {
        OverflowStrategy::Throw => target,
        OverflowStrategy::Truncate => target.max(pinned),
        OverflowStrategy::Proceed => target + i128::from(report.overflow_tokens.unwrap_or(0)),
        other => panic!("a strategy this suite does not know: {other:?}"),
    };
    ensure(sum <= allowed, || {
        Broken::Overrun(format!(
            "{sum} tokens over {allowed} allowed under {:?}",
            spec.overflow
        ))
    })
}

fn item_snapshot(items: &[Item]) -> Vec<Snapshot> {
    items
        .iter()
        .map(|i| Snapshot {
            tokens: i.tokens(),
            pinned: i.pinned(),
        })
        .collect()
}

fn case_items(spec: &PipelineSpec, items: &[Item], budget: &Option<ContextBudget>) -> Verdict {
    let Some(budget) = budget else { return Ok(()) };
    let pipeline = match build(spec) {
        Ok(p) => p,
        Err(verdict) => return verdict,
    };
    run_and_check(&pipeline, spec, items, &item_snapshot(items), budget)
}

fn case_unstable(
    spec: &PipelineSpec,
    items: &[Unstable],
    budget: &Option<ContextBudget>,
) -> Verdict {
    let Some(budget) = budget else { return Ok(()) };
    let pipeline = match build(spec) {
        Ok(p) => p,
        Err(verdict) => return verdict,
    };
    // Fresh copies: their first answers are the lists' first entries.
    let items: Vec<Unstable> = items.to_vec();
    let snapshot: Vec<Snapshot> = items
        .iter()
        .map(|u| Snapshot {
            tokens: u.tokens[0],
            pinned: u.pinned[0],
        })
        .collect();
    run_and_check(&pipeline, spec, &items, &snapshot, budget)?;
    match items.iter().position(|u| u.token_calls() > 1) {
        Some(i) => Err(Broken::Overrun(format!(
            "tokens() of item {i} read {} times in one run",
            items[i].token_calls()
        ))),
        None => Ok(()),
    }
}

/// Slicers on their own, with budgets no pipeline would pass (target over
/// max).
fn case_slicer(
    spec: &SlicerSpec,
    items: &[Item],
    scores: &[f64],
    max: u64,
    target: u64,
) -> Verdict {
    let slicer: Box<dyn Slicer> = match spec {
        SlicerSpec::Greedy => Box::new(GreedySlicer::new()),
        SlicerSpec::Knapsack { bucket, table_bits } => match KnapsackSlicer::new(*bucket) {
            Ok(k) => Box::new(k.with_max_table_bits(*table_bits)),
            Err(e) => return numbers_carried(&e),
        },
        _ => return Ok(()),
    };
    let sorted: Vec<ScoredItem<'_>> = items
        .iter()
        .zip(scores.iter().cycle())
        .enumerate()
        .map(|(index, (item, &score))| ScoredItem::new(item, index, score))
        .collect();
    let budget = EffectiveBudget {
        max_tokens: max,
        target_tokens: target,
    };
    match slicer.slice(&sorted, budget) {
        Err(e) => numbers_carried(&e),
        Ok(outcome) => {
            let mut seen = vec![false; sorted.len()];
            let mut sum: u128 = 0;
            for &pos in &outcome.selected {
                match seen.get_mut(pos) {
                    Some(s) if !*s => *s = true,
                    _ => return Err(Broken::Loss(format!("position {pos} invalid or repeated"))),
                }
                sum += u128::from(sorted[pos].tokens);
            }
            ensure(sum <= u128::from(target), || {
                Broken::Overrun(format!("{sum} tokens selected for target {target}"))
            })
        }
    }
}

pub fn run(ledger: &Ledger) {
    // Hand-made: the audit's inputs and the extremes.
    let big_budget = ContextBudget::new(u64::MAX, u64::MAX).ok();
    let knapsack_unbounded = PipelineSpec {
        scorer: ScorerSpec::Priority,
        slicer: SlicerSpec::Knapsack {
            bucket: 1,
            table_bits: u64::MAX,
        },
        placer: 0,
        deduplicate: true,
        overflow: OverflowStrategy::Throw,
    };
    let thousand: Vec<Item> = (0..1_000)
        .map(|i: u64| {
            Item::builder(format!("item {i}"))
                .tokens(1_000 + i)
                .priority(i64::try_from(i).unwrap())
                .build()
                .unwrap()
        })
        .collect();
    ledger.hand_made(
        "Pipeline::run",
        (knapsack_unbounded.clone(), thousand.len()),
        |(spec, _)| case_items(spec, &thousand, &big_budget),
    );
    let row_case = PipelineSpec {
        slicer: SlicerSpec::Knapsack {
            bucket: 1,
            table_bits: KnapsackSlicer::DEFAULT_MAX_TABLE_BITS,
        },
        ..knapsack_unbounded.clone()
    };
    let one = vec![Item::builder("one").tokens(5).priority(1).build().unwrap()];
    let target = (1u64 << 28) - 1;
    ledger.hand_made("Pipeline::run", (row_case, target), |(spec, target)| {
        case_items(spec, &one, &ContextBudget::new(*target, *target).ok())
    });
    let truncate = PipelineSpec {
        scorer: ScorerSpec::Recency,
        slicer: SlicerSpec::Greedy,
        placer: 0,
        deduplicate: true,
        overflow: OverflowStrategy::Truncate,
    };
    let audit_unstable = vec![Unstable::new(
        vec![0, 900],
        vec![true],
        vec!["unstable".into()],
        vec![ContextKind::MESSAGE],
    )];
    let reserve = ContextBudget::builder(1_000, 1_000)
        .output_reserve(500)
        .build()
        .ok();
    ledger.hand_made("Pipeline::run (unstable items)", truncate.clone(), |spec| {
        case_unstable(spec, &audit_unstable, &reserve)
    });
    // The former `i64::MIN` and -1 extremes enter as negative (Cupel)
    // counts; `u64::MAX` is the unsigned extreme.
    for extreme in [
        i128::from(u64::MAX),
        i128::from(i64::MAX),
        i128::from(i64::MIN),
        -1,
        0,
    ] {
        let item = |content: &str, pinned: bool| {
            let builder = Item::builder(content).pinned(pinned);
            match u64::try_from(extreme) {
                Ok(tokens) => builder.tokens(tokens),
                Err(_) => builder.signed_tokens(i64::try_from(extreme).unwrap()),
            }
            .build()
            .unwrap()
        };
        let items = vec![item("a", true), item("a", false), item("b", false)];
        for strategy in [
            OverflowStrategy::Throw,
            OverflowStrategy::Truncate,
            OverflowStrategy::Proceed,
        ] {
            let spec = PipelineSpec {
                overflow: strategy,
                ..truncate.clone()
            };
            ledger.hand_made("Pipeline::run", (spec, extreme), |(spec, _)| {
                case_items(spec, &items, &ContextBudget::new(u64::MAX, 1_000).ok())
            });
        }
    }

    ledger.random(
        "Pipeline::run",
        (pipeline_spec(), hostile::items(2, 40), budget()),
        |(spec, items, budget)| case_items(spec, items, budget),
    );
    ledger.random(
        "Pipeline::run (unstable items)",
        (
            pipeline_spec(),
            prop::collection::vec(hostile::unstable(), 0..12),
            budget(),
        ),
        |(spec, items, budget)| case_unstable(spec, items, budget),
    );
    ledger.random(
        "Slicer::slice (greedy, knapsack)",
        (
            slicer_spec(),
            hostile::items(0, 30),
            prop::collection::vec(hostile::float(), 1..5),
            hostile::budget_tokens(),
            prop_oneof![
                hostile::budget_tokens(),
                Just(u64::MAX - 5),
                Just(1u64 << 63)
            ],
        ),
        |(spec, items, scores, max, target)| case_slicer(spec, items, scores, *max, *target),
    );
}
