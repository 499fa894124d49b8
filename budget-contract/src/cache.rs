//! Result caching keyed by a SHA-256 content hash of every input.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use budget_runtime::payload::Sha256Digest;

use crate::{Checker, ContractError, ContractReport, PipelineConfig};

/// Whether a report came from the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CacheStatus {
    /// The inputs were unchanged; the stored report was returned.
    Hit,
    /// The inputs were new or changed; the report was computed.
    Miss,
}

/// Remembers each pipeline's last passing report and recomputes it only
/// when an input changes.
///
/// Every call re-reads the pipeline, its ancestors and its prompts (cheap)
/// and hashes them into a fingerprint ([`Sha256Digest`]); counting the fixed prompts and
/// applying the policy (the costly part with an exact tokenizer) is skipped
/// when the fingerprint matches. The estimator cannot be hashed: use one
/// cache per estimator. Errors are not cached. One entry is kept per
/// pipeline path.
///
/// ```
/// use budget::contract::{CacheStatus, Checker, ContractCache, ModelConfig, PromptStore};
///
/// let dir = std::env::temp_dir().join(format!("budget-doc-cache-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("sys.txt"), "Be brief.")?;
/// std::fs::write(dir.join("p.yaml"), "YAMLpipeline:\n  name: p\n  settings:\n    max_context_tokens: 100\n  steps:\n    - id: a\n      action: call_model\n      prompt_key: sys\n")?;
///
/// let model = ModelConfig::new(4_096, Some(256))?;
/// let prompts = PromptStore::new(&dir);
/// let checker = Checker::new(&model, &prompts);
/// let mut cache = ContractCache::new();
/// assert_eq!(cache.check(&checker, dir.join("p.yaml"))?.1, CacheStatus::Miss);
/// assert_eq!(cache.check(&checker, dir.join("p.yaml"))?.1, CacheStatus::Hit);
/// std::fs::write(dir.join("sys.txt"), "Be brief and cite sources.")?;
/// assert_eq!(cache.check(&checker, dir.join("p.yaml"))?.1, CacheStatus::Miss);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Default)]
pub struct ContractCache {
    entries: HashMap<PathBuf, (Sha256Digest, Arc<ContractReport>)>,
}

impl ContractCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks the pipeline at `path` with `checker`, reusing the stored
    /// report when no input changed.
    ///
    /// # Errors
    /// Anything [`PipelineConfig::load`] or [`Checker::check`] returns.
    pub fn check(
        &mut self,
        checker: &Checker<'_>,
        path: impl AsRef<Path>,
    ) -> Result<(Arc<ContractReport>, CacheStatus), ContractError> {
        let path = path.as_ref();
        let pipeline = PipelineConfig::load(path)?;
        let budget = checker.budget(&pipeline)?;
        let prompts = checker.load_prompts(&pipeline)?;
        let fingerprint = fingerprint(checker, &pipeline, prompts.values());
        if let Some((stored, report)) = self.entries.get(path)
            && *stored == fingerprint
        {
            return Ok((Arc::clone(report), CacheStatus::Hit));
        }
        let report = Arc::new(
            checker
                .evaluate_with(&pipeline, &budget, &prompts)?
                .enforce()?,
        );
        self.entries
            .insert(path.to_owned(), (fingerprint, Arc::clone(&report)));
        Ok((report, CacheStatus::Miss))
    }

    /// The SHA-256 fingerprint of the inputs stored for `path`, if any: every
    /// pipeline file of the `extends` chain (path and bytes), every prompt
    /// used (key, path and bytes), the model config's values, the policy
    /// and the format overhead.
    pub fn fingerprint(&self, path: impl AsRef<Path>) -> Option<Sha256Digest> {
        self.entries.get(path.as_ref()).map(|(f, _)| *f)
    }

    /// Number of pipelines with a stored report.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every stored report.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// Length-prefixed fields, so that no two different inputs hash alike.
fn fingerprint<'p>(
    checker: &Checker<'_>,
    pipeline: &PipelineConfig,
    prompts: impl Iterator<Item = &'p crate::Prompt>,
) -> Sha256Digest {
    let mut hasher = Sha256::new();
    let mut field = |tag: &str, bytes: &[u8]| {
        for part in [tag.as_bytes(), bytes] {
            hasher.update(u64::try_from(part.len()).unwrap_or(u64::MAX).to_le_bytes());
            hasher.update(part);
        }
    };
    field("version", b"budget-contract-cache-2");
    for file in pipeline.files() {
        field("pipeline-path", file.path.as_os_str().as_encoded_bytes());
        field("pipeline-sha256", file.sha256.as_bytes());
    }
    for prompt in prompts {
        field("prompt-key", prompt.key.as_bytes());
        field("prompt-path", prompt.path.as_os_str().as_encoded_bytes());
        field("prompt-text", prompt.text.as_bytes());
    }
    let model = checker.model();
    field(
        "model-context-window",
        &model.context_window().to_le_bytes(),
    );
    match model.max_tokens() {
        Some(max) => field("model-max-tokens", &max.to_le_bytes()),
        None => field("model-max-tokens-none", b""),
    }
    field("policy", checker.policy_for(pipeline).name().as_bytes());
    field("format-overhead", &checker.overhead().to_le_bytes());
    Sha256Digest::from_bytes(hasher.finalize().into())
}
