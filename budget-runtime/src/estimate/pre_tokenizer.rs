//! [`PreTokenizer`]: how a `tokenizer.json` cuts normalized text into the
//! pieces its model encodes one by one, and [`Pieces`], the cut text.

use crate::estimate::split_regex::Splitter;

/// What a [`PreTokenizer::Split`] does with the matches of its pattern
/// (Hugging Face's `SplitDelimiterBehavior`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Behavior {
    /// Matches are dropped.
    Removed,
    /// Every match and every stretch between matches is a piece.
    Isolated,
    /// A match joins the stretch before it.
    MergedWithPrevious,
    /// A match joins the stretch after it.
    MergedWithNext,
    /// Adjacent matches are one piece.
    Contiguous,
}

/// When [`PreTokenizer::Metaspace`] puts its replacement before a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prepend {
    /// Before every piece.
    Always,
    /// Before the piece at the start of the text only.
    First,
    /// Never.
    Never,
}

/// One pre-tokenization step.
pub(crate) enum PreTokenizer {
    /// Cut at the matches of a pattern.
    Split {
        /// The pattern.
        splitter: Splitter,
        /// What becomes of the matches.
        behavior: Behavior,
        /// Whether the stretches between matches are what is matched.
        invert: bool,
    },
    /// GPT-2's byte-level step: a space before each piece that lacks one,
    /// then (with a pattern) GPT-2's cut.
    ByteLevel {
        /// Whether a space is put before each piece that does not start
        /// with one.
        add_prefix_space: bool,
        /// GPT-2's pattern, when the step also cuts.
        splitter: Option<Splitter>,
    },
    /// SentencePiece text cut into words: before every `▁` that follows a
    /// character other than `▁` and those of `kept_after` (the characters
    /// some piece has right before a `▁`).
    SpaceWords {
        /// Characters a `▁` stays joined to.
        kept_after: Vec<char>,
    },
    /// SentencePiece's word boundaries: spaces become `replacement`, which
    /// may be prepended, and (with `split`) each word starts a piece.
    Metaspace {
        /// The character spaces become (`▁`).
        replacement: char,
        /// When it is put before a piece.
        prepend: Prepend,
        /// Whether each replacement starts a new piece.
        split: bool,
    },
}

/// Text cut into pieces: byte ranges of one buffer, each with whether it
/// starts the original text.
pub(crate) struct Pieces {
    text: String,
    ranges: Vec<(usize, usize, bool)>,
}

impl Pieces {
    /// `text` as one piece; `first` if it starts the original text.
    pub(crate) fn new(text: String, first: bool) -> Self {
        let ranges = if text.is_empty() {
            Vec::new()
        } else {
            vec![(0, text.len(), first)]
        };
        Self { text, ranges }
    }

    /// The pieces' bytes, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u8]> {
        self.ranges
            .iter()
            .map(|&(start, end, _)| &self.text.as_bytes()[start..end])
    }

    /// Every piece cut further by `step`.
    pub(crate) fn apply(&mut self, step: &PreTokenizer) {
        match step {
            PreTokenizer::Split {
                splitter,
                behavior,
                invert,
            } => self.split(splitter, *behavior, *invert),
            PreTokenizer::ByteLevel {
                add_prefix_space,
                splitter,
            } => {
                if *add_prefix_space {
                    self.rewrite(|piece, _, out| {
                        if !piece.starts_with(' ') {
                            out.push(' ');
                        }
                        out.push_str(piece);
                    });
                }
                if let Some(splitter) = splitter {
                    self.split(splitter, Behavior::Isolated, false);
                }
            }
            PreTokenizer::SpaceWords { kept_after } => self.split_space_words(kept_after),
            PreTokenizer::Metaspace {
                replacement,
                prepend,
                split,
            } => {
                let replacement = *replacement;
                self.rewrite(|piece, first, out| {
                    let wanted = match prepend {
                        Prepend::Always => true,
                        Prepend::First => first,
                        Prepend::Never => false,
                    };
                    if wanted && !piece.starts_with(replacement) {
                        out.push(replacement);
                    }
                    out.extend(
                        piece
                            .chars()
                            .map(|c| if c == ' ' { replacement } else { c }),
                    );
                });
                if *split {
                    self.split_before(replacement);
                }
            }
        }
    }

    /// Each piece rewritten by `write(piece, first, out)`.
    fn rewrite(&mut self, mut write: impl FnMut(&str, bool, &mut String)) {
        let mut text = String::with_capacity(self.text.len() + self.ranges.len());
        for range in &mut self.ranges {
            let start = text.len();
            write(&self.text[range.0..range.1], range.2, &mut text);
            *range = (start, text.len(), range.2);
        }
        self.text = text;
        self.ranges.retain(|r| r.1 > r.0);
    }

    /// Each piece cut at the matches of `splitter`.
    fn split(&mut self, splitter: &Splitter, behavior: Behavior, invert: bool) {
        let mut out = Vec::with_capacity(self.ranges.len());
        for &(start, end, first) in &self.ranges {
            let piece = &self.text[start..end];
            // Stretches of the piece, each flagged as a match or not.
            let mut stretches: Vec<(usize, usize, bool)> = Vec::new();
            let mut at = 0;
            for (s, e) in splitter.matches(piece) {
                if s > at {
                    stretches.push((at, s, invert));
                }
                stretches.push((s, e, !invert));
                at = e;
            }
            if at < piece.len() {
                stretches.push((at, piece.len(), invert));
            }
            let cut = join(&stretches, behavior);
            out.extend(
                cut.into_iter()
                    .filter(|(s, e)| e > s)
                    .map(|(s, e)| (start + s, start + e, first && s == 0)),
            );
        }
        self.ranges = out;
    }

    /// Each piece cut before every `▁` that follows a character other than
    /// `▁` and those of `kept_after`.
    fn split_space_words(&mut self, kept_after: &[char]) {
        let mut out = Vec::with_capacity(self.ranges.len());
        for &(start, end, first) in &self.ranges {
            let mut begin = start;
            let mut previous: Option<char> = None;
            for (offset, c) in self.text[start..end].char_indices() {
                let at = start + offset;
                if c == '▁'
                    && previous.is_some_and(|p| p != '▁' && !kept_after.contains(&p))
                    && at > begin
                {
                    out.push((begin, at, first && begin == start));
                    begin = at;
                }
                previous = Some(c);
            }
            if end > begin {
                out.push((begin, end, first && begin == start));
            }
        }
        self.ranges = out;
    }

    /// Each piece cut before every `c` (a `Split` on `c` merged with the
    /// next stretch).
    fn split_before(&mut self, c: char) {
        let mut out = Vec::with_capacity(self.ranges.len());
        for &(start, end, first) in &self.ranges {
            let mut begin = start;
            for (offset, _) in self.text[start..end].match_indices(c) {
                let at = start + offset;
                if at > begin {
                    out.push((begin, at, first && begin == start));
                }
                begin = at;
            }
            if end > begin {
                out.push((begin, end, first && begin == start));
            }
        }
        self.ranges = out;
    }
}

