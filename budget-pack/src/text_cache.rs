//! [`TextCache`]: what `pack` learns of each file's text (its size and
//! description, [`TextFacts`]; for source code the names it defines and
//! uses, [`FileNames`], and its syntax tree's outline, [`Parsed`]; whether
//! a search for secrets found none in it), kept between runs by content.
//!
//! Measuring every text, finding every source file's identifiers and
//! parsing the best ones with tree-sitter are the costliest passes of a
//! pack, and a tree packed again mostly holds the same texts. The cache
//! keeps, for each text of the last runs over the same inputs, counts,
//! byte ranges, rows and hashes of identifiers (never text), under a 64-bit
//! hash of the text (keyed with the cache's own random seed) and its
//! length. The names' hasher is seeded the same, so a name the cache gives
//! and one found in the text hash alike.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, RandomState};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::cache_file::{create_private_dir, write_private};
use crate::outline::{self, Outline, Parsed};
use crate::parallel::parallel_map_largest_first;
use crate::rank::keywords::Dialect;
use crate::rank::names::{FileNames, NameHasher};
use crate::rank::role::{FileRole, is_code, uses_only};
use crate::secrets::{self, Finding};

/// What a cache file starts with. Its last byte is the version of the
/// format. (A change to the rules that fill it, how names, outlines or
/// facts are found, changes the identity instead: it holds a hash of
/// their sources, `BUDGET_PACK_RULES`, made by the build script.)
const MAGIC: &[u8; 8] = b"BGTTXT\x00\x05";
/// The largest cache file read or written, in bytes.
const MAX_FILE_BYTES: u64 = 256 << 20;
/// The longest identity a file holds, in bytes.
const MAX_IDENTITY_BYTES: usize = 4096;

/// The byte that marks a text found free of secrets (`0` marks one not
/// known to be): no flip of one or two bits of `0` makes it.
const SECRET_FREE: u8 = 0xA5;

/// The most cache files (one per set of inputs) a folder keeps: past
/// them, the least recently written are deleted, so that packing many
/// folders (fresh clones, temporary trees) does not fill the disk.
const MAX_FILES: usize = 16;

/// A text's key: a hash of its bytes and its length in bytes.
type Key = (u64, u64);

/// The estimate a cache entry holds when none was made: an estimate is
/// never more than its text's bytes.
const NO_ESTIMATE: u64 = u64::MAX;

/// What the packer learns of a text by reading it once
/// ([`TextCache::texts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TextFacts {
    /// Its lines.
    pub lines: u64,
    /// Its tokens, estimated, once an estimate was made.
    pub estimate: Option<u64>,
    /// Where its one-line description is, as byte offsets (start, end)
    /// into it.
    pub description: Option<(u32, u32)>,
}

/// What [`TextCache::texts`] knows of each text, by position.
#[derive(Debug)]
pub(crate) struct Known {
    /// Its key, when a cache is kept.
    keys: Vec<Option<Key>>,
    /// Its facts, if the cache holds them.
    pub facts: Vec<Option<TextFacts>>,
    /// Its names, for source code.
    pub names: Vec<Option<FileNames>>,
}

/// What the cache holds of one text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Entry {
    facts: Option<TextFacts>,
    names: Option<FileNames>,
    /// Its outline, with the grammar it was parsed with ([`outline::grammar`]).
    outline: Option<(u8, Parsed)>,
    /// A search of it for secrets found none ([`TextCache::find_secret`]).
    secret_free: bool,
}

/// What was learned of the texts of the last run over one set of inputs,
/// and of this run's ([`texts`](Self::texts), [`outline`](Self::outline)),
/// saved with [`save`](Self::save).
#[derive(Debug)]
pub(crate) struct TextCache {
    /// The file, if the cache is kept.
    path: Option<PathBuf>,
    /// What it serves: one set of inputs packed by one version of the
    /// program.
    identity: String,
    /// Seeds the names' hasher and (inverted) the texts' keys.
    seed: u64,
    loaded: HashMap<Key, Entry>,
    /// This run's entries so far.
    used: Mutex<HashMap<Key, Entry>>,
    /// Whether this run found anything the cache did not hold.
    learned: AtomicBool,
}

