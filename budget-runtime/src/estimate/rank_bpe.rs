//! [`RankBpe`]: tiktoken's byte-pair encoding over a vocabulary read from a
//! file, counted without building token lists.
//!
//! The algorithm is tiktoken's: split the text with the pattern, then in
//! each piece repeatedly merge the adjacent pair whose concatenation has the
//! lowest rank (the leftmost on ties) until no pair is a token. It works for
//! every rank file, including those (Llama 3) whose added tokens are not
//! reachable by their own merges, which `bpe`'s linear-time encoder needs.
//! Merges are taken from a heap, so a long piece costs `n log n`, not `n²`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use unicode_normalization::UnicodeNormalization;

use crate::estimate::split_regex::Splitter;
use crate::estimate::{SplitPattern, TokenizerError};

/// Pieces up to this many bytes are merged on the stack.
const SHORT_PIECE: usize = 64;

/// A byte-pair tokenizer from a rank vocabulary and a split pattern.
pub(crate) struct RankBpe {
    ranks: foldhash::HashMap<Vec<u8>, u32>,
    splitter: Splitter,
    nfc: bool,
}

impl RankBpe {
    /// A tokenizer of `tokens` (rank order) split by `pattern`.
    pub(crate) fn new(
        tokens: Vec<Vec<u8>>,
        pattern: &SplitPattern,
    ) -> Result<Self, TokenizerError> {
        let mut ranks =
            foldhash::HashMap::with_capacity_and_hasher(tokens.len(), Default::default());
        for (rank, token) in tokens.into_iter().enumerate() {
            ranks.insert(token, u32::try_from(rank).unwrap_or(u32::MAX));
        }
        Ok(Self {
            ranks,
            splitter: Splitter::new(pattern)?,
            nfc: pattern.nfc(),
        })
    }

    /// The number of tokens of `text`.
    pub(crate) fn count(&self, text: &str) -> u64 {
        self.count_up_to(text, u64::MAX).unwrap_or(u64::MAX)
    }

    /// The number of tokens of `text` if at most `limit`, stopping at the
    /// first piece that crosses it.
    pub(crate) fn count_up_to(&self, text: &str, limit: u64) -> Option<u64> {
        let normalized: String;
        let text = if self.nfc && !text.is_ascii() {
            normalized = text.nfc().collect();
            normalized.as_str()
        } else {
            text
        };
        let mut total: u64 = 0;
        for piece in self.splitter.split(text) {
            total = total
                .checked_add(self.piece_tokens(piece.as_bytes()))
                .filter(|&t| t <= limit)?;
        }
        Some(total)
    }

    /// The number of tokens one piece encodes to.
    fn piece_tokens(&self, piece: &[u8]) -> u64 {
        if piece.len() <= 1 || self.ranks.contains_key(piece) {
            return u64::from(!piece.is_empty());
        }
        if piece.len() <= SHORT_PIECE {
            return self.short_piece_tokens(piece);
        }
        self.long_piece_tokens(piece)
    }

    /// [`piece_tokens`](Self::piece_tokens) of a piece of at most
    /// [`SHORT_PIECE`] bytes, without allocating: the symbol boundaries and
    /// the rank of each adjacent pair in arrays on the stack, the lowest
    /// rank found by a scan (the leftmost on ties), as tiktoken does.
    fn short_piece_tokens(&self, piece: &[u8]) -> u64 {
        let n = piece.len();
        let rank_of = |start: usize, stop: usize| {
            self.ranks
                .get(&piece[start..stop])
                .copied()
                .unwrap_or(u32::MAX)
        };
        // bounds[..len] are the symbols' starts, then `n`; pair[i] is the
        // rank of joining symbol i with symbol i + 1.
        let mut bounds = [0usize; SHORT_PIECE + 1];
        let mut pair = [u32::MAX; SHORT_PIECE + 1];
        let mut len = n + 1;
        for (i, bound) in bounds.iter_mut().enumerate().take(n + 1) {
            *bound = i;
        }
        for (i, rank) in pair.iter_mut().enumerate().take(n - 1) {
            *rank = rank_of(i, i + 2);
        }
        loop {
            let (at, lowest) =
                pair[..len - 2]
                    .iter()
                    .enumerate()
                    .fold(
                        (0, u32::MAX),
                        |best, (i, &r)| if r < best.1 { (i, r) } else { best },
                    );
            if lowest == u32::MAX {
                break;
            }
            // Join symbols `at` and `at + 1`: drop boundary `at + 1`.
            bounds.copy_within(at + 2..len, at + 1);
            pair.copy_within(at + 2..len, at + 1);
            len -= 1;
            pair[at] = if at + 2 < len {
                rank_of(bounds[at], bounds[at + 2])
            } else {
                u32::MAX
            };
            if at > 0 {
                pair[at - 1] = rank_of(bounds[at - 1], bounds[at + 1]);
            }
        }
        (len - 1) as u64
    }

