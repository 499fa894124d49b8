//! Procedural macros of the `budget` crate. Use them through `budget`.
//!
//! Each entry point parses its input, hands it to a function under
//! `expand/`, and turns any error into `compile_error!` invocations.
//! Generated code names only absolute paths through the facade's hidden
//! `::budget::__private` module (or the path given with
//! `#[context(crate = "...")]`), so the macros work in any crate that
//! depends on `budget`.

mod ast;
mod attr;
mod ctxt;
mod expand;
mod suggest;

use proc_macro::TokenStream;

/// Implements `ContextItem` for a struct or enum from `#[context(...)]`
/// attributes; the attribute reference is on the facade's `ContextItem`.
#[proc_macro_derive(ContextItem, attributes(context))]
pub fn derive_context_item(input: TokenStream) -> TokenStream {
    syn::parse::<syn::DeriveInput>(input)
        .map(|input| expand::context_item::derive(&input))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

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
