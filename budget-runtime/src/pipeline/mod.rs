//! The six-stage selection pipeline: Classify → Score → Deduplicate → Sort
//! → Slice → Place, one file per stage, plus the [`Pipeline`] builder and
//! the [`SelectionReport`].

mod classify;
mod deduplicate;
mod error;
mod groups;
mod place;
mod report;
mod selection;
mod sort;
mod token_counts;

pub use error::PipelineError;
pub use groups::GroupSelection;
pub use report::{ExcludedItem, ExclusionReason, IncludedItem, InclusionReason, SelectionReport};
pub use selection::Selection;

use std::fmt;

use crate::model::{
    ContextBudget, ContextItem, EffectiveBudget, ItemView, ScoredItem, descending_key,
};
use crate::placer::{ChronologicalPlacer, Placer};
use crate::scorer::{RelevanceScorer, Scorer};
use crate::slicer::{CountShortfall, GreedySlicer, Slicer};
use token_counts::TokenCounts;

/// Sorts exclusions by score descending, ties in exclusion order. Stable
/// and run-adaptive: the Slice stage already records its exclusions in
/// score order, so this is close to linear.
fn sort_excluded(excluded: &mut [ExcludedItem]) {
    excluded.sort_by_key(|e| descending_key(e.score));
}

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
/// use budget_runtime::{ContextBudget, Item, Pipeline, pipeline::OverflowStrategy};
/// use budget_runtime::{scorer::PriorityScorer, slicer::GreedySlicer};
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
    deduplicate: bool,
    overflow_strategy: OverflowStrategy,
}

