//! [`PayloadAssembler`]: places candidates into tiers, renders the payload
//! and demotes further until the rendered text fits the total.

use crate::error::PayloadError;
use crate::estimate::{Estimator, SeedEstimator};
use crate::model::{ContentType, ContextItem, Tier, TierThresholds};
use crate::payload::candidate::Rank;
use crate::payload::demotion::{TierCost, TierPlacer};
use crate::payload::render::{self, RenderInput};
use crate::payload::{
    Candidate, HybridPayload, Placement, PlacementAction, PlacementReason, Tally, TierBudget,
};
use crate::pipeline::Selection;

/// The order in which candidates are offered to the tiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum PlacementOrder {
    /// Best rank first (score descending, ties by position). Each item then
    /// ranks lowest when it arrives, so a full tier never demotes for it:
    /// it falls to the next tier. This is the default.
    #[default]
    Rank,
    /// Candidate order, as items arrive (for example files as a walker finds
    /// them): a full tier demotes its lowest-ranked item when the newcomer
    /// outranks it.
    Arrival,
}

/// Assembles hybrid payloads under a [`TierBudget`].
///
/// Costs, in tokens, of an item in each tier:
/// * RAW: its [`tokens`](ContextItem::tokens) plus the estimate of its RAW
///   frame (heading, description, fence lines);
/// * LINKED: the estimate of its rendered link line;
/// * SUMMARY: the estimate of its rendered mention line.
///
/// Estimates use the assembler's [`Estimator`] (default [`SeedEstimator`])
/// on Markdown. Each item starts in RAW, or in the tier its
/// [`tier`](ContextItem::tier) asks for, or lower when
/// [`thresholds`](Self::thresholds) are set and its score earns less; see
/// the [`demotion`](super#placement-and-demotion) rules. After placement
/// the payload is rendered and the whole text estimated; while that
/// exceeds the total, the lowest-ranked item of the most detailed non-empty
/// tier is demoted and the payload rendered again.
///
/// ```
/// use budget_runtime::{Item, Tier};
/// use budget_runtime::payload::{ItemState, PayloadAssembler, TierBudget};
///
/// let items = [
///     Item::builder("fn main() {}").tokens(5).relevance(0.9).link("src/main.rs").build()?,
///     Item::builder("x".repeat(7_000)).tokens(1_700).relevance(0.2).link("big.txt").build()?,
/// ];
/// // RAW effective limit: 90% of 2,000 = 1,800, minus 10% = 1,620.
/// let budget = TierBudget::new(2_000, 100, 1.0, 9.0, 90.0, 10.0)?;
/// let payload = PayloadAssembler::new(budget).assemble_items(&items)?;
/// let states: Vec<_> = payload.placements().iter().map(|p| p.state).collect();
/// assert_eq!(states, [ItemState::Raw, ItemState::Linked]);
/// assert!(payload.markdown().starts_with("## META\n"));
/// assert!(payload.rendered_tokens() <= 2_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct PayloadAssembler<'e> {
    budget: TierBudget,
    estimator: &'e dyn Estimator,
    order: PlacementOrder,
    thresholds: Option<TierThresholds>,
}

impl std::fmt::Debug for PayloadAssembler<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PayloadAssembler")
            .field("budget", &self.budget)
            .field("order", &self.order)
            .field("thresholds", &self.thresholds)
            .finish_non_exhaustive()
    }
}

impl PayloadAssembler<'static> {
    /// An assembler for `budget` with the [`SeedEstimator`], rank order and
    /// no score thresholds.
    pub fn new(budget: TierBudget) -> Self {
        Self {
            budget,
            estimator: &SeedEstimator,
            order: PlacementOrder::Rank,
            thresholds: None,
        }
    }
}

