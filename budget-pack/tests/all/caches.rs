//! The count and name caches change how fast a pack is, never what it
//! is, and even wrong counts in a cache cannot make a payload overflow its
//! budget.

use budget_pack::{Budget, CountCache, Counting, PackOptions, pack};
use budget_runtime::estimate::{Encoding, ExactCounter, TokenCounter};

/// A tree of source files of a few sizes, some too large for the budget.
fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (n, functions) in [3, 40, 120, 400, 900].into_iter().enumerate() {
        let text: String = (0..functions)
            .map(|f| {
                format!(
                    "/// Tide table {f}.\npub fn tide_{n}_{f}(hour: u32) -> u32 {{ hour * {f} }}\n"
                )
            })
            .collect();
        std::fs::write(dir.path().join(format!("tide_{n}.rs")), text).unwrap();
    }
    dir
}

/// Counts a tenth of the bytes: far fewer tokens than there are.
struct Undercount;

impl TokenCounter for Undercount {
    fn count_tokens(&self, text: &str) -> u64 {
        text.len() as u64 / 10
    }
}

fn options(dir: &std::path::Path) -> PackOptions {
    let mut options = PackOptions::new([dir]);
    options.budget = Budget::Tokens(3_000);
    options.query = Some("tide table".into());
    options
}

fn tiktoken(text: &str) -> u64 {
    tiktoken_rs::o200k_base()
        .unwrap()
        .encode_ordinary(text)
        .len() as u64
}

#[test]
fn a_warm_cache_packs_what_a_cold_one_does() {
    let dir = tree();
    let caches = tempfile::tempdir().unwrap();
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    let uncached = pack(&options(dir.path()), &Counting::exact("o200k", &o200k), &()).unwrap();
    for run in 0..2 {
        let cache = CountCache::open(caches.path(), "o200k test");
        assert_eq!(cache.is_empty(), run == 0);
        let counter = cache.counter(&o200k);
        let counting = Counting::new("o200k", &o200k, Some(&counter));
        let packed = pack(&options(dir.path()), &counting, &()).unwrap();
        cache.save().unwrap();
        assert_eq!(packed.text(), uncached.text(), "run {run}");
        assert_eq!(packed.report(), uncached.report(), "run {run}");
    }
}

#[test]
fn wrong_counts_in_a_cache_never_overflow_the_budget() {
    let dir = tree();
    let caches = tempfile::tempdir().unwrap();
    // A cache filled by a counter that undercounts, under the identity of
    // the real one (as a damaged or tampered cache would be).
    let cache = CountCache::open(caches.path(), "o200k test");
    let lying = cache.counter(&Undercount);
    pack(
        &options(dir.path()),
        &Counting::new("o200k", &Undercount, Some(&lying)),
        &(),
    )
    .unwrap();
    cache.save().unwrap();

    let cache = CountCache::open(caches.path(), "o200k test");
    assert!(!cache.is_empty());
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    let counter = cache.counter(&o200k);
    let counting = Counting::new("o200k", &o200k, Some(&counter));
    let packed = pack(&options(dir.path()), &counting, &()).unwrap();
    assert!(
        tiktoken(packed.text()) <= 3_000,
        "{} tokens by tiktoken",
        tiktoken(packed.text())
    );
}

