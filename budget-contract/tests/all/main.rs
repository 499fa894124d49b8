//! The integration tests of `budget-contract`, linked into one test binary.

mod contract;
mod error_sources;
