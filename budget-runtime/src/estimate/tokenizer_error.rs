//! [`TokenizerError`]: why an exact tokenizer could not be built or loaded.

#[cfg(feature = "bpe")]
use std::path::Path;

/// An exact tokenizer could not be built or loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TokenizerError {
    /// The vocabulary of `encoding` is not compiled in.
    #[error("the {encoding} vocabulary is not compiled in: enable the cargo feature `{feature}`")]
    NotCompiled {
        /// The encoding asked for.
        encoding: crate::estimate::Encoding,
        /// The cargo feature of `budget-runtime` that compiles it in.
        feature: &'static str,
    },
    /// The vocabulary's data crate is not compiled in.
    #[error("the {vocabulary} vocabulary is not compiled in: enable the cargo feature `{feature}`")]
    NotShipped {
        /// The vocabulary asked for.
        vocabulary: crate::estimate::ShippedVocabulary,
        /// The cargo feature that compiles it in.
        feature: &'static str,
    },
    /// The file is of a format whose reader is not compiled in.
    #[error("{}: a {format} needs the cargo feature `{feature}`", path.display())]
    NotCompiledFormat {
        /// The tokenizer file.
        path: std::path::PathBuf,
        /// The format it is in.
        format: &'static str,
        /// The cargo feature of `budget-runtime` that reads it.
        feature: &'static str,
    },
    /// The file could not be read.
    #[error("{}: cannot read the tokenizer file: {message}", path.display())]
    Read {
        /// The tokenizer file.
        path: std::path::PathBuf,
        /// Why.
        message: String,
    },
    /// The file is not a tokenizer of a known format.
    #[error("{}{}: {message}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    Format {
        /// The tokenizer file.
        path: std::path::PathBuf,
        /// The 1-based line, where known.
        line: Option<usize>,
        /// What is wrong.
        message: String,
    },
    /// A tiktoken rank file whose split pattern was neither given nor
    /// identified by its number of ranks.
    #[error(
        "{}: a tiktoken rank file of {ranks} ranks has no known split pattern: name one ({})",
        path.display(),
        crate::estimate::SplitPattern::NAMED.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
    )]
    UnknownPattern {
        /// The tokenizer file.
        path: std::path::PathBuf,
        /// Its number of ranks.
        ranks: usize,
    },
    /// The split pattern does not compile.
    #[error("split pattern `{pattern}` does not compile: {message}")]
    Pattern {
        /// The pattern's name.
        pattern: String,
        /// The regular expression engine's message.
        message: String,
    },
}

impl TokenizerError {
    #[cfg(feature = "bpe")]
    pub(crate) fn format(path: &Path, line: Option<usize>, message: String) -> Self {
        Self::Format {
            path: path.to_path_buf(),
            line,
            message,
        }
    }
}
