//! Edge cases of the pipeline: errors with numbers, extremes, NaN, contracts
//! of custom stages.

use budget_runtime::slicer::SliceOutcome;
use budget_runtime::{
    ContextBudget, ContextItem, Item, Pipeline,
    model::{EffectiveBudget, ScoredItem},
    pipeline::{ExclusionReason, InclusionReason, OverflowStrategy, PipelineError},
    placer::Placer,
    scorer::Scorer,
    slicer::{Slicer, SlicerError},
};

fn item(content: &str, tokens: u64) -> Item {
    Item::new(content, tokens).unwrap()
}

/// An item with a count as a Cupel vector declares it (may be negative).
fn declared(content: &str, tokens: i64) -> Item {
    Item::builder(content)
        .signed_tokens(tokens)
        .build()
        .unwrap()
}

/// `i64::MAX` as a token count.
const I64_MAX: u64 = i64::MAX.unsigned_abs();

fn pinned(content: &str, tokens: u64) -> Item {
    Item::builder(content)
        .tokens(tokens)
        .pinned(true)
        .build()
        .unwrap()
}

#[test]
fn empty_input_selects_nothing() {
    let items: Vec<Item> = Vec::new();
    let selection = Pipeline::default()
        .run(&items, &ContextBudget::new(100, 50).unwrap())
        .unwrap();
    assert!(selection.items().is_empty());
    assert_eq!(selection.report().total_candidates, 0);
    assert_eq!(selection.tokens(), 0);
}

#[test]
fn pinned_over_budget_is_an_error_with_numbers() {
    let items = [pinned("a", 70), pinned("b", 40), item("c", 1)];
    let budget = ContextBudget::builder(120, 100)
        .output_reserve(20)
        .build()
        .unwrap();
    let err = Pipeline::default().run(&items, &budget).unwrap_err();
    assert_eq!(
        err,
        PipelineError::PinnedExceedsBudget {
            pinned_tokens: 110,
            available_tokens: 100
        }
    );
    assert_eq!(
        err.to_string(),
        "pinned items require 110 tokens, but only 100 are available (max_tokens - output_reserve)"
    );
}

#[test]
fn overflow_strategies() {
    // Pinned 90 of target 100; greedy fits 10 more, so the merged total stays
    // within target unless pinned alone overflow the target.
    let items = [pinned("sys", 150), item("a", 20)];
    let budget = ContextBudget::new(1_000, 100).unwrap();

    let err = Pipeline::default().run(&items, &budget).unwrap_err();
    assert_eq!(
        err,
        PipelineError::Overflow {
            selected_tokens: 150,
            target_tokens: 100
        }
    );

    let proceed = Pipeline::builder()
        .overflow_strategy(OverflowStrategy::Proceed)
        .build();
    let selection = proceed.run(&items, &budget).unwrap();
    assert_eq!(selection.report().overflow_tokens, Some(50));
    assert_eq!(selection.tokens(), 150);

    let truncate = Pipeline::builder()
        .overflow_strategy(OverflowStrategy::Truncate)
        .build();
    let selection = truncate.run(&items, &budget).unwrap();
    assert_eq!(selection.items().len(), 1, "pinned item is never truncated");
    assert_eq!(selection.report().overflow_tokens, None);
}

#[test]
fn negative_zero_and_extreme_tokens() {
    let items = [
        declared("neg", -5),
        declared("min", i64::MIN),
        item("zero", 0),
        item("huge", I64_MAX),
        item("ok", 10),
    ];
    let budget = ContextBudget::new(I64_MAX, 100).unwrap();
    let selection = Pipeline::default().run(&items, &budget).unwrap();
    let chosen: Vec<_> = selection
        .items()
        .iter()
        .map(|i| i.content().into_owned())
        .collect();
    assert_eq!(chosen, ["zero", "ok"]);
    let report = selection.report();
    assert_eq!(
        report.exclusion_of(0),
        Some(&ExclusionReason::NegativeTokens { tokens: -5 })
    );
    assert_eq!(
        report.exclusion_of(1),
        Some(&ExclusionReason::NegativeTokens { tokens: i64::MIN })
    );
    assert_eq!(
        report.exclusion_of(3),
        Some(&ExclusionReason::BudgetExceeded {
            item_tokens: I64_MAX,
            available_tokens: 90
        })
    );
    assert_eq!(
        report.inclusion_of(2).unwrap().reason,
        InclusionReason::ZeroToken
    );
    // Summed exactly, without overflow.
    assert_eq!(
        report.total_tokens_considered,
        -5 + i128::from(i64::MIN) + i128::from(i64::MAX) + 10
    );
}

