//! [`Counting`]: what the files' tokens are counted with.

use budget_runtime::estimate::{ContentType, Estimator, TokenCounter};

/// What `pack` and `count` count tokens with, and what reports call it.
///
/// With an exact counter, `pack` gives every file its guaranteed upper
/// bound and counts exactly only what the payload can hold; the payload is
/// the one counting every file would give.
///
/// ```
/// use budget_pack::Counting;
/// use budget_runtime::estimate::RatioEstimator;
///
/// let counting = Counting::estimated("ratios", &RatioEstimator);
/// assert!(!counting.is_exact());
/// ```
#[derive(Clone, Copy)]
pub struct Counting<'a> {
    name: &'a str,
    label: &'a str,
    exact: Option<&'a dyn TokenCounter>,
    estimator: &'a dyn Estimator,
}

impl std::fmt::Debug for Counting<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Counting")
            .field("name", &self.name)
            .field("exact", &self.exact.is_some())
            .finish_non_exhaustive()
    }
}

impl<'a> Counting<'a> {
    /// Counting with `estimator`, exact when `exact` (the same counter,
    /// as a tokenizer) is given, called `name`.
    pub fn new(
        name: &'a str,
        estimator: &'a dyn Estimator,
        exact: Option<&'a dyn TokenCounter>,
    ) -> Self {
        Self {
            name,
            label: name,
            exact,
            estimator,
        }
    }

    /// Exact counts with `counter` (also its estimator), called `name`.
    pub fn exact<C: TokenCounter>(name: &'a str, counter: &'a C) -> Self {
        Self {
            name,
            label: name,
            exact: Some(counter),
            estimator: counter,
        }
    }

    /// Estimates with `estimator`, called `name`.
    pub fn estimated(name: &'a str, estimator: &'a dyn Estimator) -> Self {
        Self {
            name,
            label: name,
            exact: None,
            estimator,
        }
    }

    /// The same counting, described as `label` in messages (for example
    /// the flag that chose it, or the model's tokenizer); the name stays
    /// what reports give.
    #[must_use]
    pub fn labelled(mut self, label: &'a str) -> Self {
        self.label = label;
        self
    }

    /// Its name, as reports give it (`o200k`).
    pub fn name(&self) -> &str {
        self.name
    }

    /// How messages describe it.
    pub fn label(&self) -> &str {
        self.label
    }

    /// Whether counts are exact.
    pub fn is_exact(&self) -> bool {
        self.exact.is_some()
    }

    /// The exact counter, if counts are exact.
    pub fn exact_counter(&self) -> Option<&'a dyn TokenCounter> {
        self.exact
    }

    /// The estimator (the exact counter's, if counts are exact).
    pub fn estimator(&self) -> &'a dyn Estimator {
        self.estimator
    }

    /// The tokens of `text` read as `content_type` (an exact counter
    /// ignores it).
    pub fn count(&self, text: &str, content_type: ContentType) -> u64 {
        self.estimator.estimate(text, content_type)
    }
}
