//! [`CountConstrainedKnapsackSlicer`]: per-kind item counts (at least / at
//! most) with a knapsack filling the rest.

use crate::model::{EffectiveBudget, ScoredItem};
use crate::slicer::SlicerError;
use crate::slicer::count_policy::{CapOrder, CountPolicy};
use crate::slicer::{CountQuotaEntry, KnapsackSlicer, ScarcityBehavior, SliceOutcome, Slicer};

/// Guarantees item counts per kind, then packs the rest with a
/// [`KnapsackSlicer`].
///
/// The phases of [`CountQuotaSlicer`](crate::slicer::CountQuotaSlicer) with
/// the knapsack built in: (1) commit each kind's required best items (never
/// past the target; unmet requirements become
/// [`SliceOutcome::shortfalls`] or an error under
/// [`ScarcityBehavior::Throw`]); (2) run the knapsack on the others with the
/// remaining target; (3) sort its picks by score descending (the knapsack's
/// order carries no rank) and drop those whose kind reached its `cap_count`
/// into [`SliceOutcome::cap_excluded`].
///
/// Cost: O(n log n) plus the knapsack's O(n × capacity).
///
/// ```
/// use budget::{ContextKind, Item, model::{EffectiveBudget, ScoredItem}, slicer::Slicer};
/// use budget::slicer::{
///     CountConstrainedKnapsackSlicer, CountQuotaEntry, KnapsackSlicer, ScarcityBehavior,
/// };
///
/// let tool = ContextKind::TOOL_OUTPUT;
/// let items: Vec<Item> = ["tool-a", "tool-b", "tool-c"]
///     .into_iter()
///     .map(|name| Item::builder(name).tokens(100).kind(tool.clone()).build())
///     .collect::<Result<_, _>>()?;
/// let sorted: Vec<ScoredItem> = items
///     .iter()
///     .zip([0.9, 0.8, 0.7])
///     .enumerate()
///     .map(|(index, (item, score))| ScoredItem::new(item, index, score))
///     .collect();
/// let slicer = CountConstrainedKnapsackSlicer::new(
///     vec![CountQuotaEntry::new(tool, 1, 2)?],
///     KnapsackSlicer::new(100)?,
///     ScarcityBehavior::Degrade,
/// )?;
/// let outcome = slicer.slice(&sorted, EffectiveBudget { max_tokens: 600, target_tokens: 600 })?;
/// assert_eq!(outcome.selected, vec![0, 1]);
/// assert_eq!(outcome.cap_excluded, vec![2]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct CountConstrainedKnapsackSlicer {
    policy: CountPolicy,
    knapsack: KnapsackSlicer,
}

impl CountConstrainedKnapsackSlicer {
    /// A count-constrained knapsack slicer with one entry per constrained kind.
    ///
    /// # Errors
    /// [`SlicerError::DuplicateKind`] if a kind has two entries.
    pub fn new(
        entries: Vec<CountQuotaEntry>,
        knapsack: KnapsackSlicer,
        scarcity: ScarcityBehavior,
    ) -> Result<Self, SlicerError> {
        Ok(Self {
            policy: CountPolicy::new(entries, scarcity)?,
            knapsack,
        })
    }

    /// The entries, sorted by kind.
    ///
    /// ```
    /// use budget::ContextKind;
    /// use budget::slicer::{
    ///     CountConstrainedKnapsackSlicer, CountQuotaEntry, KnapsackSlicer, ScarcityBehavior,
    /// };
    ///
    /// let entry = CountQuotaEntry::new(ContextKind::MEMORY, 1, 2)?;
    /// let slicer = CountConstrainedKnapsackSlicer::new(
    ///     vec![entry.clone()],
    ///     KnapsackSlicer::default(),
    ///     ScarcityBehavior::Degrade,
    /// )?;
    /// assert_eq!(slicer.entries(), [entry]);
    /// assert_eq!(slicer.knapsack().bucket_size(), 100);
    /// # Ok::<(), budget::slicer::SlicerError>(())
    /// ```
    pub fn entries(&self) -> &[CountQuotaEntry] {
        self.policy.entries()
    }

    /// What happens when a requirement cannot be met.
    pub fn scarcity(&self) -> ScarcityBehavior {
        self.policy.scarcity()
    }

