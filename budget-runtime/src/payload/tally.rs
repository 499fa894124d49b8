//! [`Tally`]: per-tier limits, usage and remaining tokens of a hybrid payload.

use std::fmt;

use crate::model::Tier;
use crate::payload::{AssignmentAction, AssignmentEvent, TierBudget};

/// One tier's account, in tokens: its effective limit and what is used.
///
/// ```
/// use budget::{payload::TierTally, model::Tier};
///
/// let t = TierTally { tier: Tier::Raw, limit: 100, used: 30, frame: 0 };
/// assert_eq!(t.remaining(), 70);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TierTally {
    /// The tier.
    pub tier: Tier,
    /// Its effective limit ([`TierBudget::effective`]); SKELETON's is RAW's,
    /// the limit the two share.
    pub limit: u64,
    /// Tokens used: its items' costs plus its [`frame`](Self::frame).
    pub used: u64,
    /// Tokens of the section's own text, counted in `used` before any item:
    /// for SUMMARY, its overview, payload map and key findings (the
    /// token-budget rules count them in the SUMMARY budget); 0 for RAW and
    /// LINKED. At most `limit`: a frame larger than its tier fills it, and
    /// the excess is paid like the rest of the document's structure.
    pub frame: u64,
}

impl TierTally {
    /// `limit − used`, never below 0. RAW and SKELETON share one limit:
    /// what either still has is [`Tally::room`].
    pub const fn remaining(&self) -> u64 {
        self.limit.saturating_sub(self.used)
    }
}

/// The running account of a hybrid payload, in tokens.
///
/// META counts as used from the start (its fixed overhead is reserved);
/// each tier's `used` is the sum of its items' costs in that tier plus its
/// [`frame`](TierTally::frame). The
/// assembler updates it after every [`AssignmentEvent`].
///
/// ```
/// use budget::{payload::{Tally, TierBudget}, model::Tier};
///
/// let tally = Tally::new(&TierBudget::with_total(100_000)?);
/// assert_eq!(tally.tier(Tier::Raw).limit, 81_000);
/// assert_eq!(tally.used(), 300); // META only
/// assert_eq!(tally.remaining(), 99_700);
/// # Ok::<(), budget::payload::TierBudgetError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Tally {
    total: u64,
    meta: u64,
    tiers: [TierTally; 4],
}

impl Tally {
    /// An empty tally for `budget`.
    pub fn new(budget: &TierBudget) -> Self {
        let tier = |tier| TierTally {
            tier,
            limit: budget.effective(tier),
            used: 0,
            frame: 0,
        };
        Self {
            total: budget.total(),
            meta: budget.meta(),
            tiers: Tier::ALL.map(tier),
        }
    }

    /// A tally with explicit effective limits, for tests of assignment.
    #[cfg(test)]
    /// SKELETON shares RAW's limit.
    pub(crate) fn with_limits(total: u64, meta: u64, raw: u64, linked: u64, summary: u64) -> Self {
        let tier = |tier, limit| TierTally {
            tier,
            limit,
            used: 0,
            frame: 0,
        };
        Self {
            total,
            meta,
            tiers: [
                tier(Tier::Raw, raw),
                tier(Tier::Skeleton, raw),
                tier(Tier::Linked, linked),
                tier(Tier::Summary, summary),
            ],
        }
    }

    /// This tally with `tokens` of `tier`'s section text counted as used
    /// (capped at the tier's limit); see [`TierTally::frame`].
    pub(crate) fn with_frame(mut self, tier: Tier, tokens: u64) -> Self {
        let t = &mut self.tiers[slot(tier)];
        t.frame = tokens.min(t.limit);
        t.used = t.used.saturating_add(t.frame);
        self
    }

    /// The account of `tier`.
    pub fn tier(&self, tier: Tier) -> &TierTally {
        &self.tiers[slot(tier)]
    }

    /// The four tier accounts, RAW, SKELETON, LINKED, SUMMARY.
    pub fn tiers(&self) -> &[TierTally; 4] {
        &self.tiers
    }

