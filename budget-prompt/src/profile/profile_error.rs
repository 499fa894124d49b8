//! [`ProfileError`]: a model that could not be looked up or counted.

use budget_runtime::estimate::TokenizerError;

/// A model name that names no profile, or a profile whose tokenizer file
/// cannot be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProfileError {
    /// No profile has this name or alias.
    #[error("unknown model {name:?}{}", suggestion.as_ref().map(|s| format!(" (did you mean {s:?}?)")).unwrap_or_default())]
    UnknownModel {
        /// The name asked for.
        name: String,
        /// The closest known name, if one is close.
        suggestion: Option<String>,
    },
    /// The profile's tokenizer file cannot be read.
    #[error(transparent)]
    Tokenizer(#[from] TokenizerError),
    /// A profile file (TOML) that cannot be used.
    #[error("{}:{line}: {message}", path.display())]
    File {
        /// The file.
        path: std::path::PathBuf,
        /// The 1-based line of the model's table (0 when unknown).
        line: usize,
        /// What is wrong.
        message: String,
    },
}
