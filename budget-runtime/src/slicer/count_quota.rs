//! [`CountQuotaSlicer`]: per-kind item counts (at least / at most) around an
//! inner slicer.

use crate::model::{EffectiveBudget, ScoredItem};
use crate::slicer::SlicerError;
use crate::slicer::count_policy::{CapOrder, CountPolicy};
use crate::slicer::{CountQuotaEntry, ScarcityBehavior, SliceOutcome, Slicer};

/// Guarantees item counts per kind, then lets an inner slicer fill the rest.
///
/// 1. **Require:** for each kind with a `require_count` (in case-insensitive
///    kind order), the best candidates of that kind by score are committed.
///    Deviation from the specification, so that the target is never
///    exceeded: a required candidate that no longer fits the remaining
///    target is passed over for the next one of its kind. A requirement left
///    unmet is reported in [`SliceOutcome::shortfalls`]
///    ([`ScarcityBehavior::Degrade`]) or is an error
///    ([`ScarcityBehavior::Throw`]).
/// 2. **Distribute:** the inner slicer gets the other candidates and the
///    target minus the committed tokens.
/// 3. **Cap:** the inner slicer's picks, in its selection order, are kept
///    while their kind is under its `cap_count` (committed items count);
///    the rest are reported in [`SliceOutcome::cap_excluded`].
///
/// Kinds without an entry are neither required nor capped. Kinds compare
/// case-insensitively. O(n log n) plus the inner slicer.
///
/// ```
/// use budget::{ContextKind, Item, model::{EffectiveBudget, ScoredItem}, slicer::Slicer};
/// use budget::slicer::{CountQuotaEntry, CountQuotaSlicer, GreedySlicer, ScarcityBehavior};
///
/// let tool = ContextKind::TOOL_OUTPUT;
/// let a = Item::builder("tool-a").tokens(100).kind(tool.clone()).build()?;
/// let b = Item::builder("tool-b").tokens(100).kind(tool.clone()).build()?;
/// let sorted = [
///     ScoredItem::new(&a, 0, 0.9),
///     ScoredItem::new(&b, 1, 0.7),
/// ];
/// let slicer = CountQuotaSlicer::new(
///     vec![CountQuotaEntry::new(tool, 0, 1)?],
///     Box::new(GreedySlicer::new()),
///     ScarcityBehavior::Degrade,
/// )?;
/// let outcome = slicer.slice(&sorted, EffectiveBudget { max_tokens: 1000, target_tokens: 1000 })?;
/// assert_eq!(outcome.selected, vec![0]);
/// assert_eq!(outcome.cap_excluded, vec![1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct CountQuotaSlicer {
    policy: CountPolicy,
    inner: Box<dyn Slicer>,
}

impl CountQuotaSlicer {
    /// A count-quota slicer with one entry per constrained kind around `inner`.
    ///
    /// # Errors
    /// * [`SlicerError::KnapsackInsideCountQuota`] if `inner` is a knapsack
    ///   (the specification forbids it; use
    ///   [`CountConstrainedKnapsackSlicer`](crate::slicer::CountConstrainedKnapsackSlicer)).
    /// * [`SlicerError::DuplicateKind`] if a kind has two entries.
    pub fn new(
        entries: Vec<CountQuotaEntry>,
        inner: Box<dyn Slicer>,
        scarcity: ScarcityBehavior,
    ) -> Result<Self, SlicerError> {
        if inner.optimizes_globally() {
            return Err(SlicerError::KnapsackInsideCountQuota);
        }
        Ok(Self {
            policy: CountPolicy::new(entries, scarcity)?,
            inner,
        })
    }

    /// The entries, sorted by kind.
    ///
    /// ```
    /// use budget::ContextKind;
    /// use budget::slicer::{CountQuotaEntry, CountQuotaSlicer, GreedySlicer, ScarcityBehavior};
    ///
    /// let entry = CountQuotaEntry::new(ContextKind::MEMORY, 1, 2)?;
    /// let slicer = CountQuotaSlicer::new(vec![entry.clone()], Box::new(GreedySlicer::new()), ScarcityBehavior::Throw)?;
    /// assert_eq!(slicer.entries(), [entry]);
    /// assert_eq!(slicer.scarcity(), ScarcityBehavior::Throw);
    /// # Ok::<(), budget::slicer::SlicerError>(())
    /// ```
    pub fn entries(&self) -> &[CountQuotaEntry] {
        self.policy.entries()
    }

    /// What happens when a requirement cannot be met.
    pub fn scarcity(&self) -> ScarcityBehavior {
        self.policy.scarcity()
    }
}

