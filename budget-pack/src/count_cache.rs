//! [`CountCache`]: exact token counts kept between runs, by content.
//!
//! Counting is most of what a repeated pack of the same tree costs after
//! the ranking: the files a payload lists are counted in full every run.
//! The cache remembers, per counter, each counted text's count under a
//! 64-bit hash of its bytes (seeded with a random key of the cache's own,
//! so the texts of a packed repository cannot be made to collide) and its
//! length, and never anything of the text itself.
//!
//! Give [`pack`](fn@crate::pack) the cached counter as the exact counter and
//! the tokenizer itself as the estimator ([`Counting::new`](crate::Counting::new)):
//! the payload as rendered is then counted by the tokenizer, so even a
//! wrong count in the cache cannot make it overflow its budget.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use budget_runtime::estimate::TokenCounter;

use crate::cache_file::{create_private_dir, write_private};

/// What a cache file starts with (the format's version is its last byte).
const MAGIC: &[u8; 8] = b"BGTCNT\x00\x01";
/// The most counts one cache file keeps (24 bytes each: 24 MiB).
const MAX_ENTRIES: usize = 1 << 20;
/// The longest identity a cache file holds, in bytes.
const MAX_IDENTITY_BYTES: usize = 1024;
/// The largest cache file read, in bytes.
const MAX_FILE_BYTES: u64 = (8 + 8 + 4 + MAX_IDENTITY_BYTES + 24 * MAX_ENTRIES) as u64;
/// Texts shorter than this are counted rather than looked up: hashing
/// them costs about as much, and they would crowd the file.
const MIN_TEXT_BYTES: usize = 256;
/// A text's key: the hash of its bytes and its length in bytes.
type Key = (u64, u64);

/// The bit of a stored value saying it is not a count but a bound the
/// text's count is above.
const ABOVE: u64 = 1 << 63;

/// Exact token counts of texts counted before, loaded from one file per
/// counter, and the counts learned since, saved back with
/// [`save`](Self::save).
///
/// ```
/// use budget_pack::{CountCache, Counting};
/// use budget_runtime::estimate::{Encoding, ExactCounter, TokenCounter};
///
/// let dir = tempfile::tempdir()?;
/// let o200k = ExactCounter::new(Encoding::O200kBase)?;
/// let text = "fn tide() -> u32 { 6 }\n".repeat(20);
///
/// let cache = CountCache::open(dir.path(), "o200k budget-test");
/// let first = cache.counter(&o200k).count_tokens(&text);
/// cache.save()?;
///
/// // A later run knows the count without counting.
/// let cache = CountCache::open(dir.path(), "o200k budget-test");
/// assert_eq!(cache.len(), 1);
/// let cached = cache.counter(&o200k);
/// assert_eq!(cached.count_tokens(&text), first);
///
/// // For `pack`: files counted through the cache, the payload by o200k.
/// let counting = Counting::new("o200k", &o200k, Some(&cached));
/// # let _ = counting;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct CountCache {
    /// The cache file.
    path: PathBuf,
    /// What counts: the cache file serves only this counter.
    identity: String,
    /// The key of the hash of texts.
    seed: u64,
    /// Loaded from the file: by (hash, length in bytes), the count, or
    /// [`ABOVE`] and a bound the count exceeds.
    loaded: HashMap<Key, u64>,
    /// Learned this run, in the order learned.
    learned: Mutex<Vec<(Key, u64)>>,
}

impl std::fmt::Debug for CountCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CountCache")
            .field("path", &self.path)
            .field("identity", &self.identity)
            .field("loaded", &self.loaded.len())
            .finish_non_exhaustive()
    }
}

