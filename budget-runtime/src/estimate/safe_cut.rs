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

/// `text` in consecutive parts, cut at safe points, each either all ASCII
/// or holding a non-ASCII character (and then as short as the safe points
/// around its non-ASCII characters allow), with whether it is ASCII.
pub(crate) fn ascii_parts(text: &str) -> Vec<(&str, bool)> {
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let mut start = 0;
    while let Some(offset) = bytes[start..].iter().position(|b| !b.is_ascii()) {
        let wide = start + offset;
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
        if from > start {
            parts.push((&text[start..from], true));
        }
        // Safe points follow an ASCII line feed: char boundaries.
        parts.push((&text[from..to], false));
        start = to;
    }
    if start < bytes.len() {
        parts.push((&text[start..], true));
    }
    parts
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
            ascii_parts(text),
            [
                ("a = 1\n", true),
                ("name = 'Zoë'\n", false),
                ("b = 2\nc = 3\n", true)
            ]
        );
        assert_eq!(ascii_parts("é"), [("é", false)]);
        assert!(ascii_parts("").is_empty());
    }

    proptest::proptest! {
        #[test]
        fn parts_are_the_text_in_order(text in "[a é/\n\t]{0,40}") {
            let parts = ascii_parts(&text);
            let joined: String = parts.iter().map(|(part, _)| *part).collect();
            proptest::prop_assert_eq!(joined, text.clone());
            for (part, ascii) in parts {
                proptest::prop_assert!(!part.is_empty());
                if ascii {
                    proptest::prop_assert!(part.is_ascii());
                }
            }
        }
    }
}