impl TextCache {
    /// No cache: everything found in every run, names hashed with a fixed
    /// seed.
    pub fn none() -> Self {
        Self {
            path: None,
            identity: String::new(),
            seed: 0,
            loaded: HashMap::new(),
            used: Mutex::new(HashMap::new()),
            learned: AtomicBool::new(false),
        }
    }

    /// The cache in folder `dir` for `identity` (the inputs and the
    /// program's version). A missing, unreadable, foreign or damaged file
    /// is an empty cache, never an error.
    pub fn open(dir: &Path, identity: &str) -> Self {
        let name = foldhash::fast::FixedState::with_seed(0x5eed).hash_one(identity);
        let path = dir.join(format!("texts-{name:016x}.bin"));
        let mut cache = Self {
            identity: identity.to_owned(),
            seed: RandomState::new().hash_one(identity),
            ..Self::none()
        };
        match budget_runtime::file::read_bytes(&path, MAX_FILE_BYTES) {
            Ok(bytes) => match parse(&bytes, identity) {
                Some((seed, loaded)) => (cache.seed, cache.loaded) = (seed, loaded),
                None => {
                    tracing::debug!(path = %path.display(), "text cache ignored: other inputs', or damaged");
                }
            },
            Err(error) => tracing::debug!(path = %path.display(), %error, "no text cache read"),
        }
        cache.path = Some(path);
        cache
    }

    /// The hasher the names are hashed with.
    pub fn hasher(&self) -> NameHasher {
        NameHasher::new(self.seed)
    }

    /// For each of `files` (`(path, text)`): its facts if the cache holds
    /// them (else [`learn_facts`](Self::learn_facts) is told them once
    /// measured) and, if it is source code, its names (a test's, an
    /// example's or a fixture's without its uses: [`FileNames::definitions`]),
    /// from the cache where it holds the text's, else found, on every core; with
    /// `dialects`, Python's and Rust's definitions found as their outlines
    /// have them ([`FileNames::of`]).
    pub fn texts(&self, files: &[(&str, &str)], dialects: bool) -> Known {
        let hasher = self.hasher();
        let found = parallel_map_largest_first(
            files,
            |(_, text)| text.len(),
            |&(path, text)| {
                let code = is_code(path);
                let dialect = if dialects {
                    Dialect::of(path)
                } else {
                    Dialect::Any
                };
                // The reference graph reads no uses of these.
                let uses = !uses_only(path, FileRole::of(path));
                let find = || {
                    if uses {
                        FileNames::of(text, dialect, hasher)
                    } else {
                        FileNames::definitions(text, dialect)
                    }
                };
                let Some(key) = self.key(text) else {
                    return (None, None, code.then(find).flatten());
                };
                let cached = self.loaded.get(&key);
                let facts = cached.and_then(|entry| entry.facts);
                let cached_names = cached
                    .and_then(|entry| entry.names.as_ref())
                    .filter(|names| {
                        names.dialect == dialect
                            && (names.used.is_some() || !uses)
                            && names.defined_in(text).is_some()
                    });
                let names = match (code, cached_names) {
                    (false, _) => None,
                    (true, Some(names)) => Some(names.clone()),
                    (true, None) => {
                        self.learned.store(true, Ordering::Relaxed);
                        find()
                    }
                };
                let mut used = self.used();
                let entry = used.entry(key).or_default();
                entry.facts = facts;
                if names.is_some() {
                    entry.names.clone_from(&names);
                }
                (Some(key), facts, names)
            },
        );
        let mut known = Known {
            keys: Vec::with_capacity(found.len()),
            facts: Vec::with_capacity(found.len()),
            names: Vec::with_capacity(found.len()),
        };
        for (key, facts, names) in found {
            known.keys.push(key);
            known.facts.push(facts);
            known.names.push(names);
        }
        known
    }

