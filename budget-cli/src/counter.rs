//! The token counter a command counts with: the one place a `--counter`
//! choice becomes an [`Estimator`].

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use budget::profile::{ModelProfile, ModelRegistry, TokenizerSpec};
use budget::{
    Estimator,
    estimate::{
        CalibratedEstimator, ContentType, Encoding, ExactCounter, RatioEstimator, TokenCounter,
    },
};
use budget_pack::{CachedCounter, CountCache};
use clap::ValueEnum;

/// A `--counter` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CounterChoice {
    /// The token-budget rules' characters-per-token ratio of each file's content type (fast, rough).
    Ratios,
    /// The calibrated estimator for o200k_base (fast; about 2% off on code and English on average, up to 43% under on other languages).
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
    /// An unknown `--model`, or its tokenizer file failed to load.
    #[error("--model: {0}")]
    Model(#[source] budget::profile::ProfileError),
    /// The `--tokenizer` file failed to load.
    #[error("--tokenizer: {0}")]
    Tokenizer(#[source] budget::estimate::TokenizerError),
    /// The `--models-dir` folder or its model failed.
    #[error("--models-dir: {0}")]
    LocalAi(#[from] crate::localai::LocalAiError),
    /// A model of the `--models-dir` folder the registry does not know, and
    /// whose config gives no `context_size`.
    #[error(
        "--models-dir: {name} is not a known model and its LocalAI config gives no `context_size`: add one, or describe it with --models"
    )]
    NoWindow {
        /// The model.
        name: String,
    },
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
/// the estimator or tokenizer doing the work; with `--model`, the model.
pub struct Counter {
    name: String,
    /// Built from `--counter` (not `--model` or `--tokenizer`).
    from_flag: bool,
    /// Its counts depend on nothing but this program's version (a
    /// compiled-in vocabulary, not a file), so they can be cached.
    builtin: bool,
    backend: Backend,
    model: Option<ModelProfile>,
}

/// What counts.
enum Backend {
    Estimator(Arc<dyn Estimator>),
    Exact(ExactCounter),
}

impl fmt::Debug for Counter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Counter")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

/// What a command counts with: `--counter`, or `--model` and `--tokenizer`.
#[derive(Clone, Debug, Default)]
pub struct CounterRequest<'a> {
    /// `--model`: a name or alias of the built-in registry.
    pub model: Option<&'a str>,
    /// `--tokenizer`: a tokenizer file.
    pub tokenizer: Option<&'a Path>,
    /// `--models`: profiles of the user's, added to the built-in ones.
    pub models: Option<&'a Path>,
    /// `--models-dir`: a LocalAI models folder the model is looked for in.
    pub models_dir: Option<&'a Path>,
}

/// Every text as one content type, at the fixed ratio.
struct RatiosAs(ContentType);

impl Estimator for RatiosAs {
    fn estimate(&self, text: &str, _content_type: ContentType) -> u64 {
        RatioEstimator.estimate(text, self.0)
    }
}

