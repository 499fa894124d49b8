//! Where a text may be cut so that the pretokenizer splits its parts as it
//! splits the whole. Neither `o200k_base`'s nor `cl100k_base`'s pattern
//! looks behind, so a point no piece spans is such a place. Two kinds are
//! used:
//!
//! - right after a line feed, when the whitespace that follows it (spaces
//!   and tabs: an indent) ends in a character that is not whitespace, and,
//!   with no indent, not `/`. A whitespace run's piece ends at its last line
//!   break, and a punctuation run's trailing `[\r\n/]*` (`/` only in
//!   `o200k_base`) stops at the first space or tab;
//! - between a visible ASCII character and a space: the piece that holds
//!   the character is of letters (and marks and a contraction, `'s`), of
//!   digits or of punctuation, and none of these goes on past a space.
//!
//! Indented code has few of the first kind (only its unindented lines) and
//! prose many of the second: a non-ASCII character is then split by the
//! pattern with a word or two around it, not with the block it is in.

/// Whether `at` is such a point of `text`.
pub(crate) fn is_safe_cut(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    match (
        at.checked_sub(1).and_then(|before| bytes.get(before)),
        bytes.get(at),
    ) {
        (Some(b'\n'), Some(_)) => {
            let indent = bytes[at..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            // A line feed is ASCII: `at` is a character boundary, and so is
            // the end of the indent.
            text[at + indent..]
                .chars()
                .next()
                .is_some_and(|next| !next.is_whitespace() && (indent > 0 || next != '/'))
        }
        (Some(before), Some(b' ')) => before.is_ascii_graphic(),
        _ => false,
    }
}

/// How far past a part's start, in bytes, [`ascii_parts`] looks for its
/// end before it cuts an ASCII stretch at a safe point: a count that stops
/// early (a small limit on a large file) reads little past where it stops.
const LOOKAHEAD: usize = 4096;

/// `text` in consecutive parts, cut at safe points, each either all ASCII
/// or holding a non-ASCII character (and then as short as the safe points
/// around its non-ASCII characters allow), with whether it is ASCII; found
/// as they are read, so a count that stops early reads no further.
pub(crate) fn ascii_parts(text: &str) -> AsciiParts<'_> {
    ascii_parts_within(text, LOOKAHEAD)
}

/// [`ascii_parts`], looking `lookahead` bytes ahead.
fn ascii_parts_within(text: &str, lookahead: usize) -> AsciiParts<'_> {
    AsciiParts {
        text,
        start: 0,
        pending: None,
        lookahead: lookahead.max(1),
    }
}

/// The iterator [`ascii_parts`] returns.
pub(crate) struct AsciiParts<'t> {
    text: &'t str,
    /// Where the next part after `pending` starts.
    start: usize,
    /// A non-ASCII part found after the ASCII part last given.
    pending: Option<&'t str>,
    /// How far past `start` the next part's end is looked for first.
    lookahead: usize,
}

/// The offset of the first non-ASCII byte of `bytes`, checked a block at a
/// time (many bytes per instruction).
fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    let mut offset = 0;
    for block in bytes.chunks(64) {
        if !block.is_ascii() {
            return block
                .iter()
                .position(|b| !b.is_ascii())
                .map(|at| offset + at);
        }
        offset += block.len();
    }
    None
}