impl CountCache {
    /// The cache of the counter called `identity` (which must change
    /// whenever its counts could: include the tokenizer and the program's
    /// version) in the folder `dir`. A missing, unreadable, foreign or
    /// damaged file is an empty cache (logged at debug level), never an
    /// error: the cache only saves time.
    pub fn open(dir: &Path, identity: &str) -> Self {
        let path = dir.join(format!("counts-{:016x}.bin", stable_hash(identity)));
        let mut cache = Self {
            path,
            identity: identity.to_owned(),
            seed: RandomState::new().hash_one(identity),
            loaded: HashMap::new(),
            learned: Mutex::new(Vec::new()),
        };
        match budget_runtime::file::read_bytes(&cache.path, MAX_FILE_BYTES) {
            Ok(bytes) => match parse(&bytes, identity) {
                Some((seed, loaded)) => (cache.seed, cache.loaded) = (seed, loaded),
                None => {
                    tracing::debug!(path = %cache.path.display(), "count cache ignored: not this counter's, or damaged")
                }
            },
            Err(error) => {
                tracing::debug!(path = %cache.path.display(), %error, "no count cache read");
            }
        }
        cache
    }

    /// The folder a user's caches go in, when the environment names one:
    /// `$XDG_CACHE_HOME`, else `$HOME/.cache` (`%LOCALAPPDATA%` on
    /// Windows), each with `context-budget` appended; relative paths are
    /// not used.
    pub fn default_dir() -> Option<PathBuf> {
        let absolute = |name: &str| {
            std::env::var_os(name)
                .map(PathBuf::from)
                .filter(|path| path.is_absolute())
        };
        let base = if cfg!(windows) {
            absolute("LOCALAPPDATA")
        } else {
            absolute("XDG_CACHE_HOME").or_else(|| absolute("HOME").map(|home| home.join(".cache")))
        };
        base.map(|base| base.join("context-budget"))
    }

    /// How many counts were loaded.
    pub fn len(&self) -> usize {
        self.loaded.len()
    }

    /// Whether no count was loaded.
    pub fn is_empty(&self) -> bool {
        self.loaded.is_empty()
    }

    /// `inner` (the counter this cache is for), answering from the cache
    /// where it can and teaching it what it counts.
    pub fn counter<'a>(&'a self, inner: &'a dyn TokenCounter) -> CachedCounter<'a> {
        CachedCounter { cache: self, inner }
    }

    /// Writes the loaded and learned counts back, the learned first when
    /// there are more than the file keeps, if anything was learned: to a
    /// new file (readable by its owner only) renamed over the old, so a
    /// reader never sees half a file.
    ///
    /// # Errors
    /// The folder cannot be made or the file cannot be written.
    pub fn save(&self) -> std::io::Result<()> {
        let learned = self.learned.lock().unwrap_or_else(PoisonError::into_inner);
        if learned.is_empty() {
            return Ok(());
        }
        let mut entries: Vec<(Key, u64)> = Vec::with_capacity(learned.len() + self.loaded.len());
        entries.extend(learned.iter().rev().copied());
        entries.extend(self.loaded.iter().map(|(&key, &value)| (key, value)));
        let mut seen = std::collections::HashSet::new();
        entries.retain(|(key, _)| seen.insert(*key));
        entries.truncate(MAX_ENTRIES);
        drop(learned);

        let identity = self.identity.as_bytes();
        let identity = &identity[..identity.len().min(MAX_IDENTITY_BYTES)];
        let mut bytes = Vec::with_capacity(20 + identity.len() + 24 * entries.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&self.seed.to_le_bytes());
        bytes.extend_from_slice(&u32::try_from(identity.len()).unwrap_or(0).to_le_bytes());
        bytes.extend_from_slice(identity);
        for ((hash, length), value) in entries {
            for field in [hash, length, value] {
                bytes.extend_from_slice(&field.to_le_bytes());
            }
        }
        create_private_dir(self.path.parent().unwrap_or(Path::new(".")))?;
        write_private(&self.path, &bytes)
    }

