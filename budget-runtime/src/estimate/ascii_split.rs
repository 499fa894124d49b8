//! [`AsciiSplit`]: the pretokenizers of `o200k_base` and `cl100k_base` for
//! ASCII text, by hand. Each pattern's alternatives, tried in order at
//! each position as the regular expression does, reduce on ASCII (no
//! titlecase, modifier or other letters, no marks) to:
//!
//! - `o200k_base`:
//!   1. an optional prefix (any character but CR, LF, a letter or a
//!      digit), capitals, then at least one lower-case letter, then an
//!      optional contraction (`'s 't 're 've 'm 'll 'd`, any case);
//!   2. the same prefix, at least one capital, lower-case letters, an
//!      optional contraction;
//! - `cl100k_base`:
//!   1. a contraction, any case;
//!   2. the same prefix as above, then at least one letter;
//!
//! and then, for both:
//!
//! 3. one to three digits;
//! 4. an optional space, at least one character that is no whitespace,
//!    letter or digit, then any CR and LF (and, in `o200k_base`, `/`);
//! 5. whitespace up to and including its last CR or LF;
//! 6. whitespace not followed by a non-space: a run that ends the text,
//!    else the run but its last character;
//! 7. whitespace.
//!
//! Pieces are the regular expressions', exactly (property tests compare
//! them on random ASCII); the hand-written scan is several times faster.

use std::ops::ControlFlow;

use crate::estimate::SplitPattern;
use crate::estimate::safe_cut::ascii_parts;
use crate::estimate::split_regex::Splitter;

/// Whitespace as the patterns' `\s` is on ASCII.
const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

const fn is_letter(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

/// Neither whitespace, letter nor digit.
const fn is_other(b: u8) -> bool {
    !is_space(b) && !b.is_ascii_alphanumeric()
}

/// Which pattern an [`AsciiSplit`] follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AsciiPattern {
    /// `o200k_base`'s (also Llama 4's).
    O200k,
    /// `cl100k_base`'s (also Llama 3's).
    Cl100k,
}

impl AsciiPattern {
    /// The scan that splits ASCII text as `pattern` does, if there is one
    /// (`o200k_base`'s and `cl100k_base`'s patterns, whoever uses them).
    pub(crate) fn of(pattern: &SplitPattern) -> Option<Self> {
        if pattern.regex() == SplitPattern::O200K.regex() {
            Some(Self::O200k)
        } else if pattern.regex() == SplitPattern::CL100K.regex() {
            Some(Self::Cl100k)
        } else {
            None
        }
    }
}

/// The pieces of an ASCII text under a pattern's rules.
pub(crate) struct AsciiSplit<'t> {
    text: &'t str,
    at: usize,
    pattern: AsciiPattern,
}

impl<'t> AsciiSplit<'t> {
    /// The splitter of `text`, which must be ASCII, by `pattern`.
    pub(crate) fn new(text: &'t str, pattern: AsciiPattern) -> Self {
        debug_assert!(text.is_ascii());
        Self {
            text,
            at: 0,
            pattern,
        }
    }

    /// The end of the piece starting at `i` (`i` < the text's length).
    fn piece_end(&self, i: usize) -> usize {
        let b = self.text.as_bytes();
        let n = b.len();
        let run = |mut j: usize, class: fn(u8) -> bool| {
            while j < n && class(b[j]) {
                j += 1;
            }
            j
        };
        let c = b[i];
        // The prefix a run of letters may take.
        let start = if !is_letter(c) && !c.is_ascii_digit() && c != b'\r' && c != b'\n' {
            i + 1
        } else {
            i
        };
        match self.pattern {
            // 1 and 2: letters, after an optional prefix.
            AsciiPattern::O200k => {
                let capitals = run(start, |x| x.is_ascii_uppercase());
                let lower = run(capitals, |x| x.is_ascii_lowercase());
                if lower > capitals || capitals > start {
                    return contraction(b, lower);
                }
            }
            // 1: a contraction; 2: letters, after an optional prefix.
            AsciiPattern::Cl100k => {
                let contracted = contraction(b, i);
                if contracted > i {
                    return contracted;
                }
                let letters = run(start, is_letter);
                if letters > start {
                    return letters;
                }
            }
        }
        // 3: digits, at most three: looking no further keeps a long run of
        // digits linear.
        if c.is_ascii_digit() {
            let mut end = i + 1;
            while end < n.min(i + 3) && b[end].is_ascii_digit() {
                end += 1;
            }
            return end;
        }
        // 4: punctuation, after an optional space.
        let first = if c == b' ' && i + 1 < n && is_other(b[i + 1]) {
            i + 1
        } else {
            i
        };
        if is_other(b[first]) {
            let end = run(first, is_other);
            return match self.pattern {
                AsciiPattern::O200k => run(end, |x| matches!(x, b'\r' | b'\n' | b'/')),
                AsciiPattern::Cl100k => run(end, |x| matches!(x, b'\r' | b'\n')),
            };
        }
        // 5 to 7: whitespace (every other character is).
        let end = run(i, is_space);
        if let Some(last) = b[i..end].iter().rposition(|&x| x == b'\r' || x == b'\n') {
            return i + last + 1;
        }
        if end == n || end - i == 1 {
            end
        } else {
            end - 1
        }
    }
}

