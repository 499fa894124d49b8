//! The knapsack slicer's memory stays within its table limit, and a limit
//! beyond what the machine has is a typed error, not a process abort.
//!
//! A global allocator with a cap makes an allocation over the cap fail: an
//! unchecked `vec!` would abort this test binary, a checked one returns the
//! error. One test function, so no other test allocates meanwhile.

use std::alloc::System;

use budget_runtime::scorer::PriorityScorer;
use budget_runtime::slicer::KnapsackSlicer;
use budget_runtime::{ContextBudget, Item, Pipeline, pipeline::PipelineError, slicer::SlicerError};

#[global_allocator]
static ALLOCATOR: cap::Cap<System> = cap::Cap::new(System, usize::MAX);

/// Bytes the test allows on top of what is allocated when it starts: the
/// default table limit (2²⁸ bits = 32 MiB) plus room for the items.
const HEADROOM: usize = 48 << 20;

#[test]
fn knapsack_allocations_are_bounded() {
    ALLOCATOR
        .set_limit(ALLOCATOR.allocated() + HEADROOM)
        .unwrap();

    // Audit row: one item, target 2²⁸ − 1, bucket 1, default limit. The
    // rolling row alone used to take 1 GiB.
    let items = [Item::builder("one").tokens(5).priority(1).build().unwrap()];
    let target = (1u64 << 28) - 1;
    let pipeline = Pipeline::builder()
        .scorer(PriorityScorer::new())
        .slicer(KnapsackSlicer::new(1).unwrap())
        .build();
    let selection = pipeline
        .run(&items, &ContextBudget::new(target, target).unwrap())
        .unwrap();
    assert_eq!(selection.report().selected_tokens, 5);

    // Audit row: no limit at all (`u64::MAX`), 1,000 items, `u64::MAX`
    // budget. The table is far beyond any machine: a typed error.
    let items: Vec<Item> = (0..1_000)
        .map(|i: u64| {
            Item::builder(format!("item {i}"))
                .tokens(1_000 + i)
                .priority(i64::try_from(i).unwrap())
                .build()
                .unwrap()
        })
        .collect();
    let pipeline = Pipeline::builder()
        .scorer(PriorityScorer::new())
        .slicer(
            KnapsackSlicer::new(1)
                .unwrap()
                .with_max_table_bits(u64::MAX),
        )
        .build();
    let err = pipeline
        .run(&items, &ContextBudget::new(u64::MAX, u64::MAX).unwrap())
        .unwrap_err();
    let PipelineError::Slice(SlicerError::KnapsackTableTooLarge {
        candidates,
        needed_bits,
        limit_bits,
    }) = &err
    else {
        panic!("unexpected error: {err}");
    };
    assert_eq!((*candidates, *limit_bits), (1_000, u64::MAX));
    assert!(*needed_bits > u128::from(u64::MAX) / 2, "{needed_bits}");
    assert!(err.to_string().contains("1000 candidates"), "{err}");
    ALLOCATOR.set_limit(usize::MAX).unwrap();
}
