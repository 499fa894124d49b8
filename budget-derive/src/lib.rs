//! Procedural macros of the `budget` crate. Use them through `budget`.
//!
//! Each entry point parses its input, hands it to a function under
//! `expand/`, and turns any error into `compile_error!` invocations.

mod ast;
mod attr;
mod ctxt;
mod expand;
mod suggest;

use proc_macro::TokenStream;

/// The generated code names the `budget` facade (or the path given with
/// `#[context(crate = "...")]`) through its hidden `__private` module.
#[proc_macro_derive(ContextItem, attributes(context))]
pub fn derive_context_item(input: TokenStream) -> TokenStream {
    syn::parse::<syn::DeriveInput>(input)
        .map(|input| expand::context_item::derive(&input))
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
