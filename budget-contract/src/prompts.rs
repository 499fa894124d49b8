//! Prompt lookup: a `call_model` step's `prompt_key` names the file
//! `<prompts_dir>/<prompt_key>.txt`.

use std::path::{Path, PathBuf};

use thiserror::Error;

use budget_runtime::file::ReadError;

use crate::read_config_file;

/// `settings.prompts_dir` when a pipeline sets none.
pub const DEFAULT_PROMPTS_DIR: &str = "prompts";

/// Where prompt files are found.
///
/// [`PromptStore::new`] uses one folder for every pipeline (what
/// `budget check --prompts DIR` does). [`PromptStore::from_settings`]
/// follows each pipeline's `settings.prompts_dir` (default `prompts`),
/// relative to a base folder, as the LocalAI-RAG runtime does from its
/// working directory.
///
/// Keys are `/`-separated segments of ASCII letters, digits, `_`, `-` and
/// `.`; empty segments, `.` and `..` are rejected, so a key cannot leave the
/// folder.
///
/// ```
/// use budget::contract::PromptStore;
///
/// let dir = std::env::temp_dir().join(format!("budget-doc-prompts-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("prompts/rejewski"))?;
/// std::fs::write(dir.join("prompts/rejewski/router_v1.txt"), "You route questions.")?;
///
/// let fixed = PromptStore::new(dir.join("prompts"));
/// assert_eq!(fixed.load("rejewski/router_v1", None)?.text, "You route questions.");
/// let per_pipeline = PromptStore::from_settings(&dir);
/// assert_eq!(per_pipeline.folder(None), dir.join("prompts"));
/// assert_eq!(per_pipeline.folder(Some("prompts_v2")), dir.join("prompts_v2"));
/// assert!(fixed.load("../secrets", None).is_err());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptStore {
    dir: PathBuf,
    follow_settings: bool,
}

/// A loaded prompt file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Prompt {
    /// The key it was looked up by.
    pub key: String,
    /// The file it was read from.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
}

/// A prompt that could not be loaded.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PromptFileError {
    /// The key could name a file outside the folder.
    #[error("invalid prompt key {key:?}: {reason}")]
    InvalidKey {
        /// The key.
        key: String,
        /// Why it is rejected.
        reason: &'static str,
    },
    /// The file is missing, not a regular file, too large or not UTF-8.
    #[error("cannot read prompt {}: {source}", path.display())]
    Read {
        /// The file looked for.
        path: PathBuf,
        /// Why it failed.
        source: ReadError,
    },
}

impl PromptStore {
    /// A store over the folder `dir` for every pipeline (nothing is read
    /// until a prompt is loaded).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            follow_settings: false,
        }
    }

    /// A store that uses each pipeline's `settings.prompts_dir` (default
    /// [`DEFAULT_PROMPTS_DIR`]), relative to `base` unless absolute.
    pub fn from_settings(base: impl Into<PathBuf>) -> Self {
        Self {
            dir: base.into(),
            follow_settings: true,
        }
    }

    /// Whether each pipeline's `settings.prompts_dir` is followed
    /// ([`from_settings`](Self::from_settings)) rather than one folder used
    /// for all ([`new`](Self::new)).
    pub fn follows_settings(&self) -> bool {
        self.follow_settings
    }

    /// The folder searched for a pipeline whose `settings.prompts_dir` is
    /// `prompts_dir`.
    pub fn folder(&self, prompts_dir: Option<&str>) -> PathBuf {
        if self.follow_settings {
            self.dir.join(prompts_dir.unwrap_or(DEFAULT_PROMPTS_DIR))
        } else {
            self.dir.clone()
        }
    }

    /// Reads the prompt for `key` (see [`PromptStore::folder`]).
    ///
    /// # Errors
    /// [`PromptFileError`]: an invalid key or an unreadable file.
    pub fn load(&self, key: &str, prompts_dir: Option<&str>) -> Result<Prompt, PromptFileError> {
        validate_key(key)?;
        let path = self.folder(prompts_dir).join(format!("{key}.txt"));
        match read_config_file(&path) {
            Ok(text) => Ok(Prompt {
                key: key.to_owned(),
                path,
                text,
            }),
            Err(source) => Err(PromptFileError::Read { path, source }),
        }
    }

    /// The folder given at construction.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

fn validate_key(key: &str) -> Result<(), PromptFileError> {
    let invalid = |reason| PromptFileError::InvalidKey {
        key: key.to_owned(),
        reason,
    };
    if key.is_empty() {
        return Err(invalid("it is empty"));
    }
    for segment in key.split('/') {
        if segment.is_empty() {
            return Err(invalid("it has an empty path segment"));
        }
        if segment == "." || segment == ".." {
            return Err(invalid("`.` and `..` segments are not allowed"));
        }
        if !segment
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        {
            return Err(invalid(
                "only ASCII letters, digits, `_`, `-`, `.` and `/` are allowed",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_prompt_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let err = PromptStore::new(dir.path()).load("nope", None).unwrap_err();
        assert!(
            matches!(&err, PromptFileError::Read { path, source } if path.ends_with("nope.txt") && source.is_not_found())
        );
    }

    #[test]
    fn keys_cannot_escape_the_folder() {
        for key in [
            "",
            "/etc/passwd",
            "a//b",
            "../x",
            "a/./b",
            "a b",
            "a\\b",
            "ä",
        ] {
            assert!(
                matches!(validate_key(key), Err(PromptFileError::InvalidKey { .. })),
                "{key:?} was accepted"
            );
        }
        for key in ["a", "rejewski/router_v1", "v1.2/sys-prompt_x"] {
            assert!(validate_key(key).is_ok(), "{key:?} was rejected");
        }
    }
}
