//! [`NameCache`]: what each source file defines and uses
//! ([`FileNames`]), kept between runs by content.
//!
//! The reference graph needs every source file's identifiers, a scan of
//! every byte of source; a tree packed again mostly holds the same texts.
//! The cache keeps, for each text of the last run of the same folder, the
//! byte ranges of its defined names and the hashes of its identifiers
//! with their counts (never text), under a 64-bit hash of the text (keyed
//! with the cache's own random seed) and its length. The names' hasher is
//! seeded the same, so a name the cache gives and one found in the text
//! hash alike.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::path::{Path, PathBuf};

use crate::cache_file::{create_private_dir, write_private};
use crate::parallel::parallel_map;
use crate::rank::names::{FileNames, NameHasher};
use crate::rank::role::is_code;

/// What a names file starts with (the format's version is its last byte).
const MAGIC: &[u8; 8] = b"BGTNAM\x00\x01";
/// The largest names file read or written, in bytes.
const MAX_FILE_BYTES: u64 = 256 << 20;
/// The longest identity a file holds, in bytes.
const MAX_IDENTITY_BYTES: usize = 4096;

/// A text's key: a hash of its bytes and its length in bytes.
type Key = (u64, u64);

/// The names of the texts of the last run over one folder, and what this
/// run found ([`names`](Self::names)), saved with [`save`](Self::save).
#[derive(Debug)]
pub(crate) struct NameCache {
    /// The file, if the cache is kept.
    path: Option<PathBuf>,
    /// What it serves: one folder packed by one version of the program.
    identity: String,
    /// Seeds the names' hasher and (changed) the texts' keys.
    seed: u64,
    loaded: HashMap<Key, FileNames>,
    /// This run's source texts, by key, in file order; whether each was
    /// found in the cache.
    seen: Vec<(Key, bool)>,
}

impl NameCache {
    /// No cache: names found in every run, hashed with a fixed seed.
    pub fn none() -> Self {
        Self {
            path: None,
            identity: String::new(),
            seed: 0,
            loaded: HashMap::new(),
            seen: Vec::new(),
        }
    }

    /// The cache in folder `dir` for `identity` (the packed folder and the
    /// program's version). A missing, unreadable, foreign or damaged file
    /// is an empty cache, never an error.
    pub fn open(dir: &Path, identity: &str) -> Self {
        let name = foldhash::fast::FixedState::with_seed(0x5eed).hash_one(identity);
        let mut cache = Self {
            path: Some(dir.join(format!("names-{name:016x}.bin"))),
            identity: identity.to_owned(),
            seed: RandomState::new().hash_one(identity),
            ..Self::none()
        };
        let path = cache.path.as_deref().unwrap_or(dir);
        match budget_runtime::file::read_bytes(path, MAX_FILE_BYTES) {
            Ok(bytes) => match parse(&bytes, identity) {
                Some((seed, loaded)) => (cache.seed, cache.loaded) = (seed, loaded),
                None => {
                    tracing::debug!(path = %path.display(), "name cache ignored: another folder's, or damaged")
                }
            },
            Err(error) => tracing::debug!(path = %path.display(), %error, "no name cache read"),
        }
        cache
    }

    /// The hasher the names are hashed with.
    pub fn hasher(&self) -> NameHasher {
        NameHasher::new(self.seed)
    }

    /// The names of each of `files` (`(path, text)`) that is source code,
    /// from the cache where it holds the text, else found on every core.
    pub fn names(&mut self, files: &[(&str, &str)]) -> Vec<Option<FileNames>> {
        let hasher = self.hasher();
        let keep = self.path.is_some();
        let found = parallel_map(files, |&(path, text)| {
            if !is_code(path) {
                return None;
            }
            let key = keep.then(|| self.key(text));
            let cached = key
                .and_then(|key| self.loaded.get(&key))
                .filter(|names| names.defined_in(text).is_some());
            Some(match cached {
                Some(names) => (key, true, Some(names.clone())),
                None => (key, false, FileNames::of(text, hasher)),
            })
        });
        let mut names = Vec::with_capacity(files.len());
        self.seen.clear();
        for entry in found {
            names.push(entry.and_then(|(key, hit, file_names)| {
                if let (Some(key), Some(_)) = (key, &file_names) {
                    self.seen.push((key, hit));
                }
                file_names
            }));
        }
        names
    }

    /// Writes this run's `names` (as [`names`](Self::names) gave them)
    /// as the cache, unless it is not kept or already held them all.
    ///
    /// # Errors
    /// The folder cannot be made or the file cannot be written.
    pub fn save(&self, names: &[Option<FileNames>]) -> std::io::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if self.seen.iter().all(|&(_, hit)| hit) && self.seen.len() == self.loaded.len() {
            return Ok(());
        }
        let identity = self.identity.as_bytes();
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&self.seed.to_le_bytes());
        bytes.extend_from_slice(&u32::try_from(identity.len()).unwrap_or(0).to_le_bytes());
        bytes.extend_from_slice(identity);
        for ((key, _), file_names) in self.seen.iter().zip(names.iter().flatten()) {
            let size = 24 + 8 * file_names.defined.len() + 12 * file_names.used.len();
            if (bytes.len() + size) as u64 > MAX_FILE_BYTES {
                break;
            }
            let (Ok(defined), Ok(used)) = (
                u32::try_from(file_names.defined.len()),
                u32::try_from(file_names.used.len()),
            ) else {
                continue;
            };
            bytes.extend_from_slice(&key.0.to_le_bytes());
            bytes.extend_from_slice(&key.1.to_le_bytes());
            bytes.extend_from_slice(&defined.to_le_bytes());
            bytes.extend_from_slice(&used.to_le_bytes());
            for range in &file_names.defined {
                bytes.extend_from_slice(&range.start.to_le_bytes());
                bytes.extend_from_slice(&range.end.to_le_bytes());
            }
            for &(hash, count) in &file_names.used {
                bytes.extend_from_slice(&hash.to_le_bytes());
                bytes.extend_from_slice(&count.to_le_bytes());
            }
        }
        create_private_dir(path.parent().unwrap_or(Path::new(".")))?;
        write_private(path, &bytes)
    }

    fn key(&self, text: &str) -> Key {
        let hash = foldhash::fast::FixedState::with_seed(!self.seed).hash_one(text.as_bytes());
        (hash, u64::try_from(text.len()).unwrap_or(u64::MAX))
    }
}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'b>(&'b [u8]);

