//! [`PieceMemory`]: the counts of the pieces a tokenizer met recently, per
//! thread. Words repeat: a remembered piece costs one hash lookup instead
//! of an encoding.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// Pieces of up to this many bytes are remembered.
const REMEMBERED_PIECE: usize = 24;

/// The most pieces remembered per thread before the memory is cleared.
const ENTRIES: usize = 1 << 16;

/// A remembered piece: its bytes, zero-padded, and its length. Held
/// inline: a boxed key cost an allocation per piece remembered, a pointer
/// to follow per piece looked up, and a free per piece when the thread
/// ends (a counting thread's tens of thousands took milliseconds).
type Key = ([u8; REMEMBERED_PIECE], u8);

/// Counts of recent pieces, and the id of the tokenizer they are of.
type Remembered = (u64, foldhash::HashMap<Key, u32>);

/// The key of `piece` (at most [`REMEMBERED_PIECE`] bytes).
fn key(piece: &[u8]) -> Key {
    let mut bytes = [0; REMEMBERED_PIECE];
    bytes[..piece.len()].copy_from_slice(piece);
    (bytes, u8::try_from(piece.len()).unwrap_or(u8::MAX))
}

thread_local! {
    static REMEMBERED: RefCell<Remembered> = RefCell::new((0, foldhash::HashMap::default()));
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
    pub(crate) const fn fixed(id: u64) -> Self {
        assert!(id > 0 && id < FIRST_MADE_ID);
        Self { id }
    }

    /// The count of `piece`: remembered, or `count(piece)` remembered.
    pub(crate) fn count(&self, piece: &[u8], count: impl FnOnce(&[u8]) -> u64) -> u64 {
        if piece.len() > REMEMBERED_PIECE {
            return count(piece);
        }
        let key = key(piece);
        let known = REMEMBERED.with(|memory| {
            let memory = memory.borrow();
            (memory.0 == self.id)
                .then(|| memory.1.get(&key).copied())
                .flatten()
        });
        if let Some(known) = known {
            return u64::from(known);
        }
        let counted = count(piece);
        REMEMBERED.with(|memory| {
            let mut memory = memory.borrow_mut();
            if memory.0 != self.id || memory.1.len() >= ENTRIES {
                memory.0 = self.id;
                memory.1.clear();
            }
            memory
                .1
                .insert(key, u32::try_from(counted).unwrap_or(u32::MAX));
        });
        counted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_is_counted_once_per_thread_and_memory() {
        let (a, b) = (PieceMemory::new(), PieceMemory::new());
        let calls = std::cell::Cell::new(0);
        let count = |piece: &[u8]| {
            calls.set(calls.get() + 1);
            piece.len() as u64
        };
        assert_eq!(a.count(b"word", count), 4);
        assert_eq!(a.count(b"word", count), 4);
        assert_eq!(calls.get(), 1);
        // Another tokenizer's memory does not answer for this one.
        assert_eq!(b.count(b"word", count), 4);
        assert_eq!(calls.get(), 2);
        // A piece and its zero-padded extension are different pieces.
        assert_eq!(a.count(b"ab", count), 2);
        assert_eq!(a.count(b"ab\0", count), 3);
        assert_eq!(calls.get(), 4);
        // Long pieces are never remembered.
        let long = [b'x'; 40];
        a.count(&long, count);
        a.count(&long, count);
        assert_eq!(calls.get(), 6);
    }
}
