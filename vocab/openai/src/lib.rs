//! OpenAI's `o200k_base` and `cl100k_base` vocabularies, compiled in as
//! hash tables that are read in place: [`Vocabulary::rank`] needs no
//! set-up, so a process pays nothing to load a vocabulary before its first
//! count. The byte-pair merges are `budget-runtime`'s (tiktoken's
//! algorithm); this crate only answers which bytes are a token, and which.
//!
//! ```
//! # #[cfg(feature = "o200k")] {
//! use budget_vocab_openai::O200K_BASE;
//!
//! assert_eq!(O200K_BASE.rank(b"hello"), Some(24912));
//! assert_eq!(O200K_BASE.token(24912), Some(b"hello".as_slice()));
//! assert_eq!(O200K_BASE.rank(b"hellohello"), None);
//! assert_eq!(O200K_BASE.len(), 199_998);
//! # }
//! ```
//!
//! The data is OpenAI's rank files for `tiktoken`, under its MIT licence
//! (`LICENSE`).
#![no_std]

mod slot_hash;

/// A byte-pair vocabulary: its tokens' bytes by rank, and the rank of any
/// bytes that are a token.
#[derive(Debug)]
pub struct Vocabulary {
    name: &'static str,
    /// Every token's bytes, concatenated in rank order.
    tokens: &'static [u8],
    /// Little-endian `u32` offsets into `tokens`: one per rank, then the end.
    starts: &'static [u8],
    /// `2^bits` slots of [`slot_hash::SLOT_BYTES`], about three quarters
    /// (76%) full: a token's `rank + 1` (little-endian `u32`; 0 where
    /// empty) and its [`slot_hash::key`], at its hash's slot or the next
    /// free one after it. The key answers most lookups without reading
    /// `tokens`.
    slots: &'static [u8],
    bits: u32,
    /// The longest token's length in bytes.
    longest: usize,
}

/// `o200k_base` (199,998 tokens): GPT-4o, GPT-4.1, GPT-5 and the o-series.
#[cfg(feature = "o200k")]
pub static O200K_BASE: Vocabulary = Vocabulary::new(
    "o200k_base",
    include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.tokens")),
    include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.starts")),
    include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.slots")),
    *include_bytes!(concat!(env!("OUT_DIR"), "/o200k_base.longest")),
);

/// `cl100k_base` (100,256 tokens): GPT-4, GPT-3.5 Turbo and the v3
/// embedding models.
#[cfg(feature = "cl100k")]
pub static CL100K_BASE: Vocabulary = Vocabulary::new(
    "cl100k_base",
    include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.tokens")),
    include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.starts")),
    include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.slots")),
    *include_bytes!(concat!(env!("OUT_DIR"), "/cl100k_base.longest")),
);

impl Vocabulary {
    #[cfg_attr(not(any(feature = "o200k", feature = "cl100k")), allow(dead_code))]
    const fn new(
        name: &'static str,
        tokens: &'static [u8],
        starts: &'static [u8],
        slots: &'static [u8],
        longest: [u8; 4],
    ) -> Self {
        Self {
            name,
            tokens,
            starts,
            slots,
            bits: (slots.len() / slot_hash::SLOT_BYTES).trailing_zeros(),
            longest: u32::from_le_bytes(longest) as usize,
        }
    }

    /// Its name, as `tiktoken` spells it (`o200k_base`).
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The longest token's length in bytes: a text of `n` bytes is at
    /// least `n / longest` tokens, rounded up, however it is split.
    ///
    /// ```
    /// # #[cfg(feature = "o200k")] {
    /// use budget_vocab_openai::O200K_BASE;
    /// assert_eq!(O200K_BASE.longest(), 128);
    /// # }
    /// ```
    pub const fn longest(&self) -> usize {
        self.longest
    }

    /// The number of tokens (ranks `0..len`).
    pub const fn len(&self) -> usize {
        (self.starts.len() / 4).saturating_sub(1)
    }

    /// Whether it has no tokens (never, for the vocabularies shipped).
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rank of the token whose bytes are `bytes`, if one is.
    #[inline]
    pub fn rank(&self, bytes: &[u8]) -> Option<u32> {
        let mask = (1usize << self.bits) - 1;
        let mut slot = slot_hash::slot(bytes, self.bits);
        let key = slot_hash::key_words(bytes);
        // Past the key's bytes, only the token itself tells.
        let whole = bytes.len() < slot_hash::KEY_BYTES;
        // About a quarter of the slots are empty (the build checks that
        // some are): one ends every probe.
        for _ in 0..=mask {
            let at = slot * slot_hash::SLOT_BYTES;
            let record = self.slots.get(at..at + slot_hash::SLOT_BYTES)?;
            let rank = word(record, 0)?.checked_sub(1)?;
            let held = (
                u64::from_le_bytes(record[4..12].try_into().ok()?),
                word(record, 3)?,
            );
            if held == key && (whole || self.token(rank) == Some(bytes)) {
                return Some(rank);
            }
            slot = (slot + 1) & mask;
        }
        None
    }

