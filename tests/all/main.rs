//! The integration tests of the facade: the derive and `budget!` used as a
//! user uses them, one module per subject, linked into one test binary. The
//! compile errors are checked by the `budget-ui` crate.

mod budget_contract;
mod derive_accessors;
mod derive_estimate;
mod derive_estimator;
mod derive_groups;
mod derive_pipeline;
mod one_counter;
