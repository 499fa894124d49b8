//! The same workload through this crate and through `cupel` 1.2.0 selects
//! the same items in the same order.

use budget_differential::workload;
use budget_differential::workload::cupel_pipeline;
use budget_runtime::placer::ChronologicalPlacer;
use budget_runtime::scorer::{PriorityScorer, RecencyScorer};
use budget_runtime::slicer::GreedySlicer;
use budget_runtime::{ContextItem, Pipeline};

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

#[test]
fn kind_greedy_matches_cupel() {
    use budget_runtime::scorer::KindScorer;
    let ours_pipeline = Pipeline::builder().scorer(KindScorer::new()).build();
    let theirs_pipeline = cupel_pipeline(
        Box::new(cupel::KindScorer::with_default_weights()),
        Box::new(cupel::GreedySlice),
    );
    assert_eq!(
        ours(&ours_pipeline, 1_500, 11),
        theirs(&theirs_pipeline, 1_500, 11)
    );
}

#[test]
fn composite_greedy_matches_cupel() {
    use budget_runtime::scorer::CompositeScorer;
    use budget_runtime::scorer::Scorer;
    let children: Vec<(Box<dyn Scorer>, f64)> = vec![
        (Box::new(RecencyScorer::new()), 2.0),
        (Box::new(PriorityScorer::new()), 1.0),
    ];
    let ours_pipeline = Pipeline::builder()
        .scorer(CompositeScorer::new(children).unwrap())
        .build();
    let theirs_children: Vec<(Box<dyn cupel::Scorer>, f64)> = vec![
        (Box::new(cupel::RecencyScorer), 2.0),
        (Box::new(cupel::PriorityScorer), 1.0),
    ];
    let theirs_pipeline = cupel_pipeline(
        Box::new(cupel::CompositeScorer::new(theirs_children).unwrap()),
        Box::new(cupel::GreedySlice),
    );
    assert_eq!(
        ours(&ours_pipeline, 1_500, 5),
        theirs(&theirs_pipeline, 1_500, 5)
    );
}

#[test]
fn knapsack_matches_cupel() {
    use budget_runtime::scorer::KindScorer;
    use budget_runtime::slicer::KnapsackSlicer;
    let ours_pipeline = Pipeline::builder()
        .scorer(KindScorer::new())
        .slicer(KnapsackSlicer::new(100).unwrap())
        .build();
    let theirs_pipeline = cupel_pipeline(
        Box::new(cupel::KindScorer::with_default_weights()),
        Box::new(cupel::KnapsackSlice::new(100).unwrap()),
    );
    for seed in [3, 4] {
        assert_eq!(
            ours(&ours_pipeline, 1_500, seed),
            theirs(&theirs_pipeline, 1_500, seed)
        );
    }
}

#[test]
fn u_shaped_matches_cupel() {
    use budget_runtime::placer::UShapedPlacer;
    let ours_pipeline = Pipeline::builder()
        .scorer(PriorityScorer::new())
        .placer(UShapedPlacer::new())
        .build();
    let theirs_pipeline = cupel::Pipeline::builder()
        .scorer(Box::new(cupel::PriorityScorer))
        .slicer(Box::new(cupel::GreedySlice))
        .placer(Box::new(cupel::UShapedPlacer))
        .deduplication(true)
        .build()
        .unwrap();
    assert_eq!(
        ours(&ours_pipeline, 1_500, 9),
        theirs(&theirs_pipeline, 1_500, 9)
    );
}
