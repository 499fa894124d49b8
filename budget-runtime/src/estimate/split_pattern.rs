//! [`SplitPattern`]: how a byte-pair tokenizer cuts text into pieces before
//! it encodes each piece.

use std::borrow::Cow;

/// The pretokenization of a byte-pair tokenizer: the regular expression
/// that splits text into pieces (words, numbers, punctuation, whitespace),
/// and whether the text is first put in Unicode normal form C. A tiktoken
/// rank file holds only the vocabulary; its split pattern comes from the
/// model's own tokenizer code, so counts are exact only with the right one.
///
/// ```
/// use budget::estimate::SplitPattern;
///
/// assert_eq!(SplitPattern::LLAMA3.name(), "llama3");
/// assert!(SplitPattern::QWEN.nfc());
/// assert_eq!(SplitPattern::for_vocabulary_size(128_000), Some(SplitPattern::LLAMA3));
/// assert_eq!(SplitPattern::from_name("tekken"), Some(SplitPattern::TEKKEN));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SplitPattern {
    name: Cow<'static, str>,
    regex: Cow<'static, str>,
    nfc: bool,
}

/// `cl100k_base`'s pattern: contractions, letter runs, numbers of up to
/// three digits, punctuation runs, newlines, whitespace.
const CL100K_REGEX: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// `o200k_base`'s pattern: case-aware letter runs with contractions.
const O200K_REGEX: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
);

/// Qwen's pattern: `cl100k_base`'s with single digits.
const QWEN_REGEX: &str = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+";

/// Mistral's tekken pattern: `o200k_base`'s without contractions, single digits.
const TEKKEN_REGEX: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*",
    r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
);

/// The trailing alternatives of every tiktoken-style pattern: whitespace not
/// followed by a non-space, else any whitespace.
#[cfg(feature = "bpe")]
const LOOKAHEAD_TAIL: &str = r"|\s+(?!\S)|\s+";

impl SplitPattern {
    /// Llama 3 (`llama3`): `cl100k_base`'s pattern, as Meta's
    /// `llama_models` tokenizer sets it; 128,000 ranks.
    pub const LLAMA3: Self = Self::known("llama3", CL100K_REGEX, false);
    /// Llama 4 (`llama4`): `o200k_base`'s pattern; 200,000 ranks.
    pub const LLAMA4: Self = Self::known("llama4", O200K_REGEX, false);
    /// Qwen 1 to 3 (`qwen`): single digits and NFC normalisation, as Qwen's
    /// tokenizer code sets it; 151,643 ranks (`qwen.tiktoken`).
    pub const QWEN: Self = Self::known("qwen", QWEN_REGEX, true);
    /// Mistral's tekken (`tekken`); tekken files also carry their pattern.
    pub const TEKKEN: Self = Self::known("tekken", TEKKEN_REGEX, false);
    /// `cl100k_base` (`cl100k`), for rank files of that encoding.
    pub const CL100K: Self = Self::known("cl100k", CL100K_REGEX, false);
    /// `o200k_base` (`o200k`), for rank files of that encoding.
    pub const O200K: Self = Self::known("o200k", O200K_REGEX, false);

    /// Every named pattern, for lookups and messages.
    pub const NAMED: [Self; 6] = [
        Self::LLAMA3,
        Self::LLAMA4,
        Self::QWEN,
        Self::TEKKEN,
        Self::CL100K,
        Self::O200K,
    ];

    const fn known(name: &'static str, regex: &'static str, nfc: bool) -> Self {
        Self {
            name: Cow::Borrowed(name),
            regex: Cow::Borrowed(regex),
            nfc,
        }
    }

    /// A pattern of your own: a tiktoken-style regular expression (Python
    /// `regex` syntax; the only look-around it may use is a final
    /// `|\s+(?!\S)|\s+`), and whether text is NFC-normalised first. It is
    /// compiled when a tokenizer is built with it.
    ///
    /// ```
    /// use budget::estimate::SplitPattern;
    /// let words = SplitPattern::custom("words", r"\S+|\s+", false);
    /// assert_eq!(words.regex(), r"\S+|\s+");
    /// ```
    pub fn custom(name: impl Into<String>, regex: impl Into<String>, nfc: bool) -> Self {
        Self {
            name: Cow::Owned(name.into()),
            regex: Cow::Owned(regex.into()),
            nfc,
        }
    }

    /// The named pattern (`llama3`, `llama4`, `qwen`, `tekken`, `cl100k`,
    /// `o200k`), if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::NAMED.into_iter().find(|p| p.name == name)
    }

    /// The pattern of the tiktoken rank file with this many ranks, for the
    /// files the models publish: 100,256 (`cl100k_base`), 128,000 (Llama 3),
    /// 151,643 (Qwen), 199,998 (`o200k_base`), 200,000 (Llama 4).
    pub fn for_vocabulary_size(ranks: usize) -> Option<Self> {
        match ranks {
            100_256 => Some(Self::CL100K),
            128_000 => Some(Self::LLAMA3),
            151_643 => Some(Self::QWEN),
            199_998 => Some(Self::O200K),
            200_000 => Some(Self::LLAMA4),
            _ => None,
        }
    }

    /// The pattern's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The regular expression, in tiktoken's (Python `regex`) syntax.
    pub fn regex(&self) -> &str {
        &self.regex
    }

    /// Whether text is put in Unicode normal form C before it is split.
    pub fn nfc(&self) -> bool {
        self.nfc
    }

    /// The pattern as look-ahead-free parts for the linear-time splitter:
    /// `\s+(?!\S)` becomes `\s+$` in the first part and the one-character
    /// pseudo look-ahead `\s+\s` in the second (its last character is given
    /// back); other patterns stay whole.
    #[cfg(feature = "bpe")]
    pub(crate) fn lookahead_parts(&self) -> Vec<(String, bool)> {
        match self.regex.strip_suffix(LOOKAHEAD_TAIL) {
            Some(head) => vec![
                (format!(r"{head}|\s+$"), false),
                (r"\s+\s".to_owned(), true),
                (r"\s+".to_owned(), false),
            ],
            None => vec![(self.regex.to_string(), false)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_patterns_round_trip() {
        for pattern in SplitPattern::NAMED {
            assert_eq!(
                SplitPattern::from_name(pattern.name()),
                Some(pattern.clone())
            );
        }
        assert_eq!(SplitPattern::from_name("gpt2"), None);
    }

    #[cfg(feature = "bpe")]
    #[test]
    fn named_patterns_end_in_the_lookahead_tail() {
        for pattern in SplitPattern::NAMED {
            assert_eq!(pattern.lookahead_parts().len(), 3, "{}", pattern.name());
        }
    }

    #[cfg(feature = "bpe")]
    #[test]
    fn a_pattern_without_lookahead_stays_whole() {
        let parts = SplitPattern::custom("x", r"\w+|\W+", false).lookahead_parts();
        assert_eq!(parts, [(r"\w+|\W+".to_owned(), false)]);
    }
}
