//! Error accumulator: collect every problem of one invocation, report them all at once.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};

/// The errors found so far in one `budget!` invocation.
#[derive(Default)]
pub(crate) struct Errors {
    combined: Option<syn::Error>,
}

impl Errors {
    /// Records `message` at `span`.
    pub(crate) fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    /// Records `message` spanning all of `tokens` (an expression, a key…).
    pub(crate) fn on(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    /// Records an error (which may itself hold several).
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.combined {
            Some(combined) => combined.combine(error),
            None => self.combined = Some(error),
        }
    }

    /// `Ok(())` when nothing was recorded, else every error as one.
    pub(crate) fn finish(self) -> Result<(), syn::Error> {
        self.combined.map_or(Ok(()), Err)
    }
}

/// An expression that reports every error in `error` and has the error type,
/// so the surrounding `const` sees no second, cascading type error.
pub(crate) fn error_expr(error: syn::Error) -> TokenStream {
    let errors = error.into_iter().map(|e| e.to_compile_error());
    quote!({ #(#errors);* })
}