    /// The knapsack that fills the remaining target.
    pub fn knapsack(&self) -> &KnapsackSlicer {
        &self.knapsack
    }
}

impl Slicer for CountConstrainedKnapsackSlicer {
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        budget: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError> {
        self.policy
            .slice(sorted, budget, &self.knapsack, CapOrder::ByScore)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ContextKind;
    use crate::slicer::CountShortfall;
    use crate::slicer::test_support::{
        Fixture, Row, arb_rows, arb_target, budget, check_count_invariants, contents, count_entry,
        count_summary, random_items, set_of, sorted_view,
    };
    use proptest::prelude::*;

    fn slicer(entries: Vec<CountQuotaEntry>, bucket: u64) -> CountConstrainedKnapsackSlicer {
        CountConstrainedKnapsackSlicer::new(
            entries,
            KnapsackSlicer::new(bucket).unwrap(),
            ScarcityBehavior::Degrade,
        )
        .unwrap()
    }

    /// Runs a vector with `bucket`; see [`count_summary`].
    fn run(
        rows: &[Row],
        entries: Vec<CountQuotaEntry>,
        bucket: u64,
        target: u64,
    ) -> (Vec<String>, usize, usize) {
        count_summary(&slicer(entries, bucket), rows, target)
    }

    /// Vector `count-constrained-knapsack-baseline`.
    #[test]
    fn vector_baseline() {
        let rows = [
            ("tool-a", 100, 0.9, "tool"),
            ("tool-b", 100, 0.7, "tool"),
            ("msg-x", 100, 0.5, "msg"),
        ];
        let got = run(&rows, vec![count_entry("tool", 2, 4)], 100, 1000);
        assert_eq!(got, (set_of(&["tool-a", "tool-b", "msg-x"]), 0, 0));
    }

    /// Vector `count-constrained-knapsack-cap-exclusion`: tool-a committed,
    /// knapsack takes b, c, d; cap 2 keeps b only.
    #[test]
    fn vector_cap_exclusion() {
        let rows = [
            ("tool-a", 100, 0.9, "tool"),
            ("tool-b", 100, 0.8, "tool"),
            ("tool-c", 100, 0.7, "tool"),
            ("tool-d", 100, 0.6, "tool"),
        ];
        let got = run(&rows, vec![count_entry("tool", 1, 2)], 100, 600);
        assert_eq!(got, (set_of(&["tool-a", "tool-b"]), 0, 2));
    }

    /// Vector `count-constrained-knapsack-require-and-cap` (bucket 1).
    #[test]
    fn vector_require_and_cap() {
        let rows = [
            ("tool-a", 100, 0.9, "tool"),
            ("tool-b", 100, 0.7, "tool"),
            ("msg-s", 50, 0.8, "msg"),
            ("msg-m", 150, 0.6, "msg"),
            ("msg-l", 200, 0.4, "msg"),
        ];
        let got = run(&rows, vec![count_entry("tool", 2, 2)], 1, 1000);
        let all = ["tool-a", "tool-b", "msg-s", "msg-m", "msg-l"];
        assert_eq!(got, (set_of(&all), 0, 0));
    }

    /// Vector `count-constrained-knapsack-scarcity-degrade`.
    #[test]
    fn vector_scarcity_degrade() {
        let fixture = Fixture::new(&[("tool-a", 100, 0.9, "tool")]);
        let sorted = fixture.candidates();
        let outcome = slicer(vec![count_entry("tool", 3, 5)], 100)
            .slice(&sorted, budget(500))
            .unwrap();
        assert_eq!(contents(&sorted, &outcome.selected), ["tool-a"]);
        assert_eq!(
            outcome.shortfalls,
            [CountShortfall {
                kind: ContextKind::new("tool").unwrap(),
                required: 3,
                satisfied: 1,
            }]
        );
        assert!(outcome.cap_excluded.is_empty());
    }

    /// Vector `count-constrained-knapsack-tag-nonexclusive`.
    #[test]
    fn vector_tag_nonexclusive() {
        let rows = [
            ("item-tool", 100, 0.9, "tool"),
            ("item-memory", 100, 0.8, "memory"),
            ("item-extra", 100, 0.5, "tool"),
        ];
        let entries = vec![count_entry("tool", 1, 4), count_entry("memory", 1, 4)];
        let got = run(&rows, entries, 100, 1000);
        assert_eq!(
            got,
            (set_of(&["item-tool", "item-memory", "item-extra"]), 0, 0)
        );
    }

    #[test]
    fn knapsack_picks_are_capped_in_score_order() {
        // The knapsack returns [b, a] (reverse candidate order); re-sorting
        // by score lets the cap of 1 keep the better item, a.
        let fixture = Fixture::new(&[("a", 10, 0.9, "tool"), ("b", 10, 0.5, "tool")]);
        let sorted = fixture.candidates();
        let outcome = slicer(vec![count_entry("tool", 0, 1)], 1)
            .slice(&sorted, budget(100))
            .unwrap();
        assert_eq!(contents(&sorted, &outcome.selected), ["a"]);
        assert_eq!(contents(&sorted, &outcome.cap_excluded), ["b"]);
    }

    #[test]
    fn knapsack_optimises_the_residual() {
        // After committing "tool" (100), 300 remain: the knapsack prefers
        // "big" (0.7) over "small" (0.5, better per token).
        let rows = [
            ("tool", 100, 0.1, "tool"),
            ("big", 250, 0.7, "msg"),
            ("small", 150, 0.5, "msg"),
        ];
        let got = run(&rows, vec![count_entry("tool", 1, 1)], 100, 400);
        assert_eq!(got, (set_of(&["tool", "big"]), 0, 0));
    }

    #[test]
    fn throw_reports_the_unmet_requirement() {
        let fixture = Fixture::new(&[("m", 100, 0.9, "memory")]);
        let slicer = CountConstrainedKnapsackSlicer::new(
            vec![count_entry("tool", 1, 1)],
            KnapsackSlicer::default(),
            ScarcityBehavior::Throw,
        )
        .unwrap();
        assert_eq!(
            slicer.slice(&fixture.candidates(), budget(500)),
            Err(SlicerError::CountRequirementUnmet {
                kind: ContextKind::new("tool").unwrap(),
                required: 1,
                satisfied: 0,
            })
        );
    }

    #[test]
    fn duplicate_kinds_are_rejected() {
        let err = CountConstrainedKnapsackSlicer::new(
            vec![count_entry("tool", 0, 1), count_entry("TOOL", 0, 2)],
            KnapsackSlicer::default(),
            ScarcityBehavior::Degrade,
        )
        .unwrap_err();
        assert!(matches!(err, SlicerError::DuplicateKind { .. }));
    }

    #[test]
    fn empty_input_zero_budget_and_odd_tokens() {
        let s = slicer(vec![count_entry("tool", 1, 2)], 100);
        assert_eq!(s.slice(&[], budget(100)), Ok(SliceOutcome::default()));
        let rows = [
            ("zero", 0, 0.2, "msg"),
            ("huge", u64::MAX, 0.9, "tool"),
            ("nan", 100, f64::NAN, "tool"),
        ];
        assert_eq!(
            slicer(vec![], 100).slice(&Fixture::new(&rows).candidates(), budget(0)),
            Ok(SliceOutcome::default())
        );
        // "neg" is never taken; "huge" (tied with it, next) meets the tool
        // requirement and leaves no target, so the knapsack does not run.
        let got = run(&rows, vec![count_entry("tool", 1, 2)], 100, 200);
        assert_eq!(got, (set_of(&["huge"]), 0, 0));
    }

    proptest! {
        #[test]
        fn invariants_hold(
            rows in arb_rows(),
            target in arb_target(),
            require in 0usize..4,
            extra in 0usize..3,
            bucket in 1u64..150,
        ) {
            let (items, scores) = random_items(&rows);
            let sorted = sorted_view(&items, &scores);
            let slicer = CountConstrainedKnapsackSlicer::new(
                vec![count_entry("tool", require, require + extra), count_entry("msg", 0, extra)],
                KnapsackSlicer::new(bucket).unwrap().with_max_table_bits(1 << 16),
                ScarcityBehavior::Degrade,
            ).unwrap();
            let required = [count_entry("tool", require, require + extra)];
            prop_assert!(check_count_invariants(&slicer, &sorted, budget(target), &required)?);
        }
    }
}
