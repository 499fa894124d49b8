//! [`MarginEstimator`]: another estimator's count times a margin.

use std::sync::Arc;

use budget_runtime::estimate::{ContentType, Estimator};

/// Counts with `inner` and multiplies by `factor`, rounding up: the
/// estimate for a model whose own tokenizer is not at hand, with a factor
/// that covers the measured worst case (see [`TokenizerSpec`](crate::profile::TokenizerSpec)).
///
/// ```
/// use std::sync::Arc;
/// use budget::estimate::{ContentType, Estimator, RatioEstimator};
/// use budget::profile::MarginEstimator;
///
/// let margin = MarginEstimator::new(Arc::new(RatioEstimator), 1.5);
/// // "abcdefgh" as prose: 8 / 4.0 = 2, times 1.5 = 3
/// assert_eq!(margin.estimate("abcdefgh", ContentType::Prose), 3);
/// assert_eq!(margin.factor(), 1.5);
/// ```
#[derive(Clone)]
pub struct MarginEstimator {
    inner: Arc<dyn Estimator>,
    factor: f64,
}

impl MarginEstimator {
    /// `inner`'s count times `factor` (at least 1; a smaller or non-finite
    /// factor is taken as 1).
    pub fn new(inner: Arc<dyn Estimator>, factor: f64) -> Self {
        let factor = if factor.is_finite() && factor > 1.0 {
            factor
        } else {
            1.0
        };
        Self { inner, factor }
    }

    /// The factor.
    pub fn factor(&self) -> f64 {
        self.factor
    }
}

impl Estimator for MarginEstimator {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    fn estimate(&self, text: &str, content_type: ContentType) -> u64 {
        let count = self.inner.estimate(text, content_type);
        let scaled = (count as f64 * self.factor).ceil();
        if scaled >= u64::MAX as f64 {
            u64::MAX
        } else {
            scaled as u64
        }
    }
}

impl std::fmt::Debug for MarginEstimator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MarginEstimator")
            .field("factor", &self.factor)
            .finish_non_exhaustive()
    }
}
