//! [`Calibration`] and [`Coefficients`]: the fitted weights of the
//! calibrated model, per content type.

use crate::estimate::ContentType;
use crate::estimate::Encoding;
use crate::estimate::feature::{FEATURE_COUNT, Feature};
use crate::estimate::text_features::TextFeatures;

/// The calibrated model for one content type: tokens per occurrence of each
/// [`Feature`], and the factor that turns a best guess into an upper bound.
///
/// ```
/// use budget::estimate::{Calibration, Feature, TextFeatures};
/// use budget::estimate::ContentType;
///
/// let prose = Calibration::O200K_BASE.for_content_type(ContentType::Prose);
/// let tokens = prose.raw_estimate(&TextFeatures::of("Hello there, world."));
/// assert!(tokens > 2.0 && tokens < 8.0); // exact: 5
/// assert!(prose.safety_factor >= 1.0);
/// assert!(prose.weights[Feature::Words.index()] > 0.5);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Coefficients {
    /// Tokens per occurrence of each feature, indexed by [`Feature::index`].
    /// Finite and non-negative.
    pub weights: [f64; FEATURE_COUNT],
    /// The factor (at least 1) applied to the best guess in
    /// [`EstimateMode::UpperBound`](crate::estimate::EstimateMode::UpperBound).
    pub safety_factor: f64,
}

impl Coefficients {
    /// The unrounded best-guess token count for these features:
    /// `Σ weight × count`.
    ///
    /// ```
    /// use budget::estimate::{Coefficients, FEATURE_COUNT, Feature, TextFeatures};
    ///
    /// let mut weights = [0.0; FEATURE_COUNT];
    /// weights[Feature::Words.index()] = 1.0;
    /// weights[Feature::AsciiPunctuation.index()] = 0.5;
    /// let c = Coefficients { weights, safety_factor: 1.0 };
    /// assert_eq!(c.raw_estimate(&TextFeatures::of("one two!")), 2.5);
    /// ```
    pub fn raw_estimate(&self, features: &TextFeatures) -> f64 {
        // u64 → f64 is exact below 2^53 characters, far beyond any text.
        self.weights
            .iter()
            .zip(features.counts())
            .map(|(w, &n)| w * n as f64)
            .sum()
    }

    /// Checks that every weight is finite and non-negative and the safety
    /// factor finite and at least 1.
    fn validate(&self, content_type: ContentType) -> Result<(), CalibrationError> {
        for feature in Feature::ALL {
            let value = self.weights[feature.index()];
            if !value.is_finite() || value < 0.0 {
                return Err(CalibrationError::InvalidWeight {
                    content_type,
                    feature: feature.name(),
                    value,
                });
            }
        }
        if !self.safety_factor.is_finite() || self.safety_factor < 1.0 {
            return Err(CalibrationError::InvalidSafetyFactor {
                content_type,
                value: self.safety_factor,
            });
        }
        Ok(())
    }
}

/// The calibrated model for one encoding: [`Coefficients`] per content type.
///
/// The built-in calibrations, [`Calibration::O200K_BASE`] and
/// [`Calibration::CL100K_BASE`], were fitted on the project's token corpus
/// and multilingual samples by `tools/src/bin/fit_estimator.rs`; a calibration
/// fitted for another tokenizer can be given to
/// [`CalibratedEstimator::with_calibration`](crate::estimate::CalibratedEstimator::with_calibration).
///
/// ```
/// use budget::estimate::Calibration;
/// use budget::{estimate::{ContentType, Encoding}};
///
/// let cal = Calibration::for_encoding(Encoding::Cl100kBase);
/// assert_eq!(cal, &Calibration::CL100K_BASE);
/// assert!(cal.validate().is_ok());
/// assert_eq!(cal.for_content_type(ContentType::Yaml), &cal.yaml);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// Coefficients for [`ContentType::Code`].
    pub code: Coefficients,
    /// Coefficients for [`ContentType::Prose`].
    pub prose: Coefficients,
    /// Coefficients for [`ContentType::Yaml`].
    pub yaml: Coefficients,
    /// Coefficients for [`ContentType::Markdown`].
    pub markdown: Coefficients,
}

