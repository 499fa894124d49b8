//! Instruction counts against the `cupel` crate 1.2.0 under callgrind:
//! immune to machine load, unlike wall-clock time. Runs one side of the
//! "kind + greedy + chronological" workload (10,000 items, see
//! `src/workload.rs`) `RUNS` times inside `measured_ours` or
//! `measured_cupel`, so callgrind can count only those functions:
//!
//! ```sh
//! cargo bench -p budget-differential --bench vs_cupel_instructions --no-run
//! BIN=$(ls -t target/release/deps/vs_cupel_instructions-* | grep -v '\.d$' | head -1)
//! for side in ours cupel; do
//!   valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.$side \
//!     --toggle-collect="*measured_$side*" "$BIN" $side
//!   callgrind_annotate /tmp/cg.$side | grep -m1 'PROGRAM TOTALS'
//! done
//! ```
//!
//! Divide each total by `RUNS` for instructions per run. Both sides are
//! checked to select the same items before measuring.

use std::hint::black_box;

use budget_runtime::placer::ChronologicalPlacer;
use budget_runtime::scorer::KindScorer;
use budget_runtime::slicer::GreedySlicer;
use budget_runtime::{ContextBudget, ContextItem, Item, Pipeline};

use budget_differential::workload;

/// Runs per measurement.
const RUNS: usize = 10;
const ITEMS: usize = 10_000;

#[inline(never)]
fn measured_ours(pipeline: &Pipeline, items: &[Item], budget: &ContextBudget) -> usize {
    let mut selected = 0;
    for _ in 0..RUNS {
        selected += black_box(pipeline.run(black_box(items), budget).expect("runs"))
            .items()
            .len();
    }
    selected
}

#[inline(never)]
fn measured_cupel(
    pipeline: &cupel::Pipeline,
    items: &[cupel::ContextItem],
    budget: &cupel::ContextBudget,
) -> usize {
    let mut selected = 0;
    for _ in 0..RUNS {
        selected += black_box(pipeline.run(black_box(items), budget).expect("runs")).len();
    }
    selected
}

fn main() {
    let side = std::env::args().nth(1).unwrap_or_default();
    let specs = workload::specs(ITEMS, 42);
    let items = workload::items(&specs);
    let budget = workload::budget();
    let cupel_items = workload::cupel_items(&specs);
    let cupel_budget = workload::cupel_budget();
    let ours = Pipeline::builder()
        .scorer(KindScorer::new())
        .slicer(GreedySlicer::new())
        .placer(ChronologicalPlacer::new())
        .deduplicate(true)
        .build();
    let theirs = workload::cupel_pipeline(
        Box::new(cupel::KindScorer::with_default_weights()),
        Box::new(cupel::GreedySlice),
    );
    let a: Vec<String> = ours
        .run(&items, &budget)
        .expect("runs")
        .items()
        .iter()
        .map(|i| i.content().into_owned())
        .collect();
    let b: Vec<String> = theirs
        .run(&cupel_items, &cupel_budget)
        .expect("runs")
        .iter()
        .map(|i| i.content().to_owned())
        .collect();
    assert_eq!(
        a, b,
        "both sides must select the same items in the same order"
    );
    let selected = match side.as_str() {
        "ours" => measured_ours(&ours, &items, &budget),
        "cupel" => measured_cupel(&theirs, &cupel_items, &cupel_budget),
        _ => {
            eprintln!("usage: vs_cupel_instructions ours|cupel");
            std::process::exit(2);
        }
    };
    eprintln!(
        "{side}: {RUNS} runs of {ITEMS} items, {} selected per run",
        selected / RUNS
    );
}