impl<'e> PayloadAssembler<'e> {
    /// This assembler with another estimator, for frames, lines and the
    /// rendered text (for example an exact tokenizer).
    ///
    /// ```
    /// use budget_runtime::{TokenCounter, payload::{PayloadAssembler, TierBudget}};
    ///
    /// struct Words;
    /// impl TokenCounter for Words {
    ///     fn count_tokens(&self, text: &str) -> u64 { text.split_whitespace().count() as u64 }
    /// }
    /// let assembler = PayloadAssembler::new(TierBudget::with_total(20_000)?).estimator(&Words);
    /// # let _ = assembler;
    /// # Ok::<(), budget_runtime::TierBudgetError>(())
    /// ```
    pub fn estimator<'f>(self, estimator: &'f dyn Estimator) -> PayloadAssembler<'f> {
        PayloadAssembler {
            budget: self.budget,
            estimator,
            order: self.order,
            thresholds: self.thresholds,
        }
    }

    /// This assembler with another placement order.
    pub fn order(mut self, order: PlacementOrder) -> Self {
        self.order = order;
        self
    }

    /// Start each item no higher than the tier its score earns under
    /// `thresholds` ([`Tier::for_score`]), so low-scored items are never
    /// carried in full just because there is room.
    ///
    /// ```
    /// use budget_runtime::{Item, Tier, payload::{ItemState, PayloadAssembler, TierBudget}};
    ///
    /// let items = [Item::builder("meh").tokens(1).relevance(0.5).build()?];
    /// let payload = PayloadAssembler::new(TierBudget::with_total(20_000)?)
    ///     .thresholds(Tier::DEFAULT_THRESHOLDS)
    ///     .assemble_items(&items)?;
    /// assert_eq!(payload.placements()[0].state, ItemState::Linked); // 0.4 <= 0.5 < 0.7
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn thresholds(mut self, thresholds: TierThresholds) -> Self {
        self.thresholds = Some(thresholds);
        self
    }

    /// The tier budget.
    pub fn budget(&self) -> &TierBudget {
        &self.budget
    }

    /// Assembles the selected items of a pipeline run, scored by the run's
    /// report; see [`Candidate::from_selection`].
    ///
    /// # Errors
    /// As [`PayloadAssembler::assemble`].
    pub fn assemble_selection<'a, T: ContextItem>(
        &self,
        selection: &Selection<'a, T>,
    ) -> Result<HybridPayload<'a, T>, PayloadError> {
        self.assemble(Candidate::from_selection(selection))
    }

    /// Assembles `items` scored by their [`relevance`](ContextItem::relevance)
    /// (0.0 when absent); see [`Candidate::from_relevance`].
    ///
    /// # Errors
    /// As [`PayloadAssembler::assemble`].
    pub fn assemble_items<'a, T: ContextItem>(
        &self,
        items: &'a [T],
    ) -> Result<HybridPayload<'a, T>, PayloadError> {
        self.assemble(Candidate::from_relevance(items))
    }

    /// Assembles `candidates`. Every candidate ends in exactly one state
    /// with a reason. Runs in O(n log n) for `n` candidates plus the size of
    /// the rendered text per render pass.
    ///
    /// # Errors
    /// [`PayloadError::StructureExceedsTotal`] when even with every item
    /// omitted the rendered payload's estimate exceeds the total.
    pub fn assemble<'a, T: ContextItem + ?Sized>(
        &self,
        candidates: Vec<Candidate<'a, T>>,
    ) -> Result<HybridPayload<'a, T>, PayloadError> {
        let scores: Vec<f64> = candidates.iter().map(|c| c.score).collect();
        let start = Tally::new(&self.budget);
        let costs = FragmentCosts {
            candidates: &candidates,
            estimator: self.estimator,
            buffer: String::new(),
        };
        let mut placer = TierPlacer::new(start, &scores, costs);
        for position in self.offer_order(&scores) {
            let candidate = candidates[position];
            let tokens = candidate.item.tokens();
            if tokens < 0 {
                placer.omit(position, PlacementReason::NegativeTokens { tokens });
            } else {
                placer.place(position, self.starting_tier(&candidate));
            }
        }

        let total = self.budget.total();
        let (markdown, fingerprint, rendered_tokens) = loop {
            let demotions = count_demotions(placer.events());
            let (markdown, fingerprint) = render::render(&RenderInput {
                budget: &self.budget,
                tally: placer.tally(),
                candidates: &candidates,
                slots: placer.slots(),
                demotions,
            });
            let rendered = self.estimator.estimate(&markdown, ContentType::Markdown);
            if rendered <= total {
                break (markdown, fingerprint, rendered);
            }
            let excess = rendered - total;
            tracing::debug!(rendered, total, "rendered payload over its total; demoting");
            let before = placer.tally().used();
            let mut demoted_any = false;
            while before.saturating_sub(placer.tally().used()) < excess {
                if !placer.demote_for_overflow() {
                    break;
                }
                demoted_any = true;
            }
            if !demoted_any {
                return Err(PayloadError::StructureExceedsTotal {
                    rendered_tokens: rendered,
                    total_tokens: total,
                });
            }
        };

        let (slots, events, tally) = placer.into_parts();
        let placements = slots
            .iter()
            .zip(&candidates)
            .enumerate()
            .map(|(position, (slot, candidate))| Placement {
                item: candidate.item,
                position,
                score: candidate.score,
                state: slot.state,
                reason: slot.reason,
                tokens: slot.tokens,
                demoted_from: slot.demoted_from,
            })
            .collect();
        Ok(HybridPayload {
            placements,
            events,
            start,
            tally,
            markdown,
            rendered_tokens,
            fingerprint,
        })
    }

    fn offer_order(&self, scores: &[f64]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..scores.len()).collect();
        if self.order == PlacementOrder::Rank {
            order.sort_unstable_by_key(|&p| std::cmp::Reverse(Rank::new(scores[p], p)));
        }
        order
    }

    fn starting_tier<T: ContextItem + ?Sized>(&self, candidate: &Candidate<'_, T>) -> Tier {
        let asked = candidate.item.tier().unwrap_or(Tier::Raw);
        match self.thresholds {
            Some(thresholds) => asked.min(Tier::for_score(candidate.score, thresholds)),
            None => asked,
        }
    }
}

fn count_demotions(events: &[crate::payload::PlacementEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.action, PlacementAction::Demoted { .. }))
        .count()
}

/// Costs from the rendered fragments, estimated as Markdown.
struct FragmentCosts<'c, 'a, 'e, T: ?Sized> {
    candidates: &'c [Candidate<'a, T>],
    estimator: &'e dyn Estimator,
    buffer: String,
}

impl<T: ContextItem + ?Sized> TierCost for FragmentCosts<'_, '_, '_, T> {
    fn cost(&mut self, position: usize, tier: Tier) -> u64 {
        let candidate = self.candidates[position];
        let item = candidate.item;
        self.buffer.clear();
        let content_tokens = match tier {
            Tier::Raw => {
                let content = item.content();
                render::push_raw_block(&mut self.buffer, item, position, &content, false);
                u64::try_from(item.tokens()).unwrap_or(0)
            }
            Tier::Linked => {
                render::push_link_line(&mut self.buffer, item, position);
                0
            }
            Tier::Summary => {
                render::push_mention_line(&mut self.buffer, item, position, candidate.score);
                0
            }
        };
        content_tokens.saturating_add(self.estimator.estimate(&self.buffer, ContentType::Markdown))
    }
}
