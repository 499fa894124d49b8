//! [`PayloadAssembler`]: places candidates into tiers, renders the payload
//! and demotes further until the rendered text fits the total.

use crate::estimate::{ContentType, DefaultCounter, Estimator, OnDemandCounts};
use crate::model::{ContextItem, ScoredItem, Tier, TierThresholds};
use crate::payload::demotion::{Slot, TierAssigner, TierCost};
use crate::payload::fragment_costs::FragmentCosts;
use crate::payload::rank::Rank;
use crate::payload::render::{self, Entry, Layout, RenderInput, SummaryDetail};
use crate::payload::{
    AssignmentAction, AssignmentReason, Format, HybridPayload, OfferOrder, PayloadError, Tally,
    TierAssignment, TierBudget,
};
use crate::pipeline::Selection;

/// Assembles hybrid payloads under a [`TierBudget`].
///
/// Costs, in tokens, of an item in each tier:
/// * RAW: the larger of its [`tokens`](ScoredItem::tokens) and the estimate
///   of its content (what the rendered text will weigh), plus the estimate
///   of its RAW frame (heading, description, fence lines);
/// * SKELETON, for items with a [`skeleton`](ContextItem::skeleton): the
///   estimate of its skeleton and frame, drawn on RAW's limit (an item
///   that does not fit RAW whole is offered as its skeleton; one without
///   a skeleton goes on to LINKED);
/// * LINKED: the estimate of its rendered link line;
/// * SUMMARY: the estimate of its rendered mention line. The SUMMARY
///   section's own text is counted in the SUMMARY tier before any mention,
///   at the estimate of its widest form
///   ([`TierTally::frame`](crate::payload::TierTally::frame)), as the
///   token-budget rules ask: mentions get what it leaves. So that a small
///   total does not spend the whole share on that text, the Markdown frame
///   is the richest of overview + map of the tiers + key findings,
///   overview + map, or a one-line overview that leaves room for the
///   cheapest mention.
///
/// Fragments are rendered in the assembler's [`Format`] (default
/// Markdown); estimates use its [`Estimator`] (default [`DefaultCounter`]).
///
/// The rendered size ([`HybridPayload::rendered_tokens`]) is the
/// estimate of the whole rendered text, raised by every RAW item's
/// `tokens` in excess of the estimate of its content: an item that
/// declares an exact count larger than the estimate is counted at its own
/// figure. It never exceeds the total. Since RAW costs count the larger of
/// the two as well, an item that understates its count costs what it
/// renders to, and the render pass only pays for the document's structure.
///
/// Each item's count is the candidate's [`tokens`](ScoredItem::tokens),
/// read once; the assembler never calls [`ContextItem::tokens`]. With
/// [`exact_counts`](Self::exact_counts) it is instead the exact count of
/// its content, counted only as far as a decision needs.
///
/// Each item starts in RAW, or in the tier its
/// [`tier`](ContextItem::tier) asks for, or lower when
/// [`thresholds`](Self::thresholds) are set and its score earns less; see
/// the [`demotion`](super#tier-assignment-and-demotion) rules. After assignment
/// the payload is rendered and the whole text estimated; while that
/// exceeds the total, the lowest-ranked item of the most detailed non-empty
/// tier is demoted and the payload rendered again.
///
/// ```
/// use budget::{Item, model::Tier};
/// use budget::payload::{PayloadAssembler, TierBudget};
///
/// let items = [
///     Item::builder("fn main() {}").tokens(5).relevance(0.9).link("src/main.rs").build()?,
///     Item::builder("x".repeat(7_000)).tokens(1_700).relevance(0.2).link("big.txt").build()?,
/// ];
/// // RAW effective limit: 90% of 2,000 = 1,800, minus 10% = 1,620.
/// let budget = TierBudget::new(2_000, 100, 1.0, 9.0, 90.0, 10.0)?;
/// let payload = PayloadAssembler::new(budget).assemble_items(&items)?;
/// let tiers: Vec<_> = payload.assignments().iter().map(|p| p.tier).collect();
/// assert_eq!(tiers, [Some(Tier::Raw), Some(Tier::Linked)]);
/// assert!(payload.text().starts_with("## META\n"));
/// assert!(payload.rendered_tokens() <= 2_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy)]
pub struct PayloadAssembler<'e> {
    budget: TierBudget,
    estimator: &'e dyn Estimator,
    format: Format,
    order: OfferOrder,
    thresholds: Option<TierThresholds>,
    counts: Option<&'e OnDemandCounts<'e>>,
    layout: Layout,
}

