//! [`CompositeScorer`]: a weighted average of child scorers.

use crate::model::ContextItem;
use crate::scorer::Scorer;
use crate::scorer::ScorerError;

/// Scores each item by `Σ wᵢ · sᵢ`, where `sᵢ` is child `i`'s score and the
/// weights `wᵢ` are the configured weights divided by their sum (so they add
/// up to 1.0: weights are relative, `[3, 1]` equals `[0.75, 0.25]`).
///
/// Children are any [`Scorer`], including other composites and
/// [`ScaledScorer`](crate::scorer::ScaledScorer)s. Each child scores the
/// whole batch once, in order, so a composite costs the sum of its children.
/// The composite owns its children, so the reference cycles the
/// specification checks for at construction cannot be built at all.
///
/// ```
/// use budget::{Item, model::Timestamp, scorer::Scorer};
/// use budget::scorer::{CompositeScorer, PriorityScorer, RecencyScorer};
///
/// let scorer = CompositeScorer::builder()
///     .child(RecencyScorer::new(), 3.0)
///     .child(PriorityScorer::new(), 1.0)
///     .build()?;
/// let at = Timestamp::from_unix_seconds;
/// let old = Item::builder("old").tokens(1).timestamp(at(1)).priority(9).build()?;
/// let new = Item::builder("new").tokens(1).timestamp(at(2)).priority(1).build()?;
/// assert_eq!(scorer.scores(&[&old, &new]), vec![0.25, 0.75]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct CompositeScorer {
    children: Vec<Box<dyn Scorer>>,
    /// Normalised weights, parallel to `children`; they sum to 1.0.
    weights: Vec<f64>,
}

impl CompositeScorer {
    /// A composite of `(child, weight)` entries, in order.
    ///
    /// ```
    /// use budget::scorer::Scorer;
    /// use budget::scorer::{CompositeScorer, KindScorer, ReflexiveScorer};
    ///
    /// let entries: Vec<(Box<dyn Scorer>, f64)> = vec![
    ///     (Box::new(KindScorer::new()), 1.0),
    ///     (Box::new(ReflexiveScorer::new()), 1.0),
    /// ];
    /// let scorer = CompositeScorer::new(entries)?;
    /// assert_eq!(scorer.weights(), &[0.5, 0.5]);
    /// # Ok::<(), budget::scorer::ScorerError>(())
    /// ```
    ///
    /// # Errors
    /// [`ScorerError::NoChildren`] for an empty list and
    /// [`ScorerError::ChildWeight`] for a weight that is not finite and
    /// `> 0`.
    pub fn new<I>(entries: I) -> Result<Self, ScorerError>
    where
        I: IntoIterator<Item = (Box<dyn Scorer>, f64)>,
    {
        let (children, raw): (Vec<_>, Vec<_>) = entries.into_iter().unzip();
        if children.is_empty() {
            return Err(ScorerError::NoChildren);
        }
        for (index, &value) in raw.iter().enumerate() {
            if !(value.is_finite() && value > 0.0) {
                return Err(ScorerError::ChildWeight { index, value });
            }
        }
        Ok(Self {
            children,
            weights: normalise(&raw),
        })
    }

    /// A builder adding children one at a time.
    pub fn builder() -> CompositeScorerBuilder {
        CompositeScorerBuilder {
            entries: Vec::new(),
        }
    }

    /// The normalised weights, in child order (they sum to 1.0).
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// The number of children.
    pub fn len(&self) -> usize {
        self.children.len()
    }

    /// Always `false`: a composite has at least one child.
    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
    }
}

/// Divides each (finite, positive) weight by their sum. When the sum
/// overflows `f64`, the weights are first divided by the largest one.
fn normalise(raw: &[f64]) -> Vec<f64> {
    let total: f64 = raw.iter().sum();
    if total.is_finite() {
        return raw.iter().map(|w| w / total).collect();
    }
    let largest = raw.iter().copied().fold(0.0, f64::max);
    let scaled: Vec<f64> = raw.iter().map(|w| w / largest).collect();
    let total: f64 = scaled.iter().sum();
    scaled.iter().map(|w| w / total).collect()
}

impl Scorer for CompositeScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        scores.fill(0.0);
        let mut child_scores = vec![0.0; scores.len()];
        for (child, &weight) in self.children.iter().zip(&self.weights) {
            child.score_all(items, &mut child_scores);
            for (total, &score) in scores.iter_mut().zip(&child_scores) {
                *total += score * weight;
            }
        }
    }
}

/// Builds a [`CompositeScorer`]; see [`CompositeScorer::builder`].
///
/// ```
/// use budget::scorer::{CompositeScorer, KindScorer, ReflexiveScorer};
///
/// let inner = CompositeScorer::builder().child(KindScorer::new(), 1.0).build()?;
/// let outer = CompositeScorer::builder()
///     .child(inner, 2.0)
///     .child(ReflexiveScorer::new(), 2.0)
///     .build()?;
/// assert_eq!(outer.weights(), &[0.5, 0.5]);
/// # Ok::<(), budget::scorer::ScorerError>(())
/// ```
#[derive(Debug)]
#[must_use = "call .build() to get the scorer"]
pub struct CompositeScorerBuilder {
    entries: Vec<(Box<dyn Scorer>, f64)>,
}

