//! [`CompiledBpe`]: OpenAI's vocabularies compiled into the binary
//! (`budget-vocab-openai`'s hash tables, read in place: nothing is built
//! before the first count), counted piece by piece as tiktoken counts: a
//! pretokenizer piece that is itself a token counts one, the others are
//! merged ([`bpe_merge`](crate::estimate::bpe_merge)). ASCII text is split
//! by a hand-written scan of the vocabulary's pattern
//! ([`AsciiSplit`](crate::estimate::ascii_split::AsciiSplit)),
//! other text by the pattern itself, compiled on first use.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use budget_vocab_openai::Vocabulary;

use crate::estimate::SplitPattern;
use crate::estimate::ascii_split::{AsciiPattern, try_for_each_piece};
use crate::estimate::bpe_merge::merged_tokens;
use crate::estimate::piece_memory::{PieceMemory, ThreadMemory};
use crate::estimate::split_regex::Splitter;

/// A compiled-in byte-pair vocabulary and its split pattern.
pub(crate) struct CompiledBpe {
    vocabulary: &'static Vocabulary,
    pattern: SplitPattern,
    /// `pattern`, compiled by the first text that needs it.
    splitter: OnceLock<Splitter>,
    /// How ASCII text is split: `pattern`'s rules.
    ascii: AsciiPattern,
    /// The counts of the multi-token pieces each thread met.
    memory: PieceMemory,
}

/// `o200k_base`.
#[cfg(feature = "o200k")]
pub(crate) static O200K: CompiledBpe = CompiledBpe {
    vocabulary: &budget_vocab_openai::O200K_BASE,
    pattern: SplitPattern::O200K,
    splitter: OnceLock::new(),
    ascii: AsciiPattern::O200k,
    memory: PieceMemory::fixed(1),
};

/// `cl100k_base`.
#[cfg(feature = "cl100k")]
pub(crate) static CL100K: CompiledBpe = CompiledBpe {
    vocabulary: &budget_vocab_openai::CL100K_BASE,
    pattern: SplitPattern::CL100K,
    splitter: OnceLock::new(),
    ascii: AsciiPattern::Cl100k,
    memory: PieceMemory::fixed(2),
};

impl CompiledBpe {
    /// Gives `each` the pretokenizer's pieces of `text` in order, until it
    /// breaks. A loop, not an iterator of iterators: a boxed iterator per
    /// part cost two indirect calls per piece, a tenth of a count.
    fn try_for_each_piece<'t>(
        &'t self,
        text: &'t str,
        each: impl FnMut(&'t str) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        try_for_each_piece(text, self.ascii, || self.splitter(), each)
    }

    fn splitter(&self) -> &Splitter {
        self.splitter.get_or_init(|| {
            Splitter::new(&self.pattern)
                .expect("the o200k_base and cl100k_base patterns compile (tested)")
        })
    }

    /// The tokens of one pretokenizer piece: remembered, one if it is a
    /// token, else what the merges leave.
    fn piece(&self, memory: &mut ThreadMemory, piece: &str) -> u64 {
        let bytes = piece.as_bytes();
        if bytes.len() <= 1 {
            return u64::from(!bytes.is_empty());
        }
        memory.count(
            bytes,
            |piece| self.vocabulary.rank(piece).is_some(),
            |piece| merged_tokens(self.vocabulary, piece),
        )
    }

    /// The tokens of `text`.
    pub(crate) fn count(&self, text: &str) -> u64 {
        self.memory.with(|memory| {
            let mut total: u64 = 0;
            let _ = self.try_for_each_piece(text, |piece| {
                total += self.piece(memory, piece);
                ControlFlow::Continue(())
            });
            total
        })
    }

