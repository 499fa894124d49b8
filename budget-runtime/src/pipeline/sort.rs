//! Stage 4, Sort: score descending, ties by position (stable).

use std::cmp::Ordering;

/// Compares two scores for a descending sort; NaN sorts after every number.
pub fn descending_score(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (false, false) => b.partial_cmp(&a).unwrap_or(Ordering::Equal),
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
    }
}

/// A key whose ascending integer order is [`descending_score`]'s order:
/// larger scores first, `-0.0` equal to `0.0`, NaN after everything.
/// Sorting `(key, position)` pairs is a stable score sort without float
/// comparisons in the inner loop.
pub fn descending_key(score: f64) -> u64 {
    if score.is_nan() {
        return u64::MAX;
    }
    // `+ 0.0` turns -0.0 into 0.0 so the two compare equal.
    let bits = (score + 0.0).to_bits();
    let ascending = if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    };
    // NaN keeps u64::MAX; the largest finite or infinite score maps below it.
    (!ascending).min(u64::MAX - 1)
}

/// The positions of `scores` by score descending, equal scores in position
/// order (a stable sort), without moving anything else.
pub(crate) fn score_order(scores: &[f64]) -> Vec<usize> {
    let mut keys: Vec<(u64, usize)> = scores
        .iter()
        .enumerate()
        .map(|(pos, &score)| (descending_key(score), pos))
        .collect();
    sort_keyed(&mut keys);
    keys.into_iter().map(|(_, pos)| pos).collect()
}

/// Sorts `(key, position)` pairs built in ascending position order by key,
/// ties keeping position order: the same result as `sort_unstable` on the
/// pairs. Large inputs use an LSD radix sort (O(n): six passes of 11 bits,
/// skipping digits every key shares).
fn sort_keyed(pairs: &mut Vec<(u64, usize)>) {
    const SMALL: usize = 256;
    const BITS: u32 = 11;
    const BUCKETS: usize = 1 << BITS;
    const PASSES: usize = 64_usize.div_ceil(BITS as usize);
    let len = pairs.len();
    if len < SMALL {
        pairs.sort_unstable();
        return;
    }
    if let Some(distinct) = few_distinct_keys(pairs) {
        sort_by_distinct_key(pairs, &distinct);
        return;
    }
    let digit = |key: u64, pass: usize| ((key >> (pass as u32 * BITS)) as usize) & (BUCKETS - 1);
    let mut counts = vec![[0u32; BUCKETS]; PASSES];
    for &(key, _) in pairs.iter() {
        for (pass, count) in counts.iter_mut().enumerate() {
            count[digit(key, pass)] += 1;
        }
    }
    let mut spare = pairs.clone();
    for (pass, count) in counts.iter().enumerate() {
        if count.iter().any(|&n| n as usize == len) {
            continue;
        }
        let mut next = [0usize; BUCKETS];
        let mut sum = 0;
        for (slot, &n) in next.iter_mut().zip(count) {
            *slot = sum;
            sum += n as usize;
        }
        for &pair in pairs.iter() {
            let bucket = digit(pair.0, pass);
            spare[next[bucket]] = pair;
            next[bucket] += 1;
        }
        std::mem::swap(pairs, &mut spare);
    }
}

/// The sorted distinct keys of `pairs` when there are at most 32 of them
/// (scorers such as kind, tag or priority produce few distinct scores).
fn few_distinct_keys(pairs: &[(u64, usize)]) -> Option<Vec<u64>> {
    const MAX_DISTINCT: usize = 32;
    let mut distinct: Vec<u64> = Vec::with_capacity(MAX_DISTINCT);
    let mut last = None;
    for &(key, _) in pairs {
        if last == Some(key) {
            continue;
        }
        last = Some(key);
        if !distinct.contains(&key) {
            if distinct.len() == MAX_DISTINCT {
                return None;
            }
            distinct.push(key);
        }
    }
    distinct.sort_unstable();
    Some(distinct)
}

/// A stable counting sort over the few `distinct` keys (sorted).
fn sort_by_distinct_key(pairs: &mut Vec<(u64, usize)>, distinct: &[u64]) {
    let bucket_of = |key: u64| distinct.partition_point(|&k| k < key);
    let mut next = vec![0usize; distinct.len()];
    for &(key, _) in pairs.iter() {
        next[bucket_of(key)] += 1;
    }
    let mut sum = 0;
    for slot in next.iter_mut() {
        let count = *slot;
        *slot = sum;
        sum += count;
    }
    let mut sorted = pairs.clone();
    for &pair in pairs.iter() {
        let bucket = bucket_of(pair.0);
        sorted[next[bucket]] = pair;
        next[bucket] += 1;
    }
    *pairs = sorted;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn radix_sort_matches_comparison_sort(keys in proptest::collection::vec(any::<u64>(), 0..2_000), few in 1u64..8) {
            for keys in [keys.clone(), keys.iter().map(|k| k % few).collect()] {
                let mut pairs: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
                let mut expected = pairs.clone();
                expected.sort_unstable();
                sort_keyed(&mut pairs);
                prop_assert_eq!(pairs, expected);
            }
        }
    }

    #[test]
    fn keys_order_like_descending_score() {
        let scores = [
            f64::NAN,
            f64::INFINITY,
            1.0,
            0.5,
            0.0,
            -0.0,
            -0.5,
            f64::MIN,
            f64::NEG_INFINITY,
            f64::MAX,
            f64::MIN_POSITIVE,
        ];
        for &a in &scores {
            for &b in &scores {
                assert_eq!(
                    descending_key(a).cmp(&descending_key(b)),
                    descending_score(a, b),
                    "{a} vs {b}"
                );
            }
        }
    }
}
