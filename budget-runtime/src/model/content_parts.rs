//! Content made of several parts (for example a title and a body): how the
//! parts are joined, and how the joined text is estimated without building it.

use crate::estimate::ContentType;
use crate::estimate::{Estimator, RatioEstimator, ratio_estimate};

/// What separates the parts of a multi-part content: a blank line.
pub const PART_SEPARATOR: &str = "\n\n";

/// Tokens one [`PART_SEPARATOR`] adds to an estimate: its 2 characters cost
/// 1 token under every fixed ratio (2 / 3.5, 2 / 4.0, 2 / 3.8 and 2 / 3.75
/// all round up to 1).
///
/// ```
/// use budget::{estimate::{ContentType, ratio_estimate}, model::PART_SEPARATOR_TOKENS};
///
/// for content_type in ContentType::ALL {
///     assert_eq!(ratio_estimate(2, content_type), PART_SEPARATOR_TOKENS);
/// }
/// ```
pub const PART_SEPARATOR_TOKENS: u64 = 1;

const _: () = {
    let mut i = 0;
    while i < ContentType::ALL.len() {
        assert!(ratio_estimate(PART_SEPARATOR.len() as u64, ContentType::ALL[i]) == 1);
        i += 1;
    }
};

/// The parts joined with [`PART_SEPARATOR`], in order; one allocation of the
/// exact size. An empty part still gets its separators, so the result always
/// has `parts.len() - 1` separators.
///
/// ```
/// use budget::model::join_parts;
///
/// assert_eq!(join_parts(&["Title", "Body"]), "Title\n\nBody");
/// assert_eq!(join_parts(&["only"]), "only");
/// assert_eq!(join_parts(&["", "b"]), "\n\nb");
/// ```
pub fn join_parts(parts: &[&str]) -> String {
    let separators = parts.len().saturating_sub(1) * PART_SEPARATOR.len();
    let len = parts.iter().map(|p| p.len()).sum::<usize>() + separators;
    let mut joined = String::with_capacity(len);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            joined.push_str(PART_SEPARATOR);
        }
        joined.push_str(part);
    }
    joined
}

/// The ratio estimate (tokens) of the parts as [`join_parts`] joins them,
/// each part estimated at its own content type's ratio, computed without
/// allocating:
///
/// `Σ ratio_estimate(count_chars(part), content_type)` `+ (parts − 1) × PART_SEPARATOR_TOKENS`,
/// saturating at `u64::MAX`.
///
/// With one part this is exactly [`RatioEstimator`](crate::estimate::RatioEstimator)'s
/// estimate of that part. With several it rounds each part up separately, so
/// it is never below the estimate of the joined text at a single ratio.
///
/// ```
/// use budget::{estimate::ContentType, model::ratio_estimate_parts};
///
/// let parts = [("Fix the build", ContentType::Prose), ("cargo build --release", ContentType::Code)];
/// // 13 chars / 4.0 → 4, separator 1, 21 chars / 3.5 → 6
/// assert_eq!(ratio_estimate_parts(&parts), 4 + 1 + 6);
/// assert_eq!(ratio_estimate_parts(&[]), 0);
/// ```
#[inline]
pub fn ratio_estimate_parts(parts: &[(&str, ContentType)]) -> u64 {
    estimate_parts(&RatioEstimator, parts)
}

/// The estimate (tokens) of the parts as [`join_parts`] joins them, by any
/// [`Estimator`], computed without allocating:
///
/// `Σ estimator.estimate(part, content_type)` `+ (parts − 1) × PART_SEPARATOR_TOKENS`,
/// saturating at `u64::MAX`.
///
/// With one part this is exactly `estimator.estimate(part, content_type)`.
/// `#[derive(ContextItem)]` calls it for a type with
/// `#[context(estimator = ...)]`; [`ratio_estimate_parts`] is the same sum
/// for the fixed ratios.
///
/// ```
/// use budget::{Estimator, estimate::{CalibratedEstimator, ContentType, Encoding}, model::estimate_parts};
///
/// /// One token per byte.
/// struct Bytes;
/// impl Estimator for Bytes {
///     fn estimate(&self, text: &str, _: ContentType) -> u64 { text.len() as u64 }
/// }
/// let parts = [("héllo", ContentType::Prose), ("abc", ContentType::Code)];
/// assert_eq!(estimate_parts(&Bytes, &parts), 6 + 1 + 3);
///
/// let calibrated = CalibratedEstimator::new(Encoding::O200kBase);
/// let text = "今日は良い天気です";
/// assert_eq!(
///     estimate_parts(&calibrated, &[(text, ContentType::Prose)]),
///     calibrated.estimate(text, ContentType::Prose),
/// );
/// ```
#[inline]
pub fn estimate_parts<E: Estimator + ?Sized>(estimator: &E, parts: &[(&str, ContentType)]) -> u64 {
    let mut total: u64 = 0;
    for (i, &(text, content_type)) in parts.iter().enumerate() {
        if i > 0 {
            total = total.saturating_add(PART_SEPARATOR_TOKENS);
        }
        total = total.saturating_add(estimator.estimate(text, content_type));
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_part_is_the_ratio_estimate() {
        for text in ["", "a", "hello world", "日本語のテキスト", "👍🏽 ok"] {
            for ct in ContentType::ALL {
                assert_eq!(
                    ratio_estimate_parts(&[(text, ct)]),
                    RatioEstimator.estimate(text, ct),
                    "{text:?} as {ct}"
                );
            }
        }
    }

    #[test]
    fn parts_equal_the_ratio_estimator_parts() {
        let parts = [
            ("Fix the build", ContentType::Prose),
            ("", ContentType::Yaml),
            ("cargo build --release", ContentType::Code),
        ];
        // 13 / 4.0 → 4, 1, 0, 1, 21 / 3.5 → 6
        assert_eq!(estimate_parts(&RatioEstimator, &parts), 12);
        assert_eq!(ratio_estimate_parts(&parts), 12);
    }

    #[test]
    fn estimate_parts_saturates() {
        struct Huge;
        impl Estimator for Huge {
            fn estimate(&self, _: &str, _: ContentType) -> u64 {
                u64::MAX - 1
            }
        }
        let parts = [("a", ContentType::Code), ("b", ContentType::Code)];
        assert_eq!(estimate_parts(&Huge, &parts), u64::MAX);
        assert_eq!(estimate_parts(&Huge, &[]), 0);
    }

    #[test]
    fn separators_cost_one_token_each() {
        // Three empty parts: 0 + 1 + 0 + 1 + 0.
        let parts = [("", ContentType::Code); 3];
        assert_eq!(ratio_estimate_parts(&parts), 2);
        assert_eq!(join_parts(&["", "", ""]), "\n\n\n\n");
    }

    #[test]
    fn joined_length_is_exact() {
        let joined = join_parts(&["ab", "cdé"]);
        assert_eq!(joined, "ab\n\ncdé");
        assert_eq!(joined.capacity(), joined.len());
        assert_eq!(join_parts(&[]), "");
    }
}
