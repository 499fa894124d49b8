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

        let tokens = TokenCounts::read(items);
        let classified = classify::classify(items, &tokens, budget, &mut excluded_before_slice)?;
        let effective = budget.effective(classified.pinned_tokens);

        let candidates = self.score(items, classified.scoreable);
        let mut order = sort::score_order(&candidates.scores);
        let pinned: &[usize] = match self.deduplication {
            Deduplication::PinnedWins => &classified.pinned,
            _ => &[],
        };
        if self.deduplication != Deduplication::Off {
            deduplicate::deduplicate(
                &candidates,
                &mut order,
                items,
                pinned,
                classified.grouped,
                &mut excluded_before_slice,
            );
        }
        let sorted: Vec<ScoredItem<'_>> = order
            .iter()
            .map(|&pos| {
                let index = candidates.indices[pos];
                ScoredItem {
                    item: candidates.items[pos],
                    index,
                    score: candidates.scores[pos],
                    tokens: tokens.get(index),
                }
            })
            .collect();

        let largest_pinned = classified
            .pinned
            .iter()
            .copied()
            .max_by(|&a, &b| tokens.get(a).cmp(&tokens.get(b)).then(b.cmp(&a)));
        let pinned = largest_pinned.map(|index| PinnedLoad {
            largest: index,
            tokens: classified.pinned_tokens,
        });
        let Sliced {
            selected: sliced,
            chosen,
            available_tokens,
            listed,
            mut groups,
            shortfalls,
        } = self.slice(&sorted, classified.grouped, effective, pinned)?;

        // Pinned items, seen as pinned also when only their group is, each
        // with the count this run read.
        let pinned_views: Vec<ItemView<'_>> = classified
            .pinned
            .iter()
            .map(|&index| ItemView::pinned(&items[index], tokens.get(index)))
            .collect();
        let pinned_count = pinned_views.len();
        let mut merged: Vec<ScoredItem<'_>> = Vec::with_capacity(pinned_count + sliced.len());
        merged.extend(
            classified
                .pinned
                .iter()
                .zip(&pinned_views)
                .map(|(&index, view)| ScoredItem::new(view, index, 1.0)),
        );
        merged.extend(sliced);
        let mut excluded_after_slice = Vec::new();
        let merged = place::handle_overflow(
            merged,
            pinned_count,
            budget.target_tokens(),
            self.overflow_strategy,
            pinned,
            &mut excluded_after_slice,
        )?;

        // Count quotas commit required items whatever the budget, and a custom
        // slicer may overshoot: after the overflow strategy had its say, the
        // hard ceiling holds regardless: the pinned items plus the effective
        // (margin-adjusted) ceiling, never more than `max - reserve`.
        let ceiling_tokens = classified
            .pinned_tokens
            .saturating_add(effective.max_tokens)
            .min(budget.max_tokens().saturating_sub(budget.output_reserve()));
        let merged = place::hold_ceiling(
            merged,
            pinned_count,
            ceiling_tokens,
            &mut excluded_after_slice,
        );

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
            .collect::<Vec<_>>();
        // The overflow strategy and the ceiling may still drop a sliced
        // group (whole): report each group's final fate.
        if !groups.is_empty() {
            let mut in_selection = vec![false; items.len()];
            for i in &included {
                in_selection[i.index] = true;
            }
            for group in &mut groups {
                group.included = group.members.first().is_some_and(|&m| in_selection[m]);
            }
        }

        let indices = included.iter().map(|i| i.index).collect();
        let unsliced = match listed {
            Some(listed) => Unsliced::Listed(listed),
            None => Unsliced::Deferred(SliceChoice {
                order,
                indices: candidates.indices,
                scores: candidates.scores,
                tokens,
                chosen,
                available_tokens,
                pinned,
            }),
        };
        let pending = PendingReport {
            summary: SelectionReport {
                total_candidates: items.len(),
                total_tokens_considered: classified.total_tokens_considered,
                pinned_tokens: classified.pinned_tokens,
                selected_tokens: merged.tokens,
                effective_budget: effective,
                overflow_tokens: merged.accepted_overflow,
                shortfalls,
                groups,
                included,
                excluded: Vec::new(),
            },
            excluded_before_slice,
            unsliced,
            excluded_after_slice,
        };
        Ok((indices, pending))
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
