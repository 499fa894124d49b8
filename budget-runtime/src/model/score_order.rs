//! The order of scores shared by every stage that ranks candidates (sort,
//! slicers, placers): larger scores first, NaN last.

use std::cmp::Ordering;

/// Compares two scores for a descending sort: larger scores first, NaN
/// after every number (`-0.0` equals `0.0`).
///
/// ```
/// use budget::model::descending_score;
///
/// let mut scores = [0.5, f64::NAN, 1.0, -2.0];
/// scores.sort_by(|&a, &b| descending_score(a, b));
/// assert_eq!(scores[..3], [1.0, 0.5, -2.0]);
/// assert!(scores[3].is_nan());
/// ```
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
pub(crate) fn descending_key(score: f64) -> u64 {
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

#[cfg(test)]
mod tests {
    use super::*;

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
