//! [`ProfileCounter`]: the counter a [`ModelProfile`] counts with.

use std::sync::Arc;

use crate::profile::{MarginEstimator, ModelProfile, TokenizerSpec};
use budget_runtime::estimate::{
    CalibratedEstimator, Encoding, Estimator, ExactCounter, TokenizerError,
};

/// The counter of a model, what kind of count it gives, and what it is.
///
/// ```
/// use budget::profile::ModelRegistry;
///
/// let registry = ModelRegistry::builtin();
/// let gpt4o = registry.get("gpt-4o").unwrap().counter()?;
/// assert!(gpt4o.exact.is_some());
/// assert_eq!(gpt4o.description, "o200k_base (exact)");
/// let claude = registry.get("claude-sonnet-4-5").unwrap().counter()?;
/// assert!(claude.exact.is_none());
/// assert_eq!(claude.description, "o200k_base x 1.5 (estimate: no public tokenizer)");
/// # Ok::<(), budget::estimate::TokenizerError>(())
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct ProfileCounter {
    /// Counts every text of a request to this model.
    pub counter: Arc<dyn Estimator>,
    /// The model's own tokenizer, when counts are exact (the same counter
    /// as `counter`, as a tokenizer).
    pub exact: Option<ExactCounter>,
    /// What counts: `o200k_base (exact)`, `tokenizer.json (exact)`,
    /// `o200k_base x 2.7 (estimate: …)`.
    pub description: String,
}

impl std::fmt::Debug for ProfileCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProfileCounter")
            .field("exact", &self.exact.is_some())
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl ModelProfile {
    /// The counter for this model:
    /// * an OpenAI encoding: exact, compiled in (without its feature, the
    ///   UTF-8 length, which no tokenizer's count exceeds);
    /// * a tokenizer file: exact, from the profile's `path`, else from the
    ///   local Hugging Face cache, else from the GGUF of the model pulled
    ///   into Ollama under one of its `name:tag` names
    ///   ([`ollama_model_file`](budget_runtime::estimate::ollama_model_file)), else
    ///   from the vocabulary compiled in ([`ExactCounter::shipped`]; Gemma 3
    ///   and Gemini, Qwen, DeepSeek V3, Mistral tekken, Llama 3, Llama 4,
    ///   each behind its `vocab-*` feature); if none is there (or the
    ///   reader is not compiled in), `o200k_base` times the profile's
    ///   margin;
    /// * no public tokenizer: `o200k_base` times the margin.
    ///
    /// # Errors
    /// A [`TokenizerError`] if the profile's `path` is set and the file
    /// cannot be read as a tokenizer. Files found in the cache that fail to
    /// load are skipped with a warning.
    pub fn counter(&self) -> Result<ProfileCounter, TokenizerError> {
        match &self.tokenizer {
            TokenizerSpec::OpenAi(encoding) => Ok(openai(*encoding)),
            TokenizerSpec::File {
                hf_repo,
                files,
                path,
                pattern,
                shipped,
                margin,
            } => {
                if let Some(path) = path {
                    return from_file(path, pattern.clone());
                }
                let mut unusable = None;
                for file in files {
                    let Some(found) = budget_runtime::estimate::hf_cache_file(hf_repo, file) else {
                        continue;
                    };
                    match from_file(&found, pattern.clone()) {
                        Ok(mut counter) => {
                            counter.description = format!("{hf_repo} {}", counter.description);
                            return Ok(counter);
                        }
                        Err(error) => {
                            tracing::warn!(%error, "skipping a cached tokenizer file");
                            unusable.get_or_insert(error);
                        }
                    }
                }
                // A model pulled into Ollama under one of its names.
                let tags = std::iter::once(&self.name).chain(&self.aliases);
                for tag in tags.filter(|t| t.contains(':')) {
                    let Some(found) = budget_runtime::estimate::ollama_model_file(tag) else {
                        continue;
                    };
                    match from_file(&found, pattern.clone()) {
                        Ok(mut counter) => {
                            counter.description = format!("ollama {tag} GGUF (exact)");
                            return Ok(counter);
                        }
                        Err(error) => {
                            tracing::warn!(%error, "skipping an Ollama model file");
                            unusable.get_or_insert(error);
                        }
                    }
                }
                // The compiled-in copy of the same vocabulary, after the
                // files: a model on disk is the one the user runs (a
                // fine-tune under the same tag may add tokens).
                if let Some(Ok(exact)) = shipped.map(ExactCounter::shipped) {
                    return Ok(ProfileCounter {
                        description: format!("{} (exact, compiled in)", exact.name()),
                        counter: Arc::new(exact.clone()),
                        exact: Some(exact),
                    });
                }
                let mut why = match unusable {
                    Some(error) => format!("the local tokenizer cannot be used: {error}"),
                    None => format!(
                        "no tokenizer file of {hf_repo} found in the Hugging Face cache or Ollama's store: give its path"
                    ),
                };
                if let Some(vocabulary) = shipped {
                    why += &format!(
                        ", or build with the cargo feature `{}`",
                        vocabulary.feature()
                    );
                }
                Ok(scaled(*margin, &why))
            }
            TokenizerSpec::Estimate { margin } => Ok(scaled(*margin, "no public tokenizer")),
        }
    }
}

fn from_file(
    path: &std::path::Path,
    pattern: Option<budget_runtime::estimate::SplitPattern>,
) -> Result<ProfileCounter, TokenizerError> {
    let counter = ExactCounter::from_file(path, pattern)?;
    Ok(ProfileCounter {
        description: format!("{} (exact)", counter.name()),
        counter: Arc::new(counter.clone()),
        exact: Some(counter),
    })
}

/// The compiled-in encoding, or the UTF-8 length without it.
fn openai(encoding: Encoding) -> ProfileCounter {
    match ExactCounter::new(encoding) {
        Ok(exact) => ProfileCounter {
            counter: Arc::new(exact.clone()),
            exact: Some(exact),
            description: format!("{encoding} (exact)"),
        },
        Err(_) => ProfileCounter {
            counter: Arc::new(CalibratedEstimator::upper_bound(encoding)),
            exact: None,
            description: format!(
                "UTF-8 length (upper bound: the {encoding} vocabulary is not compiled in)"
            ),
        },
    }
}

/// `o200k_base` times `margin`, or the UTF-8 length without `o200k_base`.
fn scaled(margin: f64, why: &str) -> ProfileCounter {
    match ExactCounter::new(Encoding::O200kBase) {
        Ok(exact) => ProfileCounter {
            counter: Arc::new(MarginEstimator::new(Arc::new(exact), margin)),
            exact: None,
            description: format!("o200k_base x {margin} (estimate: {why})"),
        },
        Err(_) => ProfileCounter {
            counter: Arc::new(CalibratedEstimator::upper_bound(Encoding::O200kBase)),
            exact: None,
            description: format!("UTF-8 length (upper bound: {why})"),
        },
    }
}
