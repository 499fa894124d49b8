//! [`MetadataKeyScorer`]: a multiplier for items whose metadata matches.

use crate::model::ContextItem;
use crate::scorer::Scorer;
use crate::scorer::ScorerError;

/// Scores `boost` for items whose metadata value under `key` equals `value`,
/// and the neutral multiplier 1.0 for every other item (key absent or value
/// different). Scores are not clamped to `0.0..=1.0`.
///
/// The comparison is exact, string to string: string values compare as they
/// are, numbers and booleans by their text form (`1.5`, `true`). Meant as a
/// child of a [`CompositeScorer`](crate::scorer::CompositeScorer). An
/// absolute scorer: O(n).
///
/// ```
/// use budget::{Item, scorer::{MetadataKeyScorer, Scorer}};
///
/// let scorer = MetadataKeyScorer::new("cupel:priority", "high", 1.5)?;
/// let high = Item::builder("a").tokens(1).metadata("cupel:priority", "high").build()?;
/// let normal = Item::builder("b").tokens(1).metadata("cupel:priority", "normal").build()?;
/// let plain = Item::new("c", 1)?;
/// assert_eq!(scorer.scores(&[&high, &normal, &plain]), vec![1.5, 1.0, 1.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct MetadataKeyScorer {
    key: String,
    value: String,
    boost: f64,
}

impl MetadataKeyScorer {
    /// The score of items that do not match.
    pub const NEUTRAL: f64 = 1.0;

    /// A scorer returning `boost` for items with `metadata[key] == value`.
    ///
    /// # Errors
    /// [`ScorerError::NotPositive`] (naming `boost`) if `boost` is zero,
    /// negative, NaN or infinite.
    pub fn new(
        key: impl Into<String>,
        value: impl Into<String>,
        boost: f64,
    ) -> Result<Self, ScorerError> {
        if !(boost.is_finite() && boost > 0.0) {
            return Err(ScorerError::NotPositive {
                name: "boost",
                value: boost,
            });
        }
        Ok(Self {
            key: key.into(),
            value: value.into(),
            boost,
        })
    }

    /// The metadata key compared.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The value that earns the boost.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// The multiplier for matching items.
    pub fn boost(&self) -> f64 {
        self.boost
    }
}

impl Scorer for MetadataKeyScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        for (item, score) in items.iter().zip(scores.iter_mut()) {
            let matches = item
                .metadata(&self.key)
                .is_some_and(|found| found.text_equals(&self.value));
            *score = if matches { self.boost } else { Self::NEUTRAL };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MetadataKeyScorer;
    use crate::model::{ContextItem, Item, MetadataValue};
    use crate::scorer::Scorer;
    use crate::scorer::ScorerError;

    fn score(scorer: &MetadataKeyScorer, entry: Option<(&str, MetadataValue)>) -> f64 {
        let builder = Item::builder("x").tokens(10);
        let item = match entry {
            Some((key, value)) => builder.metadata(key, value),
            None => builder,
        }
        .build()
        .unwrap();
        let view: &dyn ContextItem = &item;
        scorer.scores(&[view])[0]
    }

    fn priority_high() -> MetadataKeyScorer {
        MetadataKeyScorer::new("cupel:priority", "high", 1.5).unwrap()
    }

    /// Vector `metadata-key-absent-neutral`.
    #[test]
    fn vector_absent_neutral() {
        assert_eq!(score(&priority_high(), None), 1.0);
    }

    /// Vector `metadata-key-match-boost`.
    #[test]
    fn vector_match_boost() {
        assert_eq!(
            score(&priority_high(), Some(("cupel:priority", "high".into()))),
            1.5
        );
    }

    /// Vector `metadata-key-no-match-neutral`.
    #[test]
    fn vector_no_match_neutral() {
        assert_eq!(
            score(&priority_high(), Some(("cupel:priority", "normal".into()))),
            1.0
        );
    }

    /// Vectors `metadata-key-zero-boost-construction-error` and
    /// `metadata-key-negative-boost-construction-error`, plus non-finite.
    #[test]
    fn vector_invalid_boosts_fail_construction() {
        for bad in [0.0, -0.0, -1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = MetadataKeyScorer::new("cupel:priority", "high", bad).unwrap_err();
            assert!(matches!(
                err,
                ScorerError::NotPositive { name: "boost", .. }
            ));
        }
        assert_eq!(
            MetadataKeyScorer::new("k", "v", -1.0)
                .unwrap_err()
                .to_string(),
            "boost must be finite and > 0, got -1"
        );
    }

    #[test]
    fn comparison_is_exact_text() {
        let s = priority_high();
        assert_eq!(score(&s, Some(("cupel:priority", "High".into()))), 1.0);
        assert_eq!(score(&s, Some(("cupel:priority", " high".into()))), 1.0);
        assert_eq!(score(&s, Some(("other", "high".into()))), 1.0);
        let numeric = MetadataKeyScorer::new("tier", "2", 3.0).unwrap();
        assert_eq!(score(&numeric, Some(("tier", 2i64.into()))), 3.0);
        assert_eq!(score(&numeric, Some(("tier", 2.5.into()))), 1.0);
        let flag = MetadataKeyScorer::new("pinned", "true", 0.5).unwrap();
        assert_eq!(score(&flag, Some(("pinned", true.into()))), 0.5);
    }

    #[test]
    fn extreme_boosts_are_returned_as_given() {
        let big = MetadataKeyScorer::new("k", "v", f64::MAX).unwrap();
        assert_eq!(score(&big, Some(("k", "v".into()))), f64::MAX);
        let tiny = MetadataKeyScorer::new("k", "v", f64::MIN_POSITIVE).unwrap();
        assert_eq!(score(&tiny, Some(("k", "v".into()))), f64::MIN_POSITIVE);
    }
}
