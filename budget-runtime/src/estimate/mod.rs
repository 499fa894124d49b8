//! Token estimation: the [`Estimator`] and [`TokenCounter`] traits and the
//! [`SeedEstimator`] with its fixed characters-per-token ratios.

mod ratio;
mod seed;

pub use ratio::EstimationRatio;
pub use seed::{SeedEstimator, count_chars, seed_estimate};

use crate::model::ContentType;

/// Estimates how many tokens a text costs. Implementations must be cheap
/// and must not allocate per call; results are in tokens.
///
/// Every [`TokenCounter`] is an `Estimator` that ignores the content type.
///
/// ```
/// use budget_runtime::{ContentType, Estimator, SeedEstimator};
///
/// fn cost(estimator: &dyn Estimator, parts: &[&str]) -> u64 {
///     parts.iter().map(|p| estimator.estimate(p, ContentType::Prose)).sum()
/// }
/// assert_eq!(cost(&SeedEstimator, &["abcd", "abcde"]), 1 + 2);
/// ```
pub trait Estimator: Send + Sync {
    /// The estimated token count of `text`, read as `content_type`.
    fn estimate(&self, text: &str, content_type: ContentType) -> u64;
}

/// Counts tokens exactly, with a tokenizer. Results are in tokens.
///
/// ```
/// use budget_runtime::{ContentType, Estimator, TokenCounter};
///
/// /// A toy counter: one token per whitespace-separated word.
/// struct Words;
/// impl TokenCounter for Words {
///     fn count_tokens(&self, text: &str) -> u64 { text.split_whitespace().count() as u64 }
/// }
/// assert_eq!(Words.estimate("three short words", ContentType::Code), 3);
/// ```
pub trait TokenCounter: Send + Sync {
    /// The exact token count of `text`.
    fn count_tokens(&self, text: &str) -> u64;
}

impl<C: TokenCounter + ?Sized> Estimator for C {
    fn estimate(&self, text: &str, _content_type: ContentType) -> u64 {
        self.count_tokens(text)
    }
}
