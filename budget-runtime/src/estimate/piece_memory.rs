//! [`PieceMemory`]: the counts of the pieces a tokenizer met recently, per
//! thread. Words repeat: a remembered piece costs one lookup in a table
//! small enough to stay in the core's cache, where a vocabulary's table
//! (megabytes) costs a cache miss and a merge costs many lookups.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Pieces of up to this many bytes go in the recent table, keyed by their
/// bytes and length in twelve bytes. Nearly every piece of source code is
/// this short (97% of `o200k_base`'s pieces of two bytes or more, on the
/// Python standard library).
const SHORT_PIECE: usize = 11;

/// The recent table has `2^RECENT_BITS` slots of 16 bytes (128 KiB): 89%
/// of the pieces of the Python standard library are found in it.
const RECENT_BITS: u32 = 13;

/// Longer pieces of up to this many bytes are remembered in a map.
const REMEMBERED_PIECE: usize = 24;

/// The most longer pieces remembered per thread before the map is cleared.
const ENTRIES: usize = 1 << 16;

/// A remembered longer piece: its bytes, zero-padded, and its length.
/// Held inline: a boxed key cost an allocation per piece remembered, a
/// pointer to follow per piece looked up, and a free per piece when the
/// thread ends (a counting thread's tens of thousands took milliseconds).
type Key = ([u8; REMEMBERED_PIECE], u8);

/// The key of `piece` (at most [`REMEMBERED_PIECE`] bytes).
fn key(piece: &[u8]) -> Key {
    let mut bytes = [0; REMEMBERED_PIECE];
    bytes[..piece.len()].copy_from_slice(piece);
    (bytes, u8::try_from(piece.len()).unwrap_or(u8::MAX))
}

/// The key of a piece of 1 to [`SHORT_PIECE`] bytes: its length and first
/// seven bytes, then its bytes 7 to 10, zero-padded (below 2^32). Never
/// `(0, 0)`, an empty slot's.
#[inline]
fn short_key(piece: &[u8]) -> (u64, u64) {
    debug_assert!((1..=SHORT_PIECE).contains(&piece.len()));
    let low = piece.len() as u64 | first_bytes(piece, 7) << 8;
    let high = piece.get(7..).map_or(0, |rest| first_bytes(rest, 4));
    (low, high)
}

/// The little-endian value of the first `most` (at most 8) bytes of
/// `bytes`, zero past its end: loads of fixed size, overlapping where the
/// length is not theirs (a byte at a time is a loop per piece). The
/// vocabularies' slot keys (`budget-vocab-openai`) are loaded the same
/// way; that crate is not a dependency of `bpe` alone, so not shared.
#[inline]
fn first_bytes(bytes: &[u8], most: usize) -> u64 {
    let n = bytes.len().min(most);
    let four = |at: usize| {
        u64::from(u32::from_le_bytes([
            bytes[at],
            bytes[at + 1],
            bytes[at + 2],
            bytes[at + 3],
        ]))
    };
    match n {
        0 => 0,
        1..=3 => {
            u64::from(bytes[0])
                | u64::from(bytes[n / 2]) << (8 * (n / 2))
                | u64::from(bytes[n - 1]) << (8 * (n - 1))
        }
        4..=7 => four(0) | four(n - 4) << (8 * (n - 4)),
        _ => u64::from_le_bytes([
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        ]),
    }
}

/// The recent table's slot for a short piece's key.
#[inline]
fn recent_slot((low, high): (u64, u64)) -> usize {
    // FxHash's multiplier; the top bits mix every input bit.
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let hash = (low ^ high.rotate_left(29)).wrapping_mul(K);
    (hash >> (64 - RECENT_BITS)) as usize
}

/// One thread's memory of piece counts, for one tokenizer at a time.
pub(crate) struct ThreadMemory {
    /// The id of the tokenizer the counts are of (0: none).
    id: u64,
    /// Short pieces, one per slot, the last met winning its slot: a key's
    /// low word, then its high word with the count in the upper 32 bits.
    /// Empty until a tokenizer claims the memory, and in a memory lent
    /// while the thread's own is in use.
    recent: Vec<[u64; 2]>,
    /// Pieces that are no token, past the recent table.
    longer: foldhash::HashMap<Key, u32>,
}

impl ThreadMemory {
    fn new() -> Self {
        Self {
            id: 0,
            recent: Vec::new(),
            longer: foldhash::HashMap::default(),
        }
    }

