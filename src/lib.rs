//! Token budgets for LLM context windows.
//!
//! `budget` is the facade over two crates: `budget-runtime` (budgets,
//! estimation, the selection pipeline, payload assembly, compaction, budget
//! contracts) and `budget-derive` (`#[derive(ContextItem)]` and `budget!`).
//! Everything is re-exported here.
#![forbid(unsafe_code)]

pub use budget_runtime::*;

#[doc(inline)]
pub use budget_derive::ContextItem;

#[doc(hidden)]
pub mod __private {
    pub use budget_runtime;
    pub use std;
}
