//! [`GreedySlicer`]: fill the budget by value density (score per token).

use crate::model::descending_key;
use crate::model::{EffectiveBudget, ScoredItem};
use crate::slicer::SlicerError;
use crate::slicer::{SliceOutcome, Slicer};

/// Selects by value density `score / tokens`, highest first, taking each
/// item that still fits the target and skipping (not deferring) the rest.
/// Zero-token items have the highest density and are always taken;
/// negative-token items are never taken; NaN densities rank last. Ties go
/// to the earlier candidate. The selection order is the density order.
/// O(n log n) at worst; only candidates that can still fit are sorted.
///
/// ```
/// use budget::{ContextBudget, Item, Pipeline, slicer::GreedySlicer};
///
/// let items = [Item::new("a", 60)?, Item::new("b", 60)?, Item::new("c", 30)?];
/// let pipeline = Pipeline::builder().slicer(GreedySlicer::new()).build();
/// let selection = pipeline.run(&items, &ContextBudget::new(100, 100)?)?;
/// assert_eq!(selection.report().selected_tokens, 90);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedySlicer;

impl GreedySlicer {
    /// The greedy slicer.
    pub const fn new() -> Self {
        Self
    }
}

/// Score per token; zero-token items get `f64::MAX`.
pub(crate) fn density(candidate: &ScoredItem<'_>) -> f64 {
    let tokens = candidate.tokens();
    if tokens == 0 {
        f64::MAX
    } else {
        candidate.score / tokens as f64
    }
}

/// A candidate's place in the density order, packed so that ascending
/// integer order is density descending, ties by position.
fn density_rank(candidate: &ScoredItem<'_>, pos: usize) -> u128 {
    // A position always fits in 64 bits on the platforms Rust supports.
    let pos = u64::try_from(pos).unwrap_or(u64::MAX);
    u128::from(descending_key(density(candidate))) << 64 | u128::from(pos)
}

/// The position packed in a [`density_rank`].
fn position(rank: u128) -> usize {
    let low = u64::try_from(rank & u128::from(u64::MAX)).unwrap_or(u64::MAX);
    usize::try_from(low).unwrap_or(usize::MAX)
}

