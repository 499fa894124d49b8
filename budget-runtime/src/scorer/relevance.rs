//! [`RelevanceScorer`]: the relevance the application already has (a
//! retrieval similarity, the derive's `score` field), clamped.

use std::fmt;

use crate::model::ContextItem;
use crate::scorer::{RecencyScorer, Scorer};

/// Scores each item by its [`relevance`](ContextItem::relevance) (the
/// derive's `#[context(score)]` field), clamped to `0.0..=1.0`. Items
/// without a relevance, or with a NaN or infinite one, are scored by the
/// fallback scorer, which sees only those items; without a fallback they
/// score 0.0. An absolute scorer: O(n) plus the fallback's cost.
///
/// [`RelevanceScorer::default`] falls back to [`RecencyScorer`]: it is the
/// pipeline's default scorer, so scored documents are ranked by their score,
/// and a list without any relevance is ranked exactly as by recency.
///
/// ```
/// use budget::{Item, scorer::{RelevanceScorer, Scorer}};
///
/// let close = Item::builder("close match").tokens(1).relevance(0.92).build()?;
/// let far = Item::builder("far match").tokens(1).relevance(0.31).build()?;
/// let over = Item::builder("over").tokens(1).relevance(7.0).build()?;
/// let unscored = Item::new("no score", 1)?;
/// let scores = RelevanceScorer::new().scores(&[&close, &far, &over, &unscored]);
/// assert_eq!(scores, vec![0.92, 0.31, 1.0, 0.0]);
/// # Ok::<(), budget::model::ItemError>(())
/// ```
pub struct RelevanceScorer {
    fallback: Option<Box<dyn Scorer>>,
}

impl RelevanceScorer {
    /// Relevance only: items without one score 0.0.
    pub const fn new() -> Self {
        Self { fallback: None }
    }

    /// Relevance, and `fallback`'s scores for the items without one.
    ///
    /// ```
    /// use budget::{Item, scorer::{PriorityScorer, RelevanceScorer, Scorer}};
    ///
    /// let scored = Item::builder("scored").tokens(1).relevance(0.5).build()?;
    /// let low = Item::builder("low").tokens(1).priority(1).build()?;
    /// let high = Item::builder("high").tokens(1).priority(9).build()?;
    /// let scorer = RelevanceScorer::with_fallback(PriorityScorer::new());
    /// // the fallback ranks only `low` and `high`: 0.0 and 1.0
    /// assert_eq!(scorer.scores(&[&scored, &low, &high]), vec![0.5, 0.0, 1.0]);
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    pub fn with_fallback(fallback: impl Scorer + 'static) -> Self {
        Self {
            fallback: Some(Box::new(fallback)),
        }
    }

    /// The score of one relevance: the value clamped to `0.0..=1.0`, or
    /// `None` when it is absent or not finite.
    ///
    /// ```
    /// use budget::scorer::RelevanceScorer;
    /// assert_eq!(RelevanceScorer::clamp(Some(-0.5)), Some(0.0));
    /// assert_eq!(RelevanceScorer::clamp(Some(f64::NAN)), None);
    /// ```
    pub fn clamp(relevance: Option<f64>) -> Option<f64> {
        relevance
            .filter(|value| value.is_finite())
            .map(|value| value.clamp(0.0, 1.0))
    }
}

impl Default for RelevanceScorer {
    /// Relevance, falling back to [`RecencyScorer`].
    fn default() -> Self {
        Self::with_fallback(RecencyScorer::new())
    }
}

impl fmt::Debug for RelevanceScorer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RelevanceScorer")
            .field("fallback", &self.fallback)
            .finish()
    }
}

impl Scorer for RelevanceScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        let mut unscored = Vec::new();
        for (position, (item, score)) in items.iter().zip(scores.iter_mut()).enumerate() {
            match Self::clamp(item.relevance()) {
                Some(value) => *score = value,
                None => {
                    *score = 0.0;
                    unscored.push(position);
                }
            }
        }
        let Some(fallback) = &self.fallback else {
            return;
        };
        if unscored.is_empty() {
            return;
        }
        let views: Vec<&dyn ContextItem> = unscored.iter().map(|&p| items[p]).collect();
        let fallback_scores = fallback.scores(&views);
        for (&position, value) in unscored.iter().zip(fallback_scores) {
            scores[position] = value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Item, Timestamp};

    fn at(content: &str, seconds: i64, relevance: Option<f64>) -> Item {
        let builder = Item::builder(content)
            .tokens(10)
            .timestamp(Timestamp::from_unix_seconds(seconds));
        match relevance {
            Some(r) => builder.relevance(r),
            None => builder,
        }
        .build()
        .unwrap()
    }

    #[test]
    fn without_any_relevance_the_default_is_recency() {
        let items = [at("a", 30, None), at("b", 10, None), at("c", 20, None)];
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        assert_eq!(
            RelevanceScorer::default().scores(&views),
            RecencyScorer::new().scores(&views)
        );
    }

    #[test]
    fn scored_items_keep_their_score_and_the_rest_rank_by_recency() {
        let items = [
            at("doc", 0, Some(0.25)),
            at("old", 10, None),
            at("new", 20, None),
            at("bad", 30, Some(f64::INFINITY)),
        ];
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        // recency over old, new, bad (10, 20, 30): ranks 0, 0.5, 1
        assert_eq!(
            RelevanceScorer::default().scores(&views),
            vec![0.25, 0.0, 0.5, 1.0]
        );
    }
}
