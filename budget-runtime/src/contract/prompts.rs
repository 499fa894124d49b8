//! Prompt lookup: system prompts are text files in a folder, found by key.

use std::path::{Path, PathBuf};

use crate::error::ContractError;
use crate::model::ContentType;

/// File extensions tried for a prompt key, in order, with the content type
/// used to estimate the file.
const EXTENSIONS: [(&str, ContentType); 2] =
    [("txt", ContentType::Prose), ("md", ContentType::Markdown)];

/// A folder of prompt files. The key `support/answer` resolves to
/// `<dir>/support/answer.txt`, else `<dir>/support/answer.md`.
///
/// Keys are `/`-separated segments of ASCII letters, digits, `_`, `-` and
/// `.`; empty segments, `.` and `..` are rejected, so a key cannot leave the
/// folder.
///
/// ```
/// use budget_runtime::ContentType;
/// use budget_runtime::contract::PromptStore;
///
/// let dir = std::env::temp_dir().join(format!("budget-doc-prompts-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("support"))?;
/// std::fs::write(dir.join("support/answer.md"), "# Role\nYou answer support questions.")?;
///
/// let store = PromptStore::new(&dir);
/// let prompt = store.load("support/answer")?;
/// assert_eq!(prompt.content_type, ContentType::Markdown);
/// assert!(prompt.text.starts_with("# Role"));
/// assert!(store.load("../secrets").is_err());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptStore {
    dir: PathBuf,
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
    /// `Prose` for `.txt`, `Markdown` for `.md`.
    pub content_type: ContentType,
}

impl PromptStore {
    /// A store over the folder `dir` (not read until a prompt is loaded).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Reads the prompt for `key`.
    ///
    /// # Errors
    /// [`ContractError::InvalidPromptKey`], [`ContractError::PromptNotFound`]
    /// or [`ContractError::Read`] (including non-UTF-8 content).
    pub fn load(&self, key: &str) -> Result<Prompt, ContractError> {
        validate_key(key)?;
        for (extension, content_type) in EXTENSIONS {
            let path = self.dir.join(format!("{key}.{extension}"));
            match std::fs::read_to_string(&path) {
                Ok(text) => {
                    return Ok(Prompt {
                        key: key.to_owned(),
                        path,
                        text,
                        content_type,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(source) => return Err(ContractError::Read { path, source }),
            }
        }
        Err(ContractError::PromptNotFound {
            key: key.to_owned(),
            dir: self.dir.clone(),
        })
    }
}

fn validate_key(key: &str) -> Result<(), ContractError> {
    let invalid = |reason| ContractError::InvalidPromptKey {
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
    fn txt_is_preferred_over_md() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "plain").unwrap();
        std::fs::write(dir.path().join("a.md"), "# md").unwrap();
        let prompt = PromptStore::new(dir.path()).load("a").unwrap();
        assert_eq!(prompt.text, "plain");
        assert_eq!(prompt.content_type, ContentType::Prose);
        assert_eq!(prompt.path, dir.path().join("a.txt"));
    }

    #[test]
    fn missing_prompt_names_key_and_folder() {
        let dir = tempfile::tempdir().unwrap();
        let err = PromptStore::new(dir.path()).load("nope").unwrap_err();
        assert!(matches!(&err, ContractError::PromptNotFound { key, .. } if key == "nope"));
        assert!(err.to_string().contains("nope.txt or nope.md"), "{err}");
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
                matches!(
                    validate_key(key),
                    Err(ContractError::InvalidPromptKey { .. })
                ),
                "{key:?} was accepted"
            );
        }
        for key in ["a", "support/answer", "v1.2/sys-prompt_x"] {
            assert!(validate_key(key).is_ok(), "{key:?} was rejected");
        }
    }
}
