//! [`QuotaSlicer`]: per-kind shares of the token budget (at least / at most,
//! in percent) around an inner slicer.

use std::collections::HashMap;

use crate::model::{ContextKind, EffectiveBudget, ScoredItem};
use crate::slicer::SlicerError;
use crate::slicer::delegate::slice_subset;
use crate::slicer::{SliceOutcome, Slicer};
use budget_rules::convert::saturating_u64_from_f64;

/// At least `require` and at most `cap` percent of the target for one kind.
///
/// ```
/// use budget::{ContextKind, slicer::{QuotaEntry, SlicerError}};
///
/// let system = QuotaEntry::new(ContextKind::SYSTEM_PROMPT, 30.0, 50.0)?;
/// assert_eq!((system.require(), system.cap()), (30.0, 50.0));
/// assert!(QuotaEntry::new(ContextKind::MESSAGE, 60.0, 40.0).is_err());
/// assert!(QuotaEntry::new(ContextKind::MESSAGE, 0.0, f64::NAN).is_err());
/// # Ok::<(), SlicerError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct QuotaEntry {
    kind: ContextKind,
    require: f64,
    cap: f64,
}

impl QuotaEntry {
    /// Reserves `require` percent of the target for `kind` and allows at
    /// most `cap` percent (both within `0.0..=100.0`).
    ///
    /// # Errors
    /// * [`SlicerError::PercentOutOfRange`] if either is outside
    ///   `0.0..=100.0` or NaN.
    /// * [`SlicerError::RequireExceedsCap`] if `require > cap`.
    pub fn new(kind: ContextKind, require: f64, cap: f64) -> Result<Self, SlicerError> {
        for (name, value) in [("require", require), ("cap", cap)] {
            if !(0.0..=100.0).contains(&value) {
                return Err(SlicerError::PercentOutOfRange {
                    name,
                    kind: kind.clone(),
                    value,
                });
            }
        }
        if require > cap {
            return Err(SlicerError::RequireExceedsCap { kind, require, cap });
        }
        Ok(Self { kind, require, cap })
    }

    /// The kind constrained.
    ///
    /// ```
    /// use budget::{ContextKind, slicer::QuotaEntry};
    ///
    /// assert_eq!(QuotaEntry::new(ContextKind::MEMORY, 0.0, 10.0)?.kind(), &ContextKind::MEMORY);
    /// # Ok::<(), budget::slicer::SlicerError>(())
    /// ```
    pub fn kind(&self) -> &ContextKind {
        &self.kind
    }

    /// Guaranteed share of the target, in percent.
    pub fn require(&self) -> f64 {
        self.require
    }

    /// Maximum share of the target, in percent.
    pub fn cap(&self) -> f64 {
        self.cap
    }
}

/// Splits the target between kinds, then runs an inner slicer per kind.
///
/// Per the specification, with `target` the effective target in tokens:
///
/// * A configured kind gets `floor(require / 100 × target)` tokens up front
///   and at most `floor(cap / 100 × target)`; unconfigured kinds have
///   require 0 % and cap 100 %.
/// * What the requirements leave is shared among the kinds present whose cap
///   exceeds their requirement, in proportion to their candidates' total
///   tokens (`floor(unassigned × mass / total mass)`), each clamped to its cap.
/// * Each kind's candidates (in score order) go to the inner slicer with
///   `target_tokens` = the kind's budget and `max_tokens` = its cap.
///
/// Rounding down may leave a few tokens unused. Kinds compare
/// case-insensitively and are processed in case-insensitive name order,
/// which is also the order of [`SliceOutcome::selected`]. O(n) plus the
/// inner slicer per kind.
///
/// ```
/// use budget::{ContextKind, Item, model::{EffectiveBudget, ScoredItem}, slicer::Slicer};
/// use budget::slicer::{GreedySlicer, QuotaEntry, QuotaSlicer};
///
/// let doc = Item::builder("doc").tokens(600).kind(ContextKind::DOCUMENT).build()?;
/// let msg = Item::builder("msg").tokens(300).kind(ContextKind::MESSAGE).build()?;
/// let sorted = [
///     ScoredItem::new(&doc, 0, 0.9),
///     ScoredItem::new(&msg, 1, 0.5),
/// ];
/// // Documents may take at most half of the 1,000-token target.
/// let slicer = QuotaSlicer::new(
///     vec![QuotaEntry::new(ContextKind::DOCUMENT, 0.0, 50.0)?],
///     Box::new(GreedySlicer::new()),
/// )?;
/// let outcome = slicer.slice(&sorted, EffectiveBudget { max_tokens: 1000, target_tokens: 1000 })?;
/// assert_eq!(outcome.selected, vec![1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct QuotaSlicer {
    quotas: Vec<QuotaEntry>,
    by_kind: HashMap<ContextKind, usize>,
    inner: Box<dyn Slicer>,
}

