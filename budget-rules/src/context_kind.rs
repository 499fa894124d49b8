//! [`ContextKind`]: what sort of thing an item is, compared case-insensitively.

use std::borrow::Cow;
use std::fmt;
use std::hash::{Hash, Hasher};

/// An extensible, case-insensitive kind label such as `"Message"` or `"ToolOutput"`.
///
/// Equality, ordering and hashing fold ASCII case, so `"message"` and
/// `"Message"` are the same kind. The well-known kinds of the Cupel
/// specification are associated constants; any other non-blank label is
/// accepted too.
///
/// ```
/// use budget::ContextKind;
///
/// let kind = ContextKind::new("toolOUTPUT")?;
/// assert_eq!(kind, ContextKind::TOOL_OUTPUT);
/// assert_eq!(kind.as_str(), "toolOUTPUT");
/// # Ok::<(), budget::model::ContextKindError>(())
/// ```
#[derive(Clone)]
pub struct ContextKind(Cow<'static, str>);

impl ContextKind {
    /// A conversational message (the default kind).
    pub const MESSAGE: Self = Self::from_static("Message");
    /// A document or file content.
    pub const DOCUMENT: Self = Self::from_static("Document");
    /// Output from a tool invocation.
    pub const TOOL_OUTPUT: Self = Self::from_static("ToolOutput");
    /// A stored memory or fact.
    pub const MEMORY: Self = Self::from_static("Memory");
    /// A system-level instruction.
    pub const SYSTEM_PROMPT: Self = Self::from_static("SystemPrompt");

    /// The five well-known kinds of the Cupel specification.
    pub const WELL_KNOWN: [Self; 5] = [
        Self::MESSAGE,
        Self::DOCUMENT,
        Self::TOOL_OUTPUT,
        Self::MEMORY,
        Self::SYSTEM_PROMPT,
    ];

    /// A kind from a static label, usable in `const` context.
    ///
    /// # Panics
    /// Panics (at compile time when used in a `const`) if `label` is empty or
    /// only whitespace (Unicode `White_Space`).
    pub const fn from_static(label: &'static str) -> Self {
        assert!(!is_blank(label), "ContextKind label must not be blank");
        Self(Cow::Borrowed(label))
    }

    /// A kind from any label.
    ///
    /// # Errors
    /// [`ContextKindError::Blank`] if the label is empty or whitespace only
    /// (Unicode `White_Space`, so `"\u{3000}"` is blank too).
    pub fn new(label: impl Into<Cow<'static, str>>) -> Result<Self, ContextKindError> {
        let label = label.into();
        if is_blank(&label) {
            return Err(ContextKindError::Blank);
        }
        Ok(Self(label))
    }

    /// The label as it was given (case preserved).
    pub const fn as_str(&self) -> &str {
        match &self.0 {
            Cow::Borrowed(label) => label,
            Cow::Owned(label) => label.as_str(),
        }
    }
}

/// Whether `label` is empty or only Unicode whitespace (`char::is_whitespace`:
/// ASCII blanks, NEL, no-break and ideographic spaces, line and paragraph
/// separators, …).
const fn is_blank(label: &str) -> bool {
    let bytes = label.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let (c, len) = decode_utf8(bytes, i);
        if !c.is_whitespace() {
            return false;
        }
        i += len;
    }
    true
}

/// The character starting at byte `i` of the valid UTF-8 in `bytes`, and
/// its length in bytes (`str::chars` is not `const`). The `u8 as u32`
/// casts are lossless; `u32::from` cannot be called in a `const fn`.
const fn decode_utf8(bytes: &[u8], i: usize) -> (char, usize) {
    let lead = bytes[i];
    let (len, initial) = match lead {
        0x00..=0x7f => (1, lead as u32),
        0xc0..=0xdf => (2, (lead & 0x1f) as u32),
        0xe0..=0xef => (3, (lead & 0x0f) as u32),
        _ => (4, (lead & 0x07) as u32),
    };
    let mut code = initial;
    let mut k = 1;
    while k < len {
        code = code << 6 | (bytes[i + k] & 0x3f) as u32;
        k += 1;
    }
    match char::from_u32(code) {
        Some(c) => (c, len),
        None => (char::REPLACEMENT_CHARACTER, len),
    }
}

