use super::*;
use crate::slicer::test_support::{
    Fixture, arb_rows, arb_target, budget, check_invariants, content_set, contents, random_items,
    set_of, sorted_view,
};
use proptest::prelude::*;

fn slice(slicer: KnapsackSlicer, fixture: &Fixture, target: u64) -> Vec<String> {
    let sorted = fixture.candidates();
    let outcome = slicer.slice(&sorted, budget(target)).unwrap();
    content_set(&sorted, &outcome.selected)
}

/// Vector `knapsack-basic`: big (dw 3, value 7000) beats small-a (dw 2,
/// value 5000) at capacity 3; greedy would have taken small-a.
#[test]
fn vector_knapsack_basic() {
    let fixture = Fixture::new(&[
        ("big", 250, 0.7, "Message"),
        ("small-a", 150, 0.5, "Message"),
        ("small-b", 150, 0.45, "Message"),
    ]);
    let slicer = KnapsackSlicer::new(100).unwrap();
    assert_eq!(slice(slicer, &fixture, 300), set_of(&["big"]));
}

/// Vector `knapsack-zero-tokens`: zero-token items bypass the programme;
/// no-fit (dw 3) exceeds capacity 2.
#[test]
fn vector_knapsack_zero_tokens() {
    let fixture = Fixture::new(&[
        ("zero", 0, 0.1, "Message"),
        ("fits", 200, 0.6, "Message"),
        ("no-fit", 300, 0.9, "Message"),
    ]);
    let slicer = KnapsackSlicer::new(100).unwrap();
    assert_eq!(slice(slicer, &fixture, 200), set_of(&["zero", "fits"]));
}

#[test]
fn output_order_is_zero_token_items_then_reverse_candidates() {
    let fixture = Fixture::new(&[
        ("a", 10, 0.9, "Message"),
        ("z1", 0, 0.8, "Message"),
        ("b", 10, 0.7, "Message"),
        ("z2", 0, 0.1, "Message"),
    ]);
    let sorted = fixture.candidates();
    let outcome = KnapsackSlicer::new(1)
        .unwrap()
        .slice(&sorted, budget(100))
        .unwrap();
    assert_eq!(contents(&sorted, &outcome.selected), ["z1", "z2", "b", "a"]);
}

#[test]
fn empty_input_and_non_positive_target_select_nothing() {
    let slicer = KnapsackSlicer::default();
    assert_eq!(slicer.slice(&[], budget(500)), Ok(SliceOutcome::default()));
    let fixture = Fixture::new(&[("zero", 0, 0.5, "Message"), ("a", 10, 0.5, "Message")]);
    assert_eq!(
        slicer.slice(&fixture.candidates(), budget(0)),
        Ok(SliceOutcome::default())
    );
}

#[test]
fn capacity_below_one_bucket_keeps_only_zero_token_items() {
    let fixture = Fixture::new(&[("zero", 0, 0.5, "Message"), ("a", 50, 0.9, "Message")]);
    // floor(99 / 100) = 0 buckets although "a" (50 tokens) would fit.
    assert_eq!(
        slice(KnapsackSlicer::default(), &fixture, 99),
        set_of(&["zero"])
    );
}

#[test]
fn ceiling_weights_never_overfill() {
    // 3 × 101 tokens = 303 > 300: each weighs 2 buckets of capacity 3.
    let fixture = Fixture::new(&[
        ("a", 101, 0.9, "Message"),
        ("b", 101, 0.8, "Message"),
        ("c", 101, 0.7, "Message"),
    ]);
    assert_eq!(
        slice(KnapsackSlicer::default(), &fixture, 300),
        set_of(&["a"])
    );
}

#[test]
fn exact_buckets_find_the_optimum() {
    // Capacity 10: {b, c} = 0.5 + 0.45 beats {a} = 0.9 and {a, ...}.
    let fixture = Fixture::new(&[
        ("a", 6, 0.9, "Message"),
        ("b", 5, 0.5, "Message"),
        ("c", 5, 0.45, "Message"),
    ]);
    let slicer = KnapsackSlicer::new(1).unwrap();
    assert_eq!(slice(slicer, &fixture, 10), set_of(&["b", "c"]));
}

