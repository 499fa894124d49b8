//! [`HybridPayload`]: an assembled, rendered payload and its full record.

use crate::model::Tier;
use crate::payload::{
    AssignmentAction, AssignmentEvent, Fingerprint, Format, Tally, TallyTrace, TierAssignment,
};

/// A hybrid payload: the rendered text, where every candidate ended up
/// and why, the tally, and the events that built it.
///
/// Produced by [`PayloadAssembler`](super::PayloadAssembler). Items are
/// borrowed from the caller for `'a`.
///
/// ```
/// use budget::{Item, model::Tier};
/// use budget::payload::{PayloadAssembler, TierBudget};
///
/// let items = [Item::builder("hello").tokens(2).link("a.txt").build()?];
/// let payload = PayloadAssembler::new(TierBudget::with_total(20_000)?).assemble_items(&items)?;
/// assert_eq!(payload.assignments()[0].tier, Some(Tier::Raw));
/// assert_eq!(payload.tally().tier(Tier::Raw).used, payload.assignments()[0].tokens);
/// assert_eq!(payload.demotions().count(), 0);
/// for (event, tally) in payload.trace() {
///     assert!(tally.tier(Tier::Raw).used <= tally.tier(Tier::Raw).limit, "{event}");
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct HybridPayload<'a, T: ?Sized> {
    pub(crate) assignments: Vec<TierAssignment<'a, T>>,
    pub(crate) events: Vec<AssignmentEvent>,
    pub(crate) start: Tally,
    pub(crate) tally: Tally,
    pub(crate) format: Format,
    pub(crate) text: String,
    pub(crate) rendered_tokens: u64,
    pub(crate) fingerprint: Fingerprint,
}

impl<'a, T: ?Sized> HybridPayload<'a, T> {
    /// The rendered text, in [`format`](Self::format).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The rendered text, giving up the rest.
    pub fn into_text(self) -> String {
        self.text
    }

    /// The format the text is rendered in.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The estimate of the whole rendered text, in tokens; never more than
    /// the budget's total.
    pub fn rendered_tokens(&self) -> u64 {
        self.rendered_tokens
    }

    /// One assignment per candidate, by candidate position.
    pub fn assignments(&self) -> &[TierAssignment<'a, T>] {
        &self.assignments
    }

    /// The assignments in `tier`, by candidate position.
    pub fn in_tier(&self, tier: Tier) -> impl Iterator<Item = &TierAssignment<'a, T>> {
        self.assignments
            .iter()
            .filter(move |p| p.tier == Some(tier))
    }

    /// The assignments in no tier, by candidate position.
    pub fn omitted(&self) -> impl Iterator<Item = &TierAssignment<'a, T>> {
        self.assignments.iter().filter(|p| p.tier.is_none())
    }

    /// The final tally.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// Every assignment event, in the order it happened.
    pub fn events(&self) -> &[AssignmentEvent] {
        &self.events
    }

    /// Every event with the tally right after it: the running account at
    /// each step.
    pub fn trace(&self) -> impl ExactSizeIterator<Item = (&AssignmentEvent, Tally)> + '_ {
        TallyTrace::new(self.start, &self.events)
    }

    /// The demotion events ([`AssignmentAction::Demoted`]): which item left
    /// which tier, and why. An item demoted twice appears twice.
    pub fn demotions(&self) -> impl Iterator<Item = &AssignmentEvent> + '_ {
        self.events
            .iter()
            .filter(|event| matches!(event.action, AssignmentAction::Demoted { .. }))
    }

    /// The digests of the rendered payload.
    pub fn fingerprint(&self) -> &Fingerprint {
        &self.fingerprint
    }
}