    /// The bytes of the token of rank `rank`, if there is one.
    #[inline]
    pub fn token(&self, rank: u32) -> Option<&'static [u8]> {
        let rank = rank as usize;
        let start = word(self.starts, rank)? as usize;
        let end = word(self.starts, rank + 1)? as usize;
        self.tokens.get(start..end)
    }
}

/// The `index`th little-endian `u32` of `table`.
#[inline]
fn word(table: &[u8], index: usize) -> Option<u32> {
    let bytes = table.get(index * 4..index * 4 + 4)?;
    Some(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

#[cfg(all(test, feature = "o200k", feature = "cl100k"))]
mod tests {
    use super::*;

    /// Every rank's bytes look up to that rank, in both vocabularies.
    #[test]
    fn every_token_finds_its_rank() {
        for vocabulary in [&O200K_BASE, &CL100K_BASE] {
            for rank in 0..u32::try_from(vocabulary.len()).unwrap() {
                let token = vocabulary.token(rank).unwrap();
                assert_eq!(vocabulary.rank(token), Some(rank), "{}", vocabulary.name());
            }
            assert_eq!(vocabulary.token(vocabulary.len() as u32), None);
            let longest = (0..vocabulary.len() as u32)
                .filter_map(|rank| vocabulary.token(rank))
                .map(<[u8]>::len)
                .max();
            assert_eq!(longest, Some(vocabulary.longest()), "{}", vocabulary.name());
        }
    }

    /// A slot's key alone does not make a long token: bytes with its
    /// length and first bytes but another last byte are not it, though
    /// every slot holds it.
    #[test]
    fn a_long_token_is_compared_past_its_key() {
        static TOKEN: &[u8] = b"abcdefghijklmnop";
        static STARTS: [u8; 8] = [0, 0, 0, 0, 16, 0, 0, 0];
        static SLOTS: [u8; 4 * slot_hash::SLOT_BYTES] = {
            let key = b"\x10abcdefghijk";
            let mut slots = [0u8; 4 * slot_hash::SLOT_BYTES];
            let mut at = 0;
            while at < slots.len() {
                slots[at] = 1;
                let mut k = 0;
                while k < key.len() {
                    slots[at + 4 + k] = key[k];
                    k += 1;
                }
                at += slot_hash::SLOT_BYTES;
            }
            slots
        };
        let vocabulary = Vocabulary::new("test", TOKEN, &STARTS, &SLOTS, 16u32.to_le_bytes());
        assert_eq!(slot_hash::key(TOKEN).as_slice(), &SLOTS[4..16]);
        assert_eq!(vocabulary.rank(TOKEN), Some(0));
        assert_eq!(vocabulary.rank(b"abcdefghijklmnoX"), None);
        assert_eq!(vocabulary.rank(b"abcdefghijk"), None);
    }

    /// Bytes that share a token's length and first bytes (its slot's key)
    /// but not its last byte are not that token.
    #[test]
    fn a_key_alone_finds_no_long_token() {
        for vocabulary in [&O200K_BASE, &CL100K_BASE] {
            let mut long = 0;
            for rank in 0..u32::try_from(vocabulary.len()).unwrap() {
                let token = vocabulary.token(rank).unwrap();
                if token.len() < slot_hash::KEY_BYTES {
                    continue;
                }
                long += 1;
                let mut other = token.to_vec();
                *other.last_mut().unwrap() ^= 1;
                let found = vocabulary.rank(&other).and_then(|r| vocabulary.token(r));
                assert!(found.is_none_or(|t| t == other), "{other:?}");
                assert_ne!(vocabulary.rank(&other), Some(rank));
            }
            assert!(long > 1_000, "{}: {long} long tokens", vocabulary.name());
        }
    }

    /// Ranks read from the rank files with Python's `base64` (tiktoken's
    /// own reading of them).
    #[test]
    fn known_ranks() {
        assert_eq!(O200K_BASE.len(), 199_998);
        assert_eq!(CL100K_BASE.len(), 100_256);
        assert_eq!(O200K_BASE.rank(b" world"), Some(2375));
        assert_eq!(CL100K_BASE.rank(b"hello"), Some(15339));
        assert_eq!(CL100K_BASE.rank(b" world"), Some(1917));
        assert_eq!(O200K_BASE.rank("日".as_bytes()), Some(2292));
        assert_eq!(CL100K_BASE.rank("日".as_bytes()), Some(9080));
        assert_eq!(O200K_BASE.rank(b""), None);
        assert_eq!(O200K_BASE.rank(&[b'x'; 129]), None);
    }
}