#[test]
fn unsorted_input_still_finds_the_optimum() {
    // Same weight, capacity for one: the later, better item must not be
    // pruned as "dominated" by the earlier, worse one.
    let fixture = Fixture::new(&[("low", 10, 0.2, "Message"), ("high", 10, 0.9, "Message")]);
    let slicer = KnapsackSlicer::new(10).unwrap();
    assert_eq!(slice(slicer, &fixture, 10), set_of(&["high"]));
}

#[test]
fn ties_keep_the_first_found_solution() {
    // Equal values: the strict `>` keeps the earlier candidate's row.
    let fixture = Fixture::new(&[("a", 10, 0.5, "Message"), ("b", 10, 0.5, "Message")]);
    let slicer = KnapsackSlicer::new(1).unwrap();
    assert_eq!(slice(slicer, &fixture, 10), set_of(&["a"]));
}

#[test]
fn oversized_tokens_are_never_selected() {
    let fixture = Fixture::new(&[
        ("huge", u64::MAX, 0.9, "Message"),
        ("ok", 10, 0.1, "Message"),
    ]);
    let slicer = KnapsackSlicer::new(1).unwrap();
    assert_eq!(slice(slicer, &fixture, 100), set_of(&["ok"]));
}

#[test]
fn nan_and_negative_scores_are_worth_nothing() {
    // Worth 0, they never beat an empty knapsack (strict `>`).
    let fixture = Fixture::new(&[
        ("nan", 10, f64::NAN, "Message"),
        ("neg", 10, -0.5, "Message"),
        ("tiny", 10, 0.00001, "Message"),
        ("ok", 10, 0.2, "Message"),
    ]);
    let slicer = KnapsackSlicer::new(1).unwrap();
    assert_eq!(slice(slicer, &fixture, 100), set_of(&["ok"]));
}

#[test]
fn huge_scores_do_not_overflow() {
    let fixture = Fixture::new(&[
        ("inf", 10, f64::INFINITY, "Message"),
        ("big", 10, 1e300, "Message"),
        ("small", 10, 0.5, "Message"),
    ]);
    let slicer = KnapsackSlicer::new(1).unwrap();
    assert_eq!(slice(slicer, &fixture, 20), set_of(&["inf", "big"]));
}

#[test]
fn huge_target_coarsens_the_bucket_instead_of_allocating() {
    let fixture = Fixture::new(&[
        ("a", 10, 0.9, "Message"),
        ("b", u64::MAX / 2, 0.5, "Message"),
    ]);
    let slicer = KnapsackSlicer::new(1).unwrap().with_max_table_bits(1 << 14);
    // 2 rows at bucket 1 would need more than 2⁶⁴ bits; coarsening keeps
    // 16,384: 3 words of columns at 64 × (2 + 64) bits each.
    assert_eq!(slice(slicer, &fixture, u64::MAX), set_of(&["a", "b"]));
}

#[test]
fn coarsened_bucket_is_the_smallest_that_fits() {
    // 2 words of columns for 2 rows: 2 × 64 × (2 + 64) = 8,448 bits.
    let slicer = KnapsackSlicer::new(1).unwrap().with_max_table_bits(8_448);
    // 128 columns: capacity 127, so bucket 1000/128+1 = 8.
    assert_eq!(slicer.effective_bucket(2, 1_000), Ok(8));
    // Capacity 127: 2 × 2 × 64 + 128 × 64 = 8,448 bits, exactly the limit.
    assert_eq!(slicer.effective_bucket(2, 127), Ok(1));
    assert_eq!(slicer.effective_bucket(2, 128), Ok(2));
}

