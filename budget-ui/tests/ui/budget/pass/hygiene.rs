//! The expansion compiles clean under strict lints, next to user items that
//! shadow the names it could otherwise pick up, with operands whose names
//! match the macro's own locals, and with the facade imported under
//! another name.
#![deny(warnings, unused_qualifications, unused_results)]
#![deny(clippy::all)]

extern crate budget as tokens;

use tokens::model::ContractTerms;
use tokens::payload::TierBudget;
use tokens::{ContextBudget, budget as limits};

/// Shadows `std::option::Option`.
#[allow(dead_code)]
struct Option;
/// Shadows the `std` crate name in this module.
mod std {}
/// Shadows the `core` crate name in this module.
mod core {}

// Named like the locals of the expansion (`budget`, `rule`, `terms`, `total`).
#[allow(non_upper_case_globals)]
const budget: u64 = 8_192;
#[allow(non_upper_case_globals)]
const rule: u64 = 4_096;
#[allow(non_upper_case_globals)]
const terms: u64 = 16_384;
#[allow(non_upper_case_globals)]
const total: u64 = 100_000;

const BUDGET: ContextBudget = limits! { max_tokens: budget, target_tokens: rule };
const CONTRACT: ContractTerms = limits!(contract {
    context_window: terms,
    prompt_tokens: 1_040,
    max_history: 2_000,
    max_context: 12_000,
    max_output: 1_024,
});
const TIERS: TierBudget = limits!(tiers { total: total, meta: 300 });

fn main() {
    assert_eq!(BUDGET.target_tokens(), 4_096);
    assert_eq!(CONTRACT.total(), ::core::option::Option::Some(16_192));
    assert_eq!(TIERS.total(), 100_000);
}