impl Counter {
    /// Builds the counter a command asked for: the tokenizer file of
    /// `--tokenizer` (split by the `--model`'s pattern if it names one), else
    /// the `--model`'s counter (exact where its tokenizer is compiled in or
    /// in the local Hugging Face cache, else its documented estimate), else
    /// `choice`. This is the only place the CLI constructs counters.
    pub fn resolve(
        choice: CounterChoice,
        request: &CounterRequest<'_>,
    ) -> Result<Self, CounterError> {
        let mut registry = ModelRegistry::builtin();
        if let (Some(path), Some(_)) = (request.models, request.model) {
            let text = read_models(path)?;
            registry
                .extend_from_toml(&text, path)
                .map_err(CounterError::Model)?;
        }
        if let (Some(name), Some(dir), None) =
            (request.model, request.models_dir, request.tokenizer)
            && let Some(found) = crate::localai::find(dir, name)?
        {
            return Self::local(name, &found, &registry);
        }
        let model = match request.model {
            Some(name) => Some(registry.lookup(name).map_err(CounterError::Model)?.clone()),
            None => None,
        };
        if let Some(path) = request.tokenizer {
            let pattern = model.as_ref().and_then(|m| match &m.tokenizer {
                TokenizerSpec::File { pattern, .. } => pattern.clone(),
                _ => None,
            });
            let exact = from_file(path, pattern)?;
            return Ok(Self {
                name: format!("{} (exact)", exact.name()),
                from_flag: false,
                builtin: false,
                backend: Backend::Exact(exact),
                model,
            });
        }
        if let Some(profile) = model {
            let resolved = profile
                .counter()
                .map_err(|source| CounterError::Model(source.into()))?;
            let backend = match resolved.exact {
                Some(exact) => Backend::Exact(exact),
                None => Backend::Estimator(resolved.counter),
            };
            return Ok(Self {
                name: resolved.description,
                from_flag: false,
                builtin: matches!(profile.tokenizer, TokenizerSpec::OpenAi(_)),
                backend,
                model: Some(profile),
            });
        }
        Self::new(choice)
    }

    /// The counter of a model found in a LocalAI folder: its file, exact;
    /// the registry's profile of the same name, else one with the config's
    /// context size as its window (a quarter kept for the reply).
    fn local(
        name: &str,
        found: &crate::localai::LocalAiModel,
        registry: &ModelRegistry,
    ) -> Result<Self, CounterError> {
        let exact = from_file(&found.file, None)?;
        let mut profile = match (registry.get(name), found.context_size) {
            (Some(known), _) => known.clone(),
            (None, Some(window)) => ModelProfile::new(
                name,
                window,
                window / 4,
                TokenizerSpec::Estimate { margin: 1.0 },
                budget::chat::ChatTemplate::ChatMl,
            ),
            (None, None) => {
                return Err(CounterError::NoWindow {
                    name: name.to_owned(),
                });
            }
        };
        if let Some(window) = found.context_size {
            profile.context_window = window;
            profile.max_output_tokens = profile.max_output_tokens.min(window);
        }
        profile.tokenizer = TokenizerSpec::File {
            hf_repo: String::new(),
            files: Vec::new(),
            path: Some(found.file.clone()),
            pattern: None,
            shipped: None,
            margin: 1.0,
        };
        Ok(Self {
            name: format!("localai {} (exact)", exact.name()),
            from_flag: false,
            builtin: false,
            backend: Backend::Exact(exact),
            model: Some(profile),
        })
    }

    /// Builds the counter for `choice`.
    pub fn new(choice: CounterChoice) -> Result<Self, CounterError> {
        let estimator = |e: Arc<dyn Estimator>| Backend::Estimator(e);
        let backend = match choice {
            CounterChoice::Ratios => estimator(Arc::new(RatioEstimator)),
            CounterChoice::Calibrated => {
                estimator(Arc::new(CalibratedEstimator::new(Encoding::O200kBase)))
            }
            CounterChoice::O200k => Backend::Exact(exact(choice, Encoding::O200kBase)?),
            CounterChoice::Cl100k => Backend::Exact(exact(choice, Encoding::Cl100kBase)?),
            CounterChoice::RatiosCode => estimator(Arc::new(RatiosAs(ContentType::Code))),
            CounterChoice::RatiosProse => estimator(Arc::new(RatiosAs(ContentType::Prose))),
            CounterChoice::RatiosYaml => estimator(Arc::new(RatiosAs(ContentType::Yaml))),
            CounterChoice::RatiosMarkdown => estimator(Arc::new(RatiosAs(ContentType::Markdown))),
        };
        Ok(Self {
            name: choice.to_string(),
            from_flag: true,
            builtin: true,
            backend,
            model: None,
        })
    }