    /// Keeps the facts `measured` (`(position, facts)`, positions in the
    /// files [`texts`](Self::texts) gave `known` of) of texts whose facts
    /// it did not hold.
    pub fn learn_facts(&self, known: &Known, measured: &[(usize, TextFacts)]) {
        let mut used = self.used();
        for &(position, facts) in measured {
            if let Some(Some(key)) = known.keys.get(position) {
                self.learned.store(true, Ordering::Relaxed);
                used.entry(*key).or_default().facts = Some(facts);
            }
        }
    }

    /// The outline of `text`, the file at `path` ([`Parsed::outline`](crate::outline::Parsed::outline)),
    /// from the cache where it holds the text's, else parsed.
    pub fn outline<'t>(&self, path: &str, text: &'t str) -> Option<Outline<'t>> {
        let (grammar, python) = outline::grammar(path)?;
        let Some(key) = self.key(text) else {
            return outline::parse(path, text)?.outline(python, text);
        };
        let cached = self
            .loaded
            .get(&key)
            .and_then(|entry| entry.outline.as_ref())
            .filter(|(tag, _)| *tag == grammar)
            .and_then(|(_, parsed)| Some((parsed, parsed.outline(python, text)?)));
        let (parsed, made) = match cached {
            Some((parsed, made)) => (parsed.clone(), made),
            None => {
                self.learned.store(true, Ordering::Relaxed);
                let parsed = outline::parse(path, text)?;
                let made = parsed.outline(python, text)?;
                (parsed, made)
            }
        };
        self.used().entry(key).or_default().outline = Some((grammar, parsed));
        Some(made)
    }

    /// The first secret in `text`, the file at `path`
    /// ([`secrets::find_secret`], whose rules are part of the cache's
    /// identity): none, without a search, when an earlier run searched the
    /// same text and found none; a search that finds none is recorded. A
    /// dotenv file's text is always searched (its path is a rule of its
    /// own).
    pub fn find_secret(&self, text: &str, path: &str) -> Option<Finding> {
        let Some(key) = self.key(text).filter(|_| !secrets::is_env_file(path)) else {
            return secrets::find_secret(text, path);
        };
        if self.loaded.get(&key).is_some_and(|entry| entry.secret_free) {
            return None;
        }
        let found = secrets::find_secret(text, path);
        if found.is_none() {
            self.learned.store(true, Ordering::Relaxed);
            self.used().entry(key).or_default().secret_free = true;
        }
        found
    }

    /// Writes this run's entries as the cache, unless it is not kept or
    /// already held them all.
    ///
    /// # Errors
    /// The folder cannot be made or the file cannot be written.
    pub fn save(&self) -> std::io::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let used = self.used();
        if !self.learned.load(Ordering::Relaxed) && used.len() == self.loaded.len() {
            return Ok(());
        }
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        put_u64(&mut bytes, self.seed);
        put_u32(&mut bytes, u32::try_from(self.identity.len()).unwrap_or(0));
        bytes.extend_from_slice(self.identity.as_bytes());
        let mut entry = Vec::new();
        for (key, value) in used.iter() {
            // What an earlier run learned of the same text stays (an
            // outline another query needed).
            let earlier = self.loaded.get(key);
            let facts = value.facts.or(earlier.and_then(|e| e.facts));
            let names = value
                .names
                .as_ref()
                .or(earlier.and_then(|e| e.names.as_ref()));
            let outline = value
                .outline
                .as_ref()
                .or(earlier.and_then(|e| e.outline.as_ref()));
            let secret_free = value.secret_free || earlier.is_some_and(|e| e.secret_free);
            entry.clear();
            put_u64(&mut entry, key.0);
            put_u64(&mut entry, key.1);
            if !write_entry(&mut entry, facts, names, outline) {
                continue;
            }
            entry.push(if secret_free { SECRET_FREE } else { 0 });
            if (bytes.len() + entry.len()) as u64 > MAX_FILE_BYTES {
                break;
            }
            bytes.extend_from_slice(&entry);
        }
        drop(used);
        let dir = path.parent().unwrap_or(Path::new("."));
        create_private_dir(dir)?;
        write_private(path, &bytes)?;
        prune(dir);
        Ok(())
    }

    /// The key of `text`, if the cache is kept.
    fn key(&self, text: &str) -> Option<Key> {
        self.path.as_ref()?;
        let hash = foldhash::fast::FixedState::with_seed(!self.seed).hash_one(text.as_bytes());
        Some((hash, u64::try_from(text.len()).unwrap_or(u64::MAX)))
    }

    fn used(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Entry>> {
        self.used.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Deletes the cache files of `dir` past the [`MAX_FILES`] most recently
/// written (regular files named as [`TextCache::open`] names them; a file
/// that cannot be read or deleted is left).
fn prune(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|entry| {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            name.starts_with("texts-") && name.ends_with(".bin")
        })
        .filter_map(|entry| {
            let metadata = entry.metadata().ok().filter(std::fs::Metadata::is_file)?;
            Some((metadata.modified().ok()?, entry.path()))
        })
        .collect();
    if files.len() <= MAX_FILES {
        return;
    }
    files.sort_by_key(|(written, _)| std::cmp::Reverse(*written));
    for (_, path) in files.into_iter().skip(MAX_FILES) {
        let _unremoved = std::fs::remove_file(path);
    }
}

fn put_u32(bytes: &mut Vec<u8>, n: u32) {
    bytes.extend_from_slice(&n.to_le_bytes());
}

fn put_u64(bytes: &mut Vec<u8>, n: u64) {
    bytes.extend_from_slice(&n.to_le_bytes());
}

/// `n` as a `u32` length, written; `false` if it does not fit.
fn put_len(bytes: &mut Vec<u8>, n: usize) -> bool {
    u32::try_from(n).map(|n| put_u32(bytes, n)).is_ok()
}

fn put_range(bytes: &mut Vec<u8>, range: &std::ops::Range<u32>) {
    put_u32(bytes, range.start);
    put_u32(bytes, range.end);
}

/// Appends an entry of `facts`, `names` and `outline`; `false` if a
/// length does not fit the format.
fn write_entry(
    bytes: &mut Vec<u8>,
    facts: Option<TextFacts>,
    names: Option<&FileNames>,
    outline: Option<&(u8, Parsed)>,
) -> bool {
    match facts {
        None => bytes.push(0),
        Some(facts) => {
            bytes.push(1);
            put_u64(bytes, facts.lines);
            put_u64(bytes, facts.estimate.unwrap_or(NO_ESTIMATE));
            match facts.description {
                None => bytes.push(0),
                Some((start, end)) => {
                    bytes.push(1);
                    put_range(bytes, &(start..end));
                }
            }
        }
    }
    match names {
        None => bytes.push(0),
        Some(names) => {
            bytes.push(1);
            bytes.push(match names.dialect {
                Dialect::Any => 0,
                Dialect::Python => 1,
                Dialect::Rust => 2,
            });
            if !put_len(bytes, names.defined.len()) {
                return false;
            }
            names
                .defined
                .iter()
                .for_each(|range| put_range(bytes, range));
            match &names.used {
                None => bytes.push(0),
                Some(used) => {
                    bytes.push(1);
                    if !put_len(bytes, used.len()) {
                        return false;
                    }
                    for &(hash, count) in used {
                        put_u64(bytes, hash);
                        put_u32(bytes, count);
                    }
                }
            }
        }
    }
    match outline {
        None => bytes.push(0),
        Some((grammar, parsed)) => {
            bytes.push(1);
            bytes.push(*grammar);
            if !put_len(bytes, parsed.definitions.len()) {
                return false;
            }
            parsed
                .definitions
                .iter()
                .for_each(|range| put_range(bytes, range));
            if !put_len(bytes, parsed.spans.len()) {
                return false;
            }
            for span in &parsed.spans {
                put_range(bytes, &span.name);
                put_u32(bytes, span.first);
                put_u32(bytes, span.last);
                match &span.body {
                    None => bytes.push(0),
                    Some(rows) => {
                        bytes.push(1);
                        put_range(bytes, rows);
                    }
                }
                if !put_len(bytes, span.context.len()) {
                    return false;
                }
                span.context.iter().for_each(|&row| put_u32(bytes, row));
            }
            if !put_len(bytes, parsed.bodies.len()) {
                return false;
            }
            for body in &parsed.bodies {
                put_range(bytes, &body.bytes);
                match &body.docstring {
                    None => bytes.push(0),
                    Some(range) => {
                        bytes.push(1);
                        put_range(bytes, range);
                    }
                }
            }
        }
    }
    true
}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'b>(&'b [u8]);

