//! Terms as code is written: identifiers split at `_`, `-`, `.`, `/` and
//! every other non-alphanumeric character, and inside at `camelCase`
//! boundaries; compound identifiers also count whole.

use crate::rank::identifiers::identifiers;

/// English function words that carry no topic (`the`, `of`, `when`, …).
/// Query words and file text alike drop them.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "but", "by", "can", "could", "did", "do", "does", "for", "from", "had", "has",
    "have", "how", "if", "in", "into", "is", "it", "its", "may", "more", "must", "no", "not", "of",
    "on", "only", "or", "other", "our", "out", "over", "should", "so", "some", "than", "that",
    "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "up", "was",
    "we", "were", "what", "when", "where", "which", "while", "who", "why", "will", "with", "would",
    "you", "your",
];

/// The longest stop word, in bytes.
const MAX_STOP_WORD_BYTES: usize = 6;

/// Whether `term` (lower case) is a stop word.
pub fn is_stop_word(term: &str) -> bool {
    // Most identifier parts are longer than any stop word.
    term.len() <= MAX_STOP_WORD_BYTES && STOP_WORDS.binary_search(&term).is_ok()
}

/// Calls `emit` with every term of `text`, lower-cased, in order:
/// each part of an identifier (split at non-alphanumeric characters and at
/// `camelCase` / `HTTPServer` boundaries; digits stay with their letters),
/// and, for an identifier of several parts, the identifier itself joined
/// by `_` (`getEventLoop` and `get_event_loop` both give `get`, `event`,
/// `loop` and `get_event_loop`). Plurals fold to their singular
/// (`stations` → `station`, `policies` → `policy`). Terms of one character
/// and stop words are dropped.
///
/// `scratch` is reused between calls to avoid allocating per identifier.
pub fn for_each_term(text: &str, scratch: &mut String, mut emit: impl FnMut(&str)) {
    for identifier in identifiers(text) {
        scratch.clear();
        let mut parts = 0;
        for part in parts_of(identifier) {
            let start = scratch.len();
            if parts > 0 {
                scratch.push('_');
            }
            let word_start = scratch.len();
            push_lower(scratch, part);
            stem_plural(scratch, word_start);
            let word = &scratch[word_start..];
            if word.chars().nth(1).is_some() && !is_stop_word(word) {
                emit(word);
            }
            // An empty part (a run of `_`) joins nothing.
            if part.is_empty() {
                scratch.truncate(start);
            } else {
                parts += 1;
            }
        }
        if parts > 1 {
            emit(scratch);
        }
    }
}

/// The parts of an identifier: split at `_` and at case boundaries (a
/// lower-case letter or digit before an upper-case one; the last capital of
/// a run of capitals before a lower-case letter).
fn parts_of(identifier: &str) -> impl Iterator<Item = &str> {
    identifier.split('_').flat_map(camel_parts)
}

/// The `camelCase` parts of `word` (which holds no `_`), in order; one
/// empty part for an empty word. An iterator, not a list: it runs on every
/// identifier of the paths and defined names BM25 reads.
fn camel_parts(word: &str) -> CamelParts<'_> {
    CamelParts {
        word,
        start: 0,
        chars: word.char_indices().peekable(),
        previous: None,
        done: false,
    }
}

/// The iterator [`camel_parts`] returns.
struct CamelParts<'w> {
    word: &'w str,
    /// Where the part being read starts, in bytes.
    start: usize,
    chars: std::iter::Peekable<std::str::CharIndices<'w>>,
    /// The character before the next one.
    previous: Option<char>,
    /// The last part was given.
    done: bool,
}

impl<'w> Iterator for CamelParts<'w> {
    type Item = &'w str;

    fn next(&mut self) -> Option<&'w str> {
        if self.done {
            return None;
        }
        while let Some((index, current)) = self.chars.next() {
            let Some(previous) = self.previous.replace(current) else {
                continue;
            };
            let next = self.chars.peek().map(|&(_, c)| c);
            let boundary = current.is_uppercase()
                && (previous.is_lowercase()
                    || previous.is_ascii_digit()
                    || (previous.is_uppercase() && next.is_some_and(char::is_lowercase)));
            if boundary {
                let part = &self.word[self.start..index];
                self.start = index;
                return Some(part);
            }
        }
        self.done = true;
        Some(&self.word[self.start..])
    }
}