#[test]
fn pinned_items_with_extreme_tokens_saturate() {
    let items = [pinned("a", I64_MAX), pinned("b", I64_MAX)];
    let budget = ContextBudget::new(I64_MAX, I64_MAX).unwrap();
    let err = Pipeline::default().run(&items, &budget).unwrap_err();
    assert_eq!(
        err,
        PipelineError::PinnedExceedsBudget {
            pinned_tokens: 2 * I64_MAX,
            available_tokens: I64_MAX,
        }
    );
}

/// Scores from a fixed list, to inject NaN and infinities.
#[derive(Debug)]
struct Fixed(Vec<f64>);

impl Scorer for Fixed {
    fn score_all(&self, _items: &[&dyn ContextItem], scores: &mut [f64]) {
        scores.copy_from_slice(&self.0[..scores.len()]);
    }
}

#[test]
fn nan_and_infinite_scores_do_not_panic_and_rank_last_or_first() {
    let items = [
        item("nan", 10),
        item("inf", 10),
        item("neg-inf", 10),
        item("one", 10),
    ];
    let scorer = Fixed(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.0]);
    let budget = ContextBudget::new(1_000, 20).unwrap();
    let pipeline = Pipeline::builder().scorer(scorer).build();
    let selection = pipeline.run(&items, &budget).unwrap();
    let chosen: Vec<_> = selection
        .items()
        .iter()
        .map(|i| i.content().into_owned())
        .collect();
    assert_eq!(chosen, ["inf", "one"]);
}

#[test]
fn duplicates_keep_the_best_score_and_report_the_winner() {
    let items = [item("same", 10), item("same", 10), item("other", 10)];
    let scorer = Fixed(vec![0.2, 0.9, 0.5]);
    let pipeline = Pipeline::builder().scorer(scorer).build();
    let selection = pipeline
        .run(&items, &ContextBudget::new(100, 100).unwrap())
        .unwrap();
    assert_eq!(selection.items().len(), 2);
    assert_eq!(
        selection.report().exclusion_of(0),
        Some(&ExclusionReason::Deduplicated {
            deduplicated_against: 1
        })
    );
}

#[derive(Debug)]
struct OutOfRange;
impl Slicer for OutOfRange {
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        _budget: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError> {
        Ok(SliceOutcome::selected(vec![sorted.len()]))
    }
}

#[derive(Debug)]
struct TakeAll;
impl Slicer for TakeAll {
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        _budget: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError> {
        Ok(SliceOutcome::selected((0..sorted.len()).collect()))
    }
}

/// A pipeline whose slicer takes every candidate and whose overflow
/// strategy accepts it: only the hard ceiling stands in its way.
fn overshooting() -> Pipeline {
    Pipeline::builder()
        .slicer(TakeAll)
        .overflow_strategy(OverflowStrategy::Proceed)
        .build()
}

