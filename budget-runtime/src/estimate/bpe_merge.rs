//! tiktoken's byte-pair merges over any rank lookup ([`Ranks`]): in a
//! piece, repeatedly join the adjacent pair whose bytes have the lowest
//! rank (the leftmost on ties) until no pair is a token, and count what is
//! left. Short pieces merge on the stack; long ones take their merges from
//! a heap, so a long piece costs `n log n`, not `n²`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Pieces up to this many bytes are merged on the stack.
const SHORT_PIECE: usize = 64;

/// The rank of the token whose bytes are given, if one is.
pub(crate) trait Ranks {
    /// The rank of `bytes`, if they are a token.
    fn rank(&self, bytes: &[u8]) -> Option<u32>;
}

impl Ranks for foldhash::HashMap<Vec<u8>, u32> {
    fn rank(&self, bytes: &[u8]) -> Option<u32> {
        self.get(bytes).copied()
    }
}

#[cfg(any(feature = "o200k", feature = "cl100k"))]
impl Ranks for budget_vocab_openai::Vocabulary {
    fn rank(&self, bytes: &[u8]) -> Option<u32> {
        budget_vocab_openai::Vocabulary::rank(self, bytes)
    }
}

/// The number of tokens one piece encodes to: one if it is a token
/// itself (a token the merges cannot reach, too, as tiktoken has it),
/// else what the merges leave.
pub(crate) fn piece_tokens(ranks: &(impl Ranks + ?Sized), piece: &[u8]) -> u64 {
    if piece.len() <= 1 || ranks.rank(piece).is_some() {
        return u64::from(!piece.is_empty());
    }
    merged_tokens(ranks, piece)
}

/// The tokens the merges leave of `piece` (at least two bytes).
pub(crate) fn merged_tokens(ranks: &(impl Ranks + ?Sized), piece: &[u8]) -> u64 {
    if piece.len() <= SHORT_PIECE {
        short_piece_tokens(ranks, piece)
    } else {
        long_piece_tokens(ranks, piece)
    }
}

/// [`merged_tokens`] of a piece of two to [`SHORT_PIECE`] bytes, without
/// allocating: the symbol boundaries and the rank of each adjacent pair in
/// arrays on the stack, the lowest rank found by a scan (the leftmost on
/// ties), as tiktoken does.
fn short_piece_tokens(ranks: &(impl Ranks + ?Sized), piece: &[u8]) -> u64 {
    let n = piece.len();
    let rank_of = |start: usize, stop: usize| ranks.rank(&piece[start..stop]).unwrap_or(u32::MAX);
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

/// [`merged_tokens`] of a long piece.
fn long_piece_tokens(ranks: &(impl Ranks + ?Sized), piece: &[u8]) -> u64 {
    // Symbols as a linked list over byte ranges; pairs in a min-heap of
    // (rank, start of the left symbol, end of the right symbol).
    let n = piece.len();
    let mut end: Vec<usize> = (1..=n).collect(); // end[start] of the symbol at start
    let mut prev: Vec<usize> = (0..n).map(|i| i.wrapping_sub(1)).collect();
    let mut alive = vec![true; n];
    let mut heap = BinaryHeap::new();
    let rank_of = |start: usize, stop: usize| ranks.rank(&piece[start..stop]);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranks 0–255 for the single bytes, then `merges` in order.
    fn bytes_and(merges: &[&str]) -> foldhash::HashMap<Vec<u8>, u32> {
        let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        tokens.extend(merges.iter().map(|m| m.as_bytes().to_vec()));
        tokens.into_iter().zip(0..).collect()
    }

    #[test]
    fn merges_lowest_rank_first() {
        // "ab" (256) before "bc" (257): "abc" is "ab" + "c", then "abc"
        // (258) joins them; "xbc" takes "bc" alone.
        let ranks = bytes_and(&["ab", "bc", "abc"]);
        assert_eq!(piece_tokens(&ranks, b"abc"), 1);
        assert_eq!(piece_tokens(&ranks, b"xbc"), 2);
        assert_eq!(piece_tokens(&ranks, b"abcabc"), 2);
        assert_eq!(piece_tokens(&ranks, b""), 0);
    }

    #[test]
    fn a_token_its_merges_cannot_reach_is_still_one_token_whole() {
        // "abc" is a token but neither "ab" nor "bc" is: tiktoken counts the
        // whole piece as one token, and three inside a longer piece.
        let ranks = bytes_and(&["abc"]);
        assert_eq!(piece_tokens(&ranks, b"abc"), 1);
        assert_eq!(piece_tokens(&ranks, b"abcd"), 4);
    }

    /// The stack path (short pieces) and the heap path (long ones) agree
    /// on every piece, with merges that overlap and chain.
    #[test]
    fn short_and_long_pieces_merge_alike() {
        use proptest::prelude::*;
        let ranks = bytes_and(&[
            "ab", "bc", "abc", "ca", "cab", "bca", "aa", "aaa", "abca", "bb",
        ]);
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(512));
        runner
            .run(&"[abc]{2,64}", |piece| {
                prop_assert_eq!(
                    short_piece_tokens(&ranks, piece.as_bytes()),
                    long_piece_tokens(&ranks, piece.as_bytes()),
                    "{}",
                    piece
                );
                Ok(())
            })
            .unwrap();
    }
}
