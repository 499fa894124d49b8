//! [`ScaledScorer`]: min-max normalisation of an inner scorer.

use crate::model::ContextItem;
use crate::scorer::Scorer;

/// Rescales an inner scorer's batch to span `0.0..=1.0`:
/// `(s − min) / (max − min)`, where `min` and `max` are taken over the batch.
/// When every item gets the same inner score (including a batch of one), all
/// score exactly 0.5.
///
/// The inner scorer runs once per batch, so scaling adds O(n). Scores that
/// are not finite, which the specification leaves undefined, are handled so
/// that the output stays in `0.0..=1.0`: `min` and `max` are taken over the
/// finite inner scores, `+inf` scores 1.0, `−inf` and NaN score 0.0, and if
/// no two finite scores differ the finite ones score 0.5.
///
/// ```
/// use budget::{Item, scorer::{ReflexiveScorer, ScaledScorer, Scorer}};
///
/// // Hints 0.25, 0.5, 0.75 spread to 0.0, 0.5, 1.0.
/// let low = Item::builder("low").tokens(1).relevance_hint(0.25).build()?;
/// let mid = Item::builder("mid").tokens(1).relevance_hint(0.5).build()?;
/// let high = Item::builder("high").tokens(1).relevance_hint(0.75).build()?;
/// let scaled = ScaledScorer::new(ReflexiveScorer::new());
/// assert_eq!(scaled.scores(&[&low, &mid, &high]), vec![0.0, 0.5, 1.0]);
/// # Ok::<(), budget::model::ItemError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ScaledScorer<S> {
    inner: S,
}

impl<S: Scorer> ScaledScorer<S> {
    /// Scales the scores of `inner`. Use `Box<dyn Scorer>` as `S` to choose
    /// the inner scorer at run time.
    pub const fn new(inner: S) -> Self {
        Self { inner }
    }

    /// The inner scorer.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The inner scorer, by value.
    pub fn into_inner(self) -> S {
        self.inner
    }
}

/// The score of the degenerate case (no spread among the inner scores).
const DEGENERATE: f64 = 0.5;

impl<S: Scorer> Scorer for ScaledScorer<S> {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        self.inner.score_all(items, scores);
        let (min, max) = scores
            .iter()
            .filter(|s| s.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &s| {
                (lo.min(s), hi.max(s))
            });
        // False when there are fewer than two distinct finite scores.
        let has_spread = max > min;
        let spread = max - min;
        for score in scores.iter_mut() {
            *score = if score.is_nan() || *score == f64::NEG_INFINITY {
                0.0
            } else if *score == f64::INFINITY {
                1.0
            } else if !has_spread {
                DEGENERATE
            } else if spread.is_finite() {
                (*score - min) / spread
            } else {
                // max − min overflows: halve both sides (exact for normal
                // numbers) so the differences stay finite.
                (*score / 2.0 - min / 2.0) / (max / 2.0 - min / 2.0)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ScaledScorer;
    use crate::model::{ContextItem, Item};
    use crate::scorer::{KindScorer, ReflexiveScorer, Scorer};
    use crate::{ContextKind, scorer::ScorerError};

    fn hinted(hints: &[f64]) -> Vec<Item> {
        hints
            .iter()
            .map(|&h| {
                Item::builder("x")
                    .tokens(100)
                    .relevance_hint(h)
                    .build()
                    .unwrap()
            })
            .collect()
    }

    fn views(items: &[Item]) -> Vec<&dyn ContextItem> {
        items.iter().map(|i| i as &dyn ContextItem).collect()
    }

    /// Vector `scaled-basic`: hints 0.2, 0.5, 0.8 → 0.0, 0.5, 1.0.
    #[test]
    fn vector_scaled_basic() {
        let items = hinted(&[0.2, 0.5, 0.8]);
        let scores = ScaledScorer::new(ReflexiveScorer::new()).scores(&views(&items));
        for (got, want) in scores.iter().zip([0.0, 0.5, 1.0]) {
            assert!((got - want).abs() < 1e-9, "{scores:?}");
        }
    }

    /// Vector `scaled-degenerate`: equal inner scores → exactly 0.5.
    #[test]
    fn vector_scaled_degenerate() {
        let items = hinted(&[0.4, 0.4, 0.4]);
        let scores = ScaledScorer::new(ReflexiveScorer::new()).scores(&views(&items));
        assert_eq!(scores, vec![0.5, 0.5, 0.5]);
        let one = hinted(&[0.9]);
        assert_eq!(
            ScaledScorer::new(ReflexiveScorer::new()).scores(&views(&one)),
            vec![0.5]
        );
        assert!(
            ScaledScorer::new(ReflexiveScorer::new())
                .scores(&[])
                .is_empty()
        );
    }

    #[test]
    fn boxed_inner_and_out_of_range_inner_scores() -> Result<(), ScorerError> {
        // Kind weights 2.0 and 6.0 (outside 0..=1) still scale to 0 and 1.
        let kinds = KindScorer::with_weights([
            (ContextKind::MEMORY, 2.0),
            (ContextKind::DOCUMENT, 6.0),
            (ContextKind::MESSAGE, 3.0),
        ])?;
        let scorer: ScaledScorer<Box<dyn Scorer>> = ScaledScorer::new(Box::new(kinds));
        let items = [
            ContextKind::MEMORY,
            ContextKind::DOCUMENT,
            ContextKind::MESSAGE,
        ]
        .map(|k| Item::builder("x").tokens(1).kind(k).build().unwrap());
        assert_eq!(scorer.scores(&views(&items)), vec![0.0, 1.0, 0.25]);
        Ok(())
    }

    /// An inner scorer that returns fixed values, for non-finite cases.
    #[derive(Debug)]
    struct Fixed(Vec<f64>);

    impl Scorer for Fixed {
        fn score_all(&self, _items: &[&dyn ContextItem], scores: &mut [f64]) {
            scores.copy_from_slice(&self.0);
        }
    }

    fn scale(values: &[f64]) -> Vec<f64> {
        let items = hinted(&vec![0.0; values.len()]);
        ScaledScorer::new(Fixed(values.to_vec())).scores(&views(&items))
    }

    #[test]
    fn non_finite_inner_scores_stay_in_range() {
        assert_eq!(
            scale(&[f64::NAN, 1.0, 3.0, f64::INFINITY, f64::NEG_INFINITY]),
            vec![0.0, 0.0, 1.0, 1.0, 0.0]
        );
        assert_eq!(scale(&[f64::NAN, 2.0, f64::INFINITY]), vec![0.0, 0.5, 1.0]);
        assert_eq!(scale(&[f64::NAN, f64::NAN]), vec![0.0, 0.0]);
    }

    #[test]
    fn extreme_finite_spread_does_not_overflow() {
        assert_eq!(scale(&[f64::MIN, 0.0, f64::MAX]), vec![0.0, 0.5, 1.0]);
        assert_eq!(
            scale(&[f64::MIN_POSITIVE, 2.0 * f64::MIN_POSITIVE]),
            vec![0.0, 1.0]
        );
    }
}
