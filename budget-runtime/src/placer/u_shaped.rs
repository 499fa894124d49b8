//! [`UShapedPlacer`]: best items at both edges of the prompt, weakest in the
//! middle.

use crate::model::ScoredItem;
use crate::model::descending_score;
use crate::placer::Placer;

/// Puts the highest-scored items at the start and end of the prompt, where
/// language models attend most, and the lowest-scored in the middle.
///
/// Items are ranked by score descending (ties: earlier merged position
/// first; NaN scores rank last). Even ranks fill from the start
/// (rank 0 → first, rank 2 → second, …), odd ranks from the end
/// (rank 1 → last, rank 3 → second to last, …). Pinned items arrive with
/// score 1.0 and so land at the edges. O(n log n).
///
/// ```
/// use budget::{Item, placer::{UShapedPlacer, Placer}, model::ScoredItem};
///
/// let items: Vec<Item> = ["A", "B", "C", "D", "E"]
///     .into_iter()
///     .map(|name| Item::new(name, 100))
///     .collect::<Result<_, _>>()?;
/// let merged: Vec<ScoredItem> = items
///     .iter()
///     .zip([0.9, 0.7, 0.5, 0.3, 0.1])
///     .enumerate()
///     .map(|(index, (item, score))| ScoredItem::new(item, index, score))
///     .collect();
/// // A C E D B: scores 0.9 0.5 0.1 0.3 0.7.
/// assert_eq!(UShapedPlacer::new().place(&merged), vec![0, 2, 4, 3, 1]);
/// # Ok::<(), budget::model::ItemError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct UShapedPlacer;

impl UShapedPlacer {
    /// The U-shaped placer.
    pub const fn new() -> Self {
        Self
    }
}

impl Placer for UShapedPlacer {
    fn place(&self, merged: &[ScoredItem<'_>]) -> Vec<usize> {
        let len = merged.len();
        let mut ranked: Vec<usize> = (0..len).collect();
        // Stable: equal scores keep their merged order.
        ranked.sort_by(|&a, &b| descending_score(merged[a].score, merged[b].score));
        let mut order = vec![0; len];
        for (rank, pos) in ranked.into_iter().enumerate() {
            // Odd ranks count back from the end: rank ≤ len - 1 keeps this ≥ 0.
            let slot = if rank % 2 == 0 {
                rank / 2
            } else {
                len - 1 - rank / 2
            };
            order[slot] = pos;
        }
        order
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Item;
    use proptest::prelude::*;

    fn place(rows: &[(&str, f64)]) -> Vec<String> {
        let items: Vec<Item> = rows
            .iter()
            .map(|(content, _)| Item::new(*content, 100).unwrap())
            .collect();
        let merged: Vec<ScoredItem<'_>> = items
            .iter()
            .zip(rows)
            .enumerate()
            .map(|(index, (item, row))| ScoredItem::new(item, index, row.1))
            .collect();
        UShapedPlacer::new()
            .place(&merged)
            .into_iter()
            .map(|pos| rows[pos].0.to_owned())
            .collect()
    }

    /// Vector `u-shaped-basic`: ranks 0..4 go to slots 0, 4, 1, 3, 2.
    #[test]
    fn vector_u_shaped_basic() {
        let rows = [("A", 0.9), ("B", 0.7), ("C", 0.5), ("D", 0.3), ("E", 0.1)];
        assert_eq!(place(&rows), ["A", "C", "E", "D", "B"]);
    }

    /// Vector `u-shaped-equal-scores`: ties rank by input order.
    #[test]
    fn vector_u_shaped_equal_scores() {
        let rows = [("X", 0.5), ("Y", 0.5), ("Z", 0.5), ("W", 0.5)];
        assert_eq!(place(&rows), ["X", "Z", "W", "Y"]);
    }

    #[test]
    fn seven_items_match_the_specification_picture() {
        let rows = [
            ("A", 0.9),
            ("B", 0.8),
            ("C", 0.7),
            ("D", 0.6),
            ("E", 0.5),
            ("F", 0.4),
            ("G", 0.3),
        ];
        assert_eq!(place(&rows), ["A", "C", "E", "G", "F", "D", "B"]);
    }

    #[test]
    fn unsorted_input_is_ranked_by_score() {
        let rows = [("low", 0.1), ("high", 0.9), ("mid", 0.5)];
        assert_eq!(place(&rows), ["high", "low", "mid"]);
    }

    #[test]
    fn small_inputs() {
        assert!(place(&[]).is_empty());
        assert_eq!(place(&[("only", 0.3)]), ["only"]);
        assert_eq!(place(&[("low", 0.2), ("high", 0.8)]), ["high", "low"]);
    }

    #[test]
    fn nan_scores_go_to_the_middle() {
        let rows = [("nan", f64::NAN), ("a", 0.9), ("b", 0.8), ("c", -1.0)];
        // Ranks: a, b, c, nan → slots 0, 3, 1, 2.
        assert_eq!(place(&rows), ["a", "c", "nan", "b"]);
    }

    proptest! {
        #[test]
        fn is_a_permutation_with_the_best_at_the_edges(
            scores in prop::collection::vec(prop_oneof![0.0f64..1.0, Just(f64::NAN)], 0..50)
        ) {
            let items: Vec<Item> = (0..scores.len()).map(|i| Item::new(format!("i{i}"), 1).unwrap()).collect();
            let merged: Vec<ScoredItem<'_>> = items
                .iter()
                .zip(&scores)
                .enumerate()
                .map(|(index, (item, &score))| ScoredItem::new(item, index, score))
                .collect();
            let order = UShapedPlacer::new().place(&merged);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            prop_assert_eq!(sorted, (0..scores.len()).collect::<Vec<_>>());
            prop_assert_eq!(&order, &UShapedPlacer::new().place(&merged));
            if let Some(&first) = order.first() {
                let best = scores.iter().copied().filter(|s| !s.is_nan()).fold(f64::NEG_INFINITY, f64::max);
                if best.is_finite() {
                    prop_assert_eq!(scores[first], best);
                }
            }
        }
    }
}
