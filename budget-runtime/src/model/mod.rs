//! The data model: budgets (a selection's and a model call's contract
//! terms), kinds, timestamps, items and the order of
//! their scores.

mod content_parts;
mod context_item;
pub(crate) mod field;
mod item;
mod item_view;
pub(crate) mod metadata;
mod score_order;
mod scored_item;
pub(crate) mod tags;
mod timestamp;

pub use budget_rules::{
    ContextBudget, ContextBudgetBuilder, ContextBudgetError, ContextKind, ContextKindError,
    ContractTerms, ContractViolation, DEFAULT_SAFETY_MARGIN_TOKENS, EffectiveBudget, ReservedSlot,
    Tier, TierThresholds,
};
pub use content_parts::{
    PART_SEPARATOR, PART_SEPARATOR_TOKENS, estimate_parts, join_parts, ratio_estimate_parts,
};
pub use context_item::ContextItem;
pub use item::{Item, ItemBuilder, ItemError};
pub use item_view::ItemView;
pub use metadata::{MetadataValue, MetadataValueRef};
pub(crate) use score_order::descending_key;
pub use score_order::descending_score;
pub use scored_item::ScoredItem;
pub use tags::TagList;
pub use timestamp::Timestamp;
