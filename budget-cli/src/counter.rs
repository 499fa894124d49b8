//! The token counter a command counts with: the one place a `--counter`
//! choice becomes an [`Estimator`].

use std::fmt;

use budget::{
    Estimator,
    estimate::{
        CalibratedEstimator, ContentType, Encoding, ExactCounter, RatioEstimator, TokenCounter,
    },
};
use clap::ValueEnum;

/// A `--counter` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CounterChoice {
    /// The token-budget rules' characters-per-token ratio of each file's content type (fast, rough).
    Ratios,
    /// The calibrated estimator for o200k_base (fast, about 2% off per file).
    Calibrated,
    /// Exact o200k_base counts (GPT-4o and later).
    O200k,
    /// Exact cl100k_base counts (GPT-4, GPT-3.5).
    Cl100k,
    /// The fixed ratio for code, applied to all text.
    #[value(name = "ratios:code")]
    RatiosCode,
    /// The fixed ratio for prose, applied to all text.
    #[value(name = "ratios:prose")]
    RatiosProse,
    /// The fixed ratio for YAML, applied to all text.
    #[value(name = "ratios:yaml")]
    RatiosYaml,
    /// The fixed ratio for Markdown, applied to all text.
    #[value(name = "ratios:markdown")]
    RatiosMarkdown,
}

impl CounterChoice {
    /// The default `--counter`: exact o200k_base when this build has the
    /// exact counter (feature `exact`, on by default), else `calibrated`.
    pub const DEFAULT: Self = if cfg!(feature = "exact") {
        Self::O200k
    } else {
        Self::Calibrated
    };
}

impl fmt::Display for CounterChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.to_possible_value().ok_or(fmt::Error)?;
        f.write_str(value.get_name())
    }
}

/// The `--counter` named an exact counter this build does not have.
#[derive(Debug, thiserror::Error)]
pub enum CounterError {
    /// Built without the `exact` feature.
    #[cfg(not(feature = "exact"))]
    #[error(
        "--counter {choice} needs the exact counter, which this build leaves out (rebuild budget-cli with its default feature `exact`)"
    )]
    NotBuilt {
        /// The requested counter.
        choice: CounterChoice,
    },
    /// The tokenizer failed to load its vocabulary.
    #[cfg(feature = "exact")]
    #[error("--counter {choice} could not load its tokenizer")]
    Load {
        /// The requested counter.
        choice: CounterChoice,
        /// Why.
        #[source]
        source: budget::estimate::TokenizerError,
    },
}

/// A ready counter: what it is called in reports, whether it is exact, and
/// the estimator or tokenizer doing the work.
pub struct Counter {
    choice: CounterChoice,
    backend: Backend,
}

/// What counts.
enum Backend {
    Estimator(Box<dyn Estimator>),
    Exact(ExactCounter),
}

impl fmt::Debug for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Counter")
            .field("choice", &self.choice)
            .finish_non_exhaustive()
    }
}

/// Every text as one content type, at the fixed ratio.
struct RatiosAs(ContentType);

impl Estimator for RatiosAs {
    fn estimate(&self, text: &str, _content_type: ContentType) -> u64 {
        RatioEstimator.estimate(text, self.0)
    }
}

impl Counter {
    /// Builds the counter for `choice`. This is the only place the CLI
    /// constructs counters.
    pub fn new(choice: CounterChoice) -> Result<Self, CounterError> {
        let estimator = |e: Box<dyn Estimator>| Backend::Estimator(e);
        let backend = match choice {
            CounterChoice::Ratios => estimator(Box::new(RatioEstimator)),
            CounterChoice::Calibrated => {
                estimator(Box::new(CalibratedEstimator::new(Encoding::O200kBase)))
            }
            CounterChoice::O200k => Backend::Exact(exact(choice, Encoding::O200kBase)?),
            CounterChoice::Cl100k => Backend::Exact(exact(choice, Encoding::Cl100kBase)?),
            CounterChoice::RatiosCode => estimator(Box::new(RatiosAs(ContentType::Code))),
            CounterChoice::RatiosProse => estimator(Box::new(RatiosAs(ContentType::Prose))),
            CounterChoice::RatiosYaml => estimator(Box::new(RatiosAs(ContentType::Yaml))),
            CounterChoice::RatiosMarkdown => estimator(Box::new(RatiosAs(ContentType::Markdown))),
        };
        Ok(Self { choice, backend })
    }

    /// The `--counter` value this counter was built from.
    pub fn choice(&self) -> CounterChoice {
        self.choice
    }

    /// Whether counts are exact tokenizer counts rather than estimates.
    pub fn is_exact(&self) -> bool {
        self.exact().is_some()
    }

    /// The tokenizer, when counts are exact (`o200k`, `cl100k`).
    pub fn exact(&self) -> Option<&dyn TokenCounter> {
        match &self.backend {
            Backend::Exact(counter) => Some(counter),
            Backend::Estimator(_) => None,
        }
    }

    /// The counter as an estimator, for the library.
    pub fn estimator(&self) -> &dyn Estimator {
        match &self.backend {
            Backend::Exact(counter) => counter,
            Backend::Estimator(estimator) => estimator.as_ref(),
        }
    }

    /// Tokens of `text`, read as `content_type` (exact counters ignore it).
    pub fn count(&self, text: &str, content_type: ContentType) -> u64 {
        self.estimator().estimate(text, content_type)
    }
}

#[cfg(feature = "exact")]
fn exact(choice: CounterChoice, encoding: Encoding) -> Result<ExactCounter, CounterError> {
    ExactCounter::new(encoding).map_err(|source| CounterError::Load { choice, source })
}

#[cfg(not(feature = "exact"))]
fn exact(choice: CounterChoice, _encoding: Encoding) -> Result<ExactCounter, CounterError> {
    Err(CounterError::NotBuilt { choice })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_variants_ignore_the_content_type() {
        // 12 characters: code at 3.5 chars/token → 3.4, rounded up to 4; prose at 4.0 → 3.
        let text = "abcdefghijkl";
        let code = Counter::new(CounterChoice::RatiosCode).unwrap();
        assert_eq!(code.count(text, ContentType::Prose), 4);
        let prose = Counter::new(CounterChoice::RatiosProse).unwrap();
        assert_eq!(prose.count(text, ContentType::Code), 3);
    }

    #[test]
    fn names_are_the_flag_values() {
        assert_eq!(CounterChoice::RatiosMarkdown.to_string(), "ratios:markdown");
        assert_eq!(CounterChoice::O200k.to_string(), "o200k");
    }
}
