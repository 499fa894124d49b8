//! The six-stage selection pipeline: Classify → Score → Deduplicate → Sort
//! → Slice → Place, one file per stage, plus the [`Pipeline`] builder and
//! the [`SelectionReport`].

mod candidates;
mod classify;
mod deduplicate;
mod error;
mod groups;
mod pending_report;
mod place;
mod report;
mod selection;
mod sort;
mod token_counts;

pub use deduplicate::Deduplication;
pub use error::PipelineError;
pub use groups::GroupSelection;
pub use report::{ExcludedItem, ExclusionReason, IncludedItem, InclusionReason, SelectionReport};
pub use selection::Selection;

use std::fmt;
use std::sync::OnceLock;

use crate::model::{
    ContextBudget, ContextItem, EffectiveBudget, ItemView, ScoredItem, descending_key,
};
use crate::placer::{ChronologicalPlacer, Placer};
use crate::scorer::{RelevanceScorer, Scorer};
use crate::slicer::{CountShortfall, GreedySlicer, Slicer};
use candidates::Candidates;
use pending_report::{PendingReport, SliceChoice, Unsliced};
use token_counts::TokenCounts;

/// The pinned items' hold on the budget, for attributing exclusions.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PinnedLoad {
    /// Input index of the largest pinned item (earliest on ties).
    pub largest: usize,
    /// Total tokens of the pinned items.
    pub tokens: u64,
}

impl PinnedLoad {
    /// The load of the pinned items at input indices `pinned`, together
    /// `tokens` tokens; `None` without pinned items.
    fn of(pinned: &[usize], total: u64, tokens: &TokenCounts) -> Option<Self> {
        let largest = pinned
            .iter()
            .copied()
            .max_by(|&a, &b| tokens.get(a).cmp(&tokens.get(b)).then(b.cmp(&a)))?;
        Some(Self {
            largest,
            tokens: total,
        })
    }

    /// `PinnedOverride` when the item would have fit without the pinned
    /// items, else `BudgetExceeded`.
    pub(crate) fn exclusion(
        pinned: Option<Self>,
        item_tokens: u64,
        available_tokens: u64,
    ) -> ExclusionReason {
        match pinned {
            Some(load) if item_tokens <= available_tokens.saturating_add(load.tokens) => {
                ExclusionReason::PinnedOverride {
                    displaced_by: load.largest,
                }
            }
            _ => ExclusionReason::BudgetExceeded {
                item_tokens,
                available_tokens,
            },
        }
    }
}

/// What the pipeline does when pinned plus sliced items exceed `target_tokens`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum OverflowStrategy {
    /// Fail with [`PipelineError::Overflow`] (the default).
    #[default]
    Throw,
    /// Drop the lowest-scored non-pinned items until the target is met.
    Truncate,
    /// Keep the selection, log a warning and record the overflow in the report.
    Proceed,
}

/// A configured selection pipeline; reusable and shareable across threads.
///
/// Defaults: [`RelevanceScorer::default`] (the items' own
/// [`relevance`](ContextItem::relevance), recency for items without one),
/// [`GreedySlicer`], [`ChronologicalPlacer`], deduplication on,
/// [`OverflowStrategy::Throw`]. The Cupel conformance suite names its
/// scorer in every vector, so this default does not affect it.
///
/// Items that share a [`group`](ContextItem::group) are included whole or
/// not at all, by every slicer and by truncation; the report lists each
/// group's fate in [`SelectionReport::groups`].
///
/// ```
/// use budget::{ContextBudget, Item, Pipeline, pipeline::OverflowStrategy};
/// use budget::{scorer::PriorityScorer, slicer::GreedySlicer};
///
/// let pipeline = Pipeline::builder()
///     .scorer(PriorityScorer::new())
///     .slicer(GreedySlicer::new())
///     .overflow_strategy(OverflowStrategy::Truncate)
///     .build();
/// let items = [Item::builder("a").tokens(10).priority(1).build()?];
/// let selection = pipeline.run(&items, &ContextBudget::new(100, 50)?)?;
/// assert_eq!(selection.items().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Pipeline {
    scorer: Box<dyn Scorer>,
    slicer: Box<dyn Slicer>,
    placer: Box<dyn Placer>,
    deduplication: Deduplication,
    overflow_strategy: OverflowStrategy,
}

impl fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pipeline")
            .field("scorer", &self.scorer)
            .field("slicer", &self.slicer)
            .field("placer", &self.placer)
            .field("deduplication", &self.deduplication)
            .field("overflow_strategy", &self.overflow_strategy)
            .finish()
    }
}

impl Default for Pipeline {
    fn default() -> Self {
        Self::builder().build()
    }
}