/// The pieces `stretches` (ranges flagged as matches or not, in order)
/// make under `behavior`, as `tokenizers` joins them.
fn join(stretches: &[(usize, usize, bool)], behavior: Behavior) -> Vec<(usize, usize)> {
    let mut cut: Vec<(usize, usize)> = Vec::with_capacity(stretches.len());
    let mut previous_match = false;
    match behavior {
        Behavior::Isolated => cut.extend(stretches.iter().map(|&(s, e, _)| (s, e))),
        Behavior::Removed => cut.extend(stretches.iter().filter(|r| !r.2).map(|&(s, e, _)| (s, e))),
        Behavior::MergedWithPrevious | Behavior::Contiguous => {
            for &(s, e, matched) in stretches {
                let joins = if behavior == Behavior::Contiguous {
                    matched == previous_match
                } else {
                    matched && !previous_match
                };
                match cut.last_mut() {
                    Some(last) if joins => last.1 = e,
                    _ => cut.push((s, e)),
                }
                previous_match = matched;
            }
        }
        Behavior::MergedWithNext => {
            for &(s, e, matched) in stretches.iter().rev() {
                match cut.last_mut() {
                    Some(last) if matched && !previous_match => last.0 = s,
                    _ => cut.push((s, e)),
                }
                previous_match = matched;
            }
            cut.reverse();
        }
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::SplitPattern;

    fn cut(text: &str, pattern: &str, behavior: Behavior, invert: bool) -> Vec<String> {
        let splitter = Splitter::new(&SplitPattern::custom("t", pattern, false)).unwrap();
        let mut pieces = Pieces::new(text.to_owned(), true);
        pieces.apply(&PreTokenizer::Split {
            splitter,
            behavior,
            invert,
        });
        pieces
            .iter()
            .map(|p| String::from_utf8(p.to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn split_behaviors_join_as_tokenizers_does() {
        let text = "a--b-c";
        assert_eq!(
            cut(text, "-", Behavior::Isolated, false),
            ["a", "-", "-", "b", "-", "c"]
        );
        assert_eq!(cut(text, "-", Behavior::Removed, false), ["a", "b", "c"]);
        assert_eq!(
            cut(text, "-", Behavior::MergedWithPrevious, false),
            ["a-", "-", "b-", "c"]
        );
        assert_eq!(
            cut(text, "-", Behavior::MergedWithNext, false),
            ["a", "-", "-b", "-c"]
        );
        assert_eq!(
            cut(text, "-", Behavior::Contiguous, false),
            ["a", "--", "b", "-", "c"]
        );
        assert_eq!(cut(text, "[a-z]", Behavior::Removed, true), ["a", "b", "c"]);
    }

    #[test]
    fn space_words_cut_before_a_space_mark_after_a_word() {
        let mut pieces = Pieces::new("▁▁a▁b>▁c▁▁".to_owned(), true);
        pieces.apply(&PreTokenizer::SpaceWords {
            kept_after: vec!['>'],
        });
        let got: Vec<_> = pieces
            .iter()
            .map(|p| std::str::from_utf8(p).unwrap().to_owned())
            .collect();
        assert_eq!(got, ["▁▁a", "▁b>▁c", "▁▁"]);
    }

    #[test]
    fn metaspace_replaces_prepends_and_splits() {
        let mut pieces = Pieces::new("Hey friend  x".to_owned(), true);
        pieces.apply(&PreTokenizer::Metaspace {
            replacement: '▁',
            prepend: Prepend::First,
            split: true,
        });
        let got: Vec<_> = pieces
            .iter()
            .map(|p| std::str::from_utf8(p).unwrap().to_owned())
            .collect();
        assert_eq!(got, ["▁Hey", "▁friend", "▁", "▁x"]);
        let mut later = Pieces::new("x".to_owned(), false);
        later.apply(&PreTokenizer::Metaspace {
            replacement: '▁',
            prepend: Prepend::First,
            split: true,
        });
        assert_eq!(later.iter().collect::<Vec<_>>(), [b"x".as_slice()]);
    }
}