impl Reader<'_> {
    fn u8(&mut self) -> Option<u8> {
        let (&byte, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(byte)
    }

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

    fn range(&mut self) -> Option<std::ops::Range<u32>> {
        Some(self.u32()?..self.u32()?)
    }

    /// A count of items of at least `size` bytes each, if the rest can
    /// hold them (a damaged count is no reason to allocate).
    fn count(&mut self, size: usize) -> Option<usize> {
        let count = usize::try_from(self.u32()?).ok()?;
        (count.saturating_mul(size) <= self.0.len()).then_some(count)
    }

    /// A flag byte: whether an optional item follows.
    fn present(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn names(&mut self) -> Option<FileNames> {
        let dialect = match self.u8()? {
            0 => Dialect::Any,
            1 => Dialect::Python,
            2 => Dialect::Rust,
            _ => return None,
        };
        let count = self.count(8)?;
        let mut defined = Vec::with_capacity(count);
        for _ in 0..count {
            defined.push(self.range()?);
        }
        let used = if self.present()? {
            let count = self.count(12)?;
            let mut used = Vec::with_capacity(count);
            for _ in 0..count {
                used.push((self.u64()?, self.u32()?));
            }
            Some(used)
        } else {
            None
        };
        Some(FileNames {
            defined,
            used,
            dialect,
        })
    }

    fn parsed(&mut self) -> Option<Parsed> {
        let mut parsed = Parsed::default();
        for _ in 0..self.count(8)? {
            parsed.definitions.push(self.range()?);
        }
        for _ in 0..self.count(21)? {
            let name = self.range()?;
            let (first, last) = (self.u32()?, self.u32()?);
            let body = if self.present()? {
                Some(self.range()?)
            } else {
                None
            };
            let mut context = Vec::new();
            for _ in 0..self.count(4)? {
                context.push(self.u32()?);
            }
            parsed.spans.push(outline::ParsedSpan {
                name,
                first,
                last,
                body,
                context,
            });
        }
        for _ in 0..self.count(9)? {
            let bytes = self.range()?;
            let docstring = if self.present()? {
                Some(self.range()?)
            } else {
                None
            };
            parsed.bodies.push(outline::Body { bytes, docstring });
        }
        Some(parsed)
    }
}

/// The seed and entries of a cache file's `bytes`, if it is one of
/// `identity`'s and whole.
fn parse(bytes: &[u8], identity: &str) -> Option<(u64, HashMap<Key, Entry>)> {
    let mut reader = Reader(bytes.strip_prefix(MAGIC)?);
    let seed = reader.u64()?;
    let length = usize::try_from(reader.u32()?).ok()?;
    if length > MAX_IDENTITY_BYTES || reader.0.get(..length)? != identity.as_bytes() {
        return None;
    }
    reader.0 = &reader.0[length..];
    let mut loaded = HashMap::new();
    let mut keys = HashSet::new();
    while !reader.0.is_empty() {
        let key = (reader.u64()?, reader.u64()?);
        let facts = if reader.present()? {
            Some(TextFacts {
                lines: reader.u64()?,
                estimate: Some(reader.u64()?).filter(|&estimate| estimate != NO_ESTIMATE),
                description: if reader.present()? {
                    let range = reader.range()?;
                    Some((range.start, range.end))
                } else {
                    None
                },
            })
        } else {
            None
        };
        let names = if reader.present()? {
            Some(reader.names()?)
        } else {
            None
        };
        let outline = if reader.present()? {
            Some((reader.u8()?, reader.parsed()?))
        } else {
            None
        };
        let secret_free = match reader.u8()? {
            0 => false,
            SECRET_FREE => true,
            _ => return None,
        };
        if !keys.insert(key) {
            return None;
        }
        loaded.insert(
            key,
            Entry {
                facts,
                names,
                outline,
                secret_free,
            },
        );
    }
    Some((seed, loaded))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// The build script hashed the sources of the rules the cache keeps
    /// the results of (a fingerprint of nothing would let every build read
    /// every other's cache).
    #[test]
    fn the_rules_fingerprint_is_of_the_sources() {
        use std::hash::{DefaultHasher, Hasher};
        let fingerprint = env!("BUDGET_PACK_RULES");
        assert_eq!(fingerprint.len(), 16, "{fingerprint}");
        assert!(fingerprint.bytes().all(|b| b.is_ascii_hexdigit()));
        let of_nothing = format!("{:016x}", DefaultHasher::new().finish());
        assert_ne!(fingerprint, of_nothing);
    }

    const FILES: &[(&str, &str)] = &[
        (
            "tides.py",
            "def tide_table():\n    \"\"\"Tides.\"\"\"\n    return harmonic_sum() + harmonic_sum() + harmonic_sum()\n",
        ),
        ("harmonics.py", "def harmonic_sum(): pass\n"),
        ("README.md", "def not_code(): pass\n"),
    ];

    /// One line per byte, and an estimate of one token per byte for a
    /// text of more than one line (none for the others).
    fn bytes(text: &str) -> TextFacts {
        TextFacts {
            lines: text.len() as u64,
            estimate: Some(text.len() as u64).filter(|_| text.lines().count() > 1),
            description: Some((0, 1)),
        }
    }

    /// A run over `files`: their names and outlines, then saved.
    #[allow(clippy::type_complexity)]
    fn run<'t>(
        cache: &TextCache,
        files: &[(&str, &'t str)],
    ) -> (Vec<Option<FileNames>>, Vec<Option<Outline<'t>>>) {
        let known = cache.texts(files, true);
        let measured: Vec<(usize, TextFacts)> = (0..files.len())
            .filter(|&i| known.facts[i].is_none())
            .map(|i| (i, bytes(files[i].1)))
            .collect();
        cache.learn_facts(&known, &measured);
        let names = known.names;
        let outlines = files
            .iter()
            .map(|(path, text)| cache.outline(path, text))
            .collect();
        cache.save().unwrap();
        (names, outlines)
    }

    #[test]
    fn a_later_run_gets_the_same_names_and_outlines_from_the_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TextCache::open(dir.path(), "tides");
        let found = run(&cache, FILES);
        assert!(found.0[2].is_none(), "only source code has names");
        assert!(found.1[0].is_some() == cfg!(feature = "tree-sitter"));

        let cache = TextCache::open(dir.path(), "tides");
        assert_eq!(cache.loaded.len(), 3, "sizes of every file");
        // With an estimate and without one.
        let known = cache.texts(FILES, true);
        assert_eq!(known.facts[0], Some(bytes(FILES[0].1)));
        assert_eq!(known.facts[1], Some(bytes(FILES[1].1)));
        assert_eq!(known.facts[1].unwrap().estimate, None);
        assert_eq!(run(&cache, FILES), found);
        assert!(!cache.learned.load(Ordering::Relaxed), "all from the cache");
        // Found afresh with the cache's seed, the names hash alike.
        assert_eq!(
            found.0[0],
            FileNames::of(FILES[0].1, Dialect::Python, cache.hasher())
        );
        // Other inputs' cache is another file.
        assert!(TextCache::open(dir.path(), "other").loaded.is_empty());
    }

    #[test]
    fn a_changed_text_is_scanned_again_and_a_full_hit_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        run(&TextCache::open(dir.path(), "tides"), FILES);
        let changed = [FILES[0], ("harmonics.py", "def harmonic_mean(): pass\n")];
        let cache = TextCache::open(dir.path(), "tides");
        let (names, _) = run(&cache, &changed);
        assert!(cache.learned.load(Ordering::Relaxed));
        assert_eq!(
            names[1].as_ref().unwrap().defined_in(changed[1].1).unwrap(),
            ["harmonic_mean"]
        );
        let cache = TextCache::open(dir.path(), "tides");
        let path = cache.path.clone().unwrap();
        std::fs::remove_file(&path).unwrap();
        run(&cache, &changed);
        assert!(!path.exists(), "nothing new: not written");
    }

    #[test]
    fn a_test_keeps_no_uses_and_lends_none_to_the_same_text_elsewhere() {
        let dir = tempfile::tempdir().unwrap();
        let text = FILES[0].1;
        let as_test = [("tests/test_tides.py", text)];
        let cache = TextCache::open(dir.path(), "tides");
        let (names, _) = run(&cache, &as_test);
        let names = names[0].as_ref().unwrap();
        assert_eq!(names.used, None, "the graph reads no test's uses");
        assert_eq!(names.defined_in(text).unwrap(), ["tide_table"]);
        let cache = TextCache::open(dir.path(), "tides");
        assert_eq!(run(&cache, &as_test).0[0].as_ref(), Some(names));
        assert!(!cache.learned.load(Ordering::Relaxed), "from the cache");
        // The same text as source: its uses are counted, not lent.
        let cache = TextCache::open(dir.path(), "tides");
        let (moved, _) = run(&cache, &[("tides.py", text)]);
        assert!(cache.learned.load(Ordering::Relaxed));
        assert_eq!(
            moved[0],
            FileNames::of(text, Dialect::Python, cache.hasher())
        );
        assert!(moved[0].as_ref().unwrap().used.is_some());
    }

    #[test]
    fn a_damaged_file_is_an_empty_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = TextCache::open(dir.path(), "tides");
        run(&cache, FILES);
        let path = cache.path.clone().unwrap();
        let whole = std::fs::read(&path).unwrap();
        for cut in [whole.len() - 1, whole.len() - 13, 30, 3] {
            std::fs::write(&path, &whole[..cut]).unwrap();
            assert!(
                TextCache::open(dir.path(), "tides").loaded.is_empty(),
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn a_folder_keeps_the_most_recently_written_files() {
        let dir = tempfile::tempdir().unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for i in 0..MAX_FILES + 4 {
            let path = dir.path().join(format!("texts-old{i:02}.bin"));
            let file = std::fs::File::create(&path).unwrap();
            file.set_modified(old + std::time::Duration::from_secs(i as u64))
                .unwrap();
        }
        std::fs::write(dir.path().join("counts-x.bin"), b"kept").unwrap();
        let cache = TextCache::open(dir.path(), "tides");
        run(&cache, FILES);
        let mut kept: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().into_string().unwrap())
            .collect();
        kept.sort();
        assert_eq!(kept.len(), MAX_FILES + 1, "{kept:?}");
        assert!(
            kept.contains(&"counts-x.bin".to_owned()),
            "other files stay"
        );
        let newest = cache
            .path
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        assert!(kept.contains(&newest));
        // The five oldest went: 00 to 04.
        assert!(
            !kept
                .iter()
                .any(|name| name.starts_with("texts-old0") && name < &"texts-old05".to_owned())
        );
        assert!(kept.contains(&"texts-old05.bin".to_owned()));
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
