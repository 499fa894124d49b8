//! Where a text may be cut so that the pretokenizer splits its parts as it
//! splits the whole: right after a line feed followed by a character that
//! is neither whitespace nor `/`. No pretokenizer piece of `o200k_base` or
//! `cl100k_base` spans such a point (whitespace runs end at the line feed;
//! only a punctuation run's trailing `[\r\n/]*` of `o200k_base` reaches past
//! a line feed, and only into `/`), and neither pattern looks behind, so the
//! pieces of the parts are the pieces of the whole.

/// Whether `at` is such a point of `text`.
pub(crate) fn is_safe_cut(text: &str, at: usize) -> bool {
    at > 0
        && text.as_bytes().get(at - 1) == Some(&b'\n')
        && text
            .get(at..)
            .and_then(|rest| rest.chars().next())
            .is_some_and(|next| !next.is_whitespace() && next != '/')
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

    #[test]
    fn cuts_follow_a_line_feed_before_a_word() {
        let text = "ab\ncd\n ef\n/gh\nij";
        let cuts: Vec<usize> = (0..=text.len())
            .filter(|&at| is_safe_cut(text, at))
            .collect();
        assert_eq!(cuts, [3, 14]);
    }

    #[test]
    fn non_ascii_lines_are_parts_of_their_own() {
        let text = "a = 1\nname = 'Zoë'\nb = 2\nc = 3\n";
        assert_eq!(
            ascii_parts(text).collect::<Vec<_>>(),
            [
                ("a = 1\n", true),
                ("name = 'Zoë'\n", false),
                ("b = 2\nc = 3\n", true)
            ]
        );
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
