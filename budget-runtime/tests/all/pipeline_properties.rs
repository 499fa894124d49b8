//! Property tests: pipeline invariants on random input.

use std::collections::HashSet;

use budget_runtime::{
    ContextBudget, ContextItem, ContextKind, Item, Pipeline,
    model::Timestamp,
    pipeline::{OverflowStrategy, PipelineError},
};
use proptest::prelude::*;

fn arb_item() -> impl Strategy<Value = Item> {
    (
        0u8..12,       // small content alphabet → frequent duplicates
        -50i64..400,   // tokens, some negative
        any::<bool>(), // pinned (rare below)
        0u8..10,       // pin odds
        proptest::option::of(0i64..1_000_000),
        proptest::option::of(-5i64..5),
        0usize..4,
    )
        .prop_map(|(content, tokens, pinned, odds, ts, priority, kind)| {
            let kinds = [
                ContextKind::MESSAGE,
                ContextKind::DOCUMENT,
                ContextKind::TOOL_OUTPUT,
                ContextKind::MEMORY,
            ];
            let mut b = Item::builder(format!("content-{content}"))
                .signed_tokens(tokens)
                .pinned(pinned && odds == 0)
                .kind(kinds[kind].clone());
            if let Some(ts) = ts {
                b = b.timestamp(Timestamp::from_unix_seconds(ts));
            }
            if let Some(p) = priority {
                b = b.priority(p);
            }
            b.build().expect("content is never empty")
        })
}

fn arb_budget() -> impl Strategy<Value = ContextBudget> {
    (0u64..3_000, 0u64..3_000, 0u64..500).prop_filter_map(
        "valid budget",
        |(max, target, reserve)| {
            ContextBudget::builder(max, target.min(max))
                .output_reserve(reserve.min(max))
                .build()
                .ok()
        },
    )
}