impl fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pipeline")
            .field("scorer", &self.scorer)
            .field("slicer", &self.slicer)
            .field("placer", &self.placer)
            .field("deduplicate", &self.deduplicate)
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
    /// Whether byte-identical contents are deduplicated (default `true`).
    /// Items with empty content and members of a group are never
    /// deduplicated: they differ in what the content does not show (tool
    /// calls, their ids and arguments, the role).
    pub fn deduplicate(mut self, enabled: bool) -> Self {
        self.pipeline.deduplicate = enabled;
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
                deduplicate: true,
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
        let views: Vec<&'a dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        let (order, report) = self.run_dyn(&views, budget)?;
        let selected = order.into_iter().map(|index| &items[index]).collect();
        Ok(Selection {
            items: selected,
            report,
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
        let mut excluded = Vec::new();

        let tokens = TokenCounts::read(items);
        let classified = classify::classify(items, &tokens, budget, &mut excluded)?;
        let effective = budget.effective(classified.pinned_tokens);

        let mut scored = self.score(items, &tokens, &classified.scoreable);
        if self.deduplicate {
            deduplicate::deduplicate(&mut scored, items, &classified.pinned, &mut excluded);
        }
        sort::sort_by_score(&mut scored);

        let largest_pinned = classified
            .pinned
            .iter()
            .copied()
            .max_by(|&a, &b| tokens.get(a).cmp(&tokens.get(b)).then(b.cmp(&a)));
        let pinned = largest_pinned.map(|index| PinnedLoad {
            largest: index,
            tokens: classified.pinned_tokens,
        });
        let mut shortfalls = Vec::new();
        let (sliced, mut groups) =
            self.slice(&scored, effective, pinned, &mut excluded, &mut shortfalls)?;

        // Pinned items, seen as pinned also when only their group is, each
        // with the count this run read.
        let pinned_views: Vec<ItemView<'_>> = classified
            .pinned
            .iter()
            .map(|&index| ItemView::pinned(items[index], tokens.get(index)))
            .collect();
        let pinned_count = pinned_views.len();
        let mut merged: Vec<ScoredItem<'_>> = classified
            .pinned
            .iter()
            .zip(&pinned_views)
            .map(|(&index, view)| ScoredItem::new(view, index, 1.0))
            .collect();
        merged.extend(sliced);
        let merged = place::handle_overflow(
            merged,
            pinned_count,
            budget.target_tokens(),
            self.overflow_strategy,
            pinned,
            &mut excluded,
        )?;

        // Count quotas commit required items whatever the budget, and a custom
        // slicer may overshoot: after the overflow strategy had its say, the
        // hard ceiling holds regardless.
        let ceiling_tokens = budget.max_tokens().saturating_sub(budget.output_reserve());
        let merged = place::hold_ceiling(merged, pinned_count, ceiling_tokens, &mut excluded);

        let order = self.placer.place(&merged.items);
        if !place::is_permutation(&order, merged.items.len()) {
            return Err(PipelineError::PlacerNotPermutation {
                returned: order.len(),
                len: merged.items.len(),
            });
        }

        let included = order
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
        sort_excluded(&mut excluded);
        // The overflow strategy and the ceiling may still drop a sliced
        // group (whole): report each group's final fate.
        let mut in_selection = vec![false; items.len()];
        for i in &included {
            in_selection[i.index] = true;
        }
        for group in &mut groups {
            group.included = group.members.first().is_some_and(|&m| in_selection[m]);
        }

        let indices = included.iter().map(|i| i.index).collect();
        let report = SelectionReport {
            total_candidates: items.len(),
            total_tokens_considered: classified.total_tokens_considered,
            pinned_tokens: classified.pinned_tokens,
            selected_tokens: merged.tokens,
            effective_budget: effective,
            overflow_tokens: merged.accepted_overflow,
            shortfalls,
            groups,
            included,
            excluded,
        };
        Ok((indices, report))
    }

    fn score<'a>(
        &self,
        items: &[&'a dyn ContextItem],
        tokens: &TokenCounts,
        scoreable: &[usize],
    ) -> Vec<ScoredItem<'a>> {
        let views: Vec<&dyn ContextItem> = scoreable.iter().map(|&i| items[i]).collect();
        let mut scores = vec![0.0; views.len()];
        if !views.is_empty() {
            self.scorer.score_all(&views, &mut scores);
        }
        scoreable
            .iter()
            .zip(scores)
            .map(|(&index, score)| ScoredItem {
                item: items[index],
                index,
                score,
                tokens: tokens.get(index),
            })
            .collect()
    }

    /// Runs the slicer over the units of `sorted` (each group one unit);
    /// returns the selected candidates in the slicer's order, members of a
    /// group together, records every other candidate as excluded, and
    /// reports each group's fate.
    fn slice<'a>(
        &self,
        sorted: &[ScoredItem<'a>],
        effective: EffectiveBudget,
        pinned: Option<PinnedLoad>,
        excluded: &mut Vec<ExcludedItem>,
        shortfalls: &mut Vec<CountShortfall>,
    ) -> Result<(Vec<ScoredItem<'a>>, Vec<GroupSelection>), PipelineError> {
        let units = groups::Units::of(sorted);
        let grouped = units.candidates(sorted);
        let candidates: &[ScoredItem<'_>] = grouped.as_deref().unwrap_or(sorted);
        let mut outcome = self.slicer.slice(candidates, effective)?;
        shortfalls.append(&mut outcome.shortfalls);
        let mut chosen = vec![false; candidates.len()];
        for &pos in &outcome.selected {
            match chosen.get_mut(pos) {
                Some(slot) => *slot = true,
                None => {
                    return Err(PipelineError::SlicerIndexOutOfRange {
                        index: pos,
                        len: candidates.len(),
                    });
                }
            }
        }

        let selected_tokens = candidates
            .iter()
            .zip(&chosen)
            .filter(|(_, c)| **c)
            .fold(0u64, |sum, (s, _)| sum.saturating_add(s.tokens()));
        let available_tokens = effective.target_tokens.saturating_sub(selected_tokens);
        for (unit, candidate) in candidates.iter().enumerate() {
            if !chosen[unit] {
                // Count-cap exclusions are reported like budget ones: the
                // specification reserves `QuotaCapExceeded` for custom stages.
                // A group's members are excluded for the group's tokens.
                let reason = PinnedLoad::exclusion(pinned, candidate.tokens(), available_tokens);
                for &pos in units.members(unit) {
                    excluded.push(ExcludedItem {
                        index: sorted[pos].index,
                        score: sorted[pos].score,
                        reason: reason.clone(),
                    });
                }
            }
        }
        let groups = units.report(sorted);
        // The merged list takes sliced items in the slicer's own order (as
        // the reference implementation does); it decides ties in placers and
        // truncation. Each position is taken once.
        let mut sliced = Vec::with_capacity(outcome.selected.len());
        for &unit in &outcome.selected {
            if std::mem::take(&mut chosen[unit]) {
                sliced.extend(units.members(unit).iter().map(|&pos| sorted[pos]));
            }
        }
        Ok((sliced, groups))
    }
}
