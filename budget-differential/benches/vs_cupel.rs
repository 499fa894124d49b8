//! This crate against the `cupel` crate 1.2.0, side by side on one workload
//! (see `src/workload.rs`), in one run.
//!
//! Before timing, each configuration checks that both libraries select the
//! same items in the same order. After the criterion groups, a summary
//! prints the median time of each side and the ratio.
//!
//! Run: `cargo bench -p budget-differential --bench vs_cupel`

use std::hint::black_box;
use std::time::{Duration, Instant};

use budget_runtime::placer::ChronologicalPlacer;
use budget_runtime::scorer::{CompositeScorer, KindScorer, PriorityScorer, RecencyScorer};
use budget_runtime::slicer::{GreedySlicer, KnapsackSlicer};
use budget_runtime::{ContextItem, Pipeline, scorer::Scorer};
use criterion::Criterion;

use budget_differential::workload;

/// One configuration, built for both libraries.
struct Case {
    name: &'static str,
    items: usize,
    ours: Pipeline,
    theirs: Option<cupel::Pipeline>,
}

fn ours_composite() -> CompositeScorer {
    let children: Vec<(Box<dyn Scorer>, f64)> = vec![
        (Box::new(RecencyScorer::new()), 1.0),
        (Box::new(PriorityScorer::new()), 1.0),
    ];
    CompositeScorer::new(children).expect("valid weights")
}

fn theirs_composite() -> Box<dyn cupel::Scorer> {
    let children: Vec<(Box<dyn cupel::Scorer>, f64)> = vec![
        (Box::new(cupel::RecencyScorer), 1.0),
        (Box::new(cupel::PriorityScorer), 1.0),
    ];
    Box::new(cupel::CompositeScorer::new(children).expect("valid weights"))
}

fn ours(scorer: impl Scorer + 'static, knapsack: bool) -> Pipeline {
    let builder = Pipeline::builder()
        .scorer(scorer)
        .placer(ChronologicalPlacer::new())
        .deduplicate(true);
    if knapsack {
        builder
            .slicer(KnapsackSlicer::new(100).expect("valid bucket"))
            .build()
    } else {
        builder.slicer(GreedySlicer::new()).build()
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "kind + greedy + chronological",
            items: 10_000,
            ours: ours(KindScorer::new(), false),
            theirs: Some(workload::cupel_pipeline(
                Box::new(cupel::KindScorer::with_default_weights()),
                Box::new(cupel::GreedySlice),
            )),
        },
        Case {
            name: "composite(recency, priority) + greedy",
            items: 10_000,
            ours: ours(ours_composite(), false),
            theirs: Some(workload::cupel_pipeline(
                theirs_composite(),
                Box::new(cupel::GreedySlice),
            )),
        },
        Case {
            name: "kind + knapsack(bucket 100)",
            items: 10_000,
            ours: ours(KindScorer::new(), true),
            theirs: Some(workload::cupel_pipeline(
                Box::new(cupel::KindScorer::with_default_weights()),
                Box::new(cupel::KnapsackSlice::new(100).expect("valid bucket")),
            )),
        },
        Case {
            name: "composite(recency, priority) + greedy",
            items: 100_000,
            ours: ours(ours_composite(), false),
            // Cupel's rank scorers compare every pair: ~10^10 steps here.
            theirs: None,
        },
    ]
}

/// Median wall time of `runs` calls of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let mut criterion = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    let mut summary = Vec::new();

    for case in cases() {
        let specs = workload::specs(case.items, 42);
        let items = workload::items(&specs);
        let budget = workload::budget();
        let cupel_items = workload::cupel_items(&specs);
        let cupel_budget = workload::cupel_budget();

        let selected: Vec<String> = case
            .ours
            .run(&items, &budget)
            .expect("pipeline runs")
            .items()
            .iter()
            .map(|i| i.content().into_owned())
            .collect();
        if let Some(theirs) = &case.theirs {
            let reference: Vec<String> = theirs
                .run(&cupel_items, &cupel_budget)
                .expect("cupel runs")
                .iter()
                .map(|i| i.content().to_owned())
                .collect();
            assert_eq!(
                selected, reference,
                "{}: selections differ from cupel",
                case.name
            );
        }

        let label = format!("{} / {} items", case.name, case.items);
        let mut group = criterion.benchmark_group(&label);
        group.bench_function("budget", |b| {
            b.iter(|| black_box(case.ours.run(black_box(&items), &budget).expect("runs")))
        });
        if let Some(theirs) = &case.theirs {
            group.bench_function("cupel", |b| {
                b.iter(|| {
                    black_box(
                        theirs
                            .run(black_box(&cupel_items), &cupel_budget)
                            .expect("runs"),
                    )
                })
            });
        }
        group.finish();

        let ours_time = median(15, || {
            black_box(case.ours.run(&items, &budget).expect("runs"));
        });
        let theirs_time = case.theirs.as_ref().map(|theirs| {
            median(5, || {
                black_box(theirs.run(&cupel_items, &cupel_budget).expect("runs"));
            })
        });
        summary.push((label, selected.len(), ours_time, theirs_time));
    }

    criterion.final_summary();
    println!();
    println!("| workload | selected | budget | cupel 1.2.0 | speed-up |");
    println!("|---|---:|---:|---:|---:|");
    for (label, selected, ours_time, theirs_time) in summary {
        let (theirs_cell, ratio) = match theirs_time {
            Some(t) => (
                format!("{:.2} ms", t.as_secs_f64() * 1e3),
                format!("{:.1}×", t.as_secs_f64() / ours_time.as_secs_f64()),
            ),
            None => ("not run (quadratic)".to_owned(), "—".to_owned()),
        };
        println!(
            "| {label} | {selected} | {:.2} ms | {theirs_cell} | {ratio} |",
            ours_time.as_secs_f64() * 1e3
        );
    }
}