impl std::fmt::Debug for PayloadAssembler<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PayloadAssembler")
            .field("budget", &self.budget)
            .field("format", &self.format)
            .field("order", &self.order)
            .field("thresholds", &self.thresholds)
            .field("counts", &self.counts)
            .field("layout", &self.layout)
            .finish_non_exhaustive()
    }
}

impl PayloadAssembler<'static> {
    /// An assembler for `budget` with the [`DefaultCounter`], Markdown, rank
    /// order and no score thresholds.
    pub fn new(budget: TierBudget) -> Self {
        Self {
            budget,
            estimator: &DefaultCounter,
            format: Format::Markdown,
            order: OfferOrder::Rank,
            thresholds: None,
            counts: None,
            layout: Layout::default(),
        }
    }
}

impl<'e> PayloadAssembler<'e> {
    /// This assembler with another estimator, for frames, lines and the
    /// rendered text (for example an exact tokenizer).
    ///
    /// ```
    /// use budget::{payload::{PayloadAssembler, TierBudget}, estimate::TokenCounter};
    ///
    /// struct Words;
    /// impl TokenCounter for Words {
    ///     fn count_tokens(&self, text: &str) -> u64 { text.split_whitespace().count() as u64 }
    /// }
    /// let assembler = PayloadAssembler::new(TierBudget::with_total(20_000)?).estimator(&Words);
    /// # let _ = assembler;
    /// # Ok::<(), budget::payload::TierBudgetError>(())
    /// ```
    pub fn estimator<'f>(self, estimator: &'f dyn Estimator) -> PayloadAssembler<'f>
    where
        'e: 'f,
    {
        PayloadAssembler {
            budget: self.budget,
            estimator,
            format: self.format,
            order: self.order,
            thresholds: self.thresholds,
            counts: self.counts,
            layout: self.layout,
        }
    }

    /// This assembler placing items by the exact counts of their contents
    /// under `counts`' counter, counted only as far as each decision needs
    /// ([`OnDemandCounts`]); the candidates' [`tokens`](ScoredItem::tokens)
    /// are not read (they may be upper bounds, or anything). Position `i`
    /// of `counts` is candidate `i`: pass the same candidate list to every
    /// assembly that shares `counts`.
    ///
    /// When the estimator is `counts`' counter, the payload is the one the
    /// assembler builds from candidates whose `tokens` are those exact
    /// counts: the same assignments, text and fingerprint (this relies on a
    /// LINKED line costing no less when the size printed in it grows;
    /// for `o200k_base` and `cl100k_base` a run of up to three digits is one
    /// token). Only the reasons of items that did not fit a tier differ:
    /// their `needed` is a count the cost reaches, not the cost, and an item
    /// too large for a tier may be reported as the tier being full. With
    /// another estimator, a content costs its exact count, not the larger of
    /// its count and the estimate.
    ///
    /// What is counted: each item offered to a tier is counted up to the
    /// room left there (RAW: its content; LINKED: in full, only when its
    /// line could fit with the smallest count it may have); items the tiers
    /// have no room for cost a count up to that room, or nothing.
    ///
    /// ```
    /// use budget::estimate::{OnDemandCounts, guaranteed_upper_bound};
    /// use budget::payload::{PayloadAssembler, TierBudget};
    /// use budget::{ContextItem, Item, estimate::TokenCounter, model::{ScoredItem, Tier}};
    ///
    /// /// A toy exact counter: one token per word.
    /// struct Words;
    /// impl TokenCounter for Words {
    ///     fn count_tokens(&self, t: &str) -> u64 { t.split_whitespace().count() as u64 }
    /// }
    /// let texts = ["fn main() {}", &"word ".repeat(5_000)];
    /// let items: Vec<Item> = texts
    ///     .iter()
    ///     .map(|t| Item::builder(*t).tokens(guaranteed_upper_bound(t)).build())
    ///     .collect::<Result<_, _>>()?;
    /// let candidates: Vec<ScoredItem<'_, Item>> =
    ///     items.iter().zip([0.9, 0.1]).enumerate().map(|(n, (i, s))| ScoredItem::with_tokens(i, n, s, i.tokens())).collect();
    /// let counts = OnDemandCounts::new(&Words, candidates.len());
    /// let payload = PayloadAssembler::new(TierBudget::with_total(2_000)?)
    ///     .estimator(&Words)
    ///     .exact_counts(&counts)
    ///     .assemble(candidates)?;
    /// let tiers: Vec<_> = payload.assignments().iter().map(|p| p.tier).collect();
    /// assert_eq!(tiers, [Some(Tier::Raw), Some(Tier::Linked)]);
    /// assert_eq!(counts.known_exact(0), Some(3));
    /// assert_eq!(counts.known_exact(1), Some(5_000)); // LINKED prints it
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn exact_counts<'f>(self, counts: &'f OnDemandCounts<'f>) -> PayloadAssembler<'f>
    where
        'e: 'f,
    {
        PayloadAssembler {
            budget: self.budget,
            estimator: self.estimator,
            format: self.format,
            order: self.order,
            thresholds: self.thresholds,
            counts: Some(counts),
            layout: self.layout,
        }
    }

    /// This assembler rendering in `format`: item costs are the sizes of
    /// that format's fragments, and the render pass fits that format's text
    /// to the total.
    ///
    /// ```
    /// use budget::{Item, payload::{Format, PayloadAssembler, TierBudget}};
    ///
    /// let items = [Item::builder("a < b").tokens(3).link("cmp.txt").build()?];
    /// let payload = PayloadAssembler::new(TierBudget::with_total(2_000)?)
    ///     .format(Format::Xml)
    ///     .assemble_items(&items)?;
    /// assert!(payload.text().starts_with("<payload>\n<meta "));
    /// assert!(payload.text().contains("<![CDATA[a < b]]></item>\n"));
    /// assert!(payload.rendered_tokens() <= 2_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// This assembler with another offer order.
    pub fn order(mut self, order: OfferOrder) -> Self {
        self.order = order;
        self
    }

    /// Start each item no higher than the tier its score earns under
    /// `thresholds` ([`Tier::for_score`]), so low-scored items are never
    /// carried in full just because there is room.
    ///
    /// ```
    /// use budget::{Item, payload::{PayloadAssembler, TierBudget}, model::Tier};
    ///
    /// let items = [Item::builder("meh").tokens(1).relevance(0.5).build()?];
    /// let payload = PayloadAssembler::new(TierBudget::with_total(20_000)?)
    ///     .thresholds(Tier::DEFAULT_THRESHOLDS)
    ///     .assemble_items(&items)?;
    /// assert_eq!(payload.assignments()[0].tier, Some(Tier::Linked)); // 0.4 <= 0.5 < 0.7
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn thresholds(mut self, thresholds: TierThresholds) -> Self {
        self.thresholds = Some(thresholds);
        self
    }

    /// Whether the payload opens with its META section (budget and tier
    /// figures) and closes with its fingerprint (SHA-256 digests); on by
    /// default. Off, the model sees only the tiers' content; the digests
    /// are still computed ([`HybridPayload::fingerprint`]).
    ///
    /// ```
    /// use budget::{Item, payload::{PayloadAssembler, TierBudget}};
    ///
    /// let items = [Item::builder("fn main() {}").tokens(4).link("src/main.rs").build()?];
    /// let payload = PayloadAssembler::new(TierBudget::with_total(20_000)?)
    ///     .meta(false)
    ///     .assemble_items(&items)?;
    /// assert!(payload.text().starts_with("## SUMMARY\n"));
    /// assert!(!payload.text().contains("## Fingerprint"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn meta(mut self, on: bool) -> Self {
        self.layout.meta = on;
        self
    }

    /// Whether the payload opens with a TREE section: the placed items'
    /// links as a folder tree (`/`-separated), each file marked with its
    /// tier; off by default. The tree is part of the rendered text, so it
    /// is counted within the total; while it would take more than 5% of
    /// the total, its deepest folders collapse into one line each
    /// (`tide/ (2 files: LINKED 1, SUMMARY 1)`).
    ///
    /// ```
    /// use budget::{Item, payload::{PayloadAssembler, TierBudget}};
    ///
    /// let items = [Item::builder("fn main() {}").tokens(4).link("src/main.rs").build()?];
    /// let payload = PayloadAssembler::new(TierBudget::with_total(20_000)?)
    ///     .tree(true)
    ///     .assemble_items(&items)?;
    /// assert!(payload.text().starts_with("## TREE\n\n```text\nsrc/\n  main.rs [RAW]\n```\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tree(mut self, on: bool) -> Self {
        self.layout.tree = on;
        self
    }

    /// Whether the model reading the payload has a tool to fetch a LINKED
    /// item: Markdown LINKED lines then say `Fetch: N tokens.` instead of
    /// `N tokens.`; off by default (a chat model cannot fetch).
    ///
    /// ```
    /// use budget::{Item, payload::{PayloadAssembler, TierBudget}, model::Tier};
    ///
    /// let items = [Item::builder("x").tokens(900).link("big.rs").tier(Tier::Linked).build()?];
    /// let assembler = PayloadAssembler::new(TierBudget::with_total(20_000)?);
    /// let plain = assembler.assemble_items(&items)?;
    /// assert!(plain.text().contains("- `big.rs`. 900 tokens.\n"));
    /// let fetching = assembler.fetch_tool(true).assemble_items(&items)?;
    /// assert!(fetching.text().contains("- `big.rs`. Fetch: 900 tokens.\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fetch_tool(mut self, on: bool) -> Self {
        self.layout.fetch_tool = on;
        self
    }

    /// The tier budget.
    pub fn budget(&self) -> &TierBudget {
        &self.budget
    }

    /// Assembles the selected items of a pipeline run, scored by the run's
    /// report; see [`Selection::scored`].
    ///
    /// # Errors
    /// As [`PayloadAssembler::assemble`].
    pub fn assemble_selection<'a, T: ContextItem>(
        &self,
        selection: &Selection<'a, T>,
    ) -> Result<HybridPayload<'a, T>, PayloadError> {
        self.assemble(selection.scored())
    }

    /// Assembles `items` scored by their [`relevance`](ContextItem::relevance)
    /// (0.0 when absent); see [`ScoredItem::from_relevance`].
    ///
    /// # Errors
    /// As [`PayloadAssembler::assemble`].
    pub fn assemble_items<'a, T: ContextItem>(
        &self,
        items: &'a [T],
    ) -> Result<HybridPayload<'a, T>, PayloadError> {
        self.assemble(ScoredItem::from_relevance(items))
    }

    /// Assembles `candidates`. Every candidate ends in exactly one tier (or none)
    /// with a reason. Runs in O(n log n) for `n` candidates plus the size of
    /// the rendered text per render pass.
    ///
    /// ```
    /// use budget::{ContextItem, Item, model::{ScoredItem, Tier}};
    /// use budget::payload::{PayloadAssembler, TierBudget};
    ///
    /// let a = Item::builder("alpha").tokens(2).link("a.txt").build()?;
    /// let b = Item::builder("beta").tokens(2).link("b.txt").build()?;
    /// // Any score the caller computes; dyn items work too.
    /// let candidates: Vec<ScoredItem<'_, dyn ContextItem>> =
    ///     vec![ScoredItem::new(&a, 0, 0.3), ScoredItem::new(&b, 1, 0.8)];
    /// let payload = PayloadAssembler::new(TierBudget::with_total(20_000)?).assemble(candidates)?;
    /// assert!(payload.assignments().iter().all(|p| p.tier == Some(Tier::Raw)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`PayloadError::StructureExceedsTotal`] when even with every item
    /// omitted the rendered payload's estimate exceeds the total, naming
    /// the smallest total that fits.
    ///
    /// The structure's size is not quite monotone in the total (META and
    /// SUMMARY print the budget's numbers, which gain digits), so that
    /// smallest total is searched from a fixed start, the same for every
    /// total: every total below it fails with the same figure, and a total
    /// at or above it always succeeds. Just above it, where the total
    /// itself fails, the payload is assembled for the largest smaller total
    /// that fits, with the same tier shares; its META shows that total.
    pub fn assemble<'a, T: ContextItem + ?Sized>(
        &self,
        candidates: Vec<ScoredItem<'a, T>>,
    ) -> Result<HybridPayload<'a, T>, PayloadError> {
        let rendered_tokens = match self.try_assemble(&candidates) {
            Ok(payload) => return Ok(payload),
            Err(rendered_tokens) => rendered_tokens,
        };
        let total = self.budget.total();
        let minimum_total = self.minimum_total(&candidates);
        match minimum_total {
            Some(minimum) if minimum < total => {
                // `minimum` fits and `total` does not: the largest in between that fits.
                let (fits, _) = bisect(minimum, total, |t| self.fits(t, &candidates).is_some());
                self.fits(fits, &candidates)
                    .ok_or(PayloadError::StructureExceedsTotal {
                        rendered_tokens,
                        total_tokens: total,
                        minimum_total,
                    })
            }
            _ => Err(PayloadError::StructureExceedsTotal {
                rendered_tokens,
                total_tokens: total,
                minimum_total,
            }),
        }
    }

    /// This assembler's budget shape (META tokens, tier shares, headroom)
    /// at another total; `None` where that is not a valid budget.
    fn with_total(&self, total: u64) -> Option<Self> {
        let b = &self.budget;
        let budget = TierBudget::new(
            total,
            b.meta(),
            b.percent(Tier::Summary),
            b.percent(Tier::Linked),
            b.percent(Tier::Raw),
            b.headroom_percent(),
        )
        .ok()?;
        Some(Self { budget, ..*self })
    }

    /// The payload assembled at `total` with this budget's shape, if its
    /// structure fits.
    fn fits<'a, T: ContextItem + ?Sized>(
        &self,
        total: u64,
        candidates: &[ScoredItem<'a, T>],
    ) -> Option<HybridPayload<'a, T>> {
        self.with_total(total)?.try_assemble(candidates).ok()
    }

    /// The smallest total at which [`assemble`](Self::assemble) succeeds
    /// for `candidates` with this budget's META tokens, tier shares and
    /// headroom; `None` if none up to `u64::MAX / 2` does. Searched upwards
    /// from the META tokens, the smallest valid total (doubling, then
    /// bisecting), so it does not depend on this budget's total.
    ///
    /// ```
    /// use budget::{Item, model::ScoredItem, payload::{PayloadAssembler, TierBudget}};
    ///
    /// let items = [Item::builder("fn main() {}").tokens(4).link("src/main.rs").build()?];
    /// let candidates = ScoredItem::from_relevance(&items);
    /// let assembler = PayloadAssembler::new(TierBudget::with_total(20_000)?);
    /// let minimum = assembler.minimum_total(&candidates).unwrap();
    /// assert!(minimum > TierBudget::DEFAULT_META_TOKENS);
    /// let smallest = PayloadAssembler::new(TierBudget::with_total(minimum)?).assemble(candidates.clone())?;
    /// assert!(smallest.rendered_tokens() <= minimum);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn minimum_total<T: ContextItem + ?Sized>(
        &self,
        candidates: &[ScoredItem<'_, T>],
    ) -> Option<u64> {
        let ceiling = u64::MAX / 2;
        // A total below the META tokens is not a valid budget.
        let mut fails = self.budget.meta().saturating_sub(1);
        let mut fits = fails.saturating_mul(2).max(64);
        while self.fits(fits, candidates).is_none() {
            if fits >= ceiling {
                return None;
            }
            fails = fits;
            fits = fits.saturating_mul(2);
        }
        let (_, fits) = bisect(fails, fits, |t| self.fits(t, candidates).is_none());
        Some(fits)
    }

    /// The richest SUMMARY frame that leaves room in SUMMARY's share for the
    /// cheapest mention of any candidate (the one-line frame when none
    /// does), and its estimate: at a small total the section's own text
    /// must not crowd out every mention while it can shrink.
    fn summary_detail<T: ContextItem + ?Sized>(
        &self,
        candidates: &[ScoredItem<'_, T>],
        costs: &mut FragmentCosts<'_, '_, '_, T>,
    ) -> (SummaryDetail, u64) {
        let limit = Tally::new(&self.budget).tier(Tier::Summary).limit;
        // Whether some candidate's mention fits `room`: the first that
        // does ends the search, so a roomy share costs one estimate, not
        // one per candidate.
        let mut mention_fits = |room: u64| {
            candidates.is_empty()
                || (0..candidates.len())
                    .any(|position| costs.cost(position, Tier::Summary, room) <= room)
        };
        let mut chosen = (SummaryDetail::Line, 0);
        for detail in SummaryDetail::ALL {
            let frame = render::summary_frame(self.format, &self.budget, candidates, detail);
            let frame = self.estimator.estimate(&frame, ContentType::Markdown);
            chosen = (detail, frame);
            if limit.checked_sub(frame).is_some_and(&mut mention_fits) {
                break;
            }
        }
        chosen
    }

    /// Places and renders; `Err` with the rendered estimate when even with
    /// every item omitted the text exceeds the total.
    fn try_assemble<'a, T: ContextItem + ?Sized>(
        &self,
        candidates: &[ScoredItem<'a, T>],
    ) -> Result<HybridPayload<'a, T>, u64> {
        let scores: Vec<f64> = candidates.iter().map(|c| c.score).collect();
        let mut costs = FragmentCosts {
            candidates,
            renderer: self.format.renderer(),
            fetch: self.layout.fetch_tool,
            estimator: self.estimator,
            counts: self.counts,
            buffer: String::new(),
        };
        let (summary_detail, frame) = self.summary_detail(candidates, &mut costs);
        let start = Tally::new(&self.budget).with_frame(Tier::Summary, frame);
        let mut placer = TierAssigner::new(start, &scores, costs);
        for position in self.offer_order(&scores) {
            let candidate = candidates[position];
            if let Some(tokens) = candidate.item.negative_tokens() {
                placer.omit(position, AssignmentReason::NegativeTokens { tokens });
            } else {
                placer.place(position, self.starting_tier(&candidate));
            }
        }

        let total = self.budget.total();
        let (text, fingerprint, rendered_tokens) = loop {
            let demotions = count_demotions(placer.events());
            let counted = self.counted(candidates);
            let tree = self
                .layout
                .tree
                .then(|| self.tree_text(&counted, placer.slots()));
            let (text, fingerprint) = render::render(
                self.format,
                &RenderInput {
                    budget: &self.budget,
                    tally: placer.tally(),
                    candidates: &counted,
                    slots: placer.slots(),
                    demotions,
                    layout: self.layout,
                    tree: tree.as_deref(),
                    summary_detail,
                },
            );
            let rendered = self.rendered_tokens(&text, &counted, placer.slots());
            if rendered <= total {
                break (text, fingerprint, rendered);
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
                return Err(rendered);
            }
        };

        let (slots, events, tally) = placer.into_parts();
        let assignments = slots
            .iter()
            .zip(candidates)
            .enumerate()
            .map(|(position, (slot, candidate))| TierAssignment {
                item: candidate.item,
                position,
                score: candidate.score,
                tier: slot.tier,
                reason: slot.reason,
                tokens: slot.tokens,
                demoted_from: slot.demoted_from,
            })
            .collect();
        Ok(HybridPayload {
            assignments,
            events,
            start,
            tally,
            format: self.format,
            text,
            rendered_tokens,
            fingerprint,
        })
    }

    /// The candidates with the exact counts known so far in place of their
    /// `tokens`, under [`exact_counts`](Self::exact_counts): every item in
    /// RAW or LINKED has been counted.
    fn counted<'a, T: ContextItem + ?Sized>(
        &self,
        candidates: &[ScoredItem<'a, T>],
    ) -> Vec<ScoredItem<'a, T>> {
        let Some(counts) = self.counts else {
            return candidates.to_vec();
        };
        candidates
            .iter()
            .enumerate()
            .map(|(position, c)| {
                let tokens = counts.known_exact(position).unwrap_or(c.tokens);
                ScoredItem::with_tokens(c.item, c.index, c.score, tokens)
            })
            .collect()
    }

    /// The estimate of the whole rendered text, raised by every RAW item's
    /// declared `tokens()` in excess of what the estimator sees in its
    /// content (so an exact count declared by the item is never undercut).
    fn rendered_tokens<T: ContextItem + ?Sized>(
        &self,
        text: &str,
        candidates: &[ScoredItem<'_, T>],
        slots: &[Slot],
    ) -> u64 {
        let declared_excess = slots
            .iter()
            .zip(candidates)
            .filter(|(slot, _)| slot.tier == Some(Tier::Raw))
            .map(|(_, c)| {
                let declared = c.tokens;
                let seen = self
                    .estimator
                    .estimate(&c.item.content(), ContentType::Markdown);
                declared.saturating_sub(seen)
            })
            .fold(0u64, u64::saturating_add);
        self.estimator
            .estimate(text, ContentType::Markdown)
            .saturating_add(declared_excess)
    }

    /// The TREE section's text for the items as placed in `slots`, within
    /// its share of the total.
    fn tree_text<T: ContextItem + ?Sized>(
        &self,
        candidates: &[ScoredItem<'_, T>],
        slots: &[Slot],
    ) -> String {
        let entries: Vec<(Entry<'_>, Option<Tier>)> = candidates
            .iter()
            .zip(slots)
            .enumerate()
            .map(|(position, (c, slot))| (Entry::of(c.item, position, c.score), slot.tier))
            .collect();
        let limit = self.budget.total() / 100 * render::TREE_SHARE_PERCENT;
        render::tree_text(
            entries
                .iter()
                .map(|(entry, state)| (&*entry.source, *state)),
            limit,
            self.estimator,
        )
    }

    fn offer_order(&self, scores: &[f64]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..scores.len()).collect();
        if self.order == OfferOrder::Rank {
            order.sort_unstable_by_key(|&p| std::cmp::Reverse(Rank::new(scores[p], p)));
        }
        order
    }

    fn starting_tier<T: ContextItem + ?Sized>(&self, candidate: &ScoredItem<'_, T>) -> Tier {
        let asked = candidate.item.tier().unwrap_or(Tier::Raw);
        match self.thresholds {
            Some(thresholds) => asked.min(Tier::for_score(candidate.score, thresholds)),
            None => asked,
        }
    }
}

/// Narrows `low < high`, where `below(low)` holds and `below(high)` does
/// not, to two adjacent values with the same property.
fn bisect(mut low: u64, mut high: u64, below: impl Fn(u64) -> bool) -> (u64, u64) {
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if below(middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low, high)
}

fn count_demotions(events: &[crate::payload::AssignmentEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.action, AssignmentAction::Demoted { .. }))
        .count()
}

#[cfg(test)]
mod tests;
