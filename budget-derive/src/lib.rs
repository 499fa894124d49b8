//! Procedural macros of the `budget` crate. Use them through `budget`.
//!
//! Generated code names only absolute paths through the facade's hidden
//! `::budget::__private` module, so the macros work in any crate that
//! depends on `budget`.

mod expand;

use proc_macro::TokenStream;

/// Builds a budget constant and rejects an invalid one at compile time.
///
/// Three forms, documented with examples in the `budget` crate:
///
/// * `budget! { max_tokens: .., target_tokens: .., .. }`: a `ContextBudget`;
/// * `budget!(contract { context_window: .., .. })`: a `ContractTerms`;
/// * `budget!(tiers { total: .., .. })`: a `TierBudget` for the hybrid payload.
///
/// Every validation rule is checked with the runtime's own validation
/// function; a broken rule is a compile error on the offending field that
/// quotes the numbers.
#[proc_macro]
pub fn budget(input: TokenStream) -> TokenStream {
    expand::budget::expand(input.into()).into()
}
