//! Hybrid payload assembly: a token total split over META, SUMMARY, LINKED
//! and RAW tiers ([`TierBudget`]).

mod tier_budget;

pub use tier_budget::{TierBudget, TierBudgetRule};