impl QuotaSlicer {
    /// A quota slicer with at most one entry per kind around `inner`.
    ///
    /// # Errors
    /// * [`SlicerError::DuplicateKind`] if a kind (case-insensitively) has
    ///   two entries.
    /// * [`SlicerError::RequiredSumExceeds100`] if the `require`
    ///   percentages add up to more than 100.
    pub fn new(quotas: Vec<QuotaEntry>, inner: Box<dyn Slicer>) -> Result<Self, SlicerError> {
        let mut by_kind = HashMap::with_capacity(quotas.len());
        for (i, quota) in quotas.iter().enumerate() {
            if by_kind.insert(quota.kind.clone(), i).is_some() {
                return Err(SlicerError::DuplicateKind {
                    kind: quota.kind.clone(),
                });
            }
        }
        let sum: f64 = quotas.iter().map(|quota| quota.require).sum();
        if sum > 100.0 {
            return Err(SlicerError::RequiredSumExceeds100 { sum });
        }
        Ok(Self {
            quotas,
            by_kind,
            inner,
        })
    }

    /// The entries, in the order given.
    ///
    /// ```
    /// use budget::{ContextKind, slicer::{GreedySlicer, QuotaEntry, QuotaSlicer}};
    ///
    /// let quota = QuotaEntry::new(ContextKind::MEMORY, 10.0, 20.0)?;
    /// let slicer = QuotaSlicer::new(vec![quota.clone()], Box::new(GreedySlicer::new()))?;
    /// assert_eq!(slicer.quotas(), [quota]);
    /// # Ok::<(), budget::slicer::SlicerError>(())
    /// ```
    pub fn quotas(&self) -> &[QuotaEntry] {
        &self.quotas
    }
}

/// One kind's candidates and budget figures (tokens).
struct Partition<'k> {
    kind: &'k ContextKind,
    positions: Vec<usize>,
    mass: u64,
    require: u64,
    cap: u64,
}

/// `floor(percent / 100 × target)`, within `0..=target`.
fn percent_of(percent: f64, target: u64) -> u64 {
    // The min guards against rounding past the target.
    saturating_u64_from_f64((percent / 100.0 * target as f64).floor()).min(target)
}