    /// Tokens `tier` still has room for: its limit minus what every tier
    /// drawing on the same budget uses (RAW and SKELETON share one;
    /// [`Tier::budget_tier`]), never below 0.
    ///
    /// ```
    /// use budget::model::Tier;
    /// use budget::payload::{AssignmentAction, AssignmentEvent, Tally, TierBudget};
    ///
    /// let mut tally = Tally::new(&TierBudget::with_total(1_000)?); // RAW 810
    /// tally.apply(&AssignmentEvent { position: 0, action: AssignmentAction::Placed { tier: Tier::Skeleton, tokens: 29 } });
    /// assert_eq!(tally.room(Tier::Raw), 781);
    /// assert_eq!(tally.room(Tier::Skeleton), 781);
    /// # Ok::<(), budget::payload::TierBudgetError>(())
    /// ```
    pub fn room(&self, tier: Tier) -> u64 {
        let pool = tier.budget_tier();
        let used = self
            .tiers
            .iter()
            .filter(|t| t.tier.budget_tier() == pool)
            .fold(0u64, |sum, t| sum.saturating_add(t.used));
        self.tier(tier).limit.saturating_sub(used)
    }

    /// The payload total.
    pub const fn total(&self) -> u64 {
        self.total
    }

    /// The META overhead, counted as used.
    pub const fn meta(&self) -> u64 {
        self.meta
    }

    /// Tokens used, META included.
    pub fn used(&self) -> u64 {
        self.tiers
            .iter()
            .fold(self.meta, |sum, t| sum.saturating_add(t.used))
    }

    /// `total − used`, never below 0.
    pub fn remaining(&self) -> u64 {
        self.total.saturating_sub(self.used())
    }

    /// Updates the account for one event.
    pub fn apply(&mut self, event: &AssignmentEvent) {
        match event.action {
            AssignmentAction::Placed { tier, tokens } => {
                let t = &mut self.tiers[slot(tier)];
                t.used = t.used.saturating_add(tokens);
            }
            AssignmentAction::Demoted { from, tokens, .. } => {
                let t = &mut self.tiers[slot(from)];
                t.used = t.used.saturating_sub(tokens);
            }
            AssignmentAction::Omitted => {}
        }
    }
}

/// The index of `tier` in per-tier arrays, in the order of [`Tier::ALL`]:
/// RAW 0, SKELETON 1, LINKED 2, SUMMARY 3.
pub(crate) const fn slot(tier: Tier) -> usize {
    match tier {
        Tier::Raw => 0,
        Tier::Skeleton => 1,
        Tier::Linked => 2,
        Tier::Summary => 3,
    }
}

/// A table of the tally, one line per part; `remaining` is
/// [`Tally::room`] (RAW and SKELETON share one limit).
///
/// ```
/// use budget::payload::{Tally, TierBudget};
///
/// let tally = Tally::new(&TierBudget::with_total(100_000)?);
/// assert_eq!(tally.to_string(), "\
/// part       limit     used  remaining
/// META         300      300          0
/// RAW        81000        0      81000
/// SKELETON   81000        0      81000
/// LINKED      8100        0       8100
/// SUMMARY      900        0        900
/// total     100000      300      99700
/// ");
/// # Ok::<(), budget::payload::TierBudgetError>(())
/// ```
impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<8} {:>7} {:>8} {:>10}",
            "part", "limit", "used", "remaining"
        )?;
        writeln!(
            f,
            "{:<8} {:>7} {:>8} {:>10}",
            "META", self.meta, self.meta, 0
        )?;
        for t in &self.tiers {
            writeln!(
                f,
                "{:<8} {:>7} {:>8} {:>10}",
                t.tier.name(),
                t.limit,
                t.used,
                self.room(t.tier)
            )?;
        }
        writeln!(
            f,
            "{:<8} {:>7} {:>8} {:>10}",
            "total",
            self.total,
            self.used(),
            self.remaining()
        )
    }
}

/// Replays assignment events over a fresh [`Tally`], yielding each event
/// with the tally right after it: what
/// [`HybridPayload::trace`](super::HybridPayload::trace) returns.
#[derive(Clone, Debug)]
pub(crate) struct TallyTrace<'p> {
    events: std::slice::Iter<'p, AssignmentEvent>,
    tally: Tally,
}

impl<'p> TallyTrace<'p> {
    /// A trace of `events` starting from `start`.
    pub(crate) fn new(start: Tally, events: &'p [AssignmentEvent]) -> Self {
        Self {
            events: events.iter(),
            tally: start,
        }
    }
}

impl<'p> Iterator for TallyTrace<'p> {
    type Item = (&'p AssignmentEvent, Tally);

    fn next(&mut self) -> Option<Self::Item> {
        let event = self.events.next()?;
        self.tally.apply(event);
        Some((event, self.tally))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.events.size_hint()
    }
}

impl ExactSizeIterator for TallyTrace<'_> {}
