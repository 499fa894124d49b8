//! The budget vocabulary of `context-budget` and its validation rules:
//! plain values, constructible in `const`, that the runtime computes with
//! and `budget!` checks at compile time.
//!
//! Most users never name this crate: `budget-runtime` (and so the `budget`
//! facade) re-exports every type here in the module where it is used
//! (`budget::model::ContextBudget`, `budget::payload::TierBudget`,
//! `budget::estimate::ContentType`, …). It exists so that the procedural
//! macros of `budget-derive` can validate budgets with the very rules the
//! runtime applies, without compiling the runtime for the host: it depends
//! on nothing but `thiserror` and `foldhash` (and `serde` behind its
//! feature).
//!
//! | type | what it states |
//! |---|---|
//! | [`ContextBudget`] | a selection's limits: window, target, output reserve, safety margin (percent), reserved slots |
//! | [`TierBudget`] | a hybrid payload's total and its RAW / LINKED / SUMMARY shares |
//! | [`ContractTerms`] | one model call's terms: prompt + history + context + output + safety margin ≤ window |
//! | [`ContextKind`], [`Tier`], [`ContentType`] | the words items are classified by |
//!
//! ```
//! use budget_rules::{BudgetRule, ContextBudget};
//!
//! assert!(ContextBudget::new(8_192, 6_000).is_ok());
//! assert_eq!(
//!     ContextBudget::broken_rule(100, 200, 0, 0.0, &[]),
//!     Some(BudgetRule::TargetWithinMax),
//! );
//! ```
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]
#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

mod content_type;
mod context_budget;
mod context_kind;
mod contract_terms;
pub mod convert;
mod edit_distance;
mod tier;
mod tier_budget;
mod unknown_name;

pub use content_type::{ContentType, count_chars, ratio_estimate};
pub use context_budget::{
    BudgetRule, ContextBudget, ContextBudgetBuilder, ContextBudgetError, EffectiveBudget,
    ReservedSlot,
};
pub use context_kind::{ContextKind, ContextKindError};
pub use contract_terms::{ContractTerms, ContractViolation, DEFAULT_SAFETY_MARGIN_TOKENS};
pub use edit_distance::{closest, edit_distance};
pub use tier::{Tier, TierThresholds};
pub use tier_budget::{TierBudget, TierBudgetError, TierBudgetRule};
pub use unknown_name::UnknownName;
