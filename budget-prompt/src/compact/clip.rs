//! Bounding text by characters: the one way compaction shortens text it
//! must keep (summaries, the summarizer's input), always with a visible mark.

use std::borrow::Cow;

/// Appended to text that was shortened.
pub(crate) const CLIP_MARK: &str = " …[clipped]";

/// `text` if it has at most `max_chars` characters, else its first
/// characters followed by [`CLIP_MARK`], `max_chars` characters in all
/// (just the first `max_chars` characters if the mark does not fit).
pub(crate) fn clip_chars(text: &str, max_chars: u64) -> Cow<'_, str> {
    let max = usize::try_from(max_chars).unwrap_or(usize::MAX);
    let Some((cut_at_max, _)) = text.char_indices().nth(max) else {
        return Cow::Borrowed(text);
    };
    let mark_len = CLIP_MARK.chars().count();
    if max < mark_len {
        return Cow::Owned(text[..cut_at_max].to_owned());
    }
    let keep = text
        .char_indices()
        .nth(max - mark_len)
        .map_or(text.len(), |(at, _)| at);
    let mut clipped = String::with_capacity(keep + CLIP_MARK.len());
    clipped.push_str(&text[..keep]);
    clipped.push_str(CLIP_MARK);
    Cow::Owned(clipped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use budget_runtime::estimate::count_chars;

    #[test]
    fn short_text_is_borrowed_unchanged() {
        assert!(matches!(clip_chars("hello", 5), Cow::Borrowed("hello")));
    }

    #[test]
    fn long_text_is_cut_to_exactly_max_chars_with_the_mark() {
        let text = "ä".repeat(100);
        let clipped = clip_chars(&text, 20);
        assert_eq!(count_chars(&clipped), 20);
        assert!(clipped.ends_with(CLIP_MARK));
        assert!(clipped.starts_with(&"ä".repeat(9)));
    }

    #[test]
    fn tiny_budgets_drop_the_mark() {
        assert_eq!(clip_chars("abcdefghijklmnop", 3), "abc");
        assert_eq!(clip_chars("abc", 0), "");
    }
}
