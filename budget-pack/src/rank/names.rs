//! [`FileNames`]: what a source file's text defines and uses, by name, for
//! the [reference graph](super::graph): found once per text and kept
//! between runs by the text cache.

use std::ops::Range;

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use super::identifiers::identifiers;
use super::keywords::{Dialect, KeywordDefinitions};

/// Hashes names for the reference graph, with a seed: the graph looks
/// names up by hash, so that a file's uses can be kept as hashes (never
/// its text). Two names with one hash would count as one: with 64 bits
/// and a tree's few hundred thousand names, about one tree in ten
/// thousand million has such a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameHasher {
    seed: u64,
}

impl NameHasher {
    /// The hasher of `seed`.
    pub fn new(seed: u64) -> Self {
        Self { seed }
    }

    /// The hash of `name`: its bytes as two words, zero-padded, for a
    /// name of up to 16 bytes (most are), else 16 bytes at a time, mixed
    /// by folded multiplies with its length and the seed.
    pub fn hash(self, name: &str) -> u64 {
        self.hash_bytes(name.as_bytes())
    }

    /// [`Self::hash`] of `bytes`.
    fn hash_bytes(self, bytes: &[u8]) -> u64 {
        if bytes.len() > 16 {
            return self.long(bytes);
        }
        let mut padded = [0u8; 16];
        padded[..bytes.len()].copy_from_slice(bytes);
        self.short(word(&padded, 0), word(&padded, 8), bytes.len())
    }

    /// [`Self::hash`] of `text[start..start + length]`, read without a
    /// branch on its length where 16 bytes from `start` are in `text`:
    /// this runs on every identifier of every source file, whose lengths
    /// a branch would mispredict.
    #[inline]
    pub fn hash_within(self, text: &[u8], start: usize, length: usize) -> u64 {
        if length > 16 || start + 16 > text.len() {
            return self.hash_bytes(&text[start..start + length]);
        }
        let keep = |bytes: usize| u64::MAX.checked_shr(64 - 8 * bytes as u32).unwrap_or(0);
        let low = word(text, start) & keep(length.min(8));
        let high = word(text, start + 8) & keep(length.saturating_sub(8));
        self.short(low, high, length)
    }

    /// The hash of a name of at most 16 bytes, given as two little-endian
    /// words (zero past its end).
    #[inline]
    fn short(self, low: u64, high: u64, length: usize) -> u64 {
        let mixed = folded_multiply(low ^ MIX[2], high ^ self.seed ^ MIX[0]);
        folded_multiply(mixed ^ MIX[3], length as u64 ^ MIX[1])
    }

    /// The hash of a name of more than 16 bytes.
    fn long(self, bytes: &[u8]) -> u64 {
        let mut state = self.seed ^ MIX[0];
        let mut chunks = bytes.chunks_exact(16);
        for chunk in &mut chunks {
            state = folded_multiply(word(chunk, 0) ^ MIX[1], word(chunk, 8) ^ state);
        }
        let mut padded = [0u8; 16];
        let rest = chunks.remainder();
        padded[..rest.len()].copy_from_slice(rest);
        let mixed = folded_multiply(word(&padded, 0) ^ MIX[2], word(&padded, 8) ^ state);
        folded_multiply(mixed ^ MIX[3], bytes.len() as u64 ^ MIX[1])
    }
}

/// A map keyed by [`NameHasher`] hashes.
pub type ByNameHash<V> = HashMap<u64, V, NameHashes>;

/// Places a [`NameHasher`] hash in a map by the hash itself: it is spread
/// already, and hashing it again cost a multiply for every identifier of
/// every source file.
#[derive(Clone, Copy, Debug, Default)]
pub struct NameHashes;

impl BuildHasher for NameHashes {
    type Hasher = AsIs;

    fn build_hasher(&self) -> AsIs {
        AsIs(0)
    }
}

/// The [`Hasher`] of [`NameHashes`]: a `u64` written to it is the hash.
#[derive(Debug)]
pub struct AsIs(u64);

impl Hasher for AsIs {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }

    /// Any other key (none is written here) still hashes by all its bytes.
    fn write(&mut self, bytes: &[u8]) {
        self.0 = NameHasher::new(self.0).hash_bytes(bytes);
    }
}

/// Constants of no pattern, for [`NameHasher::hash`]: the first hex
/// digits of π's fraction.
const MIX: [u64; 4] = [
    0x243f_6a88_85a3_08d3,
    0x1319_8a2e_0370_7344,
    0xa409_3822_299f_31d0,
    0x082e_fa98_ec4e_6c89,
];

/// The high and low halves of the 128-bit product of `a` and `b`, XORed.
#[inline]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// The little-endian word at `at` of `bytes` (eight bytes from it).
#[inline]
fn word(bytes: &[u8], at: usize) -> u64 {
    let mut eight = [0; 8];
    eight.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(eight)
}

/// What one source file's text defines (after a definition keyword) and
/// uses (every identifier), found by a scan of the text alone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileNames {
    /// The byte ranges of the names after definition keywords, in order
    /// ([`KeywordDefinitions`]).
    pub defined: Vec<Range<u32>>,
    /// Each distinct identifier of two bytes or more, as its hash, with
    /// how many times it occurs, in no particular order (the graph sorts
    /// the few that are defined names); `None` where they were not
    /// counted ([`Self::definitions`]).
    pub used: Option<Vec<(u64, u32)>>,
    /// How the definitions were told (see [`Self::of`]).
    pub dialect: Dialect,
}

