//! The ratio estimator: one characters-per-token ratio per content type.

use crate::estimate::{ContentType, Estimator, count_chars, ratio_estimate};

/// The ratio estimator: `ceil(chars / ratio)` with the ratio of the content
/// type (code 3.5, prose 4.0, yaml 3.8, markdown 3.75 characters per token).
/// Characters are Unicode scalar values.
///
/// ```
/// use budget::{Estimator, estimate::{ContentType, RatioEstimator}};
///
/// assert_eq!(RatioEstimator.estimate("héllo wörld", ContentType::Prose), 3); // 11 chars
/// assert_eq!(RatioEstimator.estimate("", ContentType::Code), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RatioEstimator;

impl Estimator for RatioEstimator {
    fn estimate(&self, text: &str, content_type: ContentType) -> u64 {
        ratio_estimate(count_chars(text), content_type)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_match_the_token_budget_rules() {
        // 7 chars: code 2, prose 2, yaml 2, markdown 2
        for (chars, ct, expected) in [
            (7, ContentType::Code, 2),
            (8, ContentType::Code, 3),
            (8, ContentType::Prose, 2),
            (9, ContentType::Prose, 3),
            (19, ContentType::Yaml, 5),
            (20, ContentType::Yaml, 6),
            (15, ContentType::Markdown, 4),
            (16, ContentType::Markdown, 5),
            (1, ContentType::Markdown, 1),
        ] {
            assert_eq!(ratio_estimate(chars, ct), expected, "{chars} chars of {ct}");
        }
    }

    #[test]
    fn rounding_is_always_up() {
        for ct in ContentType::ALL {
            for chars in 0..500u64 {
                let exact = chars as f64 / ct.chars_per_token();
                let est = ratio_estimate(chars, ct);
                assert!(est as f64 >= exact - 1e-9);
                assert!((est as f64) < exact + 1.0);
            }
        }
    }

    #[test]
    fn characters_are_unicode_scalar_values() {
        let text = "日本語のテキスト"; // 8 chars, 24 bytes
        assert_eq!(count_chars(text), 8);
        assert_eq!(RatioEstimator.estimate(text, ContentType::Prose), 2);
        assert_eq!(RatioEstimator.estimate("👍🏽", ContentType::Prose), 1); // 2 scalars
    }

    #[test]
    fn huge_counts_saturate() {
        assert_eq!(
            ratio_estimate(u64::MAX, ContentType::Prose),
            u64::MAX / 4 + 1
        );
        assert!(ratio_estimate(u64::MAX, ContentType::Code) < u64::MAX);
    }
}
