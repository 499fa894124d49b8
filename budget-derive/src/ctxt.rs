//! [`Ctxt`]: the error accumulator both macros report into, so the user sees
//! every problem of one derive input or one `budget!` invocation in one
//! compilation.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;
use quote::ToTokens;

/// Collects errors while an input is read and checked. Code reports into it
/// and carries on; [`Ctxt::check`] turns what was reported into one combined
/// `syn::Error`.
///
/// A `Ctxt` must be consumed by [`Ctxt::check`]: dropping it unchecked
/// panics (outside of an unwinding panic), so a code path that forgets to
/// emit the errors fails loudly in tests instead of losing them.
pub(crate) struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Self {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    /// Reports `message` at the span of `tokens` (first to last token).
    /// Empty `tokens` put the error on the whole macro invocation.
    pub(crate) fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.syn_error(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Reports `message` at `span`.
    pub(crate) fn error_at<M: Display>(&self, span: Span, message: M) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// Reports an error syn produced (which may itself hold several).
    pub(crate) fn syn_error(&self, error: syn::Error) {
        // Always `Some`: only `check`, which consumes the `Ctxt`, takes it.
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(error);
        }
    }

    /// How many errors were reported so far.
    pub(crate) fn error_count(&self) -> usize {
        self.errors.borrow().as_ref().map_or(0, Vec::len)
    }

    /// `Ok` when nothing was reported, else all errors combined in the
    /// order they were reported.
    #[must_use = "the collected errors must be emitted"]
    pub(crate) fn check(self) -> syn::Result<()> {
        let errors = self.errors.borrow_mut().take().unwrap_or_default();
        let mut errors = errors.into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            combined.combine(error);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("internal error: a Ctxt was dropped without `check`, its errors would be lost");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_come_back_in_report_order() {
        let cx = Ctxt::new();
        cx.error_at(Span::call_site(), "first");
        cx.error_spanned_by(quote::quote!(a b), "second");
        assert_eq!(cx.error_count(), 2);
        let messages: Vec<String> = cx
            .check()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(messages, ["first", "second"]);
    }

    #[test]
    fn nothing_reported_is_ok() {
        assert!(Ctxt::new().check().is_ok());
    }

    #[test]
    #[should_panic(expected = "dropped without `check`")]
    fn dropping_unchecked_panics() {
        let cx = Ctxt::new();
        cx.error_at(Span::call_site(), "lost");
        drop(cx);
    }

    #[test]
    #[should_panic(expected = "dropped without `check`")]
    fn dropping_unchecked_panics_even_without_errors() {
        drop(Ctxt::new());
    }
}
