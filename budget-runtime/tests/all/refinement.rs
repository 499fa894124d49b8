//! `ExactRefinement` against counting every item exactly: the same items
//! are included, and their exact total fits the budget.
#![cfg(feature = "exact")]

use budget_runtime::estimate::{Candidate, ExactRefinement, guaranteed_upper_bound};
use budget_runtime::estimate::{Encoding, ExactCounter, TokenCounter};
use proptest::prelude::*;

/// The rule with every item counted: in order, include what fits.
fn greedy_all_exact(counter: &ExactCounter, texts: &[String], budget: u64) -> Vec<usize> {
    let mut left = budget;
    let mut included = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let tokens = counter.count_tokens(text);
        if tokens <= left {
            left -= tokens;
            included.push(i);
        }
    }
    included
}

fn item() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,60}",
        "[A-Za-z0-9 .,;:()\\n]{0,200}",
        any::<String>(),
        "[\u{4e00}-\u{9fff}\u{ac00}-\u{d7af}]{0,40}",
        "[!-/:-@]{0,50}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn includes_what_counting_everything_includes(
        texts in prop::collection::vec(item(), 0..25),
        budget in 0u64..400,
        encoding in prop::sample::select(Encoding::ALL.to_vec()),
    ) {
        let counter = ExactCounter::new(encoding).unwrap();
        let candidates: Vec<Candidate> = texts
            .iter()
            .map(|text| Candidate { text, upper_bound: guaranteed_upper_bound(text) })
            .collect();
        let fill = ExactRefinement::new(&counter).fill(&candidates, budget);
        let included: Vec<usize> = fill.included().iter().map(|i| i.index).collect();
        prop_assert_eq!(&included, &greedy_all_exact(&counter, &texts, budget));

        let exact_total: u64 = included.iter().map(|&i| counter.count_tokens(&texts[i])).sum();
        prop_assert!(exact_total <= fill.tokens() && fill.tokens() <= budget);
        for inclusion in fill.included() {
            let exact = counter.count_tokens(&texts[inclusion.index]);
            if inclusion.exact {
                prop_assert_eq!(inclusion.tokens, exact);
            } else {
                prop_assert!(inclusion.tokens >= exact);
            }
        }
        prop_assert!(fill.exact_counts() <= texts.len());
    }
}

#[test]
fn a_budget_that_holds_everything_counts_nothing() {
    let counter = ExactCounter::new(Encoding::O200kBase).unwrap();
    let texts = ["Hello, world!", "fn main() {}", "日本語"];
    let candidates: Vec<Candidate> = texts
        .iter()
        .map(|&text| Candidate {
            text,
            upper_bound: guaranteed_upper_bound(text),
        })
        .collect();
    // Bounds: 13 + 12 + 9 bytes = 34.
    let fill = ExactRefinement::new(&counter).fill(&candidates, 34);
    assert_eq!(fill.included().len(), 3);
    assert_eq!(fill.exact_counts(), 0);
    let fill = ExactRefinement::new(&counter).fill(&candidates, 33);
    assert_eq!(fill.included().len(), 3); // 4 + 4 + ≤ 3 tokens
    assert_eq!(fill.exact_counts(), 1); // after the first, 12 + 9 fit in 29
}
