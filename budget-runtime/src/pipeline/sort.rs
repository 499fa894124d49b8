//! Stage 4, Sort: score descending, ties by position (stable).

use std::cmp::Ordering;

use crate::model::ScoredItem;

/// Compares two scores for a descending sort; NaN sorts after every number.
pub fn descending_score(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (false, false) => b.partial_cmp(&a).unwrap_or(Ordering::Equal),
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
    }
}

/// Sorts by score descending; equal scores keep their relative order.
pub(crate) fn sort_by_score(scored: &mut [ScoredItem<'_>]) {
    scored.sort_by(|a, b| descending_score(a.score, b.score));
}