/// Builds a [`Pipeline`]; see [`Pipeline::builder`].
#[derive(Debug)]
#[must_use = "call .build() to get the pipeline"]
pub struct PipelineBuilder {
    pipeline: Pipeline,
}

impl PipelineBuilder {
    /// The scorer (default [`RelevanceScorer::default`]).
    pub fn scorer(mut self, scorer: impl Scorer + 'static) -> Self {
        self.pipeline.scorer = Box::new(scorer);
        self
    }
    /// The slicer (default [`GreedySlicer`]).
    pub fn slicer(mut self, slicer: impl Slicer + 'static) -> Self {
        self.pipeline.slicer = Box::new(slicer);
        self
    }
    /// The placer (default [`ChronologicalPlacer`]).
    pub fn placer(mut self, placer: impl Placer + 'static) -> Self {
        self.pipeline.placer = Box::new(placer);
        self
    }
    /// Whether byte-identical contents are deduplicated (default `true`,
    /// as the Cupel specification does it: [`Deduplication::AmongScored`];
    /// `false` is [`Deduplication::Off`]).
    pub fn deduplicate(mut self, enabled: bool) -> Self {
        self.pipeline.deduplication = if enabled {
            Deduplication::AmongScored
        } else {
            Deduplication::Off
        };
        self
    }
    /// How byte-identical contents are deduplicated (default
    /// [`Deduplication::AmongScored`], the Cupel specification's rule).
    pub fn deduplication(mut self, deduplication: Deduplication) -> Self {
        self.pipeline.deduplication = deduplication;
        self
    }
    /// What to do when the selection exceeds `target_tokens` (default `Throw`).
    pub fn overflow_strategy(mut self, strategy: OverflowStrategy) -> Self {
        self.pipeline.overflow_strategy = strategy;
        self
    }
    /// The pipeline.
    pub fn build(self) -> Pipeline {
        self.pipeline
    }
}

impl Pipeline {
    /// A builder starting from the defaults.
    pub fn builder() -> PipelineBuilder {
        PipelineBuilder {
            pipeline: Pipeline {
                scorer: Box::new(RelevanceScorer::default()),
                slicer: Box::new(GreedySlicer::new()),
                placer: Box::new(ChronologicalPlacer::new()),
                deduplication: Deduplication::AmongScored,
                overflow_strategy: OverflowStrategy::Throw,
            },
        }
    }