impl Reader<'_> {
    fn u32(&mut self) -> Option<u32> {
        let (bytes, rest) = self.0.split_first_chunk::<4>()?;
        self.0 = rest;
        Some(u32::from_le_bytes(*bytes))
    }

    fn u64(&mut self) -> Option<u64> {
        let (bytes, rest) = self.0.split_first_chunk::<8>()?;
        self.0 = rest;
        Some(u64::from_le_bytes(*bytes))
    }
}

/// The seed and names of a names file's `bytes`, if it is one of
/// `identity`'s and whole.
fn parse(bytes: &[u8], identity: &str) -> Option<(u64, HashMap<Key, FileNames>)> {
    let mut reader = Reader(bytes.strip_prefix(MAGIC)?);
    let seed = reader.u64()?;
    let length = usize::try_from(reader.u32()?).ok()?;
    if length > MAX_IDENTITY_BYTES || reader.0.get(..length)? != identity.as_bytes() {
        return None;
    }
    reader.0 = &reader.0[length..];
    let mut loaded = HashMap::new();
    while !reader.0.is_empty() {
        let key = (reader.u64()?, reader.u64()?);
        let defined = usize::try_from(reader.u32()?).ok()?;
        let used = usize::try_from(reader.u32()?).ok()?;
        // Counts the rest of the file cannot hold are damage, not a reason
        // to allocate.
        if defined
            .saturating_mul(8)
            .saturating_add(used.saturating_mul(12))
            > reader.0.len()
        {
            return None;
        }
        let mut names = FileNames {
            defined: Vec::with_capacity(defined),
            used: Vec::with_capacity(used),
        };
        for _ in 0..defined {
            names.defined.push(reader.u32()?..reader.u32()?);
        }
        for _ in 0..used {
            names.used.push((reader.u64()?, reader.u32()?));
        }
        loaded.insert(key, names);
    }
    Some((seed, loaded))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const FILES: &[(&str, &str)] = &[
        ("tides.py", "def tide_table(): return harmonic_sum()\n"),
        ("harmonics.py", "def harmonic_sum(): pass\n"),
        ("README.md", "def not_code(): pass\n"),
    ];

    #[test]
    fn a_later_run_gets_the_same_names_from_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let mut cache = NameCache::open(dir.path(), "tides");
        let found = cache.names(FILES);
        assert!(found[2].is_none(), "only source code has names");
        cache.save(&found).unwrap();

        let mut cache = NameCache::open(dir.path(), "tides");
        assert_eq!(cache.loaded.len(), 2);
        let again = cache.names(FILES);
        assert_eq!(again, found);
        assert!(cache.seen.iter().all(|&(_, hit)| hit));
        // Found afresh with the cache's seed, the names hash alike.
        let fresh = FileNames::of(FILES[0].1, cache.hasher());
        assert_eq!(again[0], fresh);
        // Another folder's cache is another file.
        assert!(NameCache::open(dir.path(), "other").loaded.is_empty());
    }

    #[test]
    fn a_changed_text_is_scanned_again() {
        let dir = tempfile::tempdir().unwrap();
        let mut cache = NameCache::open(dir.path(), "tides");
        let found = cache.names(FILES);
        cache.save(&found).unwrap();
        let changed = [FILES[0], ("harmonics.py", "def harmonic_mean(): pass\n")];
        let mut cache = NameCache::open(dir.path(), "tides");
        let names = cache.names(&changed);
        assert_eq!(
            cache.seen.iter().map(|&(_, hit)| hit).collect::<Vec<_>>(),
            [true, false]
        );
        assert_eq!(
            names[1].as_ref().unwrap().defined_in(changed[1].1).unwrap(),
            ["harmonic_mean"]
        );
    }

    #[test]
    fn a_damaged_file_is_an_empty_cache() {
        let dir = tempfile::tempdir().unwrap();
        let mut cache = NameCache::open(dir.path(), "tides");
        let found = cache.names(FILES);
        cache.save(&found).unwrap();
        let path = cache.path.clone().unwrap();
        let whole = std::fs::read(&path).unwrap();
        for cut in [whole.len() - 1, whole.len() - 13, 30, 3] {
            std::fs::write(&path, &whole[..cut]).unwrap();
            assert!(
                NameCache::open(dir.path(), "tides").loaded.is_empty(),
                "cut at {cut}"
            );
        }
    }

    proptest! {
        #[test]
        fn any_bytes_parse_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let mut file = MAGIC.to_vec();
            file.extend_from_slice(&[0; 8]);
            file.extend_from_slice(&0u32.to_le_bytes());
            file.extend_from_slice(&bytes);
            let _ = parse(&file, "");
            let _ = parse(&bytes, "");
        }
    }
}