impl CompositeScorerBuilder {
    /// Adds `scorer` with a relative `weight` (finite, `> 0`; checked by
    /// [`build`](Self::build)).
    pub fn child(mut self, scorer: impl Scorer + 'static, weight: f64) -> Self {
        self.entries.push((Box::new(scorer), weight));
        self
    }

    /// The composite.
    ///
    /// # Errors
    /// As [`CompositeScorer::new`].
    pub fn build(self) -> Result<CompositeScorer, ScorerError> {
        CompositeScorer::new(self.entries)
    }
}

#[cfg(test)]
mod tests {
    use super::CompositeScorer;
    use crate::model::{ContextItem, Item, Timestamp};
    use crate::scorer::ScorerError;
    use crate::scorer::{PriorityScorer, RecencyScorer, ReflexiveScorer, Scorer};

    fn views(items: &[Item]) -> Vec<&dyn ContextItem> {
        items.iter().map(|i| i as &dyn ContextItem).collect()
    }

    fn jan() -> Timestamp {
        Timestamp::from_ymd_hms(2024, 1, 1, 0, 0, 0).unwrap()
    }

    fn dec() -> Timestamp {
        Timestamp::from_ymd_hms(2024, 12, 1, 0, 0, 0).unwrap()
    }

    fn assert_close(got: &[f64], want: &[f64]) {
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{got:?} vs {want:?}");
        }
    }

    /// Vector `composite-weighted`: recency 3, priority 1 → 0.0, 0.875, 0.125.
    #[test]
    fn vector_composite_weighted() {
        let items = [
            Item::builder("old-low")
                .tokens(100)
                .timestamp(jan())
                .priority(1),
            Item::builder("new-high")
                .tokens(100)
                .timestamp(dec())
                .priority(10),
            Item::builder("old-high")
                .tokens(100)
                .timestamp(jan())
                .priority(10),
        ]
        .map(|b| b.build().unwrap());
        let scorer = CompositeScorer::builder()
            .child(RecencyScorer::new(), 3.0)
            .child(PriorityScorer::new(), 1.0)
            .build()
            .unwrap();
        assert_eq!(scorer.weights(), &[0.75, 0.25]);
        assert_close(&scorer.scores(&views(&items)), &[0.0, 0.875, 0.125]);
    }

    /// Vector `composite-nested`: outer [inner(recency, priority), reflexive]
    /// → 0.4, 0.6.
    #[test]
    fn vector_composite_nested() {
        let items = [
            Item::builder("a")
                .tokens(100)
                .timestamp(jan())
                .priority(1)
                .relevance_hint(0.8),
            Item::builder("b")
                .tokens(100)
                .timestamp(dec())
                .priority(5)
                .relevance_hint(0.2),
        ]
        .map(|b| b.build().unwrap());
        let inner = CompositeScorer::builder()
            .child(RecencyScorer::new(), 1.0)
            .child(PriorityScorer::new(), 1.0)
            .build()
            .unwrap();
        let outer = CompositeScorer::builder()
            .child(inner, 1.0)
            .child(ReflexiveScorer::new(), 1.0)
            .build()
            .unwrap();
        assert_close(&outer.scores(&views(&items)), &[0.4, 0.6]);
    }

    #[test]
    fn single_child_delegates() {
        let items = [0.3, 0.9].map(|h| {
            Item::builder("x")
                .tokens(1)
                .relevance_hint(h)
                .build()
                .unwrap()
        });
        let scorer = CompositeScorer::builder()
            .child(ReflexiveScorer::new(), 0.001)
            .build()
            .unwrap();
        assert_eq!(scorer.weights(), &[1.0]);
        assert_eq!(scorer.scores(&views(&items)), vec![0.3, 0.9]);
    }

    #[test]
    fn invalid_configurations_are_typed_errors() {
        assert_eq!(
            CompositeScorer::new(Vec::new()).unwrap_err(),
            ScorerError::NoChildren
        );
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = CompositeScorer::builder()
                .child(RecencyScorer::new(), 1.0)
                .child(PriorityScorer::new(), bad)
                .build()
                .unwrap_err();
            assert!(
                matches!(err, ScorerError::ChildWeight { index: 1, value } if value.to_bits() == bad.to_bits())
            );
        }
        let err = CompositeScorer::builder()
            .child(RecencyScorer::new(), 0.0)
            .build()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "weight of child scorer 0 must be finite and > 0, got 0"
        );
    }

    #[test]
    fn weights_whose_sum_overflows_still_normalise() {
        let scorer = CompositeScorer::builder()
            .child(RecencyScorer::new(), f64::MAX)
            .child(PriorityScorer::new(), f64::MAX)
            .child(ReflexiveScorer::new(), f64::MAX / 2.0)
            .build()
            .unwrap();
        // Relative weights 1 : 1 : 0.5 → 0.4, 0.4, 0.2.
        assert_close(scorer.weights(), &[0.4, 0.4, 0.2]);
        let tiny = CompositeScorer::builder()
            .child(RecencyScorer::new(), f64::MIN_POSITIVE)
            .child(PriorityScorer::new(), 3.0 * f64::MIN_POSITIVE)
            .build()
            .unwrap();
        assert_close(tiny.weights(), &[0.25, 0.75]);
    }

    #[test]
    fn empty_batch_is_fine() {
        let scorer = CompositeScorer::builder()
            .child(RecencyScorer::new(), 1.0)
            .build()
            .unwrap();
        assert!(scorer.scores(&[]).is_empty());
    }
}
