//! [`Ctxt`]: collects every error found while reading a derive input, so the
//! user sees all bad attributes of one item in one compilation.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

/// An error accumulator. Parsing code reports into it and carries on;
/// [`Ctxt::check`] turns what was reported into one combined `syn::Error`.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Reports `message` at the span of `tokens` (first to last token).
    pub(crate) fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Reports an error syn produced.
    pub(crate) fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    /// How many errors were reported so far.
    pub(crate) fn error_count(&self) -> usize {
        self.errors.borrow().len()
    }

    /// `Ok` when nothing was reported, else all errors combined in the
    /// order they were found.
    #[must_use = "the collected errors must be emitted"]
    pub(crate) fn check(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}