/// Audit row: one item, target 2²⁸ − 1, bucket 1, default limit. The
/// keep table alone (2²⁸ bits) fit the limit, so the 2²⁸-value rolling
/// row (1 GiB) was allocated beside it.
#[test]
fn the_limit_bounds_the_rolling_row_too() {
    let slicer = KnapsackSlicer::new(1).unwrap();
    let target = (1u64 << 28) - 1;
    // 2²⁸ / (64 × 65) = 64,527 words = 4,129,728 columns, so the bucket
    // is floor(268,435,455 / 4,129,728) + 1 = 66 and the capacity
    // floor(268,435,455 / 66) = 4,067,203: 63,551 table words
    // (4,067,264 bits) plus 4,067,204 × 64 row bits = 264,368,320 bits.
    assert_eq!(slicer.effective_bucket(1, target), Ok(66));
    assert_eq!(programme_bits(1, 4_067_203), 264_368_320);
    let limit = u128::from(KnapsackSlicer::DEFAULT_MAX_TABLE_BITS);
    assert!(programme_bits(1, 4_067_203) <= limit);
    // At bucket 1: 2²⁸ table bits plus 2²⁸ × 64 row bits.
    assert_eq!(programme_bits(1, (1 << 28) - 1), (1 << 28) + (1 << 34));
}

#[test]
fn table_with_no_room_for_one_word_per_row_is_an_error() {
    let fixture = Fixture::new(&[("a", 10, 0.9, "Message"), ("b", 10, 0.5, "Message")]);
    let slicer = KnapsackSlicer::new(1).unwrap().with_max_table_bits(100);
    assert_eq!(
        slicer.slice(&fixture.candidates(), budget(100)),
        Err(SlicerError::KnapsackTableTooLarge {
            candidates: 2,
            // One word of columns: 2 × 64 table bits + 64 × 64 row bits.
            needed_bits: 4_224,
            limit_bits: 100,
        })
    );
}

#[test]
fn rows_spanning_several_words_match_a_hand_solution() {
    // Capacity 200 buckets (4 words per row), weights cross word edges.
    let fixture = Fixture::new(&[
        ("a", 130, 0.9, "Message"),
        ("b", 70, 0.6, "Message"),
        ("c", 71, 0.5, "Message"),
        ("d", 60, 0.4, "Message"),
        ("e", 65, 0.35, "Message"),
    ]);
    // Best within 200: a+b = 200 → 1.5; b+c+e = 206 no; b+c+d = 201 no;
    // b+d+e = 195 → 1.35; a+d = 190 → 1.3; so {a, b}.
    let slicer = KnapsackSlicer::new(1).unwrap();
    assert_eq!(slice(slicer, &fixture, 200), set_of(&["a", "b"]));
    // Within 201: b+c+d = 201 → 1.5 ties a+b (1.5); a+d+... no. The
    // earlier-found {a, b} is kept by the strict comparison.
    assert_eq!(slice(slicer, &fixture, 201), set_of(&["a", "b"]));
    // Within 266: a+b+d? 260 → 1.9; a+c+d? 261 → 1.8; a+b+e 265 → 1.85.
    assert_eq!(slice(slicer, &fixture, 266), set_of(&["a", "b", "d"]));
}

#[test]
fn wide_values_are_used_when_i32_could_overflow() {
    // 1e6 × 10 000 per item: sums exceed i32, the i64 row is exact.
    let fixture = Fixture::new(&[
        ("a", 5, 1e6, "Message"),
        ("b", 5, 1e6, "Message"),
        ("c", 9, 1.5e6, "Message"),
    ]);
    let slicer = KnapsackSlicer::new(1).unwrap();
    assert_eq!(slice(slicer, &fixture, 10), set_of(&["a", "b"]));
}

/// Exhaustive search over all subsets, for comparison.
fn brute_force(weights: &[usize], values: &[u64], capacity: usize) -> u64 {
    (0u32..1 << weights.len())
        .filter_map(|mask| {
            let (w, v) = (0..weights.len())
                .filter(|i| mask >> i & 1 == 1)
                .fold((0, 0), |(w, v), i| (w + weights[i], v + values[i]));
            (w <= capacity).then_some(v)
        })
        .max()
        .unwrap_or(0)
}

