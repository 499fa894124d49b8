//! The same workload through this crate and through `cupel` 1.2.0 selects
//! the same items in the same order.

mod support {
    pub mod workload;
}

use budget_runtime::placer::ChronologicalPlacer;
use budget_runtime::scorer::{PriorityScorer, RecencyScorer};
use budget_runtime::slicer::GreedySlicer;
use budget_runtime::{ContextItem, Pipeline};
use support::workload;

fn ours(pipeline: &Pipeline, n: usize, seed: u64) -> Vec<String> {
    let items = workload::items(&workload::specs(n, seed));
    let selection = pipeline
        .run(&items, &workload::budget())
        .expect("pipeline runs");
    selection
        .items()
        .iter()
        .map(|i| i.content().into_owned())
        .collect()
}

fn theirs(pipeline: &cupel::Pipeline, n: usize, seed: u64) -> Vec<String> {
    let items = workload::cupel_items(&workload::specs(n, seed));
    let selected = pipeline
        .run(&items, &workload::cupel_budget())
        .expect("cupel runs");
    selected.iter().map(|i| i.content().to_owned()).collect()
}

fn cupel_pipeline(
    scorer: Box<dyn cupel::Scorer>,
    slicer: Box<dyn cupel::Slicer>,
) -> cupel::Pipeline {
    cupel::Pipeline::builder()
        .scorer(scorer)
        .slicer(slicer)
        .placer(Box::new(cupel::ChronologicalPlacer))
        .deduplication(true)
        .build()
        .expect("valid cupel pipeline")
}

#[test]
fn recency_greedy_chronological_matches_cupel() {
    let ours_pipeline = Pipeline::builder()
        .scorer(RecencyScorer::new())
        .slicer(GreedySlicer::new())
        .placer(ChronologicalPlacer::new())
        .build();
    let theirs_pipeline =
        cupel_pipeline(Box::new(cupel::RecencyScorer), Box::new(cupel::GreedySlice));
    for seed in [1, 2, 3] {
        let a = ours(&ours_pipeline, 1_500, seed);
        let b = theirs(&theirs_pipeline, 1_500, seed);
        assert!(a.len() > 10, "the workload must select something");
        assert_eq!(a, b, "seed {seed}");
    }
}

#[test]
fn priority_greedy_chronological_matches_cupel() {
    let ours_pipeline = Pipeline::builder().scorer(PriorityScorer::new()).build();
    let theirs_pipeline = cupel_pipeline(
        Box::new(cupel::PriorityScorer),
        Box::new(cupel::GreedySlice),
    );
    let a = ours(&ours_pipeline, 1_500, 7);
    let b = theirs(&theirs_pipeline, 1_500, 7);
    assert_eq!(a, b);
}