    fn key(&self, text: &str) -> Key {
        let hash = foldhash::fast::FixedState::with_seed(self.seed).hash_one(text.as_bytes());
        (hash, u64::try_from(text.len()).unwrap_or(u64::MAX))
    }

    fn learn(&self, key: Key, value: u64) {
        self.learned
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((key, value));
    }
}

/// A counter answering from a [`CountCache`] where it can ([`CountCache::counter`]).
#[derive(Clone, Copy)]
pub struct CachedCounter<'a> {
    cache: &'a CountCache,
    inner: &'a dyn TokenCounter,
}

impl std::fmt::Debug for CachedCounter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CachedCounter")
            .field("cache", &self.cache.path)
            .finish_non_exhaustive()
    }
}

impl TokenCounter for CachedCounter<'_> {
    fn count_tokens(&self, text: &str) -> u64 {
        if text.len() < MIN_TEXT_BYTES {
            return self.inner.count_tokens(text);
        }
        let key = self.cache.key(text);
        match self.cache.loaded.get(&key) {
            Some(&count) if count & ABOVE == 0 => count,
            _ => {
                let count = self.inner.count_tokens(text);
                self.cache.learn(key, count);
                count
            }
        }
    }

    fn count_tokens_up_to(&self, text: &str, limit: u64) -> Option<u64> {
        if text.len() < MIN_TEXT_BYTES {
            return self.inner.count_tokens_up_to(text, limit);
        }
        let key = self.cache.key(text);
        match self.cache.loaded.get(&key) {
            Some(&count) if count & ABOVE == 0 => return Some(count).filter(|&n| n <= limit),
            Some(&above) if above & !ABOVE >= limit => return None,
            _ => {}
        }
        let counted = self.inner.count_tokens_up_to(text, limit);
        self.cache
            .learn(key, counted.unwrap_or(ABOVE | limit.min(!ABOVE)));
        counted
    }
}

/// The seed and counts of a cache file's `bytes`, if it is one of
/// `identity`'s and whole.
fn parse(bytes: &[u8], identity: &str) -> Option<(u64, HashMap<Key, u64>)> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let (seed, rest) = rest.split_first_chunk::<8>()?;
    let (length, rest) = rest.split_first_chunk::<4>()?;
    let length = usize::try_from(u32::from_le_bytes(*length)).ok()?;
    let stored = rest.get(..length)?;
    if stored != identity.as_bytes() {
        return None;
    }
    let entries = &rest[length..];
    if entries.len() % 24 != 0 {
        return None;
    }
    let field = |bytes: &[u8], at: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(word)
    };
    let loaded = entries
        .chunks_exact(24)
        .map(|entry| ((field(entry, 0), field(entry, 8)), field(entry, 16)))
        .collect();
    Some((u64::from_le_bytes(*seed), loaded))
}