    /// Selects from `items` what fits `budget`, in presentation order.
    ///
    /// The result borrows from `items`; nothing is cloned. Every item ends up
    /// in the report as included or excluded, with the reason.
    ///
    /// Each item's [`tokens`](ContextItem::tokens) and
    /// [`pinned`](ContextItem::pinned) are read once per run; every stage and
    /// the report use those figures (see [`IncludedItem::tokens`]).
    ///
    /// # Errors
    /// * [`PipelineError::PinnedExceedsBudget`] when pinned items alone
    ///   exceed `max_tokens - output_reserve`.
    /// * [`PipelineError::Overflow`] when the selection exceeds
    ///   `target_tokens` under [`OverflowStrategy::Throw`].
    /// * [`PipelineError::Slice`] when the slicer rejects the input (for
    ///   example an unmet count requirement under `ScarcityBehavior::Throw`).
    /// * [`PipelineError::SlicerIndexOutOfRange`] /
    ///   [`PipelineError::PlacerNotPermutation`] when a custom slicer or
    ///   placer breaks its contract.
    pub fn run<'a, T: ContextItem>(
        &self,
        items: &'a [T],
        budget: &ContextBudget,
    ) -> Result<Selection<'a, T>, PipelineError> {
        let (order, pending) = self.select(items, budget)?;
        let selected = order.into_iter().map(|index| &items[index]).collect();
        Ok(Selection {
            items: selected,
            pending,
            report: OnceLock::new(),
        })
    }

    /// [`Pipeline::run`] over trait objects: returns the input indices of the
    /// selected items in placed order, and the report.
    ///
    /// # Errors
    /// As [`Pipeline::run`].
    pub fn run_dyn(
        &self,
        items: &[&dyn ContextItem],
        budget: &ContextBudget,
    ) -> Result<(Vec<usize>, SelectionReport), PipelineError> {
        let (order, pending) = self.select(items, budget)?;
        Ok((order, pending.into_report()))
    }

    /// The six stages: the input indices of the selected items in placed
    /// order, and the facts the report is assembled from.
    fn select<T: ContextItem>(
        &self,
        items: &[T],
        budget: &ContextBudget,
    ) -> Result<(Vec<usize>, PendingReport), PipelineError> {
        let mut excluded_before_slice = Vec::new();
        let mut excluded_after_slice = Vec::new();

        // 1. Classify: pinned, scoreable or excluded, each count read once.
        let tokens = TokenCounts::read(items);
        let classified = classify::classify(items, &tokens, budget, &mut excluded_before_slice)?;
        let effective = budget.effective(classified.pinned_tokens);
        let pinned = PinnedLoad::of(&classified.pinned, classified.pinned_tokens, &tokens);

        // 2. Score.
        let candidates = self.score(items, classified.scoreable);

        // 3. Deduplicate and 4. sort, best first.
        let mut order = sort::score_order(&candidates.scores);
        self.deduplicate(
            &candidates,
            &mut order,
            items,
            &classified.pinned,
            classified.grouped,
            &mut excluded_before_slice,
        );
        let sorted = candidates.in_order(&order, &tokens);

        // 5. Slice.
        let sliced = self.slice(&sorted, classified.grouped, effective, pinned)?;

        // 6. Place: pinned items first, the overflow strategy, the ceiling,
        // then the placer's order.
        let ceiling_tokens = classified
            .pinned_tokens
            .saturating_add(effective.max_tokens)
            .min(budget.max_tokens().saturating_sub(budget.output_reserve()));
        let pinned_views: Vec<ItemView<'_>> = classified
            .pinned
            .iter()
            .map(|&index| ItemView::pinned(&items[index], tokens.get(index)))
            .collect();
        let merged: Vec<ScoredItem<'_>> = classified
            .pinned
            .iter()
            .zip(&pinned_views)
            .map(|(&index, view)| ScoredItem::new(view, index, 1.0))
            .chain(sliced.selected)
            .collect();
        let placed = self.place(
            merged,
            pinned_views.len(),
            budget.target_tokens(),
            ceiling_tokens,
            pinned,
            &mut excluded_after_slice,
        )?;

        // The record the report is assembled from when it is read.
        let mut groups = sliced.groups;
        groups::settle(&mut groups, &placed.included, items.len());
        let indices = placed.included.iter().map(|i| i.index).collect();
        let unsliced = match sliced.listed {
            Some(listed) => Unsliced::Listed(listed),
            None => Unsliced::Deferred(SliceChoice {
                order,
                indices: candidates.indices,
                scores: candidates.scores,
                tokens,
                chosen: sliced.chosen,
                available_tokens: sliced.available_tokens,
                pinned,
            }),
        };
        let pending = PendingReport {
            summary: SelectionReport {
                total_candidates: items.len(),
                total_tokens_considered: classified.total_tokens_considered,
                pinned_tokens: classified.pinned_tokens,
                selected_tokens: placed.tokens,
                effective_budget: effective,
                overflow_tokens: placed.accepted_overflow,
                shortfalls: sliced.shortfalls,
                groups,
                included: placed.included,
                excluded: Vec::new(),
            },
            excluded_before_slice,
            unsliced,
            excluded_after_slice,
        };
        Ok((indices, pending))
    }

    /// Drops duplicate contents from `order` as
    /// [`deduplication`](PipelineBuilder::deduplication) says.
    fn deduplicate<T: ContextItem>(
        &self,
        candidates: &Candidates<'_>,
        order: &mut Vec<usize>,
        items: &[T],
        pinned: &[usize],
        grouped: bool,
        excluded: &mut Vec<ExcludedItem>,
    ) {
        let pinned: &[usize] = match self.deduplication {
            Deduplication::Off => return,
            Deduplication::PinnedWins => pinned,
            _ => &[],
        };
        deduplicate::deduplicate(candidates, order, items, pinned, grouped, excluded);
    }

    /// The Place stage over `merged`, the pinned items (its first
    /// `pinned_count`, each seen as pinned, with the count this run read)
    /// followed by the sliced ones: the overflow strategy against
    /// `target_tokens`, the hard `ceiling_tokens` (count quotas commit
    /// required items whatever the budget, and a custom slicer may
    /// overshoot), then the placer's order.
    fn place(
        &self,
        merged: Vec<ScoredItem<'_>>,
        pinned_count: usize,
        target_tokens: u64,
        ceiling_tokens: u64,
        pinned: Option<PinnedLoad>,
        excluded: &mut Vec<ExcludedItem>,
    ) -> Result<Placed, PipelineError> {
        let merged = place::handle_overflow(
            merged,
            pinned_count,
            target_tokens,
            self.overflow_strategy,
            pinned,
            excluded,
        )?;
        let merged = place::hold_ceiling(merged, pinned_count, ceiling_tokens, excluded);

        let placed = self.placer.place(&merged.items);
        if !place::is_permutation(&placed, merged.items.len()) {
            return Err(PipelineError::PlacerNotPermutation {
                returned: placed.len(),
                len: merged.items.len(),
            });
        }
        let included = placed
            .iter()
            .map(|&pos| {
                let c = &merged.items[pos];
                // Pinned items lead the merged list and survive truncation.
                let reason = if pos < pinned_count {
                    InclusionReason::Pinned
                } else if c.tokens() == 0 {
                    InclusionReason::ZeroToken
                } else {
                    InclusionReason::Scored
                };
                IncludedItem {
                    index: c.index,
                    score: c.score,
                    tokens: c.tokens(),
                    reason,
                }
            })
            .collect();
        Ok(Placed {
            included,
            tokens: merged.tokens,
            accepted_overflow: merged.accepted_overflow,
        })
    }

    /// Scores the items at input indices `scoreable` (in input order).
    fn score<'a, T: ContextItem>(&self, items: &'a [T], scoreable: Vec<usize>) -> Candidates<'a> {
        let views: Vec<&dyn ContextItem> = scoreable
            .iter()
            .map(|&i| &items[i] as &dyn ContextItem)
            .collect();
        let mut scores = vec![0.0; views.len()];
        if !views.is_empty() {
            self.scorer.score_all(&views, &mut scores);
        }
        Candidates {
            items: views,
            indices: scoreable,
            scores,
        }
    }

    /// Runs the slicer over the units of `sorted` (each group one unit);
    /// returns the selected candidates in the slicer's order, members of a
    /// group together, the candidates left out, and each group's fate.
    fn slice<'a>(
        &self,
        sorted: &[ScoredItem<'a>],
        grouped: bool,
        effective: EffectiveBudget,
        pinned: Option<PinnedLoad>,
    ) -> Result<Sliced<'a>, PipelineError> {
        // Without groups the units are the sorted candidates themselves.
        let units = if grouped {
            groups::Units::of(sorted)
        } else {
            None
        };
        let unit_candidates = units.as_ref().map(|units| units.candidates(sorted));
        let candidates: &[ScoredItem<'_>] = unit_candidates.as_deref().unwrap_or(sorted);
        let outcome = self.slicer.slice(candidates, effective)?;
        // The merged list takes sliced items in the slicer's own order (as
        // the reference implementation does); it decides ties in placers and
        // truncation. Each unit is taken once, a group's members together.
        let mut chosen = vec![false; candidates.len()];
        let mut selected = Vec::with_capacity(outcome.selected.len());
        let mut selected_tokens = 0u64;
        for &unit in &outcome.selected {
            let Some(slot) = chosen.get_mut(unit) else {
                return Err(PipelineError::SlicerIndexOutOfRange {
                    index: unit,
                    len: candidates.len(),
                });
            };
            if !std::mem::replace(slot, true) {
                selected_tokens = selected_tokens.saturating_add(candidates[unit].tokens());
                match &units {
                    Some(units) => {
                        selected.extend(units.members(unit).iter().map(|&pos| sorted[pos]));
                    }
                    None => selected.push(sorted[unit]),
                }
            }
        }
        let available_tokens = effective.target_tokens.saturating_sub(selected_tokens);
        // Without groups the units are the candidates: their exclusions are
        // derived from `chosen` when the report is read.
        let listed = units.as_ref().map(|units| {
            let mut listed = Vec::new();
            for (unit, candidate) in candidates.iter().enumerate() {
                if !chosen[unit] {
                    // Count-cap exclusions are reported like budget ones: the
                    // specification reserves `QuotaCapExceeded` for custom
                    // stages. A group's members are excluded for the group's
                    // tokens.
                    let reason =
                        PinnedLoad::exclusion(pinned, candidate.tokens(), available_tokens);
                    for &pos in units.members(unit) {
                        listed.push(ExcludedItem {
                            index: sorted[pos].index,
                            score: sorted[pos].score,
                            reason: reason.clone(),
                        });
                    }
                }
            }
            listed
        });
        let groups = units
            .as_ref()
            .map_or_else(Vec::new, |units| units.report(sorted));
        Ok(Sliced {
            selected,
            chosen,
            available_tokens,
            listed,
            groups,
            shortfalls: outcome.shortfalls,
        })
    }
}

/// What the Place stage decided.
struct Placed {
    /// The included items in placed order.
    included: Vec<IncludedItem>,
    /// Their tokens.
    tokens: u64,
    /// Tokens over the target the overflow strategy accepted.
    accepted_overflow: Option<u64>,
}

/// What the Slice stage decided.
struct Sliced<'a> {
    /// The selected candidates in the slicer's order, a group's members
    /// together.
    selected: Vec<ScoredItem<'a>>,
    /// Whether the slicer selected each unit.
    chosen: Vec<bool>,
    /// Target tokens the selection left over.
    available_tokens: u64,
    /// With atomic groups, the exclusion of every member of a unit left
    /// out, in the slicer's order; `None` without groups.
    listed: Option<Vec<ExcludedItem>>,
    /// Every group's fate, `included` still unset.
    groups: Vec<GroupSelection>,
    /// Kinds whose required count the slicer could not meet.
    shortfalls: Vec<CountShortfall>,
}