/// The density at or above which candidates about fill `remaining` and a
/// quarter more, as a sample of `sorted` tells; `None` (every candidate in
/// the first chunk) for small inputs or when the sample never gets there.
/// Any threshold gives the same selection; a good one only saves work.
fn head_threshold(sorted: &[ScoredItem<'_>], remaining: u64) -> Option<f64> {
    const SAMPLE: usize = 256;
    let len = sorted.len();
    if len <= 4 * SAMPLE {
        return None;
    }
    let stride = len / SAMPLE;
    let mut sample: Vec<(u64, f64, u64)> = sorted
        .iter()
        .step_by(stride)
        .map(|candidate| {
            let density = density(candidate);
            (descending_key(density), density, candidate.tokens())
        })
        .collect();
    sample.sort_unstable_by_key(|&(key, _, _)| key);
    let weight = u64::try_from(stride).unwrap_or(u64::MAX);
    let goal = remaining.saturating_add(remaining / 4);
    let mut covered = 0u64;
    sample
        .iter()
        .find(|&&(_, _, tokens)| {
            covered = covered.saturating_add(tokens.saturating_mul(weight));
            covered >= goal
        })
        .map(|&(_, density, _)| density)
        .filter(|density| !density.is_nan())
}

/// Takes, in `ranks`' order, each candidate that still fits `remaining`.
fn take_fitting(
    ranks: &[u128],
    sorted: &[ScoredItem<'_>],
    remaining: &mut u64,
    selected: &mut Vec<usize>,
) {
    for &rank in ranks {
        let pos = position(rank);
        let tokens = sorted[pos].tokens();
        if tokens <= *remaining {
            selected.push(pos);
            *remaining -= tokens;
        }
    }
}

impl Slicer for GreedySlicer {
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        budget: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError> {
        if sorted.is_empty() || budget.target_tokens == 0 {
            return Ok(SliceOutcome::default());
        }
        // Walk the density order a chunk at a time, sorting only each chunk
        // and, after it, dropping every candidate larger than what is left
        // (the remainder only shrinks): the full sort's result without
        // sorting items that cannot fit. The first chunk is every candidate
        // at least as dense as a sampled threshold, about what fills the
        // budget; the others get their rank only if they still fit.
        let mut remaining = budget.target_tokens;
        let mut selected = Vec::new();
        let threshold = head_threshold(sorted, remaining);
        let mut head: Vec<u128> = Vec::with_capacity(sorted.len());
        let mut rest: Vec<usize> = Vec::with_capacity(sorted.len());
        for (pos, candidate) in sorted.iter().enumerate() {
            // A NaN density ranks after every threshold.
            if threshold.is_none_or(|threshold| density(candidate) >= threshold) {
                head.push(density_rank(candidate, pos));
            } else {
                rest.push(pos);
            }
        }
        head.sort_unstable();
        take_fitting(&head, sorted, &mut remaining, &mut selected);
        let mut pending: Vec<u128> = rest
            .into_iter()
            .filter(|&pos| sorted[pos].tokens() <= remaining)
            .map(|pos| density_rank(&sorted[pos], pos))
            .collect();
        let mut chunk = 1_024;
        while !pending.is_empty() {
            let take = chunk.min(pending.len());
            if take < pending.len() {
                pending.select_nth_unstable(take - 1);
            }
            pending[..take].sort_unstable();
            take_fitting(&pending[..take], sorted, &mut remaining, &mut selected);
            // Keep, in place, the rest that can still fit.
            let mut kept = 0;
            for next in take..pending.len() {
                let rank = pending[next];
                if sorted[position(rank)].tokens() <= remaining {
                    pending[kept] = rank;
                    kept += 1;
                }
            }
            pending.truncate(kept);
            chunk = chunk.saturating_mul(2);
        }
        Ok(SliceOutcome::selected(selected))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slicer::test_support::{
        Fixture, arb_rows, arb_target, budget, check_invariants, contents, random_items,
        sorted_view,
    };
    use proptest::prelude::*;

    fn slice(rows: &[crate::slicer::test_support::Row], target: u64) -> Vec<String> {
        let fixture = Fixture::new(rows);
        let sorted = fixture.candidates();
        let outcome = GreedySlicer::new().slice(&sorted, budget(target)).unwrap();
        contents(&sorted, &outcome.selected)
    }

    /// Vector `greedy-density`: densities 0.007, 0.005 fill 200 of 300;
    /// high-score-big (400) and tiny-score-medium (200) no longer fit.
    #[test]
    fn vector_greedy_density() {
        let rows = [
            ("high-score-big", 400, 0.9, "Message"),
            ("medium-score-small", 100, 0.7, "Message"),
            ("low-score-small", 100, 0.5, "Message"),
            ("tiny-score-medium", 200, 0.1, "Message"),
        ];
        assert_eq!(slice(&rows, 300), ["medium-score-small", "low-score-small"]);
    }

    /// Vector `greedy-exact-fit`: a, b, c fill 300 exactly; d is skipped.
    #[test]
    fn vector_greedy_exact_fit() {
        let rows = [
            ("a", 100, 0.9, "Message"),
            ("b", 100, 0.8, "Message"),
            ("c", 100, 0.7, "Message"),
            ("d", 100, 0.6, "Message"),
        ];
        assert_eq!(slice(&rows, 300), ["a", "b", "c"]);
    }

    /// Vector `greedy-zero-tokens`: zero-token items first, then "normal";
    /// "too-big" (200) exceeds the remaining 50.
    #[test]
    fn vector_greedy_zero_tokens() {
        let rows = [
            ("zero-a", 0, 0.1, "Message"),
            ("zero-b", 0, 0.05, "Message"),
            ("normal", 100, 0.8, "Message"),
            ("too-big", 200, 0.9, "Message"),
        ];
        assert_eq!(slice(&rows, 150), ["zero-a", "zero-b", "normal"]);
    }

    /// Vector `greedy-empty-input`.
    #[test]
    fn vector_greedy_empty_input() {
        assert!(slice(&[], 500).is_empty());
    }

    #[test]
    fn zero_budget_selects_nothing_not_even_zero_token_items() {
        assert!(slice(&[("zero", 0, 0.5, "Message")], 0).is_empty());
    }

    #[test]
    fn skipped_items_are_not_deferred_but_later_ones_still_fit() {
        // a (density 0.01) fits; b (0.005) does not; c (0.001) still fits.
        let rows = [
            ("a", 50, 0.5, "Message"),
            ("b", 100, 0.5, "Message"),
            ("c", 40, 0.04, "Message"),
        ];
        assert_eq!(slice(&rows, 100), ["a", "c"]);
    }

    #[test]
    fn odd_tokens_and_scores() {
        let rows = [
            ("huge", u64::MAX, 0.9, "Message"),
            ("nan", 10, f64::NAN, "Message"),
            ("inf", 10, f64::INFINITY, "Message"),
            ("minus", 10, -0.5, "Message"),
        ];
        // inf first, then minus (negative density), NaN last; 30 tokens fit.
        assert_eq!(slice(&rows, 30), ["inf", "minus", "nan"]);
        assert_eq!(slice(&rows, 20), ["inf", "minus"]);
    }

    /// The specification's algorithm verbatim: sort everything by density
    /// (ties by position), then take what fits.
    fn reference(sorted: &[ScoredItem<'_>], target: u64) -> Vec<usize> {
        if sorted.is_empty() || target == 0 {
            return Vec::new();
        }
        let mut order: Vec<usize> = (0..sorted.len()).collect();
        order.sort_by(|&a, &b| {
            crate::model::descending_score(density(&sorted[a]), density(&sorted[b])).then(a.cmp(&b))
        });
        let mut remaining = target;
        let mut taken = Vec::new();
        for pos in order {
            let tokens = sorted[pos].tokens();
            if tokens <= remaining {
                taken.push(pos);
                remaining -= tokens;
            }
        }
        taken
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Chunked selection equals the full sort, across several chunks.
        #[test]
        fn matches_the_full_sort(
            rows in proptest::collection::vec((0u64..3_000, prop_oneof![
                8 => 0.0f64..1.0,
                1 => Just(f64::NAN),
                1 => Just(-0.0f64),
                1 => Just(f64::INFINITY),
                1 => -1.0f64..0.0,
            ], 0usize..4), 0..4_000),
            target in 0u64..2_000_000,
        ) {
            let (items, scores) = random_items(&rows);
            let sorted = sorted_view(&items, &scores);
            let outcome = GreedySlicer::new().slice(&sorted, budget(target)).unwrap();
            prop_assert_eq!(outcome.selected, reference(&sorted, target));
        }
    }

    proptest! {
        #[test]
        fn invariants_hold(rows in arb_rows(), target in arb_target()) {
            let (items, scores) = random_items(&rows);
            let sorted = sorted_view(&items, &scores);
            prop_assert!(check_invariants(&GreedySlicer::new(), &sorted, budget(target))?);
        }
    }
}
