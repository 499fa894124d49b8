//! Hugging Face `tokenizer.json` files, counted with the `tokenizers` crate
//! (feature `huggingface`).

use std::path::Path;

use crate::estimate::TokenizerError;

/// A tokenizer read from a `tokenizer.json`.
pub(crate) struct HfTokenizer(tokenizers::Tokenizer);

impl HfTokenizer {
    /// The tokenizer described by `json`, read from `path`.
    pub(crate) fn from_json(json: &str, path: &Path) -> Result<Self, TokenizerError> {
        json.parse::<tokenizers::Tokenizer>()
            .map(Self)
            .map_err(|e| TokenizerError::format(path, None, format!("not a tokenizer.json: {e}")))
    }

    /// The tokens of `text` without special tokens (no BOS/EOS added);
    /// `u64::MAX` if the tokenizer fails on it.
    pub(crate) fn count(&self, text: &str) -> u64 {
        match self.0.encode_fast(text, false) {
            Ok(encoding) => u64::try_from(encoding.len()).unwrap_or(u64::MAX),
            Err(error) => {
                tracing::warn!(%error, "tokenizer.json failed to encode a text; counted as u64::MAX");
                u64::MAX
            }
        }
    }
}
