//! [`MergeBpe`]: byte-pair encoding by a table of merges, as Hugging Face
//! `tokenizers` applies a `tokenizer.json`'s `merges`, llama.cpp a GGUF's
//! `tokenizer.ggml.merges`, and SentencePiece a BPE model's scores.
//!
//! A piece starts as one symbol per byte (byte-level vocabularies) or per
//! character; then the adjacent pair whose merge has the lowest rank (the
//! leftmost on ties) is joined, until no adjacent pair has a merge. Unlike
//! tiktoken's rule (the rank of the joined bytes), only listed pairs join:
//! a token reachable by two different pairs joins only through the listed
//! one.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Pieces of up to this many symbols are merged by a scan; longer ones
/// through a heap.
const SHORT_PIECE: usize = 48;

/// What a piece starts as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Symbols {
    /// One symbol per byte: byte-level vocabularies (GPT-2's alphabet).
    Bytes,
    /// One symbol per character; a character that is not a token is
    /// [`Unknown`].
    Chars,
}

/// What a character that is not a token becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unknown {
    /// One token per UTF-8 byte (`<0x41>` tokens).
    ByteFallback,
    /// The unknown token, once per character, or once per run of them when
    /// `fuse` is set.
    Unk {
        /// Whether a run of unknown characters is one token.
        fuse: bool,
    },
    /// Nothing: the character is dropped, as `tokenizers` drops it when the
    /// model names no unknown token.
    Dropped,
}

/// A byte-pair model: its vocabulary and its merges.
pub(crate) struct MergeBpe {
    /// The id of every token, by its bytes.
    vocab: foldhash::HashMap<Box<[u8]>, u32>,
    /// `left << 32 | right` → the merge's rank and joined id.
    merges: foldhash::HashMap<u64, (u32, u32)>,
    symbols: Symbols,
    unknown: Unknown,
    /// Ids of the `<0xNN>` tokens, for byte fallback.
    byte_tokens: Option<Box<[u32; 256]>>,
    /// Ids of the single-byte tokens ([`Symbols::Bytes`]).
    byte_ids: Box<[u32; 256]>,
    /// A piece that is a token counts one without merging (Hugging Face's
    /// `ignore_merges`, set by Llama 3's `tokenizer.json`).
    ignore_merges: bool,
}

/// The id a symbol gets when its character is unknown.
const UNK: u32 = u32::MAX;

impl MergeBpe {
    /// A model of `vocab` (token bytes and ids) and `merges` (pairs of
    /// token ids and the id they join to, in rank order).
    pub(crate) fn new(
        vocab: foldhash::HashMap<Box<[u8]>, u32>,
        merges: impl IntoIterator<Item = (u32, u32, u32)>,
        symbols: Symbols,
        unknown: Unknown,
        ignore_merges: bool,
    ) -> Self {
        Self::with_ranks(
            vocab,
            merges
                .into_iter()
                .enumerate()
                .map(|(rank, (l, r, j))| (u32::try_from(rank).unwrap_or(u32::MAX), l, r, j)),
            symbols,
            unknown,
            ignore_merges,
        )
    }

    /// As [`new`](Self::new), with an explicit rank per merge: merges of
    /// equal rank join leftmost first (SentencePiece's equal scores).
    pub(crate) fn with_ranks(
        vocab: foldhash::HashMap<Box<[u8]>, u32>,
        merges: impl IntoIterator<Item = (u32, u32, u32, u32)>,
        symbols: Symbols,
        unknown: Unknown,
        ignore_merges: bool,
    ) -> Self {
        let mut table = foldhash::HashMap::default();
        for (rank, left, right, joined) in merges {
            // The first listing of a pair wins, as in `tokenizers`.
            table.entry(pair(left, right)).or_insert((rank, joined));
        }
        let byte_tokens = (unknown == Unknown::ByteFallback).then(|| {
            let mut ids = Box::new([UNK; 256]);
            for (byte, id) in ids.iter_mut().enumerate() {
                if let Some(&found) = vocab.get(format!("<0x{byte:02X}>").as_bytes()) {
                    *id = found;
                }
            }
            ids
        });
        let mut byte_ids = Box::new([UNK; 256]);
        for (byte, id) in (0..=255u8).zip(byte_ids.iter_mut()) {
            if let Some(&found) = vocab.get([byte].as_slice()) {
                *id = found;
            }
        }
        Self {
            vocab,
            merges: table,
            symbols,
            unknown,
            byte_tokens,
            byte_ids,
            ignore_merges,
        }
    }

