//! [`ContentType`]: the broad shape of a text, which selects its estimation ratio.

use std::fmt;

use crate::UnknownName;

/// The broad kind of text an item holds; it selects the characters-per-token
/// ratio of the ratio estimator.
///
/// | type       | characters per token |
/// |------------|----------------------|
/// | `Code`     | 3.5                  |
/// | `Prose`    | 4.0                  |
/// | `Yaml`     | 3.8                  |
/// | `Markdown` | 3.75 (mixed content, the default) |
///
/// ```
/// use budget::estimate::ContentType;
///
/// assert_eq!("yaml".parse::<ContentType>(), Ok(ContentType::Yaml));
/// assert_eq!(ContentType::default(), ContentType::Markdown);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
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
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_name(s).ok_or_else(|| UnknownName {
            what: "content type",
            name: s.to_owned(),
            expected: &["code", "prose", "yaml", "markdown"],
        })
    }
}

/// The fixed ratios as exact fractions `(characters, tokens)`:
/// code 3.5 = 7/2, prose 4.0 = 4/1, yaml 3.8 = 19/5, markdown 3.75 = 15/4.
const fn ratio(content_type: ContentType) -> (u128, u128) {
    match content_type {
        ContentType::Code => (7, 2),
        ContentType::Prose => (4, 1),
        ContentType::Yaml => (19, 5),
        ContentType::Markdown => (15, 4),
    }
}

impl ContentType {
    /// Characters per token of the ratio estimator for this content type.
    ///
    /// ```
    /// use budget::estimate::ContentType;
    /// assert_eq!(ContentType::Yaml.chars_per_token(), 3.8);
    /// ```
    pub const fn chars_per_token(self) -> f64 {
        let (chars, tokens) = ratio(self);
        chars as f64 / tokens as f64
    }
}

/// Tokens for `chars` Unicode scalar values under the fixed ratio of
/// `content_type`, rounded up; exact integer arithmetic, usable in `const`.
///
/// ```
/// use budget::{estimate::{ContentType, ratio_estimate}};
///
/// const COST: u64 = ratio_estimate(1_000, ContentType::Code);
/// assert_eq!(COST, 286); // 1000 / 3.5 = 285.7…
/// assert_eq!(ratio_estimate(0, ContentType::Prose), 0);
/// ```
pub const fn ratio_estimate(chars: u64, content_type: ContentType) -> u64 {
    let (per, tokens) = ratio(content_type);
    let scaled = chars as u128 * tokens;
    let estimate = scaled.div_ceil(per);
    crate::convert::saturating_u64_from_u128(estimate)
}

/// The number of Unicode scalar values (`char`s) in `text`.
pub fn count_chars(text: &str) -> u64 {
    text.chars().count() as u64
}