    /// Makes the memory `id`'s, forgetting another tokenizer's counts.
    fn claim(&mut self, id: u64) {
        if self.id != id {
            self.id = id;
            self.recent.fill([0; 2]);
            self.longer.clear();
        }
        if self.recent.is_empty() {
            self.recent = vec![[0; 2]; 1 << RECENT_BITS];
        }
    }

    /// The count of `piece`: remembered; else one if `single(piece)` (a
    /// lookup in the vocabulary); else `merged(piece)`, remembered.
    pub(crate) fn count(
        &mut self,
        piece: &[u8],
        single: impl FnOnce(&[u8]) -> bool,
        merged: impl FnOnce(&[u8]) -> u64,
    ) -> u64 {
        if !(1..=SHORT_PIECE).contains(&piece.len()) || self.recent.is_empty() {
            return self.count_longer(piece, single, merged);
        }
        let key = short_key(piece);
        let slot = recent_slot(key);
        let [low, high] = self.recent[slot];
        if low == key.0 && high & u64::from(u32::MAX) == key.1 {
            return high >> 32;
        }
        let counted = self.count_longer(piece, single, merged);
        if counted <= u64::from(u32::MAX) {
            self.recent[slot] = [key.0, key.1 | counted << 32];
        }
        counted
    }

    /// [`count`](Self::count) past the recent table: the pieces that are
    /// no token are remembered in a map, up to [`REMEMBERED_PIECE`] bytes
    /// (a piece pushed out of the recent table is not merged again).
    fn count_longer(
        &mut self,
        piece: &[u8],
        single: impl FnOnce(&[u8]) -> bool,
        merged: impl FnOnce(&[u8]) -> u64,
    ) -> u64 {
        if single(piece) {
            return 1;
        }
        if piece.len() > REMEMBERED_PIECE {
            return merged(piece);
        }
        let key = key(piece);
        if let Some(&known) = self.longer.get(&key) {
            return u64::from(known);
        }
        let counted = merged(piece);
        if self.longer.len() >= ENTRIES {
            self.longer.clear();
        }
        self.longer
            .insert(key, u32::try_from(counted).unwrap_or(u32::MAX));
        counted
    }
}

thread_local! {
    static MEMORY: RefCell<ThreadMemory> = RefCell::new(ThreadMemory::new());
}

/// Ids below this are for the tokenizers compiled in ([`PieceMemory::fixed`]).
const FIRST_MADE_ID: u64 = 16;

/// The id of the next memory made.
static NEXT_ID: AtomicU64 = AtomicU64::new(FIRST_MADE_ID);

/// One tokenizer's claim on each thread's memory of piece counts (one
/// tokenizer at a time per thread: counting with another clears it).
pub(crate) struct PieceMemory {
    id: u64,
}

