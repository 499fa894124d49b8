//! Procedural macros of the `budget` crate. Use them through `budget`.
//!
//! Each entry point parses its input, hands it to a function under
//! `expand/`, and turns any error into `compile_error!` invocations. Both
//! report into one error accumulator (`ctxt`), and name what they generate
//! through one set of absolute paths (`paths`): the facade's hidden,
//! versioned `__private_v0_1` module, reached through `::budget`, the path
//! given with `#[context(crate = "...")]`, or the facade's `$crate` that its
//! `budget!` trampoline passes in. So the macros work in any crate that
//! depends on the facade, under any name.

mod ast;
mod attr;
mod check;
mod ctxt;
mod expand;
mod paths;
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
/// Called by the facade's `budget!` trampoline as `budget!($crate; <input>)`:
/// the path before `;` is the facade, which generated code goes through.
/// Three forms of `<input>`, documented with examples in the `budget` crate:
///
/// * `budget! { max_tokens: .., target_tokens: .., .. }`: a `ContextBudget`;
/// * `budget!(contract { context_window: .., .. })`: a `ContractTerms`;
/// * `budget!(tiers { total: .., .. })`: a `TierBudget` for the hybrid payload.
///
/// Every validation rule is checked with the function the runtime validates
/// with (crate `budget-rules`); a broken rule is a compile error on the offending field that
/// quotes the numbers.
#[proc_macro]
pub fn budget(input: TokenStream) -> TokenStream {
    expand::budget::expand(input.into()).into()
}
