//! [`CompiledBpe`]: a vocabulary compiled into the binary (`bpe-openai`'s
//! `o200k_base` and `cl100k_base`), counted piece by piece with the
//! shortcut tiktoken takes: a pretokenizer piece that is itself a token
//! counts one without running the encoder. Most words, numbers and
//! punctuation runs are; the encoder's per-piece set-up is then paid only
//! for the others. ASCII text under `o200k_base` is split by a hand-written
//! scan ([`AsciiO200kSplit`]) instead of the regular expression.
// With `bpe` but neither vocabulary (feature `huggingface` alone) nothing
// here is built.
#![cfg_attr(
    not(any(feature = "o200k", feature = "cl100k")),
    allow(dead_code, unused_imports)
)]

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;

use rustc_hash::FxHasher;

use crate::estimate::ascii_split::AsciiO200kSplit;

type Bpe = bpe_openai::Tokenizer;

/// How many multi-token pieces a thread remembers the counts of (a few
/// MiB at most); past it, it starts over.
const MAX_KNOWN_PIECES: usize = 1 << 16;

/// Token counts of pieces, by their bytes.
type PieceCounts = HashMap<Box<[u8]>, usize, BuildHasherDefault<FxHasher>>;

thread_local! {
    /// The token counts of the multi-token pieces this thread has counted,
    /// one table per compiled-in vocabulary ([`CompiledBpe::slot`]).
    static PIECE_COUNTS: [RefCell<PieceCounts>; 2] = Default::default();
}

/// A compiled-in byte-pair vocabulary and the set of its tokens' bytes.
pub(crate) struct CompiledBpe {
    tokenizer: &'static Bpe,
    /// The bytes of every token.
    tokens: HashSet<&'static [u8], BuildHasherDefault<FxHasher>>,
    /// Whether ASCII text is split by [`AsciiO200kSplit`] (`o200k_base`).
    ascii_o200k: bool,
    /// Its table in [`PIECE_COUNTS`]: 0 for `o200k_base`, 1 for `cl100k_base`.
    slot: usize,
}

impl CompiledBpe {
    /// `o200k_base`, built on first use, once per process.
    #[cfg(feature = "o200k")]
    pub(crate) fn o200k() -> &'static Self {
        static COMPILED: OnceLock<CompiledBpe> = OnceLock::new();
        COMPILED.get_or_init(|| Self::new(bpe_openai::o200k_base(), true, 0))
    }

    /// `cl100k_base`, built on first use, once per process.
    #[cfg(feature = "cl100k")]
    pub(crate) fn cl100k() -> &'static Self {
        static COMPILED: OnceLock<CompiledBpe> = OnceLock::new();
        COMPILED.get_or_init(|| Self::new(bpe_openai::cl100k_base(), false, 1))
    }

    fn new(tokenizer: &'static Bpe, ascii_o200k: bool, slot: usize) -> Self {
        let bpe = &tokenizer.bpe;
        let tokens = (0..bpe.num_tokens())
            .filter_map(|id| u32::try_from(id).ok())
            .map(|id| bpe.token_bytes(id))
            .collect();
        Self {
            tokenizer,
            tokens,
            ascii_o200k,
            slot,
        }
    }

    /// The pretokenizer's pieces of `text` (normalized if the vocabulary
    /// asks for it).
    fn pieces<'t>(&'t self, text: &'t str) -> Box<dyn Iterator<Item = &'t str> + 't> {
        if self.ascii_o200k && text.is_ascii() {
            Box::new(AsciiO200kSplit::new(text))
        } else {
            Box::new(self.tokenizer.split(text))
        }
    }

    /// The tokens of one pretokenizer piece.
    fn piece(&self, piece: &str) -> usize {
        if self.tokens.contains(piece.as_bytes()) {
            return 1;
        }
        // Source code repeats its multi-token pieces (long names, runs of
        // spaces, numbers); the encoder allocates for each one.
        PIECE_COUNTS.with(|tables| {
            let mut known = tables[self.slot].borrow_mut();
            if let Some(&tokens) = known.get(piece.as_bytes()) {
                return tokens;
            }
            let tokens = self.tokenizer.bpe.count(piece.as_bytes());
            if known.len() >= MAX_KNOWN_PIECES {
                known.clear();
            }
            known.insert(piece.as_bytes().into(), tokens);
            tokens
        })
    }

    /// The tokens of `text`.
    pub(crate) fn count(&self, text: &str) -> usize {
        let text = self.tokenizer.normalize(text);
        self.pieces(text.as_str())
            .map(|piece| self.piece(piece))
            .sum()
    }

    /// The tokens of `text` if at most `limit`, counted piece by piece and
    /// stopped at the first piece that crosses `limit`.
    pub(crate) fn count_up_to(&self, text: &str, limit: u64) -> Option<u64> {
        let text = self.tokenizer.normalize(text);
        let mut total: u64 = 0;
        for piece in self.pieces(text.as_str()) {
            let tokens = u64::try_from(self.piece(piece)).ok()?;
            total = total.checked_add(tokens).filter(|&t| t <= limit)?;
        }
        Some(total)
    }
}

#[cfg(all(test, feature = "o200k"))]
mod tests {
    use super::*;

    /// The shortcut gives the encoder's count, piece by piece and whole.
    #[test]
    fn whole_token_pieces_count_as_the_encoder_counts_them() {
        let compiled = CompiledBpe::o200k();
        let text = "fn main() { println!(\"Hello, wörld\"); } // 日本語のテキスト 🦀 1234567 \n\n\t  --> x";
        assert_eq!(compiled.count(text), compiled.tokenizer.count(text));
        for piece in compiled.tokenizer.split(text) {
            assert_eq!(
                compiled.piece(piece),
                compiled.tokenizer.bpe.count(piece.as_bytes()),
                "{piece:?}"
            );
        }
        assert!(compiled.tokens.contains(b" main".as_slice()));
        assert_eq!(compiled.tokens.len(), compiled.tokenizer.bpe.num_tokens());
    }

    /// A remembered piece counts as the encoder counts it, in the
    /// vocabulary that counted it: the two vocabularies split `日本語のテキスト`
    /// into different numbers of tokens.
    #[cfg(feature = "cl100k")]
    #[test]
    fn remembered_pieces_belong_to_their_vocabulary() {
        let (o200k, cl100k) = (CompiledBpe::o200k(), CompiledBpe::cl100k());
        let piece = "日本語のテキスト";
        let expected = (
            o200k.tokenizer.bpe.count(piece.as_bytes()),
            cl100k.tokenizer.bpe.count(piece.as_bytes()),
        );
        assert_ne!(expected.0, expected.1);
        for _ in 0..2 {
            assert_eq!((o200k.piece(piece), cl100k.piece(piece)), expected);
        }
    }
}