/// Every overflow strategy with deduplication on and off, tagged with the flag.
fn pipelines() -> Vec<(bool, Pipeline)> {
    [
        OverflowStrategy::Throw,
        OverflowStrategy::Truncate,
        OverflowStrategy::Proceed,
    ]
    .into_iter()
    .flat_map(|strategy| {
        [true, false].into_iter().map(move |dedup| {
            let pipeline = Pipeline::builder()
                .overflow_strategy(strategy)
                .deduplicate(dedup)
                .build();
            (dedup, pipeline)
        })
    })
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn selection_invariants(items in proptest::collection::vec(arb_item(), 0..60), budget in arb_budget()) {
        let pinned_tokens: u64 = items.iter().filter(|i| i.pinned() && i.negative_tokens().is_none()).map(|i| i.tokens()).sum();
        for (dedup, pipeline) in pipelines() {
            let result = pipeline.run(&items, &budget);
            let selection = match result {
                Ok(selection) => selection,
                Err(PipelineError::PinnedExceedsBudget { pinned_tokens: p, available_tokens }) => {
                    prop_assert_eq!(p, pinned_tokens);
                    prop_assert!(p > available_tokens);
                    continue;
                }
                Err(PipelineError::Overflow { selected_tokens, target_tokens }) => {
                    prop_assert!(selected_tokens > target_tokens);
                    continue;
                }
                Err(other) => return Err(TestCaseError::fail(format!("unexpected error {other}"))),
            };
            let report = selection.report();
            let selected: Vec<usize> = report.included.iter().map(|i| i.index).collect();

            // Selected tokens never exceed the effective max (max - reserve).
            let total: u64 = selection.items().iter().map(|i| i.tokens()).sum();
            prop_assert_eq!(total, report.selected_tokens);
            prop_assert!(total <= budget.max_tokens() - budget.output_reserve());

            // Pinned items (with non-negative tokens) are always present.
            for (index, item) in items.iter().enumerate() {
                if item.pinned() && item.negative_tokens().is_none() {
                    prop_assert!(selected.contains(&index), "pinned item {} missing", index);
                }
                if item.negative_tokens().is_some() {
                    prop_assert!(!selected.contains(&index));
                }
            }

            // Output is a subset of the input with no duplicate positions.
            let unique: HashSet<usize> = selected.iter().copied().collect();
            prop_assert_eq!(unique.len(), selected.len());
            prop_assert!(selected.iter().all(|&i| i < items.len()));
            for (item, &index) in selection.items().iter().zip(&selected) {
                prop_assert!(std::ptr::eq(*item, &items[index]));
            }

            // Every candidate is accounted for exactly once.
            prop_assert_eq!(report.included.len() + report.excluded.len(), items.len());
            prop_assert_eq!(report.total_candidates, items.len());

            // Scored (non-pinned) picks fit the effective target.
            let scored: u64 = report.included.iter()
                .filter(|i| !items[i.index].pinned())
                .map(|i| items[i.index].tokens())
                .sum();
            prop_assert!(scored <= report.effective_budget.target_tokens);

            // With deduplication, no two selected items share content.
            if dedup {
                let contents: HashSet<String> = selection.items().iter()
                    .filter(|i| !i.pinned())
                    .map(|i| i.content().into_owned()).collect();
                let non_pinned = selection.items().iter().filter(|i| !i.pinned()).count();
                prop_assert_eq!(contents.len(), non_pinned);
            }

            // Exclusions come best score first, NaN last.
            let in_order = |a: f64, b: f64| if a.is_nan() { b.is_nan() } else { b.is_nan() || a >= b };
            prop_assert!(report.excluded.windows(2).all(|w| in_order(w[0].score, w[1].score)));

            // The same input gives the same output.
            let again = pipeline.run(&items, &budget).expect("second run succeeds like the first");
            prop_assert_eq!(again.report(), report);

            // The report reads the same however it is taken: assembled on the
            // first `report()`, by `into_parts` without one, and by `run_dyn`.
            let (parts_items, parts_report) = pipeline.run(&items, &budget).expect("runs again").into_parts();
            prop_assert_eq!(parts_items.len(), selected.len());
            prop_assert_eq!(&parts_report, report);
            let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
            let (order, dyn_report) = pipeline.run_dyn(&views, &budget).expect("runs again");
            prop_assert_eq!(&order, &selected);
            prop_assert_eq!(&dyn_report, report);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Deduplication keeps, for each content, the scoreable copy with the
    /// highest score (NaN never wins), the earliest on ties, and with
    /// `PinnedWins` the first pinned copy (input order) when there is one;
    /// every other copy is excluded against it. The default (the Cupel
    /// rule) never compares pinned items. Checked against a brute-force
    /// reference over the scorer's own scores.
    #[test]
    fn dedup_keeps_a_pinned_copy_else_the_best_scored(
        items in proptest::collection::vec(arb_item(), 0..80),
    ) {
        use budget_runtime::scorer::{KindScorer, PriorityScorer};
        use budget_runtime::pipeline::{Deduplication, ExclusionReason};
        use budget_runtime::scorer::Scorer;

        let budget = ContextBudget::new(1_000_000, 1_000_000).expect("valid budget");
        let scorers: [Box<dyn Scorer>; 2] = [Box::new(KindScorer::new()), Box::new(PriorityScorer::new())];
        let kept = |i: usize| items[i].negative_tokens().is_none();
        let pinned: Vec<usize> = (0..items.len()).filter(|&i| kept(i) && items[i].pinned()).collect();
        let scoreable: Vec<usize> = (0..items.len()).filter(|&i| kept(i) && !items[i].pinned()).collect();
        for (scorer, mode) in scorers.into_iter().flat_map(|s| {
            let s: std::sync::Arc<dyn Scorer> = s.into();
            [(s.clone(), Deduplication::AmongScored), (s, Deduplication::PinnedWins)]
        }) {
            let views: Vec<&dyn ContextItem> = scoreable.iter().map(|&i| &items[i] as &dyn ContextItem).collect();
            let scores = scorer.scores(&views);
            let pipeline = Pipeline::builder().scorer(Shared(scorer)).deduplication(mode).build();
            let Ok(selection) = pipeline.run(&items, &budget) else {
                // Only pinned items beyond the budget can fail here.
                continue;
            };
            let report = selection.report();
            for (a, &i) in scoreable.iter().enumerate() {
                let content = items[i].content();
                let pinned_copy = pinned.iter().find(|&&p| items[p].content() == content);
                let expected = match pinned_copy.filter(|_| mode == Deduplication::PinnedWins) {
                    Some(&p) => Some(p),
                    None => {
                        let mut winner = a;
                        for (b, &j) in scoreable.iter().enumerate() {
                            if items[j].content() != content {
                                continue;
                            }
                            let (best, challenger) = (scores[winner], scores[b]);
                            let better = challenger > best || (best.is_nan() && !challenger.is_nan());
                            let tied_earlier = (challenger == best || (best.is_nan() && challenger.is_nan())) && b < winner;
                            if better || tied_earlier {
                                winner = b;
                            }
                        }
                        (winner != a).then_some(scoreable[winner])
                    }
                };
                match expected {
                    Some(against) => prop_assert_eq!(
                        report.exclusion_of(i),
                        Some(&ExclusionReason::Deduplicated { deduplicated_against: against }),
                        "item {}", i
                    ),
                    None => prop_assert!(
                        !matches!(report.exclusion_of(i), Some(ExclusionReason::Deduplicated { .. })),
                        "item {} keeps its content", i
                    ),
                }
            }
        }
    }
}

/// A shared scorer, so one scorer serves two pipelines.
#[derive(Debug)]
struct Shared(std::sync::Arc<dyn budget_runtime::scorer::Scorer>);

impl budget_runtime::scorer::Scorer for Shared {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        self.0.score_all(items, scores);
    }
}