impl Slicer for QuotaSlicer {
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        budget: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError> {
        let target = budget.target_tokens;
        if sorted.is_empty() || target == 0 {
            return Ok(SliceOutcome::default());
        }
        let shares: Vec<(u64, u64)> = self
            .quotas
            .iter()
            .map(|quota| {
                (
                    percent_of(quota.require, target),
                    percent_of(quota.cap, target),
                )
            })
            .collect();

        let mut partitions: Vec<Partition<'_>> = Vec::new();
        let mut partition_of: HashMap<&ContextKind, usize> = HashMap::new();
        for (pos, candidate) in sorted.iter().enumerate() {
            let kind = candidate.item.kind();
            let p = *partition_of.entry(kind).or_insert_with(|| {
                let (require, cap) = self.by_kind.get(kind).map_or((0, target), |&q| shares[q]);
                partitions.push(Partition {
                    kind,
                    positions: Vec::new(),
                    mass: 0,
                    require,
                    cap,
                });
                partitions.len() - 1
            });
            let partition = &mut partitions[p];
            partition.positions.push(pos);
            partition.mass = partition.mass.saturating_add(candidate.tokens());
        }
        partitions.sort_by(|a, b| a.kind.cmp(b.kind));

        let total_required = shares
            .iter()
            .fold(0u64, |sum, &(require, _)| sum.saturating_add(require));
        let unassigned = target.saturating_sub(total_required);
        let shared_mass = partitions
            .iter()
            .filter(|p| p.cap > p.require)
            .fold(0u64, |sum, p| sum.saturating_add(p.mass));

        let mut outcome = SliceOutcome::default();
        // Guards the sum of kind budgets against float rounding in the shares.
        let mut allowance = target;
        for partition in &partitions {
            let proportional = if shared_mass > 0 && partition.cap > partition.require {
                let share =
                    u128::from(unassigned) * u128::from(partition.mass) / u128::from(shared_mass);
                u64::try_from(share).unwrap_or(u64::MAX)
            } else {
                0
            };
            let kind_budget = partition
                .require
                .saturating_add(proportional)
                .min(partition.cap)
                .min(allowance);
            allowance -= kind_budget;
            if kind_budget == 0 {
                continue;
            }
            let kind_limits = EffectiveBudget {
                max_tokens: partition.cap,
                target_tokens: kind_budget,
            };
            let kind_outcome = slice_subset(
                self.inner.as_ref(),
                sorted,
                &partition.positions,
                kind_limits,
            )?;
            outcome.selected.extend(kind_outcome.selected);
            outcome.cap_excluded.extend(kind_outcome.cap_excluded);
            outcome.shortfalls.extend(kind_outcome.shortfalls);
        }
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slicer::test_support::{
        Fixture, Row, arb_rows, arb_target, budget, check_invariants, content_set, contents,
        random_items, set_of, sorted_view,
    };
    use crate::slicer::{
        CountQuotaEntry, CountQuotaSlicer, GreedySlicer, KnapsackSlicer, ScarcityBehavior,
    };
    use proptest::prelude::*;

    fn kind(label: &'static str) -> ContextKind {
        ContextKind::new(label).unwrap()
    }

    fn quota(label: &'static str, require: f64, cap: f64) -> QuotaEntry {
        QuotaEntry::new(kind(label), require, cap).unwrap()
    }

    fn greedy(quotas: Vec<QuotaEntry>) -> QuotaSlicer {
        QuotaSlicer::new(quotas, Box::new(GreedySlicer::new())).unwrap()
    }

    fn run(slicer: &QuotaSlicer, rows: &[Row], target: u64) -> Vec<String> {
        let fixture = Fixture::new(rows);
        let sorted = fixture.candidates();
        let outcome = slicer.slice(&sorted, budget(target)).unwrap();
        content_set(&sorted, &outcome.selected)
    }

    const QUOTA_BASIC: [Row; 5] = [
        ("sys-a", 200, 0.9, "SystemPrompt"),
        ("sys-b", 200, 0.5, "SystemPrompt"),
        ("msg-a", 300, 0.8, "Message"),
        ("msg-b", 300, 0.3, "Message"),
        ("doc-a", 200, 0.7, "Document"),
    ];

    /// Vector `quota-basic`: budgets SystemPrompt 500 (533 capped), Message
    /// 350, Document 116; greedy per kind selects sys-a, sys-b, msg-a.
    #[test]
    fn vector_quota_basic() {
        let slicer = greedy(vec![
            quota("SystemPrompt", 30.0, 50.0),
            quota("Message", 0.0, 40.0),
        ]);
        assert_eq!(
            run(&slicer, &QUOTA_BASIC, 1000),
            set_of(&["sys-a", "sys-b", "msg-a"])
        );
        // The same once sorted by score, as the pipeline delivers it.
        let fixture = Fixture::new(&QUOTA_BASIC);
        let sorted = fixture.sorted();
        let outcome = slicer.slice(&sorted, budget(1000)).unwrap();
        assert_eq!(
            content_set(&sorted, &outcome.selected),
            set_of(&["sys-a", "sys-b", "msg-a"])
        );
    }

    #[derive(Debug)]
    struct Recorder(std::sync::Mutex<Vec<(String, EffectiveBudget)>>);

    impl Slicer for Recorder {
        fn slice(
            &self,
            sorted: &[ScoredItem<'_>],
            budget: EffectiveBudget,
        ) -> Result<SliceOutcome, SlicerError> {
            let kind = sorted[0].item.kind().to_string();
            self.0.lock().unwrap().push((kind, budget));
            Ok(SliceOutcome::default())
        }
    }

    #[test]
    fn kind_budgets_follow_the_worked_example() {
        let recorder = std::sync::Arc::new(Recorder(Default::default()));
        #[derive(Debug)]
        struct Shared(std::sync::Arc<Recorder>);
        impl Slicer for Shared {
            fn slice(
                &self,
                sorted: &[ScoredItem<'_>],
                budget: EffectiveBudget,
            ) -> Result<SliceOutcome, SlicerError> {
                self.0.slice(sorted, budget)
            }
        }
        let slicer = QuotaSlicer::new(
            vec![
                quota("SystemPrompt", 30.0, 50.0),
                quota("Message", 0.0, 40.0),
            ],
            Box::new(Shared(recorder.clone())),
        )
        .unwrap();
        let fixture = Fixture::new(&QUOTA_BASIC);
        slicer.slice(&fixture.candidates(), budget(1000)).unwrap();
        let calls = recorder.0.lock().unwrap().clone();
        let limits = |max_tokens, target_tokens| EffectiveBudget {
            max_tokens,
            target_tokens,
        };
        // Case-insensitive name order: Document, Message, SystemPrompt.
        assert_eq!(
            calls,
            [
                ("Document".to_owned(), limits(1000, 116)),
                ("Message".to_owned(), limits(400, 350)),
                ("SystemPrompt".to_owned(), limits(500, 500)),
            ]
        );
    }

    #[test]
    fn output_is_grouped_by_kind_in_name_order() {
        let slicer = greedy(vec![]);
        let rows = [("m", 10, 0.9, "b-kind"), ("d", 10, 0.5, "A-kind")];
        let fixture = Fixture::new(&rows);
        let sorted = fixture.candidates();
        let outcome = slicer.slice(&sorted, budget(100)).unwrap();
        assert_eq!(contents(&sorted, &outcome.selected), ["d", "m"]);
    }

    #[test]
    fn no_quotas_share_by_token_mass() {
        // Masses 300 and 100 of 400: budgets 75 and 25 of 100.
        let slicer = greedy(vec![]);
        let rows = [
            ("x1", 70, 0.9, "x"),
            ("x2", 230, 0.9, "x"),
            ("y1", 25, 0.1, "y"),
            ("y2", 75, 0.1, "y"),
        ];
        assert_eq!(run(&slicer, &rows, 100), set_of(&["x1", "y1"]));
    }

    #[test]
    fn full_requirement_takes_the_whole_budget() {
        let slicer = greedy(vec![quota("x", 100.0, 100.0)]);
        let rows = [("x1", 60, 0.1, "x"), ("y1", 10, 0.9, "y")];
        assert_eq!(run(&slicer, &rows, 100), set_of(&["x1"]));
    }

    #[test]
    fn zero_cap_excludes_a_kind() {
        let slicer = greedy(vec![quota("x", 0.0, 0.0)]);
        let rows = [("x1", 10, 0.9, "x"), ("y1", 10, 0.1, "y")];
        assert_eq!(run(&slicer, &rows, 100), set_of(&["y1"]));
    }

    #[test]
    fn kinds_match_case_insensitively() {
        // "TOOL" and "tool" form one partition capped at 20 tokens.
        let slicer = greedy(vec![quota("Tool", 0.0, 20.0)]);
        let rows = [
            ("a", 15, 0.9, "TOOL"),
            ("b", 15, 0.8, "tool"),
            ("c", 10, 0.1, "msg"),
        ];
        assert_eq!(run(&slicer, &rows, 100), set_of(&["a", "c"]));
    }

    #[test]
    fn validation_errors_carry_the_numbers() {
        let cases = [
            (
                QuotaEntry::new(kind("x"), -1.0, 10.0).unwrap_err(),
                "require for kind x must be within 0.0..=100.0, got -1",
            ),
            (
                QuotaEntry::new(kind("x"), 0.0, 100.5).unwrap_err(),
                "cap for kind x must be within 0.0..=100.0, got 100.5",
            ),
            (
                QuotaEntry::new(kind("x"), f64::NAN, 10.0).unwrap_err(),
                "require for kind x must be within 0.0..=100.0, got NaN",
            ),
            (
                QuotaEntry::new(kind("x"), 60.0, 40.0).unwrap_err(),
                "kind x: require 60 exceeds cap 40",
            ),
        ];
        for (err, message) in cases {
            assert_eq!(err.to_string(), message);
        }
        let over = QuotaSlicer::new(
            vec![quota("x", 60.0, 100.0), quota("y", 50.0, 100.0)],
            Box::new(GreedySlicer::new()),
        )
        .unwrap_err();
        assert_eq!(over, SlicerError::RequiredSumExceeds100 { sum: 110.0 });
        let duplicate = QuotaSlicer::new(
            vec![quota("x", 10.0, 20.0), quota("X", 10.0, 20.0)],
            Box::new(GreedySlicer::new()),
        )
        .unwrap_err();
        assert_eq!(duplicate, SlicerError::DuplicateKind { kind: kind("X") });
    }

    #[test]
    fn empty_input_and_zero_budget_select_nothing() {
        let slicer = greedy(vec![]);
        assert_eq!(slicer.slice(&[], budget(100)), Ok(SliceOutcome::default()));
        let fixture = Fixture::new(&[("a", 0, 0.9, "x")]);
        assert_eq!(
            slicer.slice(&fixture.candidates(), budget(0)),
            Ok(SliceOutcome::default())
        );
    }

    #[test]
    fn zero_and_huge_tokens_and_nan_scores() {
        let slicer = greedy(vec![quota("x", 50.0, 100.0)]);
        let rows = [
            ("zero", 0, 0.1, "x"),
            ("nan", 40, f64::NAN, "y"),
            ("huge", u64::MAX, 0.9, "y"),
        ];
        // x: require 50 + no share (mass 0); y: all 50 unassigned tokens.
        assert_eq!(run(&slicer, &rows, 100), set_of(&["zero", "nan"]));
    }

    #[test]
    fn inner_count_quota_reports_pass_through() {
        let inner = CountQuotaSlicer::new(
            vec![CountQuotaEntry::new(kind("x"), 2, 2).unwrap()],
            Box::new(GreedySlicer::new()),
            ScarcityBehavior::Degrade,
        )
        .unwrap();
        let slicer = QuotaSlicer::new(vec![], Box::new(inner)).unwrap();
        let rows = [
            ("x1", 10, 0.9, "x"),
            ("x2", 10, 0.8, "x"),
            ("x3", 10, 0.7, "x"),
            ("y", 10, 0.1, "y"),
        ];
        let fixture = Fixture::new(&rows);
        let sorted = fixture.candidates();
        let outcome = slicer.slice(&sorted, budget(1000)).unwrap();
        assert_eq!(
            content_set(&sorted, &outcome.selected),
            set_of(&["x1", "x2", "y"])
        );
        assert_eq!(contents(&sorted, &outcome.cap_excluded), ["x3"]);
    }

    proptest! {
        #[test]
        fn invariants_hold(
            rows in arb_rows(),
            target in arb_target(),
            require in 0.0f64..=50.0,
            cap_extra in 0.0f64..=50.0,
            knapsack in any::<bool>(),
        ) {
            let (items, scores) = random_items(&rows);
            let sorted = sorted_view(&items, &scores);
            let inner: Box<dyn Slicer> = if knapsack {
                Box::new(KnapsackSlicer::new(7).unwrap().with_max_table_bits(1 << 16))
            } else {
                Box::new(GreedySlicer::new())
            };
            let slicer = QuotaSlicer::new(
                vec![quota("tool", require, require + cap_extra), quota("msg", 50.0 - require, 50.0)],
                inner,
            ).unwrap();
            prop_assert!(check_invariants(&slicer, &sorted, budget(target))?);
        }
    }
}
