//! Derived items run through the pipeline by reference: the selection
//! points into the caller's slice, and the derived token counts are what
//! the slicer budgets with.

use budget::pipeline::{ExclusionReason, InclusionReason};
use budget::scorer::PriorityScorer;
use budget::{ContextBudget, ContextItem, Pipeline};

// The token figures below are the token-budget rules' ratios, selected by name.
#[derive(ContextItem)]
#[context(kind = "SystemPrompt", estimator = "ratios")]
struct System {
    #[context(content)]
    text: &'static str,
    #[context(pinned)]
    pinned: bool,
}

#[derive(ContextItem)]
enum Entry {
    System(System),
    #[context(kind = "Message", estimator = "ratios")]
    Message {
        #[context(content)]
        text: String,
        #[context(priority)]
        priority: i64,
        #[context(tokens)]
        tokens: Option<u64>,
    },
}

fn message(text: &str, priority: i64, tokens: Option<u64>) -> Entry {
    Entry::Message {
        text: text.to_owned(),
        priority,
        tokens,
    }
}

#[test]
fn derived_items_are_selected_by_reference() -> Result<(), Box<dyn std::error::Error>> {
    let items = vec![
        Entry::System(System {
            text: "Be brief.", // 9 chars / 3.75 → 3 tokens, pinned
            pinned: true,
        }),
        message("important", 9, Some(50)),
        message("filler", 1, Some(500)),
        message(&"c".repeat(40), 5, None), // 40 / 3.75 = 10.7 → 11 tokens
    ];
    let pipeline = Pipeline::builder().scorer(PriorityScorer::new()).build();
    let selection = pipeline.run(&items, &ContextBudget::new(200, 100)?)?;

    let chosen: Vec<usize> = selection
        .items()
        .iter()
        .map(|&selected| {
            items
                .iter()
                .position(|item| std::ptr::eq(item, selected))
                .expect("a selected item is a reference into the input")
        })
        .collect();
    // No timestamps: the chronological placer keeps the merged order, pinned
    // first, then the greedy slicer's density order (11-token item first).
    assert_eq!(chosen, [0, 3, 1]);
    assert_eq!(selection.tokens(), 3 + 50 + 11);

    let report = selection.report();
    assert_eq!(
        report.inclusion_of(0).map(|i| i.reason),
        Some(InclusionReason::Pinned)
    );
    assert_eq!(report.pinned_tokens, 3);
    // Density order: the 11-token item (score 0.5), then the 50-token one
    // (score 1.0); 97 − 11 − 50 = 36 tokens are left for the 500-token one.
    assert_eq!(
        report.exclusion_of(2),
        Some(&ExclusionReason::BudgetExceeded {
            item_tokens: 500,
            available_tokens: 36
        })
    );
    Ok(())
}
