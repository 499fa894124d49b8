//! Stage 4, Sort: score descending, ties by position (stable).

use crate::model::descending_key;

/// The positions of `scores` by score descending, equal scores in position
/// order (a stable sort), without moving anything else. Few distinct
/// scores (scorers such as kind, tag or priority produce few) take a
/// counting sort; other large inputs an LSD radix sort on
/// [`descending_key`].
pub(crate) fn score_order(scores: &[f64]) -> Vec<usize> {
    const SMALL: usize = 256;
    if scores.len() < SMALL {
        let mut order: Vec<usize> = (0..scores.len()).collect();
        order.sort_by_key(|&pos| descending_key(scores[pos]));
        return order;
    }
    if let Some(order) = counting_order(scores) {
        return order;
    }
    let mut pairs: Vec<(u64, usize)> = scores
        .iter()
        .enumerate()
        .map(|(pos, &score)| (descending_key(score), pos))
        .collect();
    radix_sort(&mut pairs);
    pairs.into_iter().map(|(_, pos)| pos).collect()
}

/// [`score_order`] by counting, when `scores` holds at most 32 distinct
/// keys; `None` otherwise.
fn counting_order(scores: &[f64]) -> Option<Vec<usize>> {
    const MAX_DISTINCT: usize = 32;
    // Each position's key as an id into `keys` (first-seen order), and how
    // many positions have each id. `seen` remembers the id of each bit
    // pattern met, so most positions cost one short scan and no key.
    let mut keys: Vec<u64> = Vec::with_capacity(MAX_DISTINCT);
    let mut seen: Vec<(u64, u8)> = Vec::with_capacity(2 * MAX_DISTINCT);
    let mut counts = [0usize; MAX_DISTINCT];
    let mut ids: Vec<u8> = Vec::with_capacity(scores.len());
    for &score in scores {
        let bits = score.to_bits();
        let id = match seen.iter().find(|&&(known, _)| known == bits) {
            Some(&(_, id)) => id,
            None => {
                let key = descending_key(score);
                let found = match keys.iter().position(|&k| k == key) {
                    Some(found) => found,
                    None if keys.len() < MAX_DISTINCT => {
                        keys.push(key);
                        keys.len() - 1
                    }
                    None => return None,
                };
                let id = u8::try_from(found).ok()?;
                // Bit patterns of equal keys (NaN payloads, -0.0) beyond the
                // room left are looked up by key each time.
                if seen.len() < seen.capacity() {
                    seen.push((bits, id));
                }
                id
            }
        };
        counts[usize::from(id)] += 1;
        ids.push(id);
    }
    // Where each id's run starts in the output: ids ranked by key.
    let mut ranked: Vec<usize> = (0..keys.len()).collect();
    ranked.sort_unstable_by_key(|&id| keys[id]);
    let mut next = [0usize; MAX_DISTINCT];
    let mut start = 0;
    for id in ranked {
        next[id] = start;
        start += counts[id];
    }
    let mut order = vec![0; scores.len()];
    for (pos, &id) in ids.iter().enumerate() {
        let slot = &mut next[usize::from(id)];
        order[*slot] = pos;
        *slot += 1;
    }
    Some(order)
}

/// Sorts `(key, position)` pairs built in ascending position order by key,
/// ties keeping position order (the result of `sort_unstable` on the
/// pairs): an LSD radix sort, six passes of 11 bits, skipping digits every
/// key shares.
fn radix_sort(pairs: &mut Vec<(u64, usize)>) {
    const BITS: u32 = 11;
    const BUCKETS: usize = 1 << BITS;
    const PASSES: usize = 64_usize.div_ceil(BITS as usize);
    let len = pairs.len();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::descending_score;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn radix_sort_matches_comparison_sort(keys in proptest::collection::vec(any::<u64>(), 0..2_000)) {
            let mut pairs: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
            let mut expected = pairs.clone();
            expected.sort_unstable();
            radix_sort(&mut pairs);
            prop_assert_eq!(pairs, expected);
        }

        /// Every path (comparison, counting, radix) orders like a stable
        /// sort by `descending_score`, NaN payloads and -0.0 included.
        #[test]
        fn score_order_matches_a_stable_comparison_sort(
            scores in proptest::collection::vec(any::<f64>(), 0..2_000),
            few in 1usize..40,
        ) {
            let palette = [f64::NAN, -f64::NAN, -0.0, 0.0, 1.0, f64::INFINITY, -2.5];
            let repeated: Vec<f64> = scores
                .iter()
                .enumerate()
                .map(|(i, &s)| if i % 3 == 0 { palette[i % palette.len()] } else { s })
                .collect();
            let few_distinct: Vec<f64> = scores
                .iter()
                .enumerate()
                .map(|(i, s)| if i % 5 == 0 { palette[i % palette.len()] } else { (s.abs() % few as f64).floor() })
                .collect();
            for scores in [scores.clone(), repeated, few_distinct] {
                let mut expected: Vec<usize> = (0..scores.len()).collect();
                expected.sort_by(|&a, &b| descending_score(scores[a], scores[b]));
                prop_assert_eq!(score_order(&scores), expected);
            }
        }
    }
}
