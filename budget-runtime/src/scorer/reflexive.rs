//! [`ReflexiveScorer`]: the caller's own relevance hint, clamped.

use crate::model::ContextItem;
use crate::scorer::Scorer;

/// Scores each item by its [`relevance_hint`](ContextItem::relevance_hint),
/// clamped to `0.0..=1.0`. Items without a hint, or with a NaN or infinite
/// hint, score 0.0 (the finiteness check comes before the clamp, so `+inf`
/// does not become 1.0). An absolute scorer: O(n).
///
/// ```
/// use budget::{Item, scorer::{ReflexiveScorer, Scorer}};
///
/// let hinted = Item::builder("hinted").tokens(1).relevance_hint(0.75).build()?;
/// let over = Item::builder("over").tokens(1).relevance_hint(1.5).build()?;
/// let broken = Item::builder("nan").tokens(1).relevance_hint(f64::NAN).build()?;
/// let plain = Item::new("plain", 1)?;
/// let scores = ReflexiveScorer::new().scores(&[&hinted, &over, &broken, &plain]);
/// assert_eq!(scores, vec![0.75, 1.0, 0.0, 0.0]);
/// # Ok::<(), budget::model::ItemError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ReflexiveScorer;

impl ReflexiveScorer {
    /// The reflexive scorer.
    pub const fn new() -> Self {
        Self
    }

    /// The score of one hint: 0.0 for `None` or a non-finite value, the hint
    /// clamped to `0.0..=1.0` otherwise.
    pub fn score_hint(hint: Option<f64>) -> f64 {
        match hint {
            Some(value) if value.is_finite() => value.clamp(0.0, 1.0),
            _ => 0.0,
        }
    }
}

impl Scorer for ReflexiveScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        for (item, score) in items.iter().zip(scores.iter_mut()) {
            *score = Self::score_hint(item.relevance_hint());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ReflexiveScorer;
    use crate::model::{ContextItem, Item};
    use crate::scorer::Scorer;

    fn hinted(content: &str, hint: Option<f64>) -> Item {
        let builder = Item::builder(content).tokens(100);
        match hint {
            Some(h) => builder.relevance_hint(h),
            None => builder,
        }
        .build()
        .unwrap()
    }

    fn score(hints: &[Option<f64>]) -> Vec<f64> {
        let items: Vec<Item> = hints.iter().map(|h| hinted("x", *h)).collect();
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        ReflexiveScorer::new().scores(&views)
    }

    /// Vector `reflexive-basic`: in-range hints pass through, others clamp.
    #[test]
    fn vector_reflexive_basic() {
        let hints = [Some(0.0), Some(0.5), Some(1.0), Some(1.5), Some(-0.3)];
        assert_eq!(score(&hints), vec![0.0, 0.5, 1.0, 1.0, 0.0]);
    }

    /// Vector `reflexive-null`: no hint scores 0.0.
    #[test]
    fn vector_reflexive_null() {
        assert_eq!(score(&[Some(0.75), None]), vec![0.75, 0.0]);
    }

    #[test]
    fn non_finite_hints_score_zero_not_a_boundary() {
        let hints = [Some(f64::NAN), Some(f64::INFINITY), Some(f64::NEG_INFINITY)];
        assert_eq!(score(&hints), vec![0.0, 0.0, 0.0]);
    }

    #[test]
    fn extreme_finite_hints_clamp() {
        let hints = [
            Some(f64::MAX),
            Some(f64::MIN),
            Some(f64::MIN_POSITIVE),
            Some(-0.0),
        ];
        let scores = score(&hints);
        assert_eq!(scores[..3], [1.0, 0.0, f64::MIN_POSITIVE]);
        assert_eq!(scores[3], 0.0);
    }
}
