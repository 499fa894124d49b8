//! Compile-time behaviour of `#[derive(ContextItem)]`: every misuse gives
//! the error recorded in `tests/ui/derive/*.stderr`, and the valid forms in
//! `tests/ui/derive/pass/` compile and run.
//!
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test --test ui_derive`
//! and review every changed `.stderr` file.

#[test]
fn derive_context_item_ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/derive/*.rs");
    cases.pass("tests/ui/derive/pass/*.rs");
}
