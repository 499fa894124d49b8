//! Compile-time behaviour of `budget!` and `#[derive(ContextItem)]`: every
//! misuse is a compile error recorded in a `.stderr` file under `tests/ui/`,
//! and every valid form in a `pass/` folder compiles and runs.
//!
//! One `TestCases` builds every case in one trybuild project. It has `pass`
//! cases, so trybuild *builds* (rather than only checks) every case: errors
//! raised during constant evaluation, such as an invalid budget whose
//! operands are paths to constants, are caught as well. Derive errors that
//! list the impls of a trait differ with the `chrono` feature (timestamps),
//! so they have one expected output per feature set.
//!
//! Regenerate the expected output with `TRYBUILD=overwrite cargo test -p
//! budget-ui` and again with `--features chrono`, then review every changed
//! `.stderr` file.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/budget/pass/*.rs");
    cases.compile_fail("tests/ui/budget/*.rs");
    cases.compile_fail("tests/ui/derive/*.rs");
    #[cfg(feature = "chrono")]
    cases.compile_fail("tests/ui/derive/with_chrono/*.rs");
    #[cfg(not(feature = "chrono"))]
    cases.compile_fail("tests/ui/derive/without_chrono/*.rs");
    cases.pass("tests/ui/derive/pass/*.rs");
}