    /// The tokens of `text` if at most `limit`, counted piece by piece and
    /// stopped at the first piece that crosses `limit`.
    pub(crate) fn count_up_to(&self, text: &str, limit: u64) -> Option<u64> {
        // No token is longer than the longest: a text with more bytes than
        // `limit` of them is over without a look at it (a full tier asks
        // this of every file offered to it).
        let longest = self.vocabulary.longest() as u64;
        if text.len() as u64 > limit.saturating_mul(longest) {
            return None;
        }
        self.memory.with(|memory| {
            let mut total: u64 = 0;
            let within = self.try_for_each_piece(text, |piece| {
                total = total.saturating_add(self.piece(memory, piece));
                if total > limit {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            within.is_continue().then_some(total)
        })
    }
}

#[cfg(all(test, feature = "o200k"))]
mod tests {
    use super::*;

    impl CompiledBpe {
        /// The pieces counting reads, in order.
        fn pieces<'t>(&'t self, text: &'t str) -> Vec<&'t str> {
            let mut pieces = Vec::new();
            let _ = self.try_for_each_piece(text, |piece| {
                pieces.push(piece);
                ControlFlow::Continue(())
            });
            pieces
        }
    }

    proptest::proptest! {
        /// Mixed text split in parts gives the pattern's own pieces.
        #[test]
        fn mixed_text_splits_as_the_pattern_does(
            text in "([a-zA-Z0-9 /'.;:(){}\t\r\n_-]|é|日本|🦀|\u{a0}|©){0,80}"
        ) {
            let whole: Vec<&str> = O200K.splitter().split(&text).collect();
            let parts: Vec<&str> = O200K.pieces(&text);
            proptest::prop_assert_eq!(parts, whole);
            #[cfg(feature = "cl100k")]
            {
                let whole: Vec<&str> = CL100K.splitter().split(&text).collect();
                proptest::prop_assert_eq!(CL100K.pieces(&text), whole);
            }
        }
    }

    /// A text longer than the parts' lookahead, ASCII and not, splits as
    /// the pattern splits it.
    #[test]
    fn long_text_splits_as_the_pattern_does() {
        let block = "def tide(height):\n    return height * 2  # metres\n\n\tname = 'Zoë'\n//x\n";
        let text = block.repeat(400) + &"y".repeat(9_000);
        let whole: Vec<&str> = O200K.splitter().split(&text).collect();
        let parts: Vec<&str> = O200K.pieces(&text);
        assert_eq!(parts, whole);
        let ascii = "fn main() {\n    let x = 1;\n}\n".repeat(600);
        let whole: Vec<&str> = O200K.splitter().split(&ascii).collect();
        assert_eq!(O200K.pieces(&ascii), whole);
        #[cfg(feature = "cl100k")]
        for text in [&text, &ascii] {
            let whole: Vec<&str> = CL100K.splitter().split(text).collect();
            assert_eq!(CL100K.pieces(text), whole);
        }
    }

    /// A text longer than the longest token times the limit is over it,
    /// and one just within is counted.
    #[test]
    fn a_text_past_the_longest_tokens_is_over_without_a_count() {
        let spaces = " ".repeat(128 * 3);
        // tiktoken 0.14: 384 spaces are 3 tokens, 385 are 4.
        assert_eq!(O200K.count(&spaces), 3);
        assert_eq!(O200K.count(&format!("{spaces} ")), 4);
        assert_eq!(O200K.count_up_to(&spaces, 3), Some(3));
        assert_eq!(O200K.count_up_to(&format!("{spaces} "), 3), None);
        assert_eq!(O200K.count_up_to(&"x".repeat(1_000), 7), None);
    }

    /// Both patterns compile, so [`CompiledBpe::splitter`] cannot fail.
    #[test]
    fn the_split_patterns_compile() {
        for pattern in [SplitPattern::O200K, SplitPattern::CL100K] {
            assert!(Splitter::new(&pattern).is_ok(), "{}", pattern.name());
        }
    }

    /// Counts given by tiktoken 0.14 (`len(enc.encode_ordinary(text))`):
    /// whole tokens, merged pieces, non-ASCII text and a remembered piece.
    #[test]
    fn counts_as_tiktoken_does() {
        let cases = [
            ("hello world", 2),
            ("", 0),
            (
                "antidisestablishmentarianism antidisestablishmentarianism",
                12,
            ),
            ("日本語のテキスト 🦀", 9),
        ];
        for (text, expected) in cases {
            assert_eq!(O200K.count(text), expected, "{text:?}");
            assert_eq!(O200K.count_up_to(text, expected), Some(expected));
        }
    }

    /// A remembered piece counts as its own vocabulary merges it: the two
    /// vocabularies split `日本語のテキスト` into different numbers of tokens.
    #[cfg(feature = "cl100k")]
    #[test]
    fn remembered_pieces_belong_to_their_vocabulary() {
        let piece = "日本語のテキスト";
        let expected = (
            merged_tokens(O200K.vocabulary, piece.as_bytes()),
            merged_tokens(CL100K.vocabulary, piece.as_bytes()),
        );
        assert_ne!(expected.0, expected.1);
        for _ in 0..2 {
            let counts = (
                O200K.memory.with(|memory| O200K.piece(memory, piece)),
                CL100K.memory.with(|memory| CL100K.piece(memory, piece)),
            );
            assert_eq!(counts, expected);
        }
    }
}
