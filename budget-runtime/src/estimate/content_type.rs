//! [`ContentType`]: the broad shape of a text, which selects its estimation ratio.

use std::fmt;

/// The broad kind of text an item holds; it selects the characters-per-token
/// ratio of the seed estimator.
///
/// | type       | characters per token |
/// |------------|----------------------|
/// | `Code`     | 3.5                  |
/// | `Prose`    | 4.0                  |
/// | `Yaml`     | 3.8                  |
/// | `Markdown` | 3.75 (mixed content, the default) |
///
/// ```
/// use budget_runtime::estimate::ContentType;
///
/// assert_eq!("yaml".parse::<ContentType>(), Ok(ContentType::Yaml));
/// assert_eq!(ContentType::default(), ContentType::Markdown);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum ContentType {
    /// Source code: 3.5 characters per token.
    Code,
    /// Natural-language prose: 4.0 characters per token.
    Prose,
    /// YAML and similar configuration: 3.8 characters per token.
    Yaml,
    /// Markdown and mixed content: 3.75 characters per token.
    #[default]
    Markdown,
}

impl ContentType {
    /// Every content type, in declaration order.
    pub const ALL: [Self; 4] = [Self::Code, Self::Prose, Self::Yaml, Self::Markdown];

    /// The lowercase name used in attributes and configuration (`"code"`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Code => "code",
            Self::Prose => "prose",
            Self::Yaml => "yaml",
            Self::Markdown => "markdown",
        }
    }

    /// The content type with this lowercase name, if any (usable in `const`).
    pub const fn from_name(name: &str) -> Option<Self> {
        match name.as_bytes() {
            b"code" => Some(Self::Code),
            b"prose" => Some(Self::Prose),
            b"yaml" => Some(Self::Yaml),
            b"markdown" => Some(Self::Markdown),
            _ => None,
        }
    }
}

impl fmt::Display for ContentType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ContentType {
    type Err = crate::estimate::UnknownContentType;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_name(s).ok_or_else(|| crate::estimate::UnknownContentType(s.to_owned()))
    }
}

/// A content-type name other than `code`, `prose`, `yaml` or `markdown`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown content type {0:?}: expected \"code\", \"prose\", \"yaml\" or \"markdown\"")]
pub struct UnknownContentType(pub String);
