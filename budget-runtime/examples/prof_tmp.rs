#![allow(missing_docs)]
use budget_runtime::placer::ChronologicalPlacer;
use budget_runtime::scorer::{CompositeScorer, KindScorer, PriorityScorer, RecencyScorer};
use budget_runtime::slicer::GreedySlicer;
use budget_runtime::{Pipeline, Scorer};
#[path = "../tests/support/workload.rs"]
mod workload;
fn main() {
    let specs = workload::specs(10_000, 42);
    let items = workload::items(&specs);
    let budget = workload::budget();
    let which = std::env::args().nth(1).unwrap_or_default();
    let p = if which == "composite" {
        let c: Vec<(Box<dyn Scorer>, f64)> = vec![
            (Box::new(RecencyScorer::new()), 1.0),
            (Box::new(PriorityScorer::new()), 1.0),
        ];
        Pipeline::builder()
            .scorer(CompositeScorer::new(c).unwrap())
            .slicer(GreedySlicer::new())
            .placer(ChronologicalPlacer::new())
            .build()
    } else {
        Pipeline::builder()
            .scorer(KindScorer::new())
            .slicer(GreedySlicer::new())
            .placer(ChronologicalPlacer::new())
            .build()
    };
    let mut n = 0;
    for _ in 0..20 {
        n += p.run(&items, &budget).unwrap().items().len();
    }
    std::hint::black_box(n);
}
