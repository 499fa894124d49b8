//! `budget!`: budget constants checked at compile time.
//!
//! The facade's `budget!` is a `macro_rules!` trampoline that calls this
//! macro with the facade's `$crate` first: `budget!($crate; <input>)`, so
//! generated paths work under any name the facade is imported as.
//!
//! After the `;`, the first tokens choose the form: `contract { .. }` builds
//! a `ContractTerms`, `tiers { .. }` a `TierBudget`, and anything else is
//! the `key: value` list of a `ContextBudget`.

mod context_budget;
mod contract;
mod fields;
mod operand;
mod tiers;

use proc_macro2::{Delimiter, Ident, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::parse::Parser;

use crate::ctxt::Ctxt;
use crate::paths::Paths;
use fields::Fields;

/// Expands one `budget!($crate; <input>)` invocation into an expression.
pub fn expand(input: TokenStream) -> TokenStream {
    let mut tokens = input.into_iter();
    let mut krate = TokenStream::new();
    let mut separated = false;
    for token in tokens.by_ref() {
        if matches!(&token, TokenTree::Punct(p) if p.as_char() == ';') {
            separated = true;
            break;
        }
        krate.extend([token]);
    }
    if !separated || krate.is_empty() {
        return error_expr(syn::Error::new(
            Span::call_site(),
            "internal error: budget-derive's `budget!` takes the facade's path first \
             (`budget!($crate; ..)`); use `budget::budget!` instead",
        ));
    }
    let input: TokenStream = tokens.collect();
    let paths = Paths::new(krate);
    let mut tokens = input.clone().into_iter();
    if let (Some(TokenTree::Ident(form)), Some(TokenTree::Group(body)), None) =
        (tokens.next(), tokens.next(), tokens.next())
        && body.delimiter() == Delimiter::Brace
    {
        if form == "contract" {
            return expand_form(&contract::FORM, body.stream(), &paths);
        }
        if form == "tiers" {
            return expand_form(&tiers::FORM, body.stream(), &paths);
        }
        return error_expr(syn::Error::new(
            form.span(),
            format!(
                "unknown budget! form `{form}`; expected `contract {{ .. }}`, `tiers {{ .. }}` \
                 or the `key: value` list of a ContextBudget"
            ),
        ));
    }
    expand_form(&context_budget::FORM, input, &paths)
}

/// One form of `budget!`: the keys it takes, and how its operands `T` are
/// read, checked and turned into an expression.
struct Form<T> {
    /// What the form builds, for messages (`"a ContextBudget"`).
    name: &'static str,
    /// The keys it accepts.
    keys: &'static [&'static str],
    /// Reads the operands; `None` when one is unusable (already reported).
    parse: fn(Fields, &Ctxt) -> Option<T>,
    /// Reports every broken rule the macro can see, with its numbers.
    validate: fn(&T, &Ctxt),
    /// The expression the invocation expands to.
    generate: fn(&T, &Paths) -> TokenStream,
}

/// Parses `key: value, …` for `form`, reports every problem at once, and
/// expands to the form's expression or to the errors.
fn expand_form<T>(form: &Form<T>, input: TokenStream, paths: &Paths) -> TokenStream {
    let fields = match Fields::parse.parse2(input) {
        Ok(fields) => fields,
        Err(error) => return error_expr(error),
    };
    let cx = Ctxt::new();
    let fields = Fields::check(form.name, fields, form.keys, &cx);
    let operands = (form.parse)(fields, &cx);
    if let Some(operands) = &operands {
        (form.validate)(operands, &cx);
    }
    match (operands, cx.check()) {
        (_, Err(error)) => error_expr(error),
        (Some(operands), Ok(())) => (form.generate)(&operands, paths),
        (None, Ok(())) => error_expr(syn::Error::new(
            Span::call_site(),
            format!(
                "internal error in budget!: {} failed without a message",
                form.name
            ),
        )),
    }
}

/// A local variable of generated code. Mixed-site hygiene makes it resolve
/// the same wherever it is written, whatever span the tokens around it
/// carry (the trampoline puts the call site inside its own expansion), and
/// keeps the user's locals out; the `__budget_` prefix keeps it clear of the
/// user's constants, which a `let` or `match` pattern would otherwise name.
fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// A panic during constant evaluation, reported at `span` (the field it
/// concerns). The macro is invoked through a local alias spanned there: a
/// path through the facade would start with the trampoline's `$crate`,
/// whose span puts the report on the whole invocation instead.
fn panic_at(paths: &Paths, span: Span, args: TokenStream) -> TokenStream {
    let std = paths.std();
    let alias = Ident::new("__budget_panic", span);
    quote_spanned!(span=> {
        use #std::panic as #alias;
        #alias!(#args)
    })
}

/// An expression that reports every error in `error` and has the error type,
/// so the surrounding `const` sees no second, cascading type error.
fn error_expr(error: syn::Error) -> TokenStream {
    let errors = error.into_iter().map(|e| e.to_compile_error());
    quote!({ #(#errors);* })
}
