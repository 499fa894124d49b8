//! Per-kind item-count requirements and caps, and the three phases that
//! enforce them (shared by [`CountQuotaSlicer`](crate::slicer::CountQuotaSlicer)
//! and [`CountConstrainedKnapsackSlicer`](crate::slicer::CountConstrainedKnapsackSlicer)).

use std::collections::HashMap;

use crate::model::descending_score;
use crate::model::{ContextKind, EffectiveBudget, ScoredItem};
use crate::slicer::SlicerError;
use crate::slicer::delegate::slice_subset;
use crate::slicer::{CountShortfall, SliceOutcome, Slicer};

/// At least `require_count` and at most `cap_count` items of one kind.
///
/// ```
/// use budget::{ContextKind, slicer::{CountQuotaEntry, SlicerError}};
///
/// let tools = CountQuotaEntry::new(ContextKind::TOOL_OUTPUT, 1, 3)?;
/// assert_eq!((tools.require_count(), tools.cap_count()), (1, 3));
/// assert!(CountQuotaEntry::new(ContextKind::TOOL_OUTPUT, 2, 1).is_err());
/// # Ok::<(), SlicerError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CountQuotaEntry {
    kind: ContextKind,
    require_count: usize,
    cap_count: usize,
}

impl CountQuotaEntry {
    /// Requires `require_count` items of `kind` and allows at most
    /// `cap_count`. A cap of 0 (with a requirement of 0) excludes the kind.
    ///
    /// # Errors
    /// [`SlicerError::RequireCountExceedsCap`] if `require_count > cap_count`
    /// (which includes a zero cap with a positive requirement).
    pub fn new(
        kind: ContextKind,
        require_count: usize,
        cap_count: usize,
    ) -> Result<Self, SlicerError> {
        if require_count > cap_count {
            return Err(SlicerError::RequireCountExceedsCap {
                kind,
                require_count,
                cap_count,
            });
        }
        Ok(Self {
            kind,
            require_count,
            cap_count,
        })
    }

    /// The kind constrained.
    ///
    /// ```
    /// use budget::{ContextKind, slicer::CountQuotaEntry};
    ///
    /// let entry = CountQuotaEntry::new(ContextKind::MEMORY, 0, 2)?;
    /// assert_eq!(entry.kind(), &ContextKind::MEMORY);
    /// # Ok::<(), budget::slicer::SlicerError>(())
    /// ```
    pub fn kind(&self) -> &ContextKind {
        &self.kind
    }

    /// Minimum items of the kind (committed before the inner slicer runs).
    ///
    /// ```
    /// use budget::{ContextKind, slicer::CountQuotaEntry};
    ///
    /// assert_eq!(CountQuotaEntry::new(ContextKind::MEMORY, 1, 2)?.require_count(), 1);
    /// # Ok::<(), budget::slicer::SlicerError>(())
    /// ```
    pub fn require_count(&self) -> usize {
        self.require_count
    }

    /// Maximum items of the kind in the result.
    ///
    /// ```
    /// use budget::{ContextKind, slicer::CountQuotaEntry};
    ///
    /// assert_eq!(CountQuotaEntry::new(ContextKind::MEMORY, 1, 2)?.cap_count(), 2);
    /// # Ok::<(), budget::slicer::SlicerError>(())
    /// ```
    pub fn cap_count(&self) -> usize {
        self.cap_count
    }
}

/// What a count slicer does when a kind cannot reach its `require_count`.
///
/// ```
/// use budget::slicer::ScarcityBehavior;
///
/// assert_eq!(ScarcityBehavior::default(), ScarcityBehavior::Degrade);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ScarcityBehavior {
    /// Take what there is and report a [`CountShortfall`] (the default).
    #[default]
    Degrade,
    /// Fail with [`SlicerError::CountRequirementUnmet`].
    Throw,
}

/// In which order Phase 3 caps the inner slicer's picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CapOrder {
    /// The inner slicer's selection order.
    AsSelected,
    /// Score descending (stable), for inner slicers whose order carries no rank.
    ByScore,
}

/// Validated entries (sorted by kind, at most one per kind) with their
/// lookup, and the scarcity behaviour.
#[derive(Clone, Debug)]
pub(crate) struct CountPolicy {
    entries: Vec<CountQuotaEntry>,
    by_kind: HashMap<ContextKind, usize>,
    scarcity: ScarcityBehavior,
}

impl CountPolicy {
    /// # Errors
    /// [`SlicerError::DuplicateKind`] if a kind (case-insensitively) has two entries.
    pub(crate) fn new(
        mut entries: Vec<CountQuotaEntry>,
        scarcity: ScarcityBehavior,
    ) -> Result<Self, SlicerError> {
        entries.sort_by(|a, b| a.kind.cmp(&b.kind));
        if let Some(pair) = entries.windows(2).find(|pair| pair[0].kind == pair[1].kind) {
            return Err(SlicerError::DuplicateKind {
                kind: pair[1].kind.clone(),
            });
        }
        let by_kind = entries
            .iter()
            .enumerate()
            .map(|(i, entry)| (entry.kind.clone(), i))
            .collect();
        Ok(Self {
            entries,
            by_kind,
            scarcity,
        })
    }

    pub(crate) fn entries(&self) -> &[CountQuotaEntry] {
        &self.entries
    }

    pub(crate) fn scarcity(&self) -> ScarcityBehavior {
        self.scarcity
    }

