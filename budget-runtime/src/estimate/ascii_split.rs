//! [`AsciiO200kSplit`]: `o200k_base`'s pretokenizer for ASCII text, by
//! hand. The pattern's alternatives, tried in order at each position as
//! the regular expression does, reduce on ASCII (no titlecase, modifier or
//! other letters, no marks) to:
//!
//! 1. an optional prefix (any character but CR, LF, a letter or a digit),
//!    capitals, then at least one lower-case letter, then an optional
//!    contraction (`'s 't 're 've 'm 'll 'd`, any case);
//! 2. the same prefix, at least one capital, lower-case letters, an
//!    optional contraction;
//! 3. one to three digits;
//! 4. an optional space, at least one character that is no whitespace,
//!    letter or digit, then any CR, LF and `/`;
//! 5. whitespace up to and including its last CR or LF;
//! 6. whitespace not followed by a non-space: a run that ends the text,
//!    else the run but its last character;
//! 7. whitespace.
//!
//! Pieces are the regular expression's, exactly (a property test compares
//! them on random ASCII); the hand-written scan is several times faster.

/// Whitespace as the pattern's `\s` is on ASCII.
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

/// The pieces of an ASCII text under `o200k_base`'s pattern.
pub(crate) struct AsciiO200kSplit<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> AsciiO200kSplit<'t> {
    /// The splitter of `text`, which must be ASCII.
    pub(crate) fn new(text: &'t str) -> Self {
        debug_assert!(text.is_ascii());
        Self { text, at: 0 }
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
        // 1 and 2: letters, after an optional prefix.
        let start = if !is_letter(c) && !c.is_ascii_digit() && c != b'\r' && c != b'\n' {
            i + 1
        } else {
            i
        };
        let capitals = run(start, |x| x.is_ascii_uppercase());
        let lower = run(capitals, |x| x.is_ascii_lowercase());
        if lower > capitals || capitals > start {
            return contraction(b, lower);
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
            return run(end, |x| matches!(x, b'\r' | b'\n' | b'/'));
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

impl<'t> Iterator for AsciiO200kSplit<'t> {
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

#[cfg(all(test, feature = "o200k"))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The pieces tiktoken's own engine finds: the pattern, look-ahead
    /// and all, on a backtracking engine (`fancy-regex`), match after match.
    fn regex_pieces(text: &str) -> Vec<&str> {
        thread_local! {
            static PATTERN: fancy_regex::Regex =
                fancy_regex::Regex::new(crate::estimate::SplitPattern::O200K.regex()).unwrap();
        }
        PATTERN.with(|pattern| {
            pattern
                .find_iter(text)
                .map(|found| found.unwrap().as_str())
                .collect()
        })
    }

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
        ];
        for text in cases {
            assert_eq!(
                AsciiO200kSplit::new(text).collect::<Vec<_>>(),
                regex_pieces(text),
                "{text:?}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]
        /// Every ASCII text, and texts from the characters the pattern
        /// treats apart, split as the regular expression splits them.
        #[test]
        fn pieces_are_the_regular_expressions(
            text in prop_oneof![
                "[\\x00-\\x7f]{0,60}",
                "([a-zA-Z]{1,4}|['sStTrRvVeElLmMdD]{1,3}|[0-9]{1,5}|[ \\t\\n\\r\\x0b\\x0c]{1,4}|[/.,;(){}\\[\\]<>!?*#-]{1,3}|\\x00|\\x7f){0,20}",
            ],
        ) {
            prop_assert_eq!(AsciiO200kSplit::new(&text).collect::<Vec<_>>(), regex_pieces(&text));
        }
    }
}
