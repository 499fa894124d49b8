//! Compile-time behaviour of `#[derive(ContextItem)]`: every misuse gives
//! the error recorded in `tests/ui/derive/*.stderr`, and the valid forms in
//! `tests/ui/derive/pass/` compile and run. Errors that list the impls of a
//! trait differ with the `chrono` feature (timestamps), so they have one
//! expected output per feature set.
//!
//! Regenerate the expected output with
//! `TRYBUILD=overwrite cargo test --test ui_derive` and again with
//! `--all-features`, then review every changed `.stderr` file.

#[test]
fn derive_context_item_ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/derive/*.rs");
    #[cfg(feature = "chrono")]
    cases.compile_fail("tests/ui/derive/with_chrono/*.rs");
    #[cfg(not(feature = "chrono"))]
    cases.compile_fail("tests/ui/derive/without_chrono/*.rs");
    cases.pass("tests/ui/derive/pass/*.rs");
}
