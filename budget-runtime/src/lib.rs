//! Runtime of the `budget` crate: token budgets, estimation, and a
//! Cupel-conformant selection pipeline for LLM context windows.
//!
//! Most users depend on the `budget` facade (package `context-budget`),
//! which re-exports this crate's root and modules together with
//! `#[derive(ContextItem)]` and `budget!`.
//!
//! ```
//! use budget::{ContextBudget, ContextItem, Item, Pipeline, scorer::PriorityScorer};
//!
//! let items = vec![
//!     Item::builder("system prompt").tokens(20).pinned(true).build()?,
//!     Item::builder("important").tokens(50).priority(9).build()?,
//!     Item::builder("filler").tokens(500).priority(1).build()?,
//! ];
//! let budget = ContextBudget::new(200, 100)?;
//! let pipeline = Pipeline::builder().scorer(PriorityScorer::new()).build();
//! let selection = pipeline.run(&items, &budget)?;
//! let chosen: Vec<_> = selection.items().iter().map(|i| i.content()).collect();
//! // No timestamps: the chronological placer keeps pinned items first.
//! assert_eq!(chosen, ["system prompt", "important"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]
#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]
#![warn(missing_docs)]

pub mod estimate;
pub mod file;
pub mod model;
pub mod payload;
pub mod pipeline;
pub mod placer;
pub mod scorer;
pub mod slicer;

/// What `#[derive(ContextItem)]` and `budget!` expand to and nothing else
/// uses: the sealed field adapters (which field types each attribute
/// accepts), the empty tag list, the metadata maps, and the rules a budget
/// literal is checked against in `const`. Not part of the public API: the
/// derive's documentation lists the accepted field types.
#[doc(hidden)]
pub mod __derive {
    pub use crate::model::field::{
        FlagField, FloatField, GroupField, IntegerField, OptionalTextField, TextField,
        TimestampField, TokenCountField,
    };
    pub use crate::model::metadata::{AsMetadataValue, MetadataMap};
    pub use crate::model::tags::NoTags;
    pub use budget_rules::{BudgetRule, TierBudgetRule};
}

// The types most users need; everything else is reached through its module.
pub use estimate::Estimator;
// Shown as re-exports (not inlined from `budget-rules`): one documented path each.
#[doc(no_inline)]
pub use model::{ContextBudget, ContextItem, ContextKind, Item, ItemBuilder};
pub use pipeline::{Pipeline, Selection};
