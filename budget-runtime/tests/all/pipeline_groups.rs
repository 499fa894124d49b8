//! Atomic groups and chat-safe deduplication, for every slicer and every
//! overflow strategy.

use std::collections::HashMap;

use budget_runtime::slicer::{
    CountConstrainedKnapsackSlicer, CountQuotaEntry, CountQuotaSlicer, GreedySlicer,
    KnapsackSlicer, QuotaEntry, QuotaSlicer, ScarcityBehavior,
};
use budget_runtime::{
    ContextBudget, ContextItem, ContextKind, Item, Pipeline,
    pipeline::{ExclusionReason, OverflowStrategy},
    slicer::Slicer,
};
use proptest::prelude::*;

fn slicers() -> Vec<Box<dyn Slicer>> {
    vec![
        Box::new(GreedySlicer::new()),
        Box::new(KnapsackSlicer::new(10).unwrap()),
        Box::new(
            QuotaSlicer::new(
                vec![QuotaEntry::new(ContextKind::TOOL_OUTPUT, 10.0, 60.0).unwrap()],
                Box::new(GreedySlicer::new()),
            )
            .unwrap(),
        ),
        Box::new(
            CountQuotaSlicer::new(
                vec![CountQuotaEntry::new(ContextKind::TOOL_OUTPUT, 1, 3).unwrap()],
                Box::new(GreedySlicer::new()),
                ScarcityBehavior::Degrade,
            )
            .unwrap(),
        ),
        Box::new(
            CountConstrainedKnapsackSlicer::new(
                vec![CountQuotaEntry::new(ContextKind::TOOL_OUTPUT, 1, 3).unwrap()],
                KnapsackSlicer::new(10).unwrap(),
                ScarcityBehavior::Degrade,
            )
            .unwrap(),
        ),
    ]
}

/// `(tokens, group, pinned, kind is tool output, priority)` per item.
fn item_specs() -> impl Strategy<Value = Vec<(u64, Option<u64>, bool, bool, i64)>> {
    prop::collection::vec(
        (
            0u64..200,
            prop::option::weighted(0.6, 0u64..5),
            prop::bool::weighted(0.05),
            any::<bool>(),
            0i64..10,
        ),
        0..24,
    )
}

fn build(specs: &[(u64, Option<u64>, bool, bool, i64)]) -> Vec<Item> {
    specs
        .iter()
        .enumerate()
        .map(|(i, &(tokens, group, pinned, tool, priority))| {
            let kind = if tool {
                ContextKind::TOOL_OUTPUT
            } else {
                ContextKind::MESSAGE
            };
            // Contents repeat on purpose: every third item shares a text.
            let content = if i % 3 == 0 {
                "same text".to_owned()
            } else {
                format!("item {i}")
            };
            let builder = Item::builder(content)
                .tokens(tokens)
                .kind(kind)
                .priority(priority)
                .pinned(pinned);
            match group {
                Some(g) => builder.group(g),
                None => builder,
            }
            .build()
            .unwrap()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Every slicer, every overflow strategy: a group's members are all
    /// included or all excluded, and the report says which.
    #[test]
    fn no_slicer_ever_splits_a_group(specs in item_specs(), target in 0u64..1_500) {
        let items = build(&specs);
        let budget = ContextBudget::new(3_000, target).unwrap();
        for strategy in [OverflowStrategy::Truncate, OverflowStrategy::Proceed, OverflowStrategy::Throw] {
            for slicer in slicers() {
                let pipeline = Pipeline::builder()
                    .slicer(slicer)
                    .overflow_strategy(strategy)
                    .build();
                let Ok(selection) = pipeline.run(&items, &budget) else { continue };
                let report = selection.report();
                let mut state: HashMap<u64, bool> = HashMap::new();
                for (index, item) in items.iter().enumerate() {
                    let Some(group) = item.group() else { continue };
                    let included = report.inclusion_of(index).is_some();
                    let first = *state.entry(group).or_insert(included);
                    prop_assert_eq!(first, included, "group {} split at item {}", group, index);
                }
                for entry in &report.groups {
                    prop_assert_eq!(state.get(&entry.group).copied(), Some(entry.included));
                }
            }
        }
    }

    /// Grouped items (chat messages) and empty contents are never merged by
    /// deduplication, whatever their text.
    #[test]
    fn grouped_items_are_never_deduplicated(specs in item_specs()) {
        let items = build(&specs);
        let budget = ContextBudget::new(1_000_000, 1_000_000).unwrap();
        let selection = Pipeline::default().run(&items, &budget).unwrap();
        for excluded in &selection.report().excluded {
            if let ExclusionReason::Deduplicated { deduplicated_against } = excluded.reason {
                let (a, b) = (&items[excluded.index], &items[deduplicated_against]);
                prop_assert!(a.group().is_none() && b.group().is_none());
                prop_assert_eq!(a.content(), b.content());
            }
        }
    }
}

/// An assistant message with two calls and their results: with a budget
/// that fits two of the three, greedy selection (best score per token)
/// would take the call and one result; the group makes it all or nothing.
#[test]
fn a_call_without_its_results_is_never_selected() {
    let items = [
        Item::builder("call: ls, cat")
            .tokens(20)
            .group(1)
            .priority(9)
            .build()
            .unwrap(),
        Item::builder("result of ls")
            .tokens(20)
            .group(1)
            .priority(9)
            .build()
            .unwrap(),
        Item::builder("result of cat")
            .tokens(200)
            .group(1)
            .priority(1)
            .build()
            .unwrap(),
        Item::builder("a note")
            .tokens(50)
            .priority(5)
            .build()
            .unwrap(),
    ];
    let pipeline = Pipeline::builder()
        .scorer(budget_runtime::scorer::PriorityScorer::new())
        .build();
    let selection = pipeline
        .run(&items, &ContextBudget::new(1_000, 100).unwrap())
        .unwrap();
    let chosen: Vec<_> = selection.items().iter().map(|i| i.content()).collect();
    assert_eq!(chosen, ["a note"]);
    let group = &selection.report().groups[0];
    assert_eq!((group.tokens, group.included), (240, false));
    assert_eq!(
        selection.report().exclusion_of(1),
        Some(&ExclusionReason::BudgetExceeded {
            item_tokens: 240,
            available_tokens: 50
        })
    );
}

/// Two chat messages with the same (empty) text but different tool calls
/// stay two messages.
#[test]
fn empty_contents_are_not_duplicates_of_each_other() {
    struct Call(&'static str);
    impl ContextItem for Call {
        fn content(&self) -> std::borrow::Cow<'_, str> {
            std::borrow::Cow::Borrowed("")
        }
        fn tokens(&self) -> u64 {
            u64::try_from(self.0.len()).unwrap_or(u64::MAX)
        }
    }
    let items = [Call("ls {}"), Call("cat {\"path\":\"a\"}")];
    let selection = Pipeline::default()
        .run(&items, &ContextBudget::new(100, 100).unwrap())
        .unwrap();
    assert_eq!(selection.items().len(), 2);
}