#[test]
fn a_name_cache_packs_what_no_cache_does_and_follows_changes() {
    let dir = tree();
    let caches = tempfile::tempdir().unwrap();
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    let counting = Counting::exact("o200k", &o200k);
    let cached = |dir: &std::path::Path| PackOptions {
        cache: Some(caches.path().to_path_buf()),
        ..options(dir)
    };
    let uncached = pack(&options(dir.path()), &counting, &()).unwrap();
    for run in 0..2 {
        let packed = pack(&cached(dir.path()), &counting, &()).unwrap();
        assert_eq!(packed.text(), uncached.text(), "run {run}");
        assert_eq!(packed.report(), uncached.report(), "run {run}");
    }
    let kept = std::fs::read_dir(caches.path()).unwrap().count();
    assert_eq!(kept, 1, "one file for the inputs");

    // A file that changes between runs is read as it is now: a new
    // definition the other files use moves the ranking.
    let uses: String = (0..30)
        .map(|i| format!("fn use_{i}() {{ ebb_flow(); }}\n"))
        .collect();
    std::fs::write(dir.path().join("tide_0.rs"), "pub fn ebb_flow() {}\n").unwrap();
    std::fs::write(dir.path().join("tide_1.rs"), uses).unwrap();
    let uncached = pack(&options(dir.path()), &counting, &()).unwrap();
    let packed = pack(&cached(dir.path()), &counting, &()).unwrap();
    assert_eq!(packed.text(), uncached.text());
    assert_eq!(packed.report(), uncached.report());
}

#[test]
fn the_caches_give_the_same_pack_of_real_source() {
    // This crate's own source and the runtime's: real Rust, many outlines.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    let caches = tempfile::tempdir().unwrap();
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    let counting = Counting::exact("o200k", &o200k);
    for query in [None, Some("outline of a file within its room")] {
        let mut options = PackOptions::new([
            root.join("budget-pack/src"),
            root.join("budget-runtime/src"),
        ]);
        options.budget = Budget::Tokens(20_000);
        options.query = query.map(Into::into);
        let uncached = pack(&options, &counting, &()).unwrap();
        options.cache = Some(caches.path().to_path_buf());
        for run in 0..2 {
            let packed = pack(&options, &counting, &()).unwrap();
            assert_eq!(packed.text(), uncached.text(), "{query:?}, run {run}");
            assert_eq!(packed.report(), uncached.report(), "{query:?}, run {run}");
        }
        // Outlines are in it (bodies or lines left out), so the cached
        // ones are checked.
        let elided = uncached.text().matches("{ … }").count()
            + uncached.text().matches("// … lines").count();
        assert!(
            elided > 2 || !cfg!(feature = "tree-sitter"),
            "{query:?}: {elided}"
        );
    }
}

#[test]
fn a_text_the_cache_found_free_of_secrets_is_searched_again_where_that_can_differ() {
    let dir = tempfile::tempdir().unwrap();
    let caches = tempfile::tempdir().unwrap();
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    let counting = Counting::exact("o200k", &o200k);
    let settings = "TIDE_HOURS=twelve_and_a_half_hours\n";
    std::fs::write(dir.path().join("settings.txt"), settings).unwrap();
    let mut options = options(dir.path());
    options.cache = Some(caches.path().to_path_buf());
    let status = |packed: &budget_pack::Packed, path: &str| {
        let files = packed.report()["files"].as_array().unwrap().clone();
        let file = files.iter().find(|f| f["path"] == path).unwrap().clone();
        file["status"].as_str().unwrap().to_owned()
    };
    for _ in 0..2 {
        let packed = pack(&options, &counting, &()).unwrap();
        assert_eq!(status(&packed, "settings.txt"), "packed");
    }
    // The same text as a dotenv file: every value there is a secret.
    std::fs::write(dir.path().join("production.env"), settings).unwrap();
    let packed = pack(&options, &counting, &()).unwrap();
    assert_eq!(status(&packed, "production.env"), "secret");
    assert!(!packed.text().contains("twelve_and_a_half"));
    // A text that changes is searched as it is now.
    std::fs::remove_file(dir.path().join("production.env")).unwrap();
    let token = format!("GITHUB_TOKEN = \"ghp_{}\"\n", "a1B2".repeat(9));
    std::fs::write(
        dir.path().join("settings.txt"),
        format!("{settings}{token}"),
    )
    .unwrap();
    let packed = pack(&options, &counting, &()).unwrap();
    assert_eq!(status(&packed, "settings.txt"), "secret");
    assert!(!packed.text().contains("ghp_"));
}
