//! [`FileTokenizer`]: a tokenizer read from a model's own file (a
//! `tokenizer.json`, a SentencePiece model, a GGUF), counted natively: its
//! added tokens, normalizer, pre-tokenizer and model, in that order.

use std::borrow::Cow;

use aho_corasick::{AhoCorasick, MatchKind};

use crate::estimate::TokenizerError;
use crate::estimate::merge_bpe::MergeBpe;
use crate::estimate::normalizer::Normalizer;
use crate::estimate::piece_memory::PieceMemory;
use crate::estimate::pre_tokenizer::{Pieces, PreTokenizer};
use crate::estimate::sentencepiece::SpNormalizer;
use crate::estimate::unigram::Unigram;

/// The model that encodes each piece.
pub(crate) enum Model {
    /// Byte-pair merges.
    Bpe(MergeBpe),
    /// A unigram language model (SentencePiece's default).
    Unigram(Unigram),
}

impl Model {
    fn count(&self, piece: &[u8]) -> u64 {
        match self {
            Self::Bpe(bpe) => bpe.count(piece),
            Self::Unigram(unigram) => unigram.count(piece),
        }
    }
}

/// What runs on text before the pre-tokenizer.
pub(crate) enum Normalization {
    /// `tokenizer.json` steps, in order.
    Steps(Vec<Normalizer>),
    /// SentencePiece's normalizer.
    SentencePiece(SpNormalizer),
}

/// An added (or special) token that is matched in the text before anything
/// else and counts one.
#[derive(Clone, Debug)]
pub(crate) struct AddedToken {
    /// Its text.
    pub(crate) content: String,
    /// Whether it matches only as a whole word.
    pub(crate) single_word: bool,
    /// Whether it takes the whitespace before it.
    pub(crate) lstrip: bool,
    /// Whether it takes the whitespace after it.
    pub(crate) rstrip: bool,
}

/// The added tokens, found leftmost-longest.
struct AddedTokens {
    matcher: AhoCorasick,
    tokens: Vec<AddedToken>,
}

/// A tokenizer of an open model, counted without the `tokenizers` crate.
pub(crate) struct FileTokenizer {
    added: Option<AddedTokens>,
    normalization: Normalization,
    pre_tokenizers: Vec<PreTokenizer>,
    model: Model,
    memory: PieceMemory,
}

/// A segment of text between added tokens.
struct Segment<'t> {
    text: &'t str,
    /// Whether it starts the text.
    first: bool,
}

impl FileTokenizer {
    /// A tokenizer of these parts; an added token with empty content is
    /// ignored.
    pub(crate) fn new(
        added: Vec<AddedToken>,
        normalization: Normalization,
        pre_tokenizers: Vec<PreTokenizer>,
        model: Model,
    ) -> Result<Self, TokenizerError> {
        let added: Vec<AddedToken> = added
            .into_iter()
            .filter(|t| !t.content.is_empty())
            .collect();
        let added = if added.is_empty() {
            None
        } else {
            let matcher = AhoCorasick::builder()
                .match_kind(MatchKind::LeftmostLongest)
                .build(added.iter().map(|t| t.content.as_str()))
                .map_err(|e| TokenizerError::Pattern {
                    pattern: "added tokens".into(),
                    message: e.to_string(),
                })?;
            Some(AddedTokens {
                matcher,
                tokens: added,
            })
        };
        Ok(Self {
            added,
            normalization,
            pre_tokenizers,
            model,
            memory: PieceMemory::new(),
        })
    }

    /// The number of tokens of `text`, without BOS or EOS; added tokens in
    /// the text count one each. Under SentencePiece's normalizer the whole
    /// text is normalized first and added (user-defined) tokens are found in
    /// the result; otherwise they are found in the text and each segment
    /// between them is normalized on its own, as `tokenizers` does.
    pub(crate) fn count(&self, text: &str) -> u64 {
        let mut total: u64 = 0;
        let added = match &self.normalization {
            Normalization::SentencePiece(normalizer) => {
                let normalized = normalizer.normalize(text);
                self.split_added(&normalized, |segment| {
                    let count = self.count_normalized(Cow::Borrowed(segment.text), segment.first);
                    total = total.saturating_add(count);
                })
            }
            Normalization::Steps(steps) => self.split_added(text, |segment| {
                let normalized = steps
                    .iter()
                    .fold(Cow::Borrowed(segment.text), |text, step| step.apply(text));
                let count = self.count_normalized(normalized, segment.first);
                total = total.saturating_add(count);
            }),
        };
        total.saturating_add(added)
    }

    /// Calls `each` on every segment between added tokens; returns how many
    /// added tokens were found.
    fn split_added<'t>(&self, text: &'t str, mut each: impl FnMut(Segment<'t>)) -> u64 {
        let Some(added) = &self.added else {
            each(Segment { text, first: true });
            return 0;
        };
        let mut found = 0;
        let mut last = 0;
        let mut at = 0;
        while at < text.len() {
            let Some(hit) = added
                .matcher
                .find(aho_corasick::Input::new(text).range(at..))
            else {
                break;
            };
            let token = &added.tokens[hit.pattern().as_usize()];
            let (mut start, mut end) = (hit.start(), hit.end());
            if token.single_word && !stands_alone(text, start, end) {
                at = start + text[start..].chars().next().map_or(1, char::len_utf8);
                continue;
            }
            if token.lstrip {
                start = last + text[last..start].trim_end().len();
            }
            if token.rstrip {
                end += text[end..].len() - text[end..].trim_start().len();
            }
            if start > last {
                each(Segment {
                    text: &text[last..start],
                    first: last == 0,
                });
            }
            found += 1;
            last = end;
            at = end;
        }
        if last < text.len() {
            each(Segment {
                text: &text[last..],
                first: last == 0,
            });
        }
        found
    }

    /// The tokens of normalized text: its pieces, each through the model.
    fn count_normalized(&self, normalized: Cow<'_, str>, first: bool) -> u64 {
        if self.pre_tokenizers.is_empty() {
            return self.model.count(normalized.as_bytes());
        }
        let mut pieces = Pieces::new(normalized.into_owned(), first);
        for step in &self.pre_tokenizers {
            pieces.apply(step);
        }
        self.memory.with(|memory| {
            pieces
                .iter()
                .map(|piece| memory.count(piece, |_| false, |p| self.model.count(p)))
                .fold(0, u64::saturating_add)
        })
    }
}

/// Whether `text[start..end]` has no word character right before or after.
fn stands_alone(text: &str, start: usize, end: usize) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    !text[..start].chars().next_back().is_some_and(word)
        && !text[end..].chars().next().is_some_and(word)
}

impl std::fmt::Debug for FileTokenizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileTokenizer")
            .field("added", &self.added.as_ref().map_or(0, |a| a.tokens.len()))
            .field("pre_tokenizers", &self.pre_tokenizers.len())
            .finish_non_exhaustive()
    }
}
