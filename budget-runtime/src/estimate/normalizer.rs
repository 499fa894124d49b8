//! [`Normalizer`]: what a tokenizer does to text before it cuts it, as a
//! `tokenizer.json`'s `normalizer` says.

use std::borrow::Cow;

use regex_automata::meta::Regex;
use unicode_normalization::UnicodeNormalization;

/// One normalization step.
pub(crate) enum Normalizer {
    /// Unicode normal form C.
    Nfc,
    /// Unicode normal form D.
    Nfd,
    /// Unicode normal form KC.
    Nfkc,
    /// Unicode normal form KD.
    Nfkd,
    /// Lower case.
    Lowercase,
    /// This text before non-empty text.
    Prepend(String),
    /// Every match of a literal or pattern replaced by `content`.
    Replace {
        /// What is replaced.
        pattern: ReplacePattern,
        /// What replaces it.
        content: String,
    },
    /// Whitespace removed at the start and/or end.
    Strip {
        /// At the start.
        left: bool,
        /// At the end.
        right: bool,
    },
}

/// What a [`Normalizer::Replace`] looks for.
pub(crate) enum ReplacePattern {
    /// A literal string.
    Literal(String),
    /// A regular expression.
    Regex(Regex),
}

impl Normalizer {
    /// `text` normalized.
    pub(crate) fn apply<'t>(&self, text: Cow<'t, str>) -> Cow<'t, str> {
        match self {
            Self::Nfc if !text.is_ascii() => Cow::Owned(text.nfc().collect()),
            Self::Nfd if !text.is_ascii() => Cow::Owned(text.nfd().collect()),
            Self::Nfkc if !text.is_ascii() => Cow::Owned(text.nfkc().collect()),
            Self::Nfkd if !text.is_ascii() => Cow::Owned(text.nfkd().collect()),
            Self::Nfc | Self::Nfd | Self::Nfkc | Self::Nfkd => text,
            Self::Lowercase => Cow::Owned(text.to_lowercase()),
            Self::Prepend(prefix) if !text.is_empty() => Cow::Owned(format!("{prefix}{text}")),
            Self::Prepend(_) => text,
            Self::Replace { pattern, content } => match pattern {
                ReplacePattern::Literal(literal) if text.contains(literal.as_str()) => {
                    Cow::Owned(text.replace(literal.as_str(), content))
                }
                ReplacePattern::Literal(_) => text,
                ReplacePattern::Regex(regex) => {
                    let mut out = String::with_capacity(text.len());
                    let mut last = 0;
                    for found in regex.find_iter(text.as_ref()) {
                        out.push_str(&text[last..found.start()]);
                        out.push_str(content);
                        last = found.end();
                    }
                    if last == 0 {
                        return text;
                    }
                    out.push_str(&text[last..]);
                    Cow::Owned(out)
                }
            },
            Self::Strip { left, right } => {
                let mut slice: &str = text.as_ref();
                if *left {
                    slice = slice.trim_start();
                }
                if *right {
                    slice = slice.trim_end();
                }
                if slice.len() == text.len() {
                    text
                } else {
                    Cow::Owned(slice.to_owned())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_do_what_they_say() {
        let run = |n: Normalizer, t: &str| n.apply(Cow::Borrowed(t)).into_owned();
        assert_eq!(run(Normalizer::Nfc, "e\u{301}"), "é");
        assert_eq!(run(Normalizer::Nfkc, "ﬁ"), "fi");
        assert_eq!(run(Normalizer::Prepend("▁".into()), "a"), "▁a");
        assert_eq!(run(Normalizer::Prepend("▁".into()), ""), "");
        let replace = Normalizer::Replace {
            pattern: ReplacePattern::Literal(" ".into()),
            content: "▁".into(),
        };
        assert_eq!(run(replace, "a b "), "a▁b▁");
        let collapse = Normalizer::Replace {
            pattern: ReplacePattern::Regex(Regex::new(" {2,}").unwrap()),
            content: " ".into(),
        };
        assert_eq!(run(collapse, "a   b  c"), "a b c");
        let strip = Normalizer::Strip {
            left: true,
            right: false,
        };
        assert_eq!(run(strip, "  a "), "a ");
        assert_eq!(run(Normalizer::Lowercase, "ÀB"), "àb");
    }
}
