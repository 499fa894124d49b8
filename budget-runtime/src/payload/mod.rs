//! Hybrid payload assembly: spread scored items over RAW, LINKED and
//! SUMMARY tiers under a [`TierBudget`], demote so the best content stays
//! highest, and render the result as Markdown, XML or JSON ([`Format`])
//! with fingerprints.
//!
//! ```
//! use budget::{ContextBudget, Item, Pipeline, scorer::PriorityScorer};
//! use budget::payload::{PayloadAssembler, TierBudget};
//!
//! let items = [
//!     Item::builder("fn answer() -> u32 { 42 }").tokens(9).priority(9).link("src/answer.rs").build()?,
//!     Item::builder("# Notes\nold notes").tokens(5).priority(1).link("NOTES.md").build()?,
//! ];
//! let pipeline = Pipeline::builder().scorer(PriorityScorer::new()).build();
//! let selection = pipeline.run(&items, &ContextBudget::new(10_000, 10_000)?)?;
//! let payload = PayloadAssembler::new(TierBudget::with_total(20_000)?).assemble_selection(&selection)?;
//! let text = payload.text();
//! let order: Vec<_> = ["## META", "## SUMMARY", "## RAW", "## LINKED", "## Fingerprint"]
//!     .iter()
//!     .map(|h| text.find(&format!("\n{h}\n")).or_else(|| text.starts_with(h).then_some(0)).unwrap())
//!     .collect();
//! assert!(order.windows(2).all(|w| w[0] < w[1]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Tier assignment and demotion
//!
//! See [`PayloadAssembler`] for costs and the render-overflow pass, and
//! [`OfferOrder`] for the order items are offered in. The rules in a
//! tier `t` are:
//!
//! 1. an item ranked at or below one already demoted from `t` is not
//!    admitted ([`AssignmentReason::RanksBelowDemoted`]);
//! 2. an item costing more than `t`'s whole limit skips it
//!    ([`AssignmentReason::TooLarge`]);
//! 3. an item that fits enters `t`;
//! 4. otherwise `t` is full: if `t`'s lowest-ranked item ranks below the
//!    newcomer, it is demoted one tier down (by these same rules) and the
//!    newcomer re-checked once; the newcomer is never the one demoted;
//! 5. an item that still does not fit falls to the next tier
//!    ([`AssignmentReason::TierFull`]); below SUMMARY it is omitted.
//!
//! Consequences: every item ends in exactly one tier (or none) with a
//! [`AssignmentReason`]; no tier's usage exceeds its effective limit; an item
//! demoted from a tier ranks below every item left in that tier. One binary
//! heap per tier makes `n` items O(n log n).

mod assembler;
pub(crate) mod demotion;
mod event;
mod fingerprint;
mod format;
mod fragment_costs;
mod hybrid_payload;
mod offer_order;
mod payload_error;
pub(crate) mod rank;
mod render;
mod tally;
mod tier_assignment;

pub use assembler::PayloadAssembler;
pub use budget_rules::{TierBudget, TierBudgetError};
pub use event::{AssignmentAction, AssignmentEvent, DemotionCause};
pub use fingerprint::{Fingerprint, Sha256Digest};
pub use format::Format;
pub use hybrid_payload::HybridPayload;
pub use offer_order::OfferOrder;
pub use payload_error::PayloadError;
pub(crate) use tally::TallyTrace;
pub use tally::{Tally, TierTally};
pub use tier_assignment::{AssignmentReason, TierAssignment};