impl Slicer for CountQuotaSlicer {
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        budget: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError> {
        self.policy
            .slice(sorted, budget, self.inner.as_ref(), CapOrder::AsSelected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ContextKind;
    use crate::slicer::test_support::{
        Fixture, Row, arb_rows, arb_target, budget, check_count_invariants, contents, count_entry,
        count_summary, random_items, set_of, sorted_view,
    };
    use crate::slicer::{CountShortfall, GreedySlicer, KnapsackSlicer};
    use proptest::prelude::*;

    fn greedy_quota(entries: Vec<CountQuotaEntry>, scarcity: ScarcityBehavior) -> CountQuotaSlicer {
        CountQuotaSlicer::new(entries, Box::new(GreedySlicer::new()), scarcity).unwrap()
    }

    /// Runs a vector with a greedy inner slicer; see [`count_summary`].
    fn run(
        rows: &[Row],
        entries: Vec<CountQuotaEntry>,
        target: u64,
    ) -> (Vec<String>, usize, usize) {
        count_summary(
            &greedy_quota(entries, ScarcityBehavior::Degrade),
            rows,
            target,
        )
    }

    /// Vector `count-quota-baseline`: commit tool-a, tool-b; greedy adds tool-c.
    #[test]
    fn vector_count_quota_baseline() {
        let rows = [
            ("tool-a", 100, 0.9, "tool"),
            ("tool-b", 100, 0.7, "tool"),
            ("tool-c", 100, 0.5, "tool"),
        ];
        let got = run(&rows, vec![count_entry("tool", 2, 4)], 1000);
        assert_eq!(got, (set_of(&["tool-a", "tool-b", "tool-c"]), 0, 0));
    }

    /// Vector `count-quota-cap-exclusion`: cap 1 keeps tool-a only.
    #[test]
    fn vector_count_quota_cap_exclusion() {
        let rows = [
            ("tool-a", 100, 0.9, "tool"),
            ("tool-b", 100, 0.7, "tool"),
            ("tool-c", 100, 0.5, "tool"),
        ];
        let got = run(&rows, vec![count_entry("tool", 0, 1)], 1000);
        assert_eq!(got, (set_of(&["tool-a"]), 0, 2));
    }

    /// Vector `count-quota-require-and-cap`: require 2 = cap 2; tool-c and
    /// tool-d from Phase 2 are capped.
    #[test]
    fn vector_count_quota_require_and_cap() {
        let rows = [
            ("tool-a", 100, 0.9, "tool"),
            ("tool-b", 100, 0.7, "tool"),
            ("tool-c", 100, 0.6, "tool"),
            ("tool-d", 100, 0.4, "tool"),
        ];
        let got = run(&rows, vec![count_entry("tool", 2, 2)], 1000);
        assert_eq!(got, (set_of(&["tool-a", "tool-b"]), 0, 2));
    }

    /// Vector `count-quota-scarcity-degrade`: 1 of 3 required; one shortfall.
    #[test]
    fn vector_count_quota_scarcity_degrade() {
        let fixture = Fixture::new(&[("tool-a", 100, 0.9, "tool")]);
        let sorted = fixture.candidates();
        let outcome = greedy_quota(vec![count_entry("tool", 3, 5)], ScarcityBehavior::Degrade)
            .slice(&sorted, budget(1000))
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

    /// Vector `count-quota-tag-nonexclusive`: two kinds required independently.
    #[test]
    fn vector_count_quota_tag_nonexclusive() {
        let rows = [
            ("item-critical", 100, 0.9, "critical"),
            ("item-urgent", 100, 0.8, "urgent"),
            ("item-extra", 100, 0.5, "critical"),
        ];
        let entries = vec![count_entry("critical", 1, 4), count_entry("urgent", 1, 4)];
        let got = run(&rows, entries, 1000);
        assert_eq!(
            got,
            (
                set_of(&["item-critical", "item-urgent", "item-extra"]),
                0,
                0
            )
        );
    }

    #[test]
    fn throw_reports_the_unmet_requirement() {
        let fixture = Fixture::new(&[("tool-a", 100, 0.9, "tool")]);
        let slicer = greedy_quota(vec![count_entry("tool", 3, 5)], ScarcityBehavior::Throw);
        let err = slicer
            .slice(&fixture.candidates(), budget(1000))
            .unwrap_err();
        assert_eq!(
            err,
            SlicerError::CountRequirementUnmet {
                kind: ContextKind::new("tool").unwrap(),
                required: 3,
                satisfied: 1,
            }
        );
        assert_eq!(
            err.to_string(),
            "kind tool requires 3 items but only 1 candidates could be selected within the budget"
        );
    }

    #[test]
    fn knapsack_inner_slicer_is_rejected() {
        let err = CountQuotaSlicer::new(
            vec![],
            Box::new(KnapsackSlicer::default()),
            ScarcityBehavior::Degrade,
        )
        .unwrap_err();
        assert_eq!(err, SlicerError::KnapsackInsideCountQuota);
        // Also through another box.
        let boxed: Box<dyn Slicer> = Box::new(Box::new(KnapsackSlicer::default()));
        assert!(CountQuotaSlicer::new(vec![], boxed, ScarcityBehavior::Degrade).is_err());
    }

    #[test]
    fn cap_follows_the_inner_selection_order() {
        // Greedy picks by density: tool-y (0.05/token) before tool-x
        // (0.009/token), so the cap of 1 keeps tool-y.
        let fixture = Fixture::new(&[("tool-x", 100, 0.9, "tool"), ("tool-y", 10, 0.5, "tool")]);
        let sorted = fixture.candidates();
        let outcome = greedy_quota(vec![count_entry("tool", 0, 1)], ScarcityBehavior::Degrade)
            .slice(&sorted, budget(1000))
            .unwrap();
        assert_eq!(contents(&sorted, &outcome.selected), ["tool-y"]);
        assert_eq!(contents(&sorted, &outcome.cap_excluded), ["tool-x"]);
    }

    #[test]
    fn required_items_are_committed_whatever_their_tokens() {
        // The specification commits both tools (300 tokens) past the target
        // of 150; nothing is left for the inner slicer, so msg stays out. The
        // pipeline's overflow strategy and ceiling deal with the excess.
        let rows = [
            ("tool-big", 200, 0.9, "tool"),
            ("tool-small", 100, 0.5, "tool"),
            ("msg", 50, 0.4, "msg"),
        ];
        let fixture = Fixture::new(&rows);
        let sorted = fixture.candidates();
        let outcome = greedy_quota(vec![count_entry("tool", 2, 2)], ScarcityBehavior::Degrade)
            .slice(&sorted, budget(150))
            .unwrap();
        assert_eq!(
            contents(&sorted, &outcome.selected),
            ["tool-big", "tool-small"]
        );
        assert!(outcome.shortfalls.is_empty());
    }

    #[test]
    fn kinds_match_case_insensitively() {
        let rows = [
            ("a", 10, 0.9, "TOOL"),
            ("b", 10, 0.8, "tool"),
            ("c", 10, 0.7, "Tool"),
        ];
        let got = run(&rows, vec![count_entry("tool", 1, 2)], 1000);
        assert_eq!(got, (set_of(&["a", "b"]), 0, 1));
    }

    #[test]
    fn requirements_are_committed_in_score_order_within_a_kind() {
        // Given out of score order, the best tool item is still committed.
        let fixture = Fixture::new(&[
            ("tool-low", 100, 0.2, "tool"),
            ("tool-high", 100, 0.8, "tool"),
        ]);
        let sorted = fixture.candidates();
        let outcome = greedy_quota(vec![count_entry("tool", 1, 1)], ScarcityBehavior::Degrade)
            .slice(&sorted, budget(100))
            .unwrap();
        assert_eq!(contents(&sorted, &outcome.selected), ["tool-high"]);
    }

    #[test]
    fn no_entries_behaves_like_the_inner_slicer() {
        let rows = [
            ("a", 100, 0.9, "x"),
            ("b", 300, 0.8, "y"),
            ("c", 100, 0.1, "x"),
        ];
        assert_eq!(run(&rows, vec![], 250), (set_of(&["a", "c"]), 0, 0));
    }

    #[test]
    fn zero_cap_excludes_a_kind() {
        let rows = [("a", 10, 0.9, "x"), ("b", 10, 0.8, "y")];
        assert_eq!(
            run(&rows, vec![count_entry("x", 0, 0)], 100),
            (set_of(&["b"]), 0, 1)
        );
    }

    #[test]
    fn empty_input_or_zero_budget_selects_nothing() {
        let slicer = greedy_quota(vec![count_entry("tool", 1, 1)], ScarcityBehavior::Throw);
        assert_eq!(slicer.slice(&[], budget(100)), Ok(SliceOutcome::default()));
        let fixture = Fixture::new(&[("a", 0, 0.9, "tool")]);
        assert_eq!(
            slicer.slice(&fixture.candidates(), budget(0)),
            Ok(SliceOutcome::default())
        );
    }

    #[test]
    fn zero_and_huge_token_counts() {
        let rows = [
            ("zero", 0, 0.1, "tool"),
            ("huge", u64::MAX, 0.8, "tool"),
            ("ok", 10, f64::NAN, "msg"),
        ];
        // By score: "huge" and "zero" meet the requirement; their
        // (saturated) tokens leave the inner slicer no room.
        let got = run(&rows, vec![count_entry("tool", 2, 3)], 100);
        assert_eq!(got, (set_of(&["huge", "zero"]), 0, 0));
    }

    proptest! {
        #[test]
        fn invariants_hold(
            rows in arb_rows(),
            target in arb_target(),
            require in 0usize..4,
            extra in 0usize..3,
            throw in any::<bool>(),
        ) {
            let (items, scores) = random_items(&rows);
            let sorted = sorted_view(&items, &scores);
            let scarcity = if throw { ScarcityBehavior::Throw } else { ScarcityBehavior::Degrade };
            let slicer = greedy_quota(
                vec![count_entry("tool", require, require + extra), count_entry("memory", 0, extra)],
                scarcity,
            );
            let required = [count_entry("tool", require, require + extra)];
            let ok = check_count_invariants(&slicer, &sorted, budget(target), &required)?;
            prop_assert!(ok || throw, "only Throw may fail");
        }
    }
}