#[derive(Debug)]
struct Duplicating;
impl Placer for Duplicating {
    fn place(&self, merged: &[ScoredItem<'_>]) -> Vec<usize> {
        vec![0; merged.len()]
    }
}

#[test]
fn custom_stages_that_break_their_contract_get_typed_errors() {
    let items = [item("a", 10), item("b", 10)];
    let budget = ContextBudget::new(100, 100).unwrap();
    let err = Pipeline::builder()
        .slicer(OutOfRange)
        .build()
        .run(&items, &budget)
        .unwrap_err();
    assert_eq!(
        err,
        PipelineError::SlicerIndexOutOfRange { index: 2, len: 2 }
    );
    let err = Pipeline::builder()
        .placer(Duplicating)
        .build()
        .run(&items, &budget)
        .unwrap_err();
    assert_eq!(
        err,
        PipelineError::PlacerNotPermutation {
            returned: 2,
            len: 2
        }
    );
}

#[test]
fn a_slicer_that_overshoots_is_held_to_the_effective_max() {
    let items = [item("a", 60), item("b", 60), item("c", 60)];
    let budget = ContextBudget::builder(150, 100)
        .output_reserve(20)
        .build()
        .unwrap();
    let pipeline = overshooting();
    let selection = pipeline.run(&items, &budget).unwrap();
    assert_eq!(
        selection.tokens(),
        120,
        "130 = 150 - 20 allows two items of 60"
    );
}

/// The ceiling a custom slicer is held to is the effective one: with a 50%
/// safety margin, the 1,000-token window leaves 500 for unpinned items, so
/// only one of three 300-token items stays (900 were kept before the fix).
#[test]
fn a_slicer_that_overshoots_is_held_below_the_safety_margin() {
    let items = [item("a", 300), item("b", 300), item("c", 300)];
    let budget = ContextBudget::builder(1_000, 1_000)
        .safety_margin_percent(50.0)
        .build()
        .unwrap();
    let pipeline = overshooting();
    let selection = pipeline.run(&items, &budget).unwrap();
    assert_eq!(selection.report().effective_budget.max_tokens, 500);
    assert_eq!(selection.tokens(), 300);

    // Pinned items count on top of the effective ceiling, which is taken
    // from what they leave: (1,000 - 200) * 50% = 400 for the rest.
    let items = [pinned("p", 200), item("a", 300), item("b", 300)];
    let selection = pipeline.run(&items, &budget).unwrap();
    assert_eq!(selection.tokens(), 500, "200 pinned + one item of 300");
}

#[test]
fn pinned_override_names_the_pinned_item() {
    let items = [pinned("pinned-item", 120), item("regular", 80)];
    let budget = ContextBudget::new(1_000, 150).unwrap();
    let selection = Pipeline::default().run(&items, &budget).unwrap();
    assert_eq!(
        selection.report().exclusion_of(1),
        Some(&ExclusionReason::PinnedOverride { displaced_by: 0 })
    );
}

/// Count quotas commit required items whatever their tokens (as the
/// specification says); the overflow strategy then decides, and the hard
/// ceiling `max_tokens - output_reserve` holds under every strategy.
mod count_quota_overflow {
    use budget_runtime::scorer::PriorityScorer;
    use budget_runtime::slicer::{
        CountQuotaEntry, CountQuotaSlicer, GreedySlicer, ScarcityBehavior,
    };
    use budget_runtime::{ContextBudget, ContextKind, Item, Pipeline, pipeline::OverflowStrategy};

    fn tool(content: &str, tokens: u64, priority: i64) -> Item {
        Item::builder(content)
            .tokens(tokens)
            .priority(priority)
            .kind(ContextKind::TOOL_OUTPUT)
            .build()
            .unwrap()
    }

    fn run(strategy: OverflowStrategy) -> Result<(Vec<String>, u64), String> {
        // Two required tool outputs: 90 (priority 9) and 50 (priority 5),
        // 140 tokens against a target of 60 and a ceiling of 120 - 20 = 100.
        let items = [tool("big", 90, 9), tool("small", 50, 5)];
        let budget = ContextBudget::builder(120, 60)
            .output_reserve(20)
            .build()
            .unwrap();
        let entries = vec![CountQuotaEntry::new(ContextKind::TOOL_OUTPUT, 2, 2).unwrap()];
        let slicer = CountQuotaSlicer::new(
            entries,
            Box::new(GreedySlicer::new()),
            ScarcityBehavior::Degrade,
        )
        .unwrap();
        let pipeline = Pipeline::builder()
            .scorer(PriorityScorer::new())
            .slicer(slicer)
            .overflow_strategy(strategy)
            .build();
        let selection = pipeline.run(&items, &budget).map_err(|e| e.to_string())?;
        let contents = selection
            .items()
            .iter()
            .map(|i| budget_runtime::ContextItem::content(*i).into_owned())
            .collect();
        Ok((contents, selection.tokens()))
    }

    #[test]
    fn throw_reports_the_overflow_with_numbers() {
        let error = run(OverflowStrategy::Throw).unwrap_err();
        assert!(error.contains("140") && error.contains("60"), "{error}");
    }

    #[test]
    fn truncate_keeps_the_highest_scored_that_fit_the_target() {
        // By score: big (90) does not fit 60, small (50) does.
        assert_eq!(
            run(OverflowStrategy::Truncate).unwrap(),
            (vec!["small".to_owned()], 50)
        );
    }

    #[test]
    fn proceed_accepts_over_target_but_not_over_the_ceiling() {
        // 140 > 100: the lowest-scored (small, 50) goes; big (90) stays.
        assert_eq!(
            run(OverflowStrategy::Proceed).unwrap(),
            (vec!["big".to_owned()], 90)
        );
    }
}
