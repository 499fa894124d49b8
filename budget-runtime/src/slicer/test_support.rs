//! Shared fixtures for the slicer unit tests: candidate lists built from
//! rows, budgets, and the invariants every slicer must hold on any input.

use std::collections::HashSet;

use proptest::prelude::*;

use crate::model::descending_score;
use crate::model::{ContextKind, EffectiveBudget, Item, ScoredItem};
use crate::slicer::{CountQuotaEntry, Slicer};

/// One candidate: content, tokens, score, kind label.
pub(crate) type Row = (&'static str, u64, f64, &'static str);

/// Owned items and their scores, in the order given (like a vector file).
pub(crate) struct Fixture {
    items: Vec<Item>,
    scores: Vec<f64>,
}

impl Fixture {
    /// Items from `rows`, in row order.
    pub(crate) fn new(rows: &[Row]) -> Self {
        let items = rows
            .iter()
            .map(|&(content, tokens, _, kind)| {
                Item::builder(content)
                    .tokens(tokens)
                    .kind(ContextKind::new(kind).expect("test kinds are not blank"))
                    .build()
                    .expect("test contents are not empty")
            })
            .collect();
        let scores = rows.iter().map(|row| row.2).collect();
        Self { items, scores }
    }

    /// The candidates in row order.
    pub(crate) fn candidates(&self) -> Vec<ScoredItem<'_>> {
        self.items
            .iter()
            .zip(&self.scores)
            .enumerate()
            .map(|(index, (item, &score))| ScoredItem::new(item, index, score))
            .collect()
    }

    /// The candidates sorted by score descending (stable), as the pipeline
    /// hands them to a slicer.
    pub(crate) fn sorted(&self) -> Vec<ScoredItem<'_>> {
        let mut sorted = self.candidates();
        sorted.sort_by(|a, b| descending_score(a.score, b.score));
        sorted
    }
}

/// The contents at `positions` of `sorted`, in the order given.
pub(crate) fn contents(sorted: &[ScoredItem<'_>], positions: &[usize]) -> Vec<String> {
    positions
        .iter()
        .map(|&pos| sorted[pos].item.content().into_owned())
        .collect()
}

/// The contents at `positions`, sorted, for order-insensitive comparison.
pub(crate) fn content_set(sorted: &[ScoredItem<'_>], positions: &[usize]) -> Vec<String> {
    let mut set = contents(sorted, positions);
    set.sort();
    set
}

/// `expected` sorted, for comparison with [`content_set`].
pub(crate) fn set_of(expected: &[&str]) -> Vec<String> {
    let mut set: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    set.sort();
    set
}

/// A count-quota entry for a test kind.
pub(crate) fn count_entry(kind: &'static str, require: usize, cap: usize) -> CountQuotaEntry {
    CountQuotaEntry::new(ContextKind::new(kind).expect("not blank"), require, cap)
        .expect("require <= cap")
}

/// Slices `rows` (in row order) under `target`; returns the selected
/// contents (sorted), the shortfall count and the cap-excluded count, the
/// three expectations of a count-quota vector.
pub(crate) fn count_summary(
    slicer: &dyn Slicer,
    rows: &[Row],
    target: u64,
) -> (Vec<String>, usize, usize) {
    let fixture = Fixture::new(rows);
    let sorted = fixture.candidates();
    let outcome = slicer
        .slice(&sorted, budget(target))
        .expect("degrading slicers do not fail");
    (
        content_set(&sorted, &outcome.selected),
        outcome.shortfalls.len(),
        outcome.cap_excluded.len(),
    )
}

/// An effective budget whose ceiling equals its target.
pub(crate) fn budget(target_tokens: u64) -> EffectiveBudget {
    EffectiveBudget {
        max_tokens: target_tokens,
        target_tokens,
    }
}

/// Random candidate rows including the awkward values: zero and extreme
/// token counts; NaN, infinite, negative and huge scores; kinds that
/// differ only in case.
pub(crate) fn arb_rows() -> impl Strategy<Value = Vec<(u64, f64, usize)>> {
    let tokens = prop_oneof![
        6 => 1u64..400,
        2 => Just(0u64),
        1 => Just(u64::MAX),
    ];
    let score = prop_oneof![
        8 => 0.0f64..1.0,
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => -1.0f64..0.0,
        1 => Just(1e300),
    ];
    prop::collection::vec((tokens, score, 0usize..KINDS.len()), 0..40)
}

/// Target budgets for property tests, including 0 and `u64::MAX`.
pub(crate) fn arb_target() -> impl Strategy<Value = u64> {
    prop_oneof![8 => 0u64..2_000, 1 => Just(0u64), 1 => Just(u64::MAX)]
}

/// Kind labels used by [`arb_rows`]; `tool` and `Tool` are the same kind.
pub(crate) const KINDS: [&str; 4] = ["tool", "Tool", "msg", "memory"];

/// Items for random `rows`, sorted by score as the pipeline would.
pub(crate) fn random_items(rows: &[(u64, f64, usize)]) -> (Vec<Item>, Vec<f64>) {
    let items = rows
        .iter()
        .enumerate()
        .map(|(i, &(tokens, _, kind))| {
            Item::builder(format!("item-{i}"))
                .tokens(tokens)
                .kind(ContextKind::new(KINDS[kind]).expect("not blank"))
                .build()
                .expect("not empty")
        })
        .collect();
    (items, rows.iter().map(|row| row.1).collect())
}

/// `items` with `scores`, sorted by score descending (stable).
pub(crate) fn sorted_view<'a>(items: &'a [Item], scores: &[f64]) -> Vec<ScoredItem<'a>> {
    let mut sorted: Vec<ScoredItem<'a>> = items
        .iter()
        .zip(scores)
        .enumerate()
        .map(|(index, (item, &score))| ScoredItem::new(item, index, score))
        .collect();
    sorted.sort_by(|a, b| descending_score(a.score, b.score));
    sorted
}