/// Folds an English plural at the end of `out` (the word starting at
/// `start`) to its singular: `policies` → `policy`, `stations` → `station`;
/// words of three letters or fewer and words ending `ss` stay.
fn stem_plural(out: &mut String, start: usize) {
    let word = &out[start..];
    if word.len() <= 3 || !word.ends_with('s') || word.ends_with("ss") {
        return;
    }
    if word.ends_with("ies") {
        out.truncate(out.len() - 3);
        out.push('y');
    } else {
        out.pop();
    }
}

fn push_lower(out: &mut String, text: &str) {
    if text.is_ascii() {
        out.extend(text.chars().map(|c| c.to_ascii_lowercase()));
    } else {
        out.extend(text.chars().flat_map(char::to_lowercase));
    }
}

/// The distinct terms of `text`, in order of first appearance.
pub fn distinct_terms(text: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    let mut scratch = String::new();
    for_each_term(text, &mut scratch, |term| {
        if !terms.iter().any(|t| t == term) {
            terms.push(term.to_owned());
        }
    });
    terms
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for_each_term(text, &mut String::new(), |t| out.push(t.to_owned()));
        out
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        let longest = STOP_WORDS.iter().map(|w| w.len()).max();
        assert_eq!(longest, Some(MAX_STOP_WORD_BYTES));
        assert!(is_stop_word("the") && !is_stop_word("loop"));
    }

    #[test]
    fn identifiers_split_the_way_code_is_written() {
        assert_eq!(
            all("getEventLoop"),
            ["get", "event", "loop", "get_event_loop"]
        );
        assert_eq!(
            all("get_event_loop"),
            ["get", "event", "loop", "get_event_loop"]
        );
        assert_eq!(all("HTTPServer"), ["http", "server", "http_server"]);
        assert_eq!(all("plugins.radiko:"), ["plugin", "radiko"]);
        assert_eq!(all("fix(etag): the"), ["fix", "etag"]);
        assert_eq!(
            all("src/asyncio/events.py"),
            ["src", "asyncio", "event", "py"]
        );
        assert_eq!(
            all("policies class getEvents"),
            ["policy", "class", "get", "event", "get_event"]
        );
        assert_eq!(all("__init__"), ["init"]);
        assert_eq!(
            all("sha256 utf8Decode"),
            ["sha256", "utf8", "decode", "utf8_decode"]
        );
        assert_eq!(all("Été naïve"), ["été", "naïve"]);
        assert_eq!(all("a x_y"), ["x_y"]);
    }

    /// The split stated with indices over the characters.
    fn camel_parts_by_index(word: &str) -> Vec<&str> {
        let chars: Vec<(usize, char)> = word.char_indices().collect();
        let mut parts = Vec::new();
        let mut start = 0;
        for i in 1..chars.len() {
            let (index, current) = chars[i];
            let previous = chars[i - 1].1;
            let next = chars.get(i + 1).map(|&(_, c)| c);
            if current.is_uppercase()
                && (previous.is_lowercase()
                    || previous.is_ascii_digit()
                    || previous.is_uppercase() && next.is_some_and(char::is_lowercase))
            {
                parts.push(&word[start..index]);
                start = index;
            }
        }
        parts.push(&word[start..]);
        parts
    }

    proptest::proptest! {
        #[test]
        fn camel_parts_split_at_case_boundaries(word in "[aAbB1É é]{0,12}") {
            let parts: Vec<&str> = camel_parts(&word).collect();
            proptest::prop_assert_eq!(parts, camel_parts_by_index(&word));
        }
    }

    #[test]
    fn distinct_terms_keep_first_order() {
        assert_eq!(distinct_terms("Loop loop event"), ["loop", "event"]);
    }
}
