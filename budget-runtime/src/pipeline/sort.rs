//! Stage 4, Sort: score descending, ties by position (stable).

use crate::model::{ScoredItem, descending_key};

/// Sorts by score descending; equal scores keep their relative order.
pub(crate) fn sort_by_score(scored: &mut Vec<ScoredItem<'_>>) {
    let mut keys: Vec<(u64, usize)> = scored
        .iter()
        .enumerate()
        .map(|(pos, c)| (descending_key(c.score), pos))
        .collect();
    sort_keyed(&mut keys);
    *scored = keys.iter().map(|&(_, pos)| scored[pos]).collect();
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
    const MASK: u64 = (1 << BITS) - 1;
    // A digit is below 2^BITS, so the conversion never fails.
    let digit = |key: u64, pass: usize| {
        usize::try_from((key >> (pass * BITS as usize)) & MASK).unwrap_or(0)
    };
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
}