    /// The number of tokens `piece` encodes to.
    pub(crate) fn count(&self, piece: &[u8]) -> u64 {
        if piece.is_empty() {
            return 0;
        }
        if self.ignore_merges && self.vocab.contains_key(piece) {
            return 1;
        }
        self.merge(piece)
    }

    /// The number of tokens `piece` merges to.
    fn merge(&self, piece: &[u8]) -> u64 {
        let mut ids = Vec::with_capacity(piece.len());
        self.initial_symbols(piece, &mut ids);
        if ids.len() <= SHORT_PIECE {
            self.merge_short(&mut ids);
        } else {
            self.merge_long(&mut ids);
        }
        ids.len() as u64
    }

    /// The symbols `piece` starts as, into `ids`.
    fn initial_symbols(&self, piece: &[u8], ids: &mut Vec<u32>) {
        match self.symbols {
            Symbols::Bytes => {
                for byte in piece {
                    let id = self.byte_ids[usize::from(*byte)];
                    self.push_known_or_unknown(id, std::slice::from_ref(byte), ids);
                }
            }
            Symbols::Chars => {
                // The piece is UTF-8: it came from a `&str`.
                let text = String::from_utf8_lossy(piece);
                let mut buffer = [0u8; 4];
                for c in text.chars() {
                    let bytes = c.encode_utf8(&mut buffer).as_bytes();
                    let id = self.vocab.get(bytes).copied().unwrap_or(UNK);
                    self.push_known_or_unknown(id, bytes, ids);
                }
            }
        }
    }

    fn push_known_or_unknown(&self, id: u32, bytes: &[u8], ids: &mut Vec<u32>) {
        if id != UNK {
            ids.push(id);
            return;
        }
        match (self.unknown, &self.byte_tokens) {
            (Unknown::ByteFallback, Some(byte_ids))
                if bytes.iter().all(|&b| byte_ids[usize::from(b)] != UNK) =>
            {
                ids.extend(bytes.iter().map(|&b| byte_ids[usize::from(b)]));
            }
            (Unknown::Dropped, _) => {}
            (Unknown::Unk { fuse: true }, _) if ids.last() == Some(&UNK) => {}
            _ => ids.push(UNK),
        }
    }

    /// The merge of the pair `(left, right)`: its rank and joined id.
    fn merge_of(&self, left: u32, right: u32) -> Option<(u32, u32)> {
        if left == UNK || right == UNK {
            return None;
        }
        self.merges.get(&pair(left, right)).copied()
    }

    /// Merges a short run of symbols by scanning for the lowest rank.
    fn merge_short(&self, ids: &mut Vec<u32>) {
        let mut ranks: Vec<(u32, u32)> = ids
            .windows(2)
            .map(|w| self.merge_of(w[0], w[1]).unwrap_or((u32::MAX, UNK)))
            .collect();
        while let Some((at, &(rank, joined))) = ranks
            .iter()
            .enumerate()
            .min_by_key(|(i, (rank, _))| (*rank, *i))
        {
            if rank == u32::MAX {
                break;
            }
            ids[at] = joined;
            ids.remove(at + 1);
            ranks.remove(at);
            if at < ranks.len() {
                ranks[at] = self
                    .merge_of(joined, ids[at + 1])
                    .unwrap_or((u32::MAX, UNK));
            }
            if at > 0 {
                ranks[at - 1] = self
                    .merge_of(ids[at - 1], joined)
                    .unwrap_or((u32::MAX, UNK));
            }
        }
    }

    /// Merges a long run of symbols: a linked list of symbols and a heap of
    /// candidate merges, each checked against the list when it is taken.
    fn merge_long(&self, ids: &mut Vec<u32>) {
        let n = ids.len();
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
        let mut heap = BinaryHeap::new();
        for i in 0..n - 1 {
            if let Some((rank, joined)) = self.merge_of(ids[i], ids[i + 1]) {
                heap.push(Reverse((rank, i, joined)));
            }
        }
        let mut alive = vec![true; n];
        while let Some(Reverse((rank, left, joined))) = heap.pop() {
            let right = next[left];
            if !alive[left]
                || right >= n
                || self.merge_of(ids[left], ids[right]) != Some((rank, joined))
            {
                continue;
            }
            ids[left] = joined;
            alive[right] = false;
            next[left] = next[right];
            if next[left] < n {
                prev[next[left]] = left;
            }
            let before = prev[left];
            if before < n
                && let Some((rank, joined)) = self.merge_of(ids[before], ids[left])
            {
                heap.push(Reverse((rank, before, joined)));
            }
            if next[left] < n
                && let Some((rank, joined)) = self.merge_of(ids[left], ids[next[left]])
            {
                heap.push(Reverse((rank, left, joined)));
            }
        }
        let mut kept = 0;
        for i in 0..n {
            if alive[i] {
                ids[kept] = ids[i];
                kept += 1;
            }
        }
        ids.truncate(kept);
    }
}