/// The specification's algorithm, written plainly: one boolean per
/// (candidate, capacity) cell, every positive-token candidate a row.
fn reference(sorted: &[ScoredItem<'_>], bucket: u64, target: u64) -> Vec<usize> {
    let mut selected: Vec<usize> = (0..sorted.len())
        .filter(|&p| sorted[p].tokens() == 0)
        .collect();
    let candidates: Vec<usize> = (0..sorted.len())
        .filter(|&p| sorted[p].tokens() > 0)
        .collect();
    let capacity = usize::try_from(target / bucket).unwrap();
    let weights: Vec<usize> = candidates
        .iter()
        .map(|&p| usize::try_from(sorted[p].tokens().div_ceil(bucket)).unwrap())
        .collect();
    let values: Vec<i64> = candidates
        .iter()
        .map(|&p| {
            let value = budget_rules::convert::saturating_u64_from_f64(
                (sorted[p].score * 10_000.0).floor(),
            );
            i64::try_from(value).unwrap_or(i64::MAX)
        })
        .collect();
    let mut best = vec![0i64; capacity + 1];
    let mut keep = vec![vec![false; capacity + 1]; candidates.len()];
    for i in 0..candidates.len() {
        for w in (weights[i]..=capacity).rev() {
            if best[w - weights[i]] + values[i] > best[w] {
                best[w] = best[w - weights[i]] + values[i];
                keep[i][w] = true;
            }
        }
    }
    let mut w = capacity;
    for i in (0..candidates.len()).rev() {
        if keep[i][w] {
            selected.push(candidates[i]);
            w -= weights[i];
        }
    }
    selected
}

proptest! {
    #[test]
    fn matches_the_plain_algorithm_exactly(
        rows in prop::collection::vec((0u64..700, 0u8..6), 0..60),
        bucket in 1u64..120,
        target in 1u64..3_000,
    ) {
        // Few distinct scores, so many ties and many pruned candidates.
        let items: Vec<crate::Item> = rows
            .iter()
            .enumerate()
            .map(|(i, row)| crate::Item::new(format!("i{i}"), row.0).unwrap())
            .collect();
        let scores: Vec<f64> = rows.iter().map(|row| f64::from(row.1) / 5.0).collect();
        let sorted = sorted_view(&items, &scores);
        let outcome = KnapsackSlicer::new(bucket).unwrap().slice(&sorted, budget(target)).unwrap();
        prop_assert_eq!(outcome.selected, reference(&sorted, bucket, target));
    }

    #[test]
    fn invariants_hold(rows in arb_rows(), target in arb_target(), bucket in 1u64..150) {
        let (items, scores) = random_items(&rows);
        let sorted = sorted_view(&items, &scores);
        // A small table limit keeps `u64::MAX` targets fast (coarsened).
        let slicer = KnapsackSlicer::new(bucket).unwrap().with_max_table_bits(1 << 16);
        prop_assert!(check_invariants(&slicer, &sorted, budget(target))?);
    }

    #[test]
    fn selection_is_optimal_for_exact_buckets(
        rows in prop::collection::vec((1usize..60, 0u64..10_000), 0..12),
        capacity in 1usize..200,
    ) {
        let weights: Vec<usize> = rows.iter().map(|r| r.0).collect();
        let values: Vec<u64> = rows.iter().map(|r| r.1).collect();
        let items: Vec<_> = weights
            .iter()
            .enumerate()
            .map(|(i, &w)| crate::Item::new(format!("i{i}"), w as u64).unwrap())
            .collect();
        let sorted: Vec<ScoredItem<'_>> = items
            .iter()
            .zip(&values)
            .enumerate()
            .map(|(index, (item, &v))| ScoredItem::new(item, index, v as f64 / 10_000.0 + 1e-9))
            .collect();
        let outcome = KnapsackSlicer::new(1).unwrap().slice(&sorted, budget(capacity as u64)).unwrap();
        let got: u64 = outcome.selected.iter().map(|&p| values[p]).sum();
        prop_assert_eq!(got, brute_force(&weights, &values, capacity));
    }
}
