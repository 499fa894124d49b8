//! [`AssignmentEvent`]: one step of payload assembly, in the order it happened.

use crate::model::Tier;

/// One step of payload assembly: an item entered a tier, left one, or was
/// omitted. Replaying the events in order reproduces the [`Tally`](super::Tally)
/// at every step (see [`HybridPayload::trace`](super::HybridPayload::trace)).
///
/// `position` is the item's index in the candidate list.
///
/// ```
/// use budget::model::Tier;
/// use budget::payload::{AssignmentAction, AssignmentEvent};
///
/// let event = AssignmentEvent { position: 3, action: AssignmentAction::Placed { tier: Tier::Raw, tokens: 120 } };
/// assert_eq!(event.to_string(), "#3 placed in RAW (120 tokens)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AssignmentEvent {
    /// The item's index in the candidate list.
    pub position: usize,
    /// What happened to it.
    pub action: AssignmentAction,
}

/// What a [`AssignmentEvent`] did.
///
/// ```
/// use budget::model::Tier;
/// use budget::payload::{DemotionCause, AssignmentAction, AssignmentEvent};
///
/// let e = AssignmentEvent {
///     position: 0,
///     action: AssignmentAction::Demoted { from: Tier::Raw, tokens: 40, cause: DemotionCause::RenderOverflow },
/// };
/// assert!(e.to_string().starts_with("#0 demoted from RAW (40 tokens freed)"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "action", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum AssignmentAction {
    /// The item entered `tier`, costing `tokens` of its limit.
    Placed {
        /// The tier entered.
        tier: Tier,
        /// Tokens it costs there.
        tokens: u64,
    },
    /// The item left `from`, freeing `tokens`; the next event for the same
    /// position says where it went.
    Demoted {
        /// The tier it left.
        from: Tier,
        /// Tokens freed in that tier.
        tokens: u64,
        /// Why it was demoted.
        cause: DemotionCause,
    },
    /// The item is in no tier: not even a SUMMARY mention fitted.
    Omitted,
}

/// Why a placed item was moved one tier down.
///
/// ```
/// use budget::{Item, model::Tier};
/// use budget::payload::{AssignmentAction, DemotionCause, PayloadAssembler, OfferOrder, TierBudget};
///
/// // RAW holds 1,620 tokens: the better late item displaces the early one.
/// let items = [
///     Item::builder("early").tokens(1_000).relevance(0.1).build()?,
///     Item::builder("late").tokens(1_000).relevance(0.9).build()?,
/// ];
/// let payload = PayloadAssembler::new(TierBudget::with_total(2_000)?)
///     .order(OfferOrder::Arrival)
///     .assemble_items(&items)?;
/// let d = payload.demotions().next().unwrap();
/// let displaced = DemotionCause::Displaced { by: 1 };
/// assert_eq!(d.position, 0);
/// assert!(matches!(d.action, AssignmentAction::Demoted { from: Tier::Raw, cause, .. } if cause == displaced));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "cause", rename_all = "snake_case"))]
#[non_exhaustive]
pub enum DemotionCause {
    /// It was the lowest-ranked item of a full tier, and the item at
    /// candidate position `by` outranked it and needed the room.
    Displaced {
        /// Candidate position of the item that needed the room.
        by: usize,
    },
    /// The rendered payload's estimate exceeded the total, and it was the
    /// lowest-ranked item of the most detailed non-empty tier.
    RenderOverflow,
}

impl std::fmt::Display for AssignmentEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let position = self.position;
        match self.action {
            AssignmentAction::Placed { tier, tokens } => {
                write!(f, "#{position} placed in {tier} ({tokens} tokens)")
            }
            AssignmentAction::Demoted {
                from,
                tokens,
                cause: DemotionCause::Displaced { by },
            } => write!(
                f,
                "#{position} demoted from {from} ({tokens} tokens freed) to make room for #{by}"
            ),
            AssignmentAction::Demoted {
                from,
                tokens,
                cause: DemotionCause::RenderOverflow,
            } => write!(
                f,
                "#{position} demoted from {from} ({tokens} tokens freed) because the rendered payload exceeded the total"
            ),
            AssignmentAction::Omitted => write!(f, "#{position} omitted"),
        }
    }
}