fn pair(left: u32, right: u32) -> u64 {
    u64::from(left) << 32 | u64::from(right)
}

impl std::fmt::Debug for MergeBpe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MergeBpe")
            .field("vocab", &self.vocab.len())
            .field("merges", &self.merges.len())
            .field("symbols", &self.symbols)
            .field("unknown", &self.unknown)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A byte-level model over `a`, `b`, `c` with `merges` given as text
    /// pairs, joined tokens added to the vocabulary in order.
    fn model(merges: &[(&str, &str)], symbols: Symbols, unknown: Unknown) -> MergeBpe {
        let mut vocab: foldhash::HashMap<Box<[u8]>, u32> = foldhash::HashMap::default();
        for t in ["a", "b", "c"] {
            let id = u32::try_from(vocab.len()).unwrap();
            vocab.insert(t.as_bytes().into(), id);
        }
        let mut list = Vec::new();
        for (l, r) in merges {
            let joined = format!("{l}{r}");
            let next = u32::try_from(vocab.len()).unwrap();
            let id = *vocab.entry(joined.as_bytes().into()).or_insert(next);
            list.push((vocab[l.as_bytes()], vocab[r.as_bytes()], id));
        }
        MergeBpe::new(vocab, list, symbols, unknown, false)
    }

    #[test]
    fn only_listed_pairs_join_lowest_rank_first() {
        let bpe = model(
            &[("b", "c"), ("a", "b"), ("a", "bc")],
            Symbols::Bytes,
            Unknown::Dropped,
        );
        // "bc" (rank 0) first, then "a"+"bc" (rank 2).
        assert_eq!(bpe.count(b"abc"), 1);
        assert_eq!(bpe.count(b"abac"), 3); // ab a c
        assert_eq!(bpe.count(b""), 0);
        // "ab" (rank 0) first; "ab"+"c" is not a listed pair, though "abc"
        // is a token.
        let bpe = model(
            &[("a", "b"), ("b", "c"), ("a", "bc")],
            Symbols::Bytes,
            Unknown::Dropped,
        );
        assert_eq!(bpe.count(b"abc"), 2);
    }

    #[test]
    fn unknown_characters_fall_back_fuse_or_drop() {
        let mut vocab: foldhash::HashMap<Box<[u8]>, u32> = foldhash::HashMap::default();
        vocab.insert(b"a".as_slice().into(), 0);
        for byte in 0..=255u32 {
            vocab.insert(format!("<0x{byte:02X}>").into_bytes().into(), byte + 1);
        }
        let with = |unknown| MergeBpe::new(vocab.clone(), [], Symbols::Chars, unknown, false);
        // "é" is two UTF-8 bytes.
        assert_eq!(with(Unknown::ByteFallback).count("aéé".as_bytes()), 5);
        assert_eq!(with(Unknown::Unk { fuse: true }).count("aéé".as_bytes()), 2);
        assert_eq!(
            with(Unknown::Unk { fuse: false }).count("aéé".as_bytes()),
            3
        );
        assert_eq!(with(Unknown::Dropped).count("aéé".as_bytes()), 1);
    }

    /// The scan (short pieces) and the heap (long ones) agree on every
    /// piece, with merges that overlap and chain.
    #[test]
    fn short_and_long_pieces_merge_alike() {
        use proptest::prelude::*;
        let bpe = model(
            &[
                ("a", "b"),
                ("b", "c"),
                ("ab", "c"),
                ("c", "a"),
                ("c", "ab"),
                ("b", "ca"),
                ("a", "a"),
                ("aa", "a"),
                ("abc", "a"),
                ("b", "b"),
            ],
            Symbols::Bytes,
            Unknown::Dropped,
        );
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(512));
        runner
            .run(&"[abc]{2,120}", |piece| {
                let mut short: Vec<u32> = Vec::new();
                bpe.initial_symbols(piece.as_bytes(), &mut short);
                let mut long = short.clone();
                bpe.merge_short(&mut short);
                bpe.merge_long(&mut long);
                prop_assert_eq!(short, long, "{}", piece);
                Ok(())
            })
            .unwrap();
    }
}