    /// What counts, for reports: the `--counter` value (`o200k`), or the
    /// model's counter (`llama3.tiktoken (exact)`, `o200k_base x 1.5
    /// (estimate: …)`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What counts, for messages: `--counter o200k`, or the model's counter.
    pub fn label(&self) -> String {
        if self.from_flag {
            format!("--counter {}", self.name)
        } else {
            self.name.clone()
        }
    }

    /// The `--model`'s profile.
    pub fn model(&self) -> Option<&ModelProfile> {
        self.model.as_ref()
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

    /// This counter for the pack engine, described as `label` (from
    /// [`label`](Self::label)) in its messages; with `cached`, the counts
    /// of files and outlines go through it, while the payload as rendered
    /// is still counted by the tokenizer itself (so no count in the cache
    /// can make it overflow).
    pub fn counting<'a>(
        &'a self,
        label: &'a str,
        cached: Option<&'a CachedCounter<'a>>,
    ) -> budget_pack::Counting<'a> {
        let exact = match cached {
            Some(cached) => Some(cached as &dyn TokenCounter),
            None => self.exact(),
        };
        budget_pack::Counting::new(&self.name, self.estimator(), exact).labelled(label)
    }

    /// The cache of this counter's exact counts in `dir`
    /// ([`crate::cache::dir`]), unless its counts are estimates or come
    /// from a tokenizer file (which can change under the same name).
    pub fn count_cache(&self, dir: Option<&Path>) -> Option<CountCache> {
        let Backend::Exact(exact) = &self.backend else {
            return None;
        };
        let dir = dir.filter(|_| self.builtin)?;
        let identity = format!("{} budget {}", exact.name(), env!("CARGO_PKG_VERSION"));
        Some(CountCache::open(dir, &identity))
    }

    /// This counter's tokenizer answering from `cache` (from
    /// [`count_cache`](Self::count_cache)), if there is one.
    pub fn cached<'a>(&'a self, cache: Option<&'a CountCache>) -> Option<CachedCounter<'a>> {
        cache
            .zip(self.exact())
            .map(|(cache, exact)| cache.counter(exact))
    }
}

/// The largest `--models` file read.
const MAX_MODELS_BYTES: u64 = 1 << 20;

/// The text of the `--models` file, read up to 1 MiB (a regular file
/// only; errors never quote it).
fn read_models(path: &Path) -> Result<String, CounterError> {
    budget::file::read_text(path, MAX_MODELS_BYTES).map_err(|e| {
        CounterError::Model(budget::profile::ProfileError::File {
            path: path.to_path_buf(),
            line: 0,
            message: e.to_string(),
        })
    })
}

#[cfg(feature = "exact")]
fn from_file(
    path: &Path,
    pattern: Option<budget::estimate::SplitPattern>,
) -> Result<ExactCounter, CounterError> {
    ExactCounter::from_file(path, pattern).map_err(CounterError::Tokenizer)
}

#[cfg(not(feature = "exact"))]
fn from_file(
    path: &Path,
    _pattern: Option<budget::estimate::SplitPattern>,
) -> Result<ExactCounter, CounterError> {
    Err(CounterError::Tokenizer(
        budget::estimate::TokenizerError::NotCompiledFormat {
            path: path.to_path_buf(),
            format: "tokenizer file",
            feature: "exact",
        },
    ))
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
    fn fixed_ratio_variants_ignore_the_content_type() {
        // 12 characters: code at 3.5 chars/token → 3.4, rounded up to 4; prose at 4.0 → 3.
        let text = "abcdefghijkl";
        let code = Counter::new(CounterChoice::RatiosCode).unwrap();
        assert_eq!(code.estimator().estimate(text, ContentType::Prose), 4);
        let prose = Counter::new(CounterChoice::RatiosProse).unwrap();
        assert_eq!(prose.estimator().estimate(text, ContentType::Code), 3);
    }

    #[test]
    fn names_are_the_flag_values() {
        assert_eq!(CounterChoice::RatiosMarkdown.to_string(), "ratios:markdown");
        assert_eq!(CounterChoice::O200k.to_string(), "o200k");
    }
}
