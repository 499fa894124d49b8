//! [`MetadataTrustScorer`]: a caller-computed trust value read from metadata.

use std::borrow::Cow;

use crate::model::{ContextItem, MetadataValueRef};
use crate::scorer::Scorer;
use crate::scorer::ScorerError;

/// Scores each item by the trust value stored in its metadata under
/// [`MetadataTrustScorer::DEFAULT_KEY`] (`"cupel:trust"`) or a custom key,
/// clamped to `0.0..=1.0`.
///
/// Numbers are used as they are; strings are parsed with Rust's `f64`
/// parser (no trimming). A missing key, an unparseable string, a boolean, or
/// a NaN or infinite value all score `default_score` (the finiteness check
/// comes before the clamp). An absolute scorer: O(n).
///
/// ```
/// use budget::{Item, scorer::{MetadataTrustScorer, Scorer}};
///
/// let scorer = MetadataTrustScorer::new(0.5)?;
/// let trusted = Item::builder("a").tokens(1).metadata("cupel:trust", "0.85").build()?;
/// let over = Item::builder("b").tokens(1).metadata("cupel:trust", 1.5).build()?;
/// let garbled = Item::builder("c").tokens(1).metadata("cupel:trust", "high").build()?;
/// let unknown = Item::new("d", 1)?;
/// assert_eq!(
///     scorer.scores(&[&trusted, &over, &garbled, &unknown]),
///     vec![0.85, 1.0, 0.5, 0.5],
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct MetadataTrustScorer {
    key: Cow<'static, str>,
    default_score: f64,
}

impl MetadataTrustScorer {
    /// The metadata key the specification reserves for trust values.
    pub const DEFAULT_KEY: &'static str = "cupel:trust";

    /// A scorer reading [`DEFAULT_KEY`](Self::DEFAULT_KEY), returning
    /// `default_score` when no usable value is present.
    ///
    /// # Errors
    /// [`ScorerError::OutOfRange`] if `default_score` is outside
    /// `0.0..=1.0` or NaN.
    pub fn new(default_score: f64) -> Result<Self, ScorerError> {
        if !(0.0..=1.0).contains(&default_score) {
            return Err(ScorerError::OutOfRange {
                name: "default_score",
                value: default_score,
                min: 0.0,
                max: 1.0,
            });
        }
        Ok(Self {
            key: Cow::Borrowed(Self::DEFAULT_KEY),
            default_score,
        })
    }

    /// Reads `key` instead of the default key.
    ///
    /// ```
    /// use budget::{Item, scorer::{MetadataTrustScorer, Scorer}};
    ///
    /// let scorer = MetadataTrustScorer::new(0.0)?.with_key("source_trust");
    /// let item = Item::builder("a").tokens(1).metadata("source_trust", 0.25).build()?;
    /// assert_eq!(scorer.scores(&[&item]), vec![0.25]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_key(mut self, key: impl Into<Cow<'static, str>>) -> Self {
        self.key = key.into();
        self
    }

    /// The metadata key read.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// The score for items without a usable trust value.
    pub fn default_score(&self) -> f64 {
        self.default_score
    }

    fn score_value(&self, value: Option<MetadataValueRef<'_>>) -> f64 {
        let parsed = match value {
            Some(MetadataValueRef::Str(text)) => text.parse::<f64>().ok(),
            Some(other) => other.as_f64(),
            None => None,
        };
        match parsed {
            Some(trust) if trust.is_finite() => trust.clamp(0.0, 1.0),
            _ => self.default_score,
        }
    }
}

impl Scorer for MetadataTrustScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        for (item, score) in items.iter().zip(scores.iter_mut()) {
            *score = self.score_value(item.metadata(&self.key));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MetadataTrustScorer;
    use crate::model::{ContextItem, Item, MetadataValue};
    use crate::scorer::Scorer;
    use crate::scorer::ScorerError;

    fn trust(scorer: &MetadataTrustScorer, value: Option<MetadataValue>) -> f64 {
        let builder = Item::builder("x").tokens(10);
        let item = match value {
            Some(v) => builder.metadata("cupel:trust", v),
            None => builder,
        }
        .build()
        .unwrap();
        let view: &dyn ContextItem = &item;
        scorer.scores(&[view])[0]
    }

    fn half() -> MetadataTrustScorer {
        MetadataTrustScorer::new(0.5).unwrap()
    }

    /// Vector `metadata-trust-key-absent`.
    #[test]
    fn vector_key_absent() {
        assert_eq!(trust(&half(), None), 0.5);
    }

    /// Vector `metadata-trust-non-finite`: "NaN" parses but is not finite.
    #[test]
    fn vector_non_finite() {
        assert_eq!(trust(&half(), Some("NaN".into())), 0.5);
    }

    /// Vector `metadata-trust-out-of-range-high`: "1.5" clamps to 1.0.
    #[test]
    fn vector_out_of_range_high() {
        assert_eq!(trust(&half(), Some("1.5".into())), 1.0);
    }

    /// Vector `metadata-trust-present-valid`: "0.85" → 0.85.
    #[test]
    fn vector_present_valid() {
        assert_eq!(trust(&half(), Some("0.85".into())), 0.85);
    }

    /// Vector `metadata-trust-unparseable`: "high" → default.
    #[test]
    fn vector_unparseable() {
        assert_eq!(trust(&half(), Some("high".into())), 0.5);
    }

    #[test]
    fn spec_edge_table() {
        let s = half();
        for (text, want) in [
            ("+Infinity", 0.5),
            ("-Infinity", 0.5),
            ("inf", 0.5),
            ("", 0.5),
            (" 0.7", 0.5),
            ("0.0", 0.0),
            ("0.75", 0.75),
            ("1.0", 1.0),
            ("-0.1", 0.0),
            ("1e308", 1.0),
            ("1e999", 0.5),
        ] {
            assert_eq!(trust(&s, Some(text.into())), want, "{text:?}");
        }
    }

    #[test]
    fn typed_values() {
        let s = MetadataTrustScorer::new(0.25).unwrap();
        assert_eq!(trust(&s, Some(0.6.into())), 0.6);
        assert_eq!(trust(&s, Some(f64::NAN.into())), 0.25);
        assert_eq!(trust(&s, Some(f64::NEG_INFINITY.into())), 0.25);
        assert_eq!(trust(&s, Some(1i64.into())), 1.0);
        assert_eq!(trust(&s, Some(i64::MAX.into())), 1.0);
        assert_eq!(trust(&s, Some(i64::MIN.into())), 0.0);
        assert_eq!(trust(&s, Some(true.into())), 0.25);
    }

    #[test]
    fn custom_key() {
        let s = MetadataTrustScorer::new(0.5).unwrap().with_key("trust");
        assert_eq!(s.key(), "trust");
        assert_eq!(trust(&s, Some("0.9".into())), 0.5);
    }

    #[test]
    fn default_score_must_be_a_probability() {
        for bad in [-0.1, 1.1, f64::NAN, f64::INFINITY] {
            let err = MetadataTrustScorer::new(bad).unwrap_err();
            assert!(matches!(
                err,
                ScorerError::OutOfRange {
                    name: "default_score",
                    ..
                }
            ));
        }
        assert_eq!(
            MetadataTrustScorer::new(2.0).unwrap_err().to_string(),
            "default_score must be within 0..=1, got 2"
        );
        assert!(MetadataTrustScorer::new(0.0).is_ok());
        assert!(MetadataTrustScorer::new(1.0).is_ok());
    }
}