    /// The three phases of the specification:
    ///
    /// 1. For each kind with a requirement (in kind order), commit its best
    ///    candidates by score until the requirement is met, whatever their
    ///    tokens, as the specification says: the pipeline's overflow strategy
    ///    then decides what a selection over target means, and the pipeline
    ///    rejects one over the hard ceiling. A requirement left unmet is a
    ///    shortfall (or an error under [`ScarcityBehavior::Throw`]).
    /// 2. Run `inner` on the uncommitted candidates with the remaining target.
    /// 3. Walk its picks in `order`, dropping those whose kind reached its
    ///    cap (counting the committed items) into `cap_excluded`.
    ///
    /// O(n log n) plus the inner slicer.
    pub(crate) fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        budget: EffectiveBudget,
        inner: &dyn Slicer,
        order: CapOrder,
    ) -> Result<SliceOutcome, SlicerError> {
        if sorted.is_empty() || budget.target_tokens == 0 {
            return Ok(SliceOutcome::default());
        }
        let entry_of: Vec<Option<usize>> = sorted
            .iter()
            .map(|candidate| self.by_kind.get(candidate.item.kind()).copied())
            .collect();
        let mut outcome = SliceOutcome::default();
        let mut counts = vec![0usize; self.entries.len()];
        let mut committed = vec![false; sorted.len()];

        // Phase 1: commit the required items.
        let mut pools: Vec<Vec<usize>> = vec![Vec::new(); self.entries.len()];
        for (pos, entry) in entry_of.iter().enumerate() {
            if let Some(e) = *entry
                && self.entries[e].require_count > 0
            {
                pools[e].push(pos);
            }
        }
        let mut committed_tokens: u64 = 0;
        for (e, (entry, pool)) in self.entries.iter().zip(&mut pools).enumerate() {
            if entry.require_count == 0 {
                continue;
            }
            pool.sort_by(|&a, &b| descending_score(sorted[a].score, sorted[b].score));
            for &pos in pool.iter() {
                if counts[e] == entry.require_count {
                    break;
                }
                let tokens = sorted[pos].tokens();
                committed_tokens = committed_tokens.saturating_add(tokens);
                counts[e] += 1;
                committed[pos] = true;
                outcome.selected.push(pos);
            }
            if counts[e] < entry.require_count {
                match self.scarcity {
                    ScarcityBehavior::Throw => {
                        return Err(SlicerError::CountRequirementUnmet {
                            kind: entry.kind.clone(),
                            required: entry.require_count,
                            satisfied: counts[e],
                        });
                    }
                    ScarcityBehavior::Degrade => outcome.shortfalls.push(CountShortfall {
                        kind: entry.kind.clone(),
                        required: entry.require_count,
                        satisfied: counts[e],
                    }),
                }
            }
        }

        // Phase 2: the inner slicer fills the remaining target.
        let residual: Vec<usize> = (0..sorted.len()).filter(|&pos| !committed[pos]).collect();
        let remaining = budget.target_tokens.saturating_sub(committed_tokens);
        if remaining == 0 || residual.is_empty() {
            return Ok(outcome);
        }
        let inner_budget = EffectiveBudget {
            max_tokens: budget.max_tokens,
            target_tokens: remaining.min(budget.max_tokens),
        };
        let inner_outcome = slice_subset(inner, sorted, &residual, inner_budget)?;

        // Phase 3: caps, counting the committed items.
        let mut picks = inner_outcome.selected;
        if order == CapOrder::ByScore {
            picks.sort_by(|&a, &b| descending_score(sorted[a].score, sorted[b].score));
        }
        for pos in picks {
            if let Some(e) = entry_of[pos] {
                if counts[e] >= self.entries[e].cap_count {
                    outcome.cap_excluded.push(pos);
                    continue;
                }
                counts[e] += 1;
            }
            outcome.selected.push(pos);
        }
        outcome.cap_excluded.extend(inner_outcome.cap_excluded);
        outcome.shortfalls.extend(inner_outcome.shortfalls);
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(label: &'static str) -> ContextKind {
        ContextKind::new(label).unwrap()
    }

    #[test]
    fn require_may_equal_cap_but_not_exceed_it() {
        assert!(CountQuotaEntry::new(kind("tool"), 2, 2).is_ok());
        assert!(CountQuotaEntry::new(kind("tool"), 0, 0).is_ok());
        assert_eq!(
            CountQuotaEntry::new(kind("tool"), 1, 0),
            Err(SlicerError::RequireCountExceedsCap {
                kind: kind("tool"),
                require_count: 1,
                cap_count: 0,
            })
        );
        assert_eq!(
            CountQuotaEntry::new(kind("tool"), 3, 2)
                .unwrap_err()
                .to_string(),
            "kind tool: require_count 3 exceeds cap_count 2"
        );
    }

    #[test]
    fn duplicate_kinds_are_rejected_case_insensitively() {
        let entries = vec![
            CountQuotaEntry::new(kind("tool"), 1, 2).unwrap(),
            CountQuotaEntry::new(kind("Tool"), 0, 1).unwrap(),
        ];
        assert!(matches!(
            CountPolicy::new(entries, ScarcityBehavior::Degrade),
            Err(SlicerError::DuplicateKind { .. })
        ));
    }

    #[test]
    fn entries_are_kept_in_kind_order() {
        let entries = vec![
            CountQuotaEntry::new(kind("tool"), 1, 2).unwrap(),
            CountQuotaEntry::new(kind("Memory"), 0, 1).unwrap(),
        ];
        let policy = CountPolicy::new(entries, ScarcityBehavior::Degrade).unwrap();
        let kinds: Vec<&str> = policy.entries().iter().map(|e| e.kind().as_str()).collect();
        assert_eq!(kinds, ["Memory", "tool"]);
    }
}