impl<'t> Iterator for AsciiParts<'t> {
    type Item = (&'t str, bool);

    fn next(&mut self) -> Option<(&'t str, bool)> {
        if let Some(part) = self.pending.take() {
            return Some((part, false));
        }
        let (text, start) = (self.text, self.start);
        let bytes = text.as_bytes();
        if start == bytes.len() {
            return None;
        }
        let ahead = start.saturating_add(self.lookahead).min(bytes.len());
        let found = match first_non_ascii(&bytes[start..ahead]) {
            Some(offset) => Some(start + offset),
            None if ahead == bytes.len() => None,
            None => {
                // ASCII as far as it looked: the part ends at the last safe
                // point there, if there is one.
                if let Some(cut) = (start + 1..=ahead).rev().find(|&at| is_safe_cut(text, at)) {
                    self.start = cut;
                    return Some((&text[start..cut], true));
                }
                first_non_ascii(&bytes[ahead..]).map(|offset| ahead + offset)
            }
        };
        let Some(wide) = found else {
            self.start = bytes.len();
            return Some((&text[start..], true));
        };
        // The last safe point at or before the character, not before `start`.
        let mut from = wide;
        while from > start && !is_safe_cut(text, from) {
            from -= 1;
        }
        // The first safe point after it.
        let mut to = wide + 1;
        while to < bytes.len() && !is_safe_cut(text, to) {
            to += 1;
        }
        self.start = to;
        // Safe points follow an ASCII line feed: char boundaries.
        let wide_part = &text[from..to];
        if from > start {
            self.pending = Some(wide_part);
            Some((&text[start..from], true))
        } else {
            Some((wide_part, false))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cuts(text: &str) -> Vec<usize> {
        (0..=text.len())
            .filter(|&at| is_safe_cut(text, at))
            .collect()
    }

    #[test]
    fn cuts_follow_a_line_feed_before_a_word_or_an_indented_word() {
        // Not before a line that starts with `/`, an indent that ends the
        // text or another line feed, nor after the last line feed of one.
        assert_eq!(cuts("ab\ncd\n ef\n/gh\nij"), [3, 6, 14]);
        assert_eq!(cuts("a:\n\t  /x\n  \n  \u{a0}y\n  "), [3]);
        assert_eq!(cuts("\n\nx"), [2]);
    }

    #[test]
    fn cuts_fall_between_a_visible_ascii_character_and_a_space() {
        assert_eq!(cuts("it's ok  é 1 z"), [4, 7, 13]);
        assert_eq!(cuts("f(a, b) -> c"), [4, 7, 10]);
        assert!(cuts("Zoë a").is_empty());
        assert_eq!(cuts("a "), [1]);
    }

    #[test]
    fn non_ascii_words_are_parts_of_their_own() {
        // A word is cut at its spaces, an indented line at its indent.
        let cases = [
            (
                "a = 1\nname = 'Zoë'\nb = 2\nc = 3\n",
                [
                    ("a = 1\nname =", true),
                    (" 'Zoë'\n", false),
                    ("b = 2\nc = 3\n", true),
                ],
            ),
            (
                "class A:\n    x = 'ß'\n    y = 2\n",
                [
                    ("class A:\n    x =", true),
                    (" 'ß'\n", false),
                    ("    y = 2\n", true),
                ],
            ),
        ];
        for (text, parts) in cases {
            assert_eq!(ascii_parts(text).collect::<Vec<_>>(), parts, "{text:?}");
        }
        assert_eq!(ascii_parts("é").collect::<Vec<_>>(), [("é", false)]);
        assert_eq!(ascii_parts("").next(), None);
    }

    #[test]
    fn the_first_non_ascii_byte_is_found_past_a_block() {
        let text = format!("{}é{}", "a".repeat(130), "b".repeat(70));
        assert_eq!(first_non_ascii(text.as_bytes()), Some(130));
        assert_eq!(first_non_ascii(&text.as_bytes()[..130]), None);
        assert_eq!(first_non_ascii(b""), None);
    }

    #[test]
    fn a_long_ascii_text_is_cut_at_safe_points_within_the_lookahead() {
        let text = "line one\n".repeat(2_000);
        let parts: Vec<(&str, bool)> = ascii_parts(&text).collect();
        assert!(parts.len() > 1, "{}", parts.len());
        assert!(
            parts
                .iter()
                .all(|&(part, ascii)| ascii && part.len() <= LOOKAHEAD)
        );
        let joined: String = parts.iter().map(|(part, _)| *part).collect();
        assert_eq!(joined, text);
        // A line longer than the lookahead holds no safe point: one part.
        let long = "x".repeat(3 * LOOKAHEAD);
        assert_eq!(
            ascii_parts(&long).collect::<Vec<_>>(),
            [(long.as_str(), true)]
        );
    }

    /// Texts of pieces that meet at the edges of both kinds of cut and of
    /// every alternative of both patterns.
    fn tricky_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let piece = prop::sample::select(vec![
            "a", "Zé", "é", "e\u{301}", "x1", "123456", " ", "  ", "\t", "\n", "\r\n", "/", "\n/",
            "*/\n", "'s", "'LL", "\u{a0}", "\u{85}", "\u{b}", "日本", "。", "--", "🦀",
        ]);
        prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// Both patterns split the two sides of any safe cut as they split
        /// the whole text.
        #[test]
        fn no_piece_of_either_pattern_spans_a_cut(text in tricky_text()) {
            use crate::estimate::SplitPattern;
            use crate::estimate::split_regex::Splitter;
            for pattern in [SplitPattern::O200K, SplitPattern::CL100K] {
                let splitter = Splitter::new(&pattern).unwrap();
                let whole: Vec<&str> = splitter.split(&text).collect();
                for at in cuts(&text) {
                    let (head, tail) = text.split_at(at);
                    let parts: Vec<&str> = splitter.split(head).chain(splitter.split(tail)).collect();
                    proptest::prop_assert_eq!(&parts, &whole, "cut at {}", at);
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn parts_are_the_text_in_order(text in "[a é/\n\t]{0,40}", lookahead in 1usize..50) {
            let parts: Vec<(&str, bool)> = ascii_parts_within(&text, lookahead).collect();
            let joined: String = parts.iter().map(|(part, _)| *part).collect();
            proptest::prop_assert_eq!(joined, text.clone());
            // Every cut between parts is a safe point.
            let mut at = 0;
            for (part, _) in &parts[..parts.len().saturating_sub(1)] {
                at += part.len();
                proptest::prop_assert!(is_safe_cut(&text, at), "cut at {}", at);
            }
            for (part, ascii) in parts {
                proptest::prop_assert!(!part.is_empty());
                if ascii {
                    proptest::prop_assert!(part.is_ascii());
                }
            }
        }
    }
}
