//! [`Splitter`]: a tokenizer's split pattern compiled without look-around.
//!
//! Tokenizer patterns are written for backtracking engines (Python `regex`,
//! Oniguruma); the only look-around the published ones use is a final
//! `|\s+(?!\S)|\s+`. It is emulated ([`SplitPattern::lookahead_parts`]) so
//! that the pattern runs on a linear-time engine.

use regex_automata::{Anchored, Input, meta::Regex};

use crate::estimate::{SplitPattern, TokenizerError};

/// A compiled split pattern.
pub(crate) struct Splitter {
    regex: Regex,
    /// Per pattern: whether its last character is a look-ahead to give back.
    lookahead: Vec<bool>,
}

impl Splitter {
    /// `pattern` compiled; a pattern the engine cannot run (another
    /// look-around, a back-reference) is [`TokenizerError::Pattern`].
    pub(crate) fn new(pattern: &SplitPattern) -> Result<Self, TokenizerError> {
        let parts = pattern.lookahead_parts();
        let regexes: Vec<&str> = parts.iter().map(|(p, _)| p.as_str()).collect();
        let regex = Regex::new_many(&regexes).map_err(|e| TokenizerError::Pattern {
            pattern: pattern.name().to_owned(),
            message: e.to_string(),
        })?;
        Ok(Self {
            regex,
            lookahead: parts.iter().map(|(_, l)| *l).collect(),
        })
    }

    /// The pieces of `text` the way tiktoken cuts it, in order, covering all
    /// of it: a match at each position, or where the pattern matches
    /// nothing (or only a look-ahead), one character.
    pub(crate) fn split<'t>(&'t self, text: &'t str) -> impl Iterator<Item = &'t str> + 't {
        let mut at = 0;
        std::iter::from_fn(move || {
            let rest = text.get(at..).filter(|r| !r.is_empty())?;
            let mut len = self
                .find_in(Input::new(rest).anchored(Anchored::Yes), rest)
                .map_or(0, |(_, end)| end);
            if len == 0 {
                len = rest.chars().next().map_or(rest.len(), char::len_utf8);
            }
            at += len;
            Some(&rest[..len])
        })
    }

    /// The non-empty matches of the pattern in `text`, leftmost first, as
    /// byte ranges (what `tokenizers`' `Split` finds).
    pub(crate) fn matches<'t>(
        &'t self,
        text: &'t str,
    ) -> impl Iterator<Item = (usize, usize)> + 't {
        let mut at = 0;
        std::iter::from_fn(move || {
            while at < text.len() {
                let (start, end) = self.find_in(Input::new(text).range(at..), text)?;
                if end > start {
                    at = end;
                    return Some((start, end));
                }
                // An empty match: look again one character on.
                at = start + text[start..].chars().next().map_or(1, char::len_utf8);
            }
            None
        })
    }

    /// The first match in `input` over `text`, its look-ahead given back.
    fn find_in(&self, input: Input<'_>, text: &str) -> Option<(usize, usize)> {
        let found = self.regex.find(input)?;
        let mut end = found.end();
        if self.lookahead[found.pattern().as_usize()] {
            end -= text[..end].chars().next_back().map_or(0, char::len_utf8);
        }
        Some((found.start(), end.max(found.start())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_cover_the_text() {
        let splitter = Splitter::new(&SplitPattern::CL100K).unwrap();
        for text in ["Hello, world!  \n\n x", "  a", "a  ", "'s 1234 ..."] {
            assert_eq!(splitter.split(text).collect::<String>(), text);
        }
        let pieces: Vec<_> = splitter.split("a   b").collect();
        assert_eq!(pieces, ["a", "  ", " b"]); // whitespace before a word gives it a space
        let narrow = Splitter::new(&SplitPattern::custom("letters", r"\p{L}+", false)).unwrap();
        assert_eq!(narrow.split("ab12").collect::<Vec<_>>(), ["ab", "1", "2"]);
    }

    #[test]
    fn matches_skip_what_the_pattern_does_not_match() {
        let digits = Splitter::new(&SplitPattern::custom("d", r"\p{N}{1,3}", false)).unwrap();
        let found: Vec<_> = digits.matches("ab12345 x9").collect();
        assert_eq!(found, [(2, 5), (5, 7), (9, 10)]);
        // The look-ahead tail: a space run before a word leaves it one space.
        let cl100k = Splitter::new(&SplitPattern::CL100K).unwrap();
        let text = "a   b  ";
        let found: Vec<_> = cl100k.matches(text).map(|(s, e)| &text[s..e]).collect();
        assert_eq!(found, ["a", "  ", " b", "  "]);
    }
}
