//! Shared rank normalisation for the rank-based scorers (recency, priority).

/// Writes `rank / (n - 1)` into `scores` for every `Some` key, where `n` is
/// the number of `Some` keys and `rank` the number of keys strictly below
/// it; a lone key scores 1.0 and `None` scores 0.0. O(n log n).
pub(crate) fn rank_scores<K: Ord + Copy>(keys: &[Option<K>], scores: &mut [f64]) {
    let mut present: Vec<(K, usize)> = keys
        .iter()
        .enumerate()
        .filter_map(|(i, key)| key.map(|k| (k, i)))
        .collect();
    for (key, score) in keys.iter().zip(scores.iter_mut()) {
        if key.is_none() {
            *score = 0.0;
        }
    }
    match present.len() {
        0 => return,
        1 => {
            scores[present[0].1] = 1.0;
            return;
        }
        _ => {}
    }
    present.sort_unstable_by_key(|&(key, _)| key);
    let denominator = (present.len() - 1) as f64;
    let mut rank = 0;
    for pos in 0..present.len() {
        if pos > 0 && present[pos].0 != present[pos - 1].0 {
            rank = pos;
        }
        scores[present[pos].1] = rank as f64 / denominator;
    }
}

#[cfg(test)]
mod tests {
    use super::rank_scores;

    #[test]
    fn ties_share_the_lower_rank() {
        let keys = [Some(5), Some(1), Some(5), None, Some(9)];
        let mut scores = [f64::NAN; 5];
        rank_scores(&keys, &mut scores);
        assert_eq!(scores, [1.0 / 3.0, 0.0, 1.0 / 3.0, 0.0, 1.0]);
    }

    #[test]
    fn single_and_empty() {
        let mut scores = [7.0; 2];
        rank_scores(&[None, Some(3)], &mut scores);
        assert_eq!(scores, [0.0, 1.0]);
        let mut none: [f64; 0] = [];
        rank_scores::<i64>(&[], &mut none);
    }
}