/// The invariants of every slicer: deterministic; positions in range and
/// never repeated (across `selected` and `cap_excluded`); selected tokens
/// within `budget.target_tokens`. Returns
/// whether the slice succeeded.
pub(crate) fn check_invariants(
    slicer: &dyn Slicer,
    sorted: &[ScoredItem<'_>],
    budget: EffectiveBudget,
) -> Result<bool, TestCaseError> {
    check_count_invariants(slicer, sorted, budget, &[])
}

/// [`check_invariants`] for a slicer with count requirements (`required`):
/// the specification commits required items whatever their tokens, so a
/// selection over target is allowed only when it is all required items
/// (the inner slicer then gets no room): at most `require_count` of each
/// required kind and nothing else.
pub(crate) fn check_count_invariants(
    slicer: &dyn Slicer,
    sorted: &[ScoredItem<'_>],
    budget: EffectiveBudget,
    required: &[CountQuotaEntry],
) -> Result<bool, TestCaseError> {
    let first = slicer.slice(sorted, budget);
    let second = slicer.slice(sorted, budget);
    prop_assert_eq!(&first, &second, "same input, different output");
    let Ok(outcome) = first else {
        return Ok(false);
    };
    let mut seen = HashSet::new();
    for &pos in outcome.selected.iter().chain(&outcome.cap_excluded) {
        prop_assert!(pos < sorted.len(), "position {} out of range", pos);
        prop_assert!(seen.insert(pos), "position {} reported twice", pos);
    }
    let mut total: u128 = 0;
    for &pos in &outcome.selected {
        total += u128::from(sorted[pos].tokens());
    }
    if total > u128::from(budget.target_tokens) {
        for entry in required {
            let taken = outcome
                .selected
                .iter()
                .filter(|&&pos| sorted[pos].item.kind() == entry.kind())
                .count();
            prop_assert!(
                taken <= entry.require_count(),
                "over target with extra {} items",
                entry.kind()
            );
        }
        let all_required = outcome.selected.iter().all(|&pos| {
            required
                .iter()
                .any(|e| e.require_count() > 0 && sorted[pos].item.kind() == e.kind())
        });
        prop_assert!(
            all_required,
            "selected {} tokens over target {} with items that were not required",
            total,
            budget.target_tokens
        );
    }
    Ok(true)
}
