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

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::parse::Parser;

use errors::{Errors, error_expr};
use fields::Fields;

/// Expands one `budget!` invocation into an expression.
pub fn expand(input: TokenStream) -> TokenStream {
    let mut tokens = input.clone().into_iter();
    if let (Some(TokenTree::Ident(form)), Some(TokenTree::Group(body)), None) =
        (tokens.next(), tokens.next(), tokens.next())
        && body.delimiter() == Delimiter::Brace
    {
        if form == "contract" {
            return expand_form(&contract::FORM, body.stream());
        }
        if form == "tiers" {
            return expand_form(&tiers::FORM, body.stream());
        }
        return error_expr(syn::Error::new(
            form.span(),
            format!(
                "unknown budget! form `{form}`; expected `contract {{ .. }}`, `tiers {{ .. }}` \
                 or the `key: value` list of a ContextBudget"
            ),
        ));
    }
    expand_form(&context_budget::FORM, input)
}

/// One form of `budget!`: the keys it takes, and how its operands `T` are
/// read, checked and turned into an expression.
struct Form<T> {
    /// What the form builds, for messages (`"a ContextBudget"`).
    name: &'static str,
    /// The keys it accepts.
    keys: &'static [&'static str],
    /// Reads the operands; `None` when one is unusable (already reported).
    parse: fn(Fields, &mut Errors) -> Option<T>,
    /// Reports every broken rule the macro can see, with its numbers.
    validate: fn(&T, &mut Errors),
    /// The expression the invocation expands to.
    generate: fn(&T) -> TokenStream,
}

/// Parses `key: value, …` for `form`, reports every problem at once, and
/// expands to the form's expression or to the errors.
fn expand_form<T>(form: &Form<T>, input: TokenStream) -> TokenStream {
    let fields = match Fields::parse.parse2(input) {
        Ok(fields) => fields,
        Err(error) => return error_expr(error),
    };
    let mut errors = Errors::default();
    let fields = Fields::check(form.name, fields, form.keys, &mut errors);
    let operands = (form.parse)(fields, &mut errors);
    if let Some(operands) = &operands {
        (form.validate)(operands, &mut errors);
    }
    match (operands, errors.finish()) {
        (_, Err(error)) => error_expr(error),
        (Some(operands), Ok(())) => (form.generate)(&operands),
        (None, Ok(())) => error_expr(syn::Error::new(
            Span::call_site(),
            format!(
                "internal error in budget!: {} failed without a message",
                form.name
            ),
        )),
    }
}