impl PieceMemory {
    /// A memory of its own.
    pub(crate) fn new() -> Self {
        Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// The memory of a tokenizer compiled in, in a `static`: `id` is its
    /// own, from 1 to 15 (0 is no tokenizer's).
    #[cfg(any(feature = "o200k", feature = "cl100k"))]
    pub(crate) const fn fixed(id: u64) -> Self {
        assert!(id > 0 && id < FIRST_MADE_ID);
        Self { id }
    }

    /// Runs `f` with this thread's memory, claimed for this tokenizer:
    /// borrowed once for a whole text, not once per piece. Called again
    /// from inside `f`, it lends a memory that remembers nothing.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut ThreadMemory) -> R) -> R {
        MEMORY.with(|memory| match memory.try_borrow_mut() {
            Ok(mut memory) => {
                memory.claim(self.id);
                f(&mut memory)
            }
            Err(_) => f(&mut ThreadMemory::new()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No piece is a single token.
    fn never(_: &[u8]) -> bool {
        false
    }

    /// A count that tells how often it was asked.
    fn counted(calls: &std::cell::Cell<u32>) -> impl Fn(&[u8]) -> u64 + '_ {
        |piece: &[u8]| {
            calls.set(calls.get() + 1);
            piece.len() as u64
        }
    }

    #[test]
    fn a_piece_is_counted_once_per_thread_and_memory() {
        let (a, b) = (PieceMemory::new(), PieceMemory::new());
        let calls = std::cell::Cell::new(0);
        let count = counted(&calls);
        a.with(|memory| {
            assert_eq!(memory.count(b"word", never, &count), 4);
            assert_eq!(memory.count(b"word", never, &count), 4);
        });
        assert_eq!(a.with(|memory| memory.count(b"word", never, &count)), 4);
        assert_eq!(calls.get(), 1);
        // Another tokenizer's memory does not answer for this one.
        assert_eq!(b.with(|memory| memory.count(b"word", never, &count)), 4);
        assert_eq!(calls.get(), 2);
        // Nor is this one's left after the other claimed the thread.
        assert_eq!(a.with(|memory| memory.count(b"word", never, &count)), 4);
        assert_eq!(calls.get(), 3);
        let long = [b'x'; 40];
        a.with(|memory| {
            // A piece and its zero-padded extension are different pieces,
            // short and longer.
            assert_eq!(memory.count(b"ab", never, &count), 2);
            assert_eq!(memory.count(b"ab\0", never, &count), 3);
            assert_eq!(memory.count(b"abcdefghijklmn", never, &count), 14);
            assert_eq!(memory.count(b"abcdefghijklmn\0", never, &count), 15);
            assert_eq!(calls.get(), 7);
            assert_eq!(memory.count(b"abcdefghijklmn", never, &count), 14);
            assert_eq!(calls.get(), 7);
            // Long pieces are never remembered.
            memory.count(&long, never, &count);
            memory.count(&long, never, &count);
            assert_eq!(calls.get(), 9);
            // A single token counts one and is never merged.
            let single = |piece: &[u8]| piece == b"tide" || piece == b"tidewaters_of";
            assert_eq!(memory.count(b"tide", single, &count), 1);
            assert_eq!(memory.count(b"tidewaters_of", single, &count), 1);
            assert_eq!(calls.get(), 9);
        });
    }

    /// A piece that lost its slot in the recent table to another is still
    /// remembered, unless it is a single token.
    #[test]
    fn a_piece_pushed_out_of_the_recent_table_is_not_merged_again() {
        let first = *b"aa";
        let rival = (0..=u16::MAX)
            .map(u16::to_le_bytes)
            .find(|other| {
                *other != first && recent_slot(short_key(other)) == recent_slot(short_key(&first))
            })
            .expect("65,536 pieces share the 8,192 slots");
        let memory = PieceMemory::new();
        let calls = std::cell::Cell::new(0);
        let count = counted(&calls);
        let singles = std::cell::Cell::new(0);
        let single = |_: &[u8]| {
            singles.set(singles.get() + 1);
            false
        };
        memory.with(|memory| {
            for piece in [first, rival, first, rival] {
                assert_eq!(memory.count(&piece, single, &count), 2);
            }
        });
        assert_eq!(calls.get(), 2);
        // Each turn past the recent table asks whether the piece is a token.
        assert_eq!(singles.get(), 4);
    }

    /// Pieces that differ in any byte, or only in length, never answer
    /// for each other, whichever slot they share.
    #[test]
    fn short_pieces_are_told_apart_by_every_byte() {
        // A count of its own for every piece.
        let count = |piece: &[u8]| {
            piece
                .iter()
                .enumerate()
                .map(|(at, &byte)| (at as u64 + 1) * u64::from(byte))
                .sum::<u64>()
                + 1_000_000 * piece.len() as u64
        };
        let base = *b"abcdefghijk";
        let variants = || {
            (1..=SHORT_PIECE).flat_map(move |len| {
                (0..=len).map(move |at| {
                    let mut piece = base;
                    if at < len {
                        piece[at] ^= 0x20;
                    }
                    (piece, len)
                })
            })
        };
        let memory = PieceMemory::new();
        memory.with(|memory| {
            for _ in 0..2 {
                for (piece, len) in variants() {
                    let piece = &piece[..len];
                    assert_eq!(memory.count(piece, never, count), count(piece), "{piece:?}");
                }
            }
        });
        // Each key holds the length and every byte.
        let keys: std::collections::HashSet<(u64, u64)> = variants()
            .map(|(piece, len)| short_key(&piece[..len]))
            .collect();
        assert_eq!(keys.len(), variants().count());
        assert_eq!(
            short_key(b"ab"),
            (2 | u64::from(b'a') << 8 | u64::from(b'b') << 16, 0)
        );
        assert_eq!(
            short_key(b"abcdefghijk").1,
            u64::from(u32::from_le_bytes(*b"hijk"))
        );
    }

    /// A memory asked for from inside its own use remembers nothing and
    /// does not panic.
    #[test]
    fn a_nested_use_counts_without_the_memory() {
        let outer = PieceMemory::new();
        let calls = std::cell::Cell::new(0);
        let count = counted(&calls);
        outer.with(|memory| {
            memory.count(b"tide", never, &count);
            let inner = outer.with(|nested| {
                nested.count(b"tide", never, &count) + nested.count(b"tide", never, &count)
            });
            assert_eq!(inner, 8);
        });
        // The lent memory's map remembered the second.
        assert_eq!(calls.get(), 2);
    }
}