impl FileNames {
    /// The names of `text`, identifiers hashed with `hasher`; `None` for
    /// a text of 4 GiB or more (offsets are 32-bit). The definitions are
    /// told as `dialect` tells them: of Python and Rust, those their
    /// outlines have.
    pub fn of(text: &str, dialect: Dialect, hasher: NameHasher) -> Option<Self> {
        Self::scan(text, dialect, Some(hasher))
    }

    /// The names `text` defines, as [`Self::of`] finds them, without
    /// counting the identifiers it uses (most of the scan's work): for
    /// the files whose uses the reference graph leaves out.
    pub fn definitions(text: &str, dialect: Dialect) -> Option<Self> {
        Self::scan(text, dialect, None)
    }

    /// The definitions, and the uses hashed with `uses` if given.
    fn scan(text: &str, dialect: Dialect, uses: Option<NameHasher>) -> Option<Self> {
        u32::try_from(text.len()).ok()?;
        // One scan for both: the identifiers are the text's costliest pass.
        let mut definitions = KeywordDefinitions::new(text, dialect);
        // Counted by hash, the form the graph reads them in: no string
        // comparisons.
        // A slot per 64 bytes: most files outgrow it once (half the
        // standard library's have a distinct name every 31 bytes or
        // less), but a map made larger from the start was no faster.
        let mut counts: Option<(NameHasher, ByNameHash<u32>)> = uses.map(|hasher| {
            let counts = HashMap::with_capacity_and_hasher(text.len() / 64, NameHashes);
            (hasher, counts)
        });
        let start = text.as_ptr() as usize;
        for identifier in identifiers(text) {
            definitions.see(identifier);
            // A name is at least two bytes long (see the graph).
            if let Some((hasher, counts)) = counts.as_mut()
                && identifier.len() >= 2
            {
                let at = identifier.as_ptr() as usize - start;
                let hash = hasher.hash_within(text.as_bytes(), at, identifier.len());
                *counts.entry(hash).or_default() += 1;
            }
        }
        let defined = definitions
            .into_names()
            .into_iter()
            .map(|name| {
                // Slices of `text`: offsets below its length, which fits.
                let from = (name.as_ptr() as usize - start) as u32;
                from..from + name.len() as u32
            })
            .collect();
        Some(Self {
            defined,
            used: counts.map(|(_, counts)| counts.into_iter().collect()),
            dialect,
        })
    }

    /// The defined names as slices of `text`, if every range is one (a
    /// damaged cache entry's is not).
    pub fn defined_in<'t>(&self, text: &'t str) -> Option<Vec<&'t str>> {
        self.defined
            .iter()
            .map(|range| text.get(range.start as usize..range.end as usize))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// A name hashes the same read inside a text as alone, and two
        /// names of different bytes hash apart.
        #[test]
        fn a_name_hashes_the_same_inside_a_text(
            text in proptest::collection::vec(proptest::num::u8::ANY, 0..64),
            start in 0usize..64,
            length in 0usize..40,
            seed in proptest::num::u64::ANY,
        ) {
            let hasher = NameHasher::new(seed);
            let start = start.min(text.len());
            let length = length.min(text.len() - start);
            let name = &text[start..start + length];
            proptest::prop_assert_eq!(
                hasher.hash_within(&text, start, length),
                hasher.hash_bytes(name)
            );
            let mut other = name.to_vec();
            other.push(0);
            proptest::prop_assert_ne!(hasher.hash_bytes(&other), hasher.hash_bytes(name));
        }
    }

    /// A name's hash places it as it is; any other key by its bytes.
    #[test]
    fn name_hashes_are_their_own_places() {
        let hash = NameHasher::new(9).hash("tide_table");
        assert_eq!(NameHashes.hash_one(hash), hash);
        assert_ne!(NameHashes.hash_one("ab"), NameHashes.hash_one("ba"));
        let mut counts: ByNameHash<u32> = ByNameHash::default();
        *counts.entry(hash).or_default() += 2;
        assert_eq!(counts.get(&hash), Some(&2));
    }

    #[test]
    fn names_are_ranges_and_counted_hashes() {
        let hasher = NameHasher::new(7);
        let text = "def tide(): return tide_table\nclass Tide: tide_table = 1\n";
        let names = FileNames::of(text, Dialect::Python, hasher).unwrap();
        assert_eq!(names.defined_in(text).unwrap(), ["tide", "Tide"]);
        let used = names.used.as_deref().unwrap();
        let count = |name: &str| {
            used.iter()
                .find(|(hash, _)| *hash == hasher.hash(name))
                .map(|&(_, count)| count)
        };
        assert_eq!(count("tide_table"), Some(2));
        assert_eq!(count("tide"), Some(1));
        assert_eq!(count("class"), Some(1));
        assert_eq!(count("1"), None, "one byte: never a name");
        let mut hashes: Vec<u64> = used.iter().map(|&(hash, _)| hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), used.len(), "one entry per name");
        // The definitions alone are the same, and no use is counted.
        let defined = FileNames::definitions(text, Dialect::Python).unwrap();
        assert_eq!(defined.defined, names.defined);
        assert_eq!(defined.used, None);
        let damaged = FileNames {
            dialect: Dialect::Any,
            defined: vec![2..5, 0..500],
            used: Some(Vec::new()),
        };
        assert_eq!(damaged.defined_in(text), None);
    }
}