/// A hash of `text` that is the same in every run (names the cache file).
fn stable_hash(text: &str) -> u64 {
    foldhash::fast::FixedState::with_seed(0x5eed).hash_one(text)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use proptest::prelude::*;

    use super::*;

    /// One token per byte, and how many times it was asked.
    #[derive(Default)]
    struct Bytes {
        asked: AtomicUsize,
    }

    impl TokenCounter for Bytes {
        fn count_tokens(&self, text: &str) -> u64 {
            self.asked.fetch_add(1, Ordering::Relaxed);
            text.len() as u64
        }
    }

    fn asked(counter: &Bytes) -> usize {
        counter.asked.load(Ordering::Relaxed)
    }

    #[test]
    fn a_later_cache_answers_without_counting() {
        let dir = tempfile::tempdir().unwrap();
        let long = "x".repeat(1_000);
        let short = "tiny";
        let bytes = Bytes::default();
        let cache = CountCache::open(dir.path(), "bytes 1");
        assert!(cache.is_empty());
        let counter = cache.counter(&bytes);
        assert_eq!(counter.count_tokens(&long), 1_000);
        assert_eq!(counter.count_tokens(short), 4);
        cache.save().unwrap();

        let cache = CountCache::open(dir.path(), "bytes 1");
        assert_eq!(cache.len(), 1, "short texts are counted, not kept");
        let bytes = Bytes::default();
        let counter = cache.counter(&bytes);
        assert_eq!(counter.count_tokens(&long), 1_000);
        assert_eq!(counter.count_tokens_up_to(&long, 999), None);
        assert_eq!(counter.count_tokens_up_to(&long, 1_000), Some(1_000));
        assert_eq!(asked(&bytes), 0);
        assert_eq!(counter.count_tokens(&"y".repeat(1_000)), 1_000);
        assert_eq!(
            asked(&bytes),
            1,
            "another text of the same length is counted"
        );
        // Another counter's file is another file.
        assert!(CountCache::open(dir.path(), "bytes 2").is_empty());
    }

    #[test]
    fn a_count_known_to_exceed_a_limit_answers_that_limit_and_below() {
        let dir = tempfile::tempdir().unwrap();
        let long = "x".repeat(1_000);
        let bytes = Bytes::default();
        let cache = CountCache::open(dir.path(), "bytes");
        assert_eq!(cache.counter(&bytes).count_tokens_up_to(&long, 300), None);
        cache.save().unwrap();

        let cache = CountCache::open(dir.path(), "bytes");
        let bytes = Bytes::default();
        let counter = cache.counter(&bytes);
        assert_eq!(counter.count_tokens_up_to(&long, 300), None);
        assert_eq!(counter.count_tokens_up_to(&long, 10), None);
        assert_eq!(asked(&bytes), 0);
        assert_eq!(counter.count_tokens_up_to(&long, 5_000), Some(1_000));
        assert_eq!(counter.count_tokens(&long), 1_000);
        assert_eq!(asked(&bytes), 2, "a bound is no count");
    }

    #[test]
    fn nothing_learned_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        CountCache::open(&dir.path().join("cache"), "bytes")
            .save()
            .unwrap();
        assert!(!dir.path().join("cache").exists());
    }

    #[cfg(unix)]
    #[test]
    fn the_file_and_its_folder_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("cache");
        let cache = CountCache::open(&folder, "bytes");
        cache
            .counter(&Bytes::default())
            .count_tokens(&"x".repeat(300));
        cache.save().unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&folder), 0o700);
        assert_eq!(mode(&cache.path), 0o600);
        let files: Vec<_> = std::fs::read_dir(&folder).unwrap().collect();
        assert_eq!(files.len(), 1, "no temporary file is left behind");
    }

    #[test]
    fn a_damaged_or_foreign_file_is_an_empty_cache() {
        let dir = tempfile::tempdir().unwrap();
        let cache = CountCache::open(dir.path(), "bytes");
        cache
            .counter(&Bytes::default())
            .count_tokens(&"x".repeat(300));
        cache.save().unwrap();
        let whole = std::fs::read(&cache.path).unwrap();
        for damaged in [&whole[..whole.len() - 1], &whole[..10], b"not a cache"] {
            std::fs::write(&cache.path, damaged).unwrap();
            assert!(CountCache::open(dir.path(), "bytes").is_empty());
        }
        assert!(parse(&whole, "other").is_none());
        assert_eq!(parse(&whole, "bytes").unwrap().1.len(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_place_of_the_file_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = CountCache::open(dir.path(), "bytes").path;
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        if made.is_ok_and(|status| status.success()) {
            // Would block forever if it were opened for reading as a file.
            assert!(CountCache::open(dir.path(), "bytes").is_empty());
        }
    }

    proptest! {
        #[test]
        fn any_bytes_parse_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let mut file = MAGIC.to_vec();
            file.extend_from_slice(&bytes);
            let _ = parse(&file, "bytes");
            let _ = parse(&bytes, "bytes");
        }
    }
}