impl Calibration {
    /// The built-in calibration of `encoding`.
    ///
    /// ```
    /// use budget::{estimate::{Calibration, Encoding}};
    /// assert_eq!(Calibration::for_encoding(Encoding::O200kBase), &Calibration::O200K_BASE);
    /// ```
    pub const fn for_encoding(encoding: Encoding) -> &'static Self {
        match encoding {
            Encoding::O200kBase => &Self::O200K_BASE,
            Encoding::Cl100kBase => &Self::CL100K_BASE,
        }
    }

    /// The coefficients for `content_type`.
    ///
    /// ```
    /// use budget::{estimate::{Calibration, ContentType}};
    /// let cal = Calibration::O200K_BASE;
    /// assert_eq!(cal.for_content_type(ContentType::Code), &cal.code);
    /// ```
    pub const fn for_content_type(&self, content_type: ContentType) -> &Coefficients {
        match content_type {
            ContentType::Code => &self.code,
            ContentType::Prose => &self.prose,
            ContentType::Yaml => &self.yaml,
            ContentType::Markdown => &self.markdown,
        }
    }

    /// Checks every weight (finite, `>= 0`) and safety factor (finite, `>= 1`).
    ///
    /// ```
    /// use budget::estimate::Calibration;
    ///
    /// let mut cal = Calibration::O200K_BASE;
    /// cal.prose.weights[0] = f64::NAN;
    /// assert_eq!(
    ///     cal.validate().unwrap_err().to_string(),
    ///     "weight NaN of feature words for prose must be finite and >= 0"
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), CalibrationError> {
        for content_type in ContentType::ALL {
            self.for_content_type(content_type).validate(content_type)?;
        }
        Ok(())
    }
}

/// A [`Calibration`](crate::estimate::Calibration) was rejected: its weights
/// must be finite and non-negative, its safety factors finite and at least 1.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CalibrationError {
    /// A weight was negative, NaN or infinite.
    #[error("weight {value} of feature {feature} for {content_type} must be finite and >= 0")]
    InvalidWeight {
        /// The content type whose coefficients hold the weight.
        content_type: crate::estimate::ContentType,
        /// The feature's name.
        feature: &'static str,
        /// The value given.
        value: f64,
    },
    /// A safety factor was below 1, NaN or infinite.
    #[error("safety factor {value} for {content_type} must be finite and >= 1")]
    InvalidSafetyFactor {
        /// The content type whose coefficients hold the factor.
        content_type: crate::estimate::ContentType,
        /// The value given.
        value: f64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_calibrations_are_valid() {
        for encoding in Encoding::ALL {
            assert_eq!(Calibration::for_encoding(encoding).validate(), Ok(()));
        }
    }

    #[test]
    fn built_in_weights_respect_the_byte_bound() {
        // A character of n UTF-8 bytes never costs more than n tokens.
        for encoding in Encoding::ALL {
            for ct in ContentType::ALL {
                let c = Calibration::for_encoding(encoding).for_content_type(ct);
                for feature in Feature::ALL {
                    if let Some(max) = feature.max_tokens_per_occurrence() {
                        assert!(
                            c.weights[feature.index()] <= max,
                            "{encoding} {ct} {feature}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn bad_safety_factors_are_rejected_with_the_number() {
        let mut cal = Calibration::CL100K_BASE;
        cal.yaml.safety_factor = 0.9;
        assert_eq!(
            cal.validate(),
            Err(CalibrationError::InvalidSafetyFactor {
                content_type: ContentType::Yaml,
                value: 0.9
            })
        );
        cal.yaml.safety_factor = f64::INFINITY;
        assert!(cal.validate().is_err());
    }

    #[test]
    fn negative_weights_are_rejected() {
        let mut cal = Calibration::O200K_BASE;
        cal.markdown.weights[Feature::EmojiScalars.index()] = -0.5;
        assert_eq!(
            cal.validate().unwrap_err().to_string(),
            "weight -0.5 of feature emoji_scalars for markdown must be finite and >= 0"
        );
    }
}
