//! `budget!`: budget constants checked at compile time.
//!
//! The first tokens choose the form: `contract { .. }` builds a
//! `ContractTerms`, `tiers { .. }` a `TierBudget`, and anything else is
//! the `key: value` list of a `ContextBudget`.

mod context_budget;
mod contract;
mod errors;
mod fields;
mod operand;
mod tiers;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// Expands one `budget!` invocation into an expression.
pub fn expand(input: TokenStream) -> TokenStream {
    let mut tokens = input.clone().into_iter();
    if let (Some(TokenTree::Ident(form)), Some(TokenTree::Group(body)), None) =
        (tokens.next(), tokens.next(), tokens.next())
        && body.delimiter() == Delimiter::Brace
    {
        if form == "contract" {
            return contract::expand(body.stream());
        }
        if form == "tiers" {
            return tiers::expand(body.stream());
        }
        return errors::error_expr(syn::Error::new(
            form.span(),
            format!(
                "unknown budget! form `{form}`; expected `contract {{ .. }}`, `tiers {{ .. }}` \
                 or the `key: value` list of a ContextBudget"
            ),
        ));
    }
    context_budget::expand(input)
}