/// Gives `each` the pieces of `text` under the pattern whose ASCII scan
/// is `ascii`, in order, until it breaks: ASCII stretches between safe
/// cuts by the scan, the rest (a name, a `©`) by the pattern compiled
/// (`splitter`, asked for only then); the pieces are the whole's. The
/// stretches are found as they are read: a count that stops early reads
/// no further.
pub(crate) fn try_for_each_piece<'t>(
    text: &'t str,
    ascii: AsciiPattern,
    splitter: impl Fn() -> &'t Splitter,
    mut each: impl FnMut(&'t str) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for (part, is_ascii) in ascii_parts(text) {
        if is_ascii {
            AsciiSplit::new(part, ascii).try_for_each(&mut each)?;
        } else {
            splitter().split(part).try_for_each(&mut each)?;
        }
    }
    ControlFlow::Continue(())
}

/// The end of a contraction starting at `at`, or `at` when there is none.
fn contraction(b: &[u8], at: usize) -> usize {
    if b.get(at) != Some(&b'\'') {
        return at;
    }
    let lower = |k: usize| b.get(at + k).map(u8::to_ascii_lowercase);
    match (lower(1), lower(2)) {
        (Some(b's' | b't' | b'm' | b'd'), _) => at + 2,
        (Some(b'r' | b'v'), Some(b'e')) | (Some(b'l'), Some(b'l')) => at + 3,
        _ => at,
    }
}

impl<'t> Iterator for AsciiSplit<'t> {
    type Item = &'t str;

    fn next(&mut self) -> Option<&'t str> {
        let start = self.at;
        if start >= self.text.len() {
            return None;
        }
        let end = self.piece_end(start);
        self.at = end;
        Some(&self.text[start..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The pieces tiktoken's own engine finds: the pattern, look-ahead
    /// and all, on a backtracking engine (`fancy-regex`), match after match.
    fn regex_pieces(pattern: AsciiPattern, text: &str) -> Vec<&str> {
        thread_local! {
            static O200K: fancy_regex::Regex =
                fancy_regex::Regex::new(SplitPattern::O200K.regex()).unwrap();
            static CL100K: fancy_regex::Regex =
                fancy_regex::Regex::new(SplitPattern::CL100K.regex()).unwrap();
        }
        let key = match pattern {
            AsciiPattern::O200k => &O200K,
            AsciiPattern::Cl100k => &CL100K,
        };
        key.with(|regex| {
            regex
                .find_iter(text)
                .map(|found| found.unwrap().as_str())
                .collect()
        })
    }

    const PATTERNS: [AsciiPattern; 2] = [AsciiPattern::O200k, AsciiPattern::Cl100k];

    #[test]
    fn known_splits() {
        let cases = [
            "Hello, world! It's 12345 o'clock.\n\n  fn main() {\n\tlet x = 1;\n}\n",
            "HELLOworld helloWorld DON'T I'LL we'Re  \r\n\r\n  /* c */ ../a/b\n/",
            "   ",
            "a  ",
            " \n \n x",
            "x\x0b\x0cy\x00\x1f\x7f(hello)'s",
            "1234567890123 45 6 78901234567x9",
            "'s's 'sfoo 'LLama ''re x'' 've",
        ];
        for pattern in PATTERNS {
            for text in cases {
                assert_eq!(
                    AsciiSplit::new(text, pattern).collect::<Vec<_>>(),
                    regex_pieces(pattern, text),
                    "{pattern:?} {text:?}"
                );
            }
        }
        // Where the two differ: contractions, case changes, `/`.
        let text = "don't HTTPServer a//b";
        assert_eq!(
            AsciiSplit::new(text, AsciiPattern::O200k).collect::<Vec<_>>(),
            ["don't", " HTTPServer", " a", "//", "b"]
        );
        assert_eq!(
            AsciiSplit::new(text, AsciiPattern::Cl100k).collect::<Vec<_>>(),
            ["don", "'t", " HTTPServer", " a", "//", "b"]
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]
        /// Every ASCII text, and texts from the characters the patterns
        /// treat apart, split as the regular expressions split them.
        #[test]
        fn pieces_are_the_regular_expressions(
            text in prop_oneof![
                "[\\x00-\\x7f]{0,60}",
                "([a-zA-Z]{1,4}|['sStTrRvVeElLmMdD]{1,3}|[0-9]{1,5}|[ \\t\\n\\r\\x0b\\x0c]{1,4}|[/.,;(){}\\[\\]<>!?*#-]{1,3}|\\x00|\\x7f){0,20}",
            ],
        ) {
            for pattern in PATTERNS {
                prop_assert_eq!(
                    AsciiSplit::new(&text, pattern).collect::<Vec<_>>(),
                    regex_pieces(pattern, &text),
                    "{:?}", pattern
                );
            }
        }
    }
}