    /// [`piece_tokens`](Self::piece_tokens) of a long piece.
    fn long_piece_tokens(&self, piece: &[u8]) -> u64 {
        // Symbols as a linked list over byte ranges; pairs in a min-heap of
        // (rank, start of the left symbol, end of the right symbol).
        let n = piece.len();
        let mut end: Vec<usize> = (1..=n).collect(); // end[start] of the symbol at start
        let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
        let mut alive = vec![true; n];
        let mut heap = BinaryHeap::new();
        let rank_of = |start: usize, stop: usize| self.ranks.get(&piece[start..stop]).copied();
        for start in 0..n - 1 {
            if let Some(rank) = rank_of(start, start + 2) {
                heap.push(Reverse((rank, start, start + 2)));
            }
        }
        let mut symbols = n;
        while let Some(Reverse((_, left, stop))) = heap.pop() {
            // Stale unless the left symbol is alive and still ends where the
            // right one starts, and the right one still ends at `stop`.
            let middle = end[left];
            if !alive[left] || middle >= n || end[middle] != stop || !alive[middle] {
                continue;
            }
            alive[middle] = false;
            end[left] = stop;
            if stop < n {
                prev[stop] = left;
            }
            symbols -= 1;
            let before = prev[left];
            if before < n
                && let Some(rank) = rank_of(before, stop)
            {
                heap.push(Reverse((rank, before, stop)));
            }
            if stop < n {
                let after = end[stop];
                if let Some(rank) = rank_of(left, after) {
                    heap.push(Reverse((rank, left, after)));
                }
            }
        }
        symbols as u64
    }
}

impl std::fmt::Debug for RankBpe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RankBpe")
            .field("ranks", &self.ranks.len())
            .field("nfc", &self.nfc)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_and(merges: &[&str]) -> Vec<Vec<u8>> {
        let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        tokens.extend(merges.iter().map(|m| m.as_bytes().to_vec()));
        tokens
    }

    #[test]
    fn merges_lowest_rank_first() {
        // "ab" (256) before "bc" (257): "abc" is "ab" + "c", then "abc"
        // (258) joins them; "xbc" takes "bc" alone.
        let bpe = RankBpe::new(bytes_and(&["ab", "bc", "abc"]), &SplitPattern::CL100K).unwrap();
        assert_eq!(bpe.count("abc"), 1);
        assert_eq!(bpe.count("xbc"), 2);
        assert_eq!(bpe.count("abcabc"), 2);
        assert_eq!(bpe.count(""), 0);
    }

    #[test]
    fn a_token_its_merges_cannot_reach_is_still_one_token_whole() {
        // "abc" is a token but neither "ab" nor "bc" is: tiktoken counts the
        // whole piece as one token, and three inside a longer piece.
        let bpe = RankBpe::new(bytes_and(&["abc"]), &SplitPattern::CL100K).unwrap();
        assert_eq!(bpe.count("abc"), 1);
        assert_eq!(bpe.count("abcd"), 4);
    }

    /// The stack path (short pieces) and the heap path (long ones) agree
    /// on every piece, with merges that overlap and chain.
    #[test]
    fn short_and_long_pieces_merge_alike() {
        use proptest::prelude::*;
        let bpe = RankBpe::new(
            bytes_and(&[
                "ab", "bc", "abc", "ca", "cab", "bca", "aa", "aaa", "abca", "bb",
            ]),
            &SplitPattern::CL100K,
        )
        .unwrap();
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(512));
        runner
            .run(&"[abc]{2,64}", |piece| {
                prop_assert_eq!(
                    bpe.short_piece_tokens(piece.as_bytes()),
                    bpe.long_piece_tokens(piece.as_bytes()),
                    "{}",
                    piece
                );
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn limits_stop_counting() {
        let bpe = RankBpe::new(bytes_and(&[]), &SplitPattern::CL100K).unwrap();
        assert_eq!(bpe.count_up_to("abc def", 7), Some(7));
        assert_eq!(bpe.count_up_to("abc def", 6), None);
    }
}
