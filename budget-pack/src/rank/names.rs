//! [`FileNames`]: what a source file's text defines and uses, by name, for
//! the [reference graph](super::graph): found once per text and kept
//! between runs by the text cache.

use std::hash::BuildHasher;
use std::ops::Range;

use rustc_hash::FxHashMap as HashMap;

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

    /// The hash of `name`.
    pub fn hash(self, name: &str) -> u64 {
        foldhash::fast::FixedState::with_seed(self.seed).hash_one(name.as_bytes())
    }
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
    /// the few that are defined names).
    pub used: Vec<(u64, u32)>,
    /// How the definitions were told (see [`Self::of`]).
    pub dialect: Dialect,
}

impl FileNames {
    /// The names of `text`, identifiers hashed with `hasher`; `None` for
    /// a text of 4 GiB or more (offsets are 32-bit). The definitions are
    /// told as `dialect` tells them: of Python and Rust, those their
    /// outlines have.
    pub fn of(text: &str, dialect: Dialect, hasher: NameHasher) -> Option<Self> {
        u32::try_from(text.len()).ok()?;
        // One scan for both: the identifiers are the text's costliest pass.
        let mut definitions = KeywordDefinitions::new(text, dialect);
        // Counted by hash, the form the graph reads them in: no string
        // comparisons.
        // A slot per 64 bytes: typical source has a distinct name about
        // every 50, so the map seldom grows.
        let mut counts: HashMap<u64, u32> =
            HashMap::with_capacity_and_hasher(text.len() / 64, Default::default());
        for identifier in identifiers(text) {
            definitions.see(identifier);
            // A name is at least two bytes long (see the graph).
            if identifier.len() >= 2 {
                *counts.entry(hasher.hash(identifier)).or_default() += 1;
            }
        }
        let start = text.as_ptr() as usize;
        let defined = definitions
            .into_names()
            .into_iter()
            .map(|name| {
                // Slices of `text`: offsets below its length, which fits.
                let from = (name.as_ptr() as usize - start) as u32;
                from..from + name.len() as u32
            })
            .collect();
        let used: Vec<(u64, u32)> = counts.into_iter().collect();
        Some(Self {
            defined,
            used,
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

    #[test]
    fn names_are_ranges_and_counted_hashes() {
        let hasher = NameHasher::new(7);
        let text = "def tide(): return tide_table\nclass Tide: tide_table = 1\n";
        let names = FileNames::of(text, Dialect::Python, hasher).unwrap();
        assert_eq!(names.defined_in(text).unwrap(), ["tide", "Tide"]);
        let count = |name: &str| {
            names
                .used
                .iter()
                .find(|(hash, _)| *hash == hasher.hash(name))
                .map(|&(_, count)| count)
        };
        assert_eq!(count("tide_table"), Some(2));
        assert_eq!(count("tide"), Some(1));
        assert_eq!(count("class"), Some(1));
        assert_eq!(count("1"), None, "one byte: never a name");
        let mut hashes: Vec<u64> = names.used.iter().map(|&(hash, _)| hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), names.used.len(), "one entry per name");
        let damaged = FileNames {
            dialect: Dialect::Any,
            defined: vec![2..5, 0..500],
            used: Vec::new(),
        };
        assert_eq!(damaged.defined_in(text), None);
    }
}
