//! The macros under a renamed facade. This crate has the facade only as
//! `renamed` (a dev-dependency alias) and no `budget` crate at all, so any
//! generated path hard-coded to `::budget` fails to compile here.

use renamed::estimate::ContentType;
use renamed::model::ContractTerms;
use renamed::payload::TierBudget;
use renamed::{ContextBudget, ContextItem, ContextKind, Estimator, budget};

const WINDOW: u64 = 8_192;

#[test]
fn every_budget_form_expands_through_the_renamed_crate() {
    const LITERALS: ContextBudget = budget! {
        max_tokens: 8_192,
        target_tokens: 6_000,
        reserved: { ToolOutput: 2 },
    };
    // Operands the macro cannot evaluate take the constant-evaluation path.
    const PATHS: ContextBudget = budget! { max_tokens: WINDOW, target_tokens: WINDOW / 2 };
    const TERMS: ContractTerms = renamed::budget!(contract {
        context_window: 16_384,
        prompt_tokens: 1_040,
        max_history: 2_000,
        max_context: 12_000,
        max_output: 1_024,
    });
    const TIERS: TierBudget = budget!(tiers { total: 100_000 });

    assert_eq!(LITERALS.target_tokens(), 6_000);
    assert_eq!(LITERALS.reserved_for(&ContextKind::TOOL_OUTPUT), 2);
    assert_eq!(PATHS.target_tokens(), 4_096);
    // The default safety margin: 1_040 + 2_000 + 12_000 + 1_024 + 128.
    assert_eq!(TERMS.safety_margin_tokens, 128);
    assert_eq!(TERMS.total(), Some(16_192));
    assert_eq!(TIERS.total(), 100_000);
}

/// One token per byte, to check the estimator path through the rename.
struct Bytes;

impl Estimator for Bytes {
    fn estimate(&self, text: &str, _: ContentType) -> u64 {
        u64::try_from(text.len()).unwrap_or(u64::MAX)
    }
}

#[derive(ContextItem)]
#[context(crate = "renamed", kind = "Memory", estimator = Bytes)]
struct Fact {
    #[context(content)]
    text: String,
}

#[derive(renamed::ContextItem)]
#[context(crate = "::renamed")]
enum Entry {
    Fact(Fact),
    #[context(estimator = "calibrated")]
    Note(#[context(content)] String),
}

#[test]
fn the_derive_expands_through_the_renamed_crate() {
    let fact = Entry::Fact(Fact {
        text: "née".to_owned(),
    });
    assert_eq!(fact.content(), "née");
    assert_eq!(fact.tokens(), 4); // 4 bytes
    assert_eq!(*fact.kind(), ContextKind::MEMORY);
    let note = Entry::Note(String::new());
    assert_eq!(note.tokens(), 0);
}
