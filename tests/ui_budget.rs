//! Compile-time checks of `budget!`: every rule is a compile error with the
//! numbers on the offending field, and every valid form compiles and runs.
//!
//! The suite has `pass` cases, so trybuild *builds* (rather than only checks)
//! every case: errors raised during constant evaluation, such as an invalid
//! budget whose operands are paths to constants, are caught as well.

#[test]
fn budget_macro_ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/budget/pass/*.rs");
    cases.compile_fail("tests/ui/budget/*.rs");
}
