//! The integration tests of `budget-prompt`, one module per area, linked
//! into one test binary.

mod chat_wire;
mod compaction_properties;
mod prompt_budget;
mod prompt_session;