impl Default for ContextKind {
    /// [`ContextKind::MESSAGE`].
    fn default() -> Self {
        Self::MESSAGE
    }
}

impl PartialEq for ContextKind {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.as_str(), other.as_str());
        // Labels usually share their spelling: try the plain comparison first.
        a.len() == b.len() && (a == b || a.eq_ignore_ascii_case(b))
    }
}

impl Eq for ContextKind {}

impl PartialEq<str> for ContextKind {
    fn eq(&self, other: &str) -> bool {
        self.0.eq_ignore_ascii_case(other)
    }
}

impl PartialEq<&str> for ContextKind {
    fn eq(&self, other: &&str) -> bool {
        self.0.eq_ignore_ascii_case(other)
    }
}

impl Hash for ContextKind {
    /// Hashes the ASCII-lowercased label, eight bytes per write.
    fn hash<H: Hasher>(&self, state: &mut H) {
        let bytes = self.as_str().as_bytes();
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            for (slot, byte) in word.iter_mut().zip(chunk) {
                *slot = byte.to_ascii_lowercase();
            }
            state.write_u64(u64::from_le_bytes(word));
        }
        state.write_usize(bytes.len());
    }
}

impl PartialOrd for ContextKind {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ContextKind {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        let lhs = self.0.bytes().map(|b| b.to_ascii_lowercase());
        let rhs = other.0.bytes().map(|b| b.to_ascii_lowercase());
        lhs.cmp(rhs)
    }
}

impl fmt::Debug for ContextKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for ContextKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for ContextKind {
    type Err = ContextKindError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::new(s.to_owned())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for ContextKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for ContextKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let label = String::deserialize(deserializer)?;
        Self::new(label).map_err(serde::de::Error::custom)
    }
}

/// A [`ContextKind`] label was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ContextKindError {
    /// The label was empty or whitespace only.
    #[error("a ContextKind label must not be empty or whitespace only")]
    Blank,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn comparison_folds_ascii_case() {
        let kinds = ["Message", "message", "MESSAGE", "mEsSaGe"];
        for label in kinds {
            assert_eq!(ContextKind::new(label).unwrap(), ContextKind::MESSAGE);
        }
        let set: HashSet<ContextKind> = kinds
            .iter()
            .map(|k| ContextKind::new(*k).unwrap())
            .collect();
        assert_eq!(set.len(), 1);
        assert_ne!(ContextKind::MESSAGE, ContextKind::DOCUMENT);
    }

    #[test]
    fn blank_labels_are_rejected() {
        assert_eq!(ContextKind::new(""), Err(ContextKindError::Blank));
        assert_eq!(ContextKind::new(" \t\n"), Err(ContextKindError::Blank));
        assert!(ContextKind::new("Custom").is_ok());
    }

    #[test]
    fn ordering_is_case_insensitive() {
        let a = ContextKind::new("alpha").unwrap();
        let b = ContextKind::new("BETA").unwrap();
        assert!(a < b);
        assert_eq!(
            a.cmp(&ContextKind::new("ALPHA").unwrap()),
            std::cmp::Ordering::Equal
        );
    }

    /// Audit row: `"\u{3000}"` was accepted, the blank check was ASCII-only.
    #[test]
    fn unicode_blank_labels_are_rejected() {
        for blank in ["\u{3000}", "\u{2003}\u{85}", " \u{a0}\t", "\u{2028}"] {
            assert_eq!(
                ContextKind::new(blank),
                Err(ContextKindError::Blank),
                "{blank:?}"
            );
        }
        assert!(ContextKind::new("\u{3000}x").is_ok());
        // Zero-width space is not whitespace in Unicode: a (strange) label.
        assert!(ContextKind::new("\u{200b}").is_ok());
    }
}
