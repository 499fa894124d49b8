//! The integration tests of `budget-runtime`, one module per area, linked
//! into one test binary (one link instead of one per file).
//!
//! Test data is vendored in `tests/data` (the Cupel vectors, the token
//! corpus, multilingual samples); a test whose data is missing fails.

#[path = "../../../tools/src/accuracy.rs"]
mod accuracy;
#[path = "../../../tools/src/corpus.rs"]
mod corpus;

mod audit_regressions;
mod error_sources;
mod estimate_corpus;
mod exact_on_demand;
mod non_latin;
mod payload_golden;
mod payload_props;
mod pipeline_edge_cases;
mod pipeline_groups;
mod pipeline_properties;
mod serde_roundtrip;
mod upper_bound;
