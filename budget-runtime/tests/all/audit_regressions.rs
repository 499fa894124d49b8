//! Reproductions of the pipeline and payload defects the adversarial audit
//! (issue 14) found, one test per row of its table; each failed before its
//! fix. Rows about a single type are tested beside it.

use std::borrow::Cow;
use std::cell::Cell;

use budget_runtime::payload::{PayloadAssembler, TierBudget};
use budget_runtime::{
    ContextBudget, ContextItem, Estimator, Item, Pipeline,
    estimate::{ContentType, RatioEstimator},
    model::Tier,
    pipeline::{ExclusionReason, OverflowStrategy},
};

/// Identical content, one pinned and one not: by default (the Cupel rule,
/// which deduplicates scored items only) both are kept; with
/// `Deduplication::PinnedWins` only the pinned one is, and the other is
/// reported as its duplicate.
#[test]
fn deduplication_keeps_the_pinned_copy() {
    let items = [
        Item::new("same text", 10).unwrap(),
        Item::builder("same text")
            .tokens(10)
            .pinned(true)
            .build()
            .unwrap(),
        Item::new("other", 10).unwrap(),
    ];
    let budget = ContextBudget::new(1_000, 1_000).unwrap();
    let cupel = Pipeline::default().run(&items, &budget).unwrap();
    assert_eq!(cupel.report().included.len(), 3);
    assert_eq!(cupel.tokens(), 30);

    let selection = Pipeline::builder()
        .deduplication(budget_runtime::pipeline::Deduplication::PinnedWins)
        .build()
        .run(&items, &budget)
        .unwrap();
    let report = selection.report();
    let included: Vec<usize> = report.included.iter().map(|i| i.index).collect();
    assert!(
        included.contains(&1) && included.contains(&2),
        "{included:?}"
    );
    assert!(!included.contains(&0), "{included:?}");
    assert_eq!(
        report.exclusion_of(0),
        Some(&ExclusionReason::Deduplicated {
            deduplicated_against: 1
        })
    );
    assert_eq!(selection.tokens(), 20);
}

/// An item whose `tokens()` answers 0 the first time and 900 afterwards,
/// counting how often it is asked.
struct Unstable {
    pinned: bool,
    calls: Cell<u32>,
}

impl ContextItem for Unstable {
    fn content(&self) -> Cow<'_, str> {
        Cow::Borrowed("unstable")
    }
    fn tokens(&self) -> u64 {
        let calls = self.calls.get();
        self.calls.set(calls + 1);
        if calls == 0 { 0 } else { 900 }
    }
    fn pinned(&self) -> bool {
        self.pinned
    }
}

#[test]
fn unstable_token_counts_are_read_once_and_never_overrun() {
    let budget = ContextBudget::builder(1_000, 1_000)
        .output_reserve(500)
        .build()
        .unwrap();
    let pipeline = Pipeline::builder()
        .overflow_strategy(OverflowStrategy::Truncate)
        .build();
    for pinned in [true, false] {
        let items = [Unstable {
            pinned,
            calls: Cell::new(0),
        }];
        let selection = pipeline.run(&items, &budget).unwrap();
        let report = selection.report();
        assert_eq!(items[0].calls.get(), 1, "pinned {pinned}");
        // Read once as 0: the item costs 0 everywhere in this run.
        assert_eq!(report.selected_tokens, 0, "pinned {pinned}");
        assert_eq!(report.pinned_tokens, 0, "pinned {pinned}");
        assert_eq!(report.total_tokens_considered, 0, "pinned {pinned}");
        assert!(report.selected_tokens <= report.effective_budget.max_tokens);
    }
}

/// The payload reads each item's count once too.
#[test]
fn payload_reads_each_token_count_once() {
    let items = [
        Unstable {
            pinned: false,
            calls: Cell::new(0),
        },
        Unstable {
            pinned: false,
            calls: Cell::new(0),
        },
    ];
    let payload = PayloadAssembler::new(TierBudget::with_total(2_000).unwrap())
        .assemble_items(&items)
        .unwrap();
    assert!(items.iter().all(|i| i.calls.get() == 1));
    assert!(payload.rendered_tokens() <= 2_000);
    assert!(payload.in_tier(Tier::Raw).count() == 2);
}

/// A mention in SUMMARY of an item without a description shows the first
/// line of its content.
#[test]
fn summary_mention_falls_back_to_the_first_line() {
    let items = [Item::builder("\n  First line of the notes  \nsecond line")
        .tokens(12)
        .relevance(0.5)
        .tier(Tier::Summary)
        .link("notes.md")
        .build()
        .unwrap()];
    let payload = PayloadAssembler::new(TierBudget::with_total(20_000).unwrap())
        .assemble_items(&items)
        .unwrap();
    assert!(
        payload
            .text()
            .contains("- `notes.md`: First line of the notes (score 0.500)\n"),
        "{}",
        payload.text()
    );
}

/// 8 KiB of code-like text (8,192 characters).
fn file_text(i: usize) -> String {
    let line = format!("let value_{i:02} = compute(input, {i});\n");
    let mut text = line.repeat(8_192 / line.len() + 1);
    text.truncate(8_192);
    text
}

/// 20 files of 8 KiB each, declaring 1 token, total 20,000: the files fill
/// RAW as their real size allows instead of all being omitted.
#[test]
fn payload_does_not_over_demote_understated_items() {
    let estimate = RatioEstimator.estimate(&file_text(0), ContentType::Markdown);
    // RAW limit 20,000 × 0.9 × 0.9 = 16,200; each file ~2,185 tokens plus
    // its frame: 7 fit (about 15,400), 8 do not (about 17,600).
    assert!((2_150..2_250).contains(&estimate), "{estimate}");
    for declared in [Some(1), None] {
        let items: Vec<Item> = (0..20)
            .map(|i| {
                let builder = Item::builder(file_text(i))
                    .relevance(1.0 - i as f64 / 100.0)
                    .link(format!("src/f{i:02}.rs"));
                match declared {
                    Some(tokens) => builder.tokens(tokens).build().unwrap(),
                    None => builder.build_with(&RatioEstimator).unwrap(),
                }
            })
            .collect();
        // The figures above are the ratios'.
        let payload = PayloadAssembler::new(TierBudget::with_total(20_000).unwrap())
            .estimator(&RatioEstimator)
            .assemble_items(&items)
            .unwrap();
        let raw: Vec<usize> = payload.in_tier(Tier::Raw).map(|p| p.position).collect();
        assert_eq!(raw, (0..7).collect::<Vec<_>>(), "declared {declared:?}");
        assert_eq!(payload.omitted().count(), 0, "declared {declared:?}");
        assert!(payload.rendered_tokens() <= 20_000);
    }
}
