//! How `budget pack` ranks files: what a reader of the repository would
//! open first.
//!
//! **Without a query** a file's score is
//! `0.5 × centrality + 0.3 × kind prior + 0.2 × entry point`:
//! * centrality: a source file's PageRank over the [reference
//!   graph](graph::ReferenceGraph) (which files use the names it defines),
//!   as a percentile among the source files (`0.0` least, `1.0` most
//!   central; the teleport weight is 1, 5 for entry points, plus up to 4
//!   for files git history shows changing recently and often); `0.5` for
//!   other files;
//! * the kind prior of [`FileRole::prior`] (README 1.0 … other 0.2);
//! * entry point: 1 for READMEs and build manifests at the top and
//!   `lib.rs` / `main.go` / `__init__.py`-like files near it
//!   ([`role::is_entry_point`]), else 0.
//!
//! **With a query** a file that matches ([BM25F](bm25::Query::scores) over
//! its text, path and defined names, above 0) scores
//! `0.5 + 0.5 × (0.6 × match + 0.2 × centrality + 0.2 × recency)`, where
//! `match` is its BM25F score over the best file's and `recency` is
//! `0.5^(i / 3)` for a file the `i`-th commit back from HEAD (0) changed
//! last, 0 for one no recent commit changed; a file that matches nothing
//! scores half its no-query score. Every matching file therefore ranks above
//! every file that matches nothing (which the pack carries only as its
//! outline, in the room the others leave). A query no file matches ranks
//! as no query.

pub mod bm25;
pub mod graph;
pub mod identifiers;
pub mod keywords;
pub mod names;
pub mod python_scopes;
pub mod role;
pub mod rust_scopes;
pub mod terms;

use std::collections::HashMap;

use crate::git::FileChanges;
use crate::outline::Outline;
use crate::parallel::parallel_map;
use bm25::{Document, Query};
use graph::{ReferenceGraph, References, with_module_name};
use names::{FileNames, NameHasher};
use role::{FileRole, is_code, is_entry_point};

/// The share of its source file's match a test file of it gets at least.
const COMPANION_SHARE: f64 = 0.6;
/// The teleport weight of an entry point, against 1 for other files.
const ENTRY_TELEPORT: f64 = 5.0;
/// The teleport weight added for the most often and recently changed file
/// (others in proportion).
const HISTORY_TELEPORT: f64 = 4.0;
/// The half-life, in commits, of a matching file's recency: work comes in
/// series, and a file one of the last few commits changed is often the
/// next one's (see `docs/cli.md`, "Ranking").
const RECENCY_HALF_LIFE: f64 = 3.0;

/// Files ranked for packing.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking {
    /// Each file's score, in `0.0..=1.0`.
    pub scores: Vec<f64>,
    /// Whether each file matches the query (every file, without one).
    pub matches: Vec<bool>,
    /// Whether the query ranked the files (it matched at least one).
    pub by_query: bool,
    /// For each defined name, how many files refer to it that do not
    /// define it ([`ReferenceGraph::into_references`]).
    pub references: References,
    /// How many names each file defines (its module name included).
    pub defined: Vec<usize>,
}

/// Ranks `files` (`(path, text)`) for `query`, with how recently and
/// often each changed (`history`, by path); see the module documentation
/// for the formula.
/// `names` holds what each source file defines and uses (by position,
/// hashed with `hasher`; `None` for other files), and `outlines` each
/// file's outline where it has one (shorter, or empty, for none): its
/// defined names replace the keyword scan's.
pub fn rank<'t>(
    files: &[(&'t str, &'t str)],
    names: &[Option<FileNames>],
    hasher: NameHasher,
    outlines: &[Option<Outline<'t>>],
    query: Option<&Query>,
    history: &HashMap<String, FileChanges>,
) -> Ranking {
    let symbols: Vec<Vec<&'t str>> = files
        .iter()
        .enumerate()
        .map(|(i, &(path, text))| {
            match (
                outlines.get(i).and_then(Option::as_ref),
                names.get(i).and_then(Option::as_ref),
            ) {
                (Some(outline), _) => with_module_name(path, &outline.definitions),
                (None, Some(names)) => {
                    with_module_name(path, &names.defined_in(text).unwrap_or_default())
                }
                (None, None) => with_module_name(path, &[]),
            }
        })
        .collect();
    // Asked of every file several times over, on one core: found once.
    let roles: Vec<FileRole> = parallel_map(files, |(path, _)| FileRole::of(path));
    let graph = ReferenceGraph::build(files, &roles, &symbols, names, hasher);
    let entry: Vec<bool> = files.iter().map(|(path, _)| is_entry_point(path)).collect();
    let most_changed = history
        .values()
        .map(|changes| changes.weight)
        .fold(0.0, f64::max);
    let teleport: Vec<f64> = files
        .iter()
        .zip(&entry)
        .map(|((path, _), &e)| {
            let changed = match history.get(*path) {
                Some(changes) if most_changed > 0.0 => changes.weight / most_changed,
                _ => 0.0,
            };
            1.0 + if e { ENTRY_TELEPORT - 1.0 } else { 0.0 } + HISTORY_TELEPORT * changed
        })
        .collect();
    // PageRank keeps one core busy: the query's search of every text
    // starts on the others meanwhile.
    let (pagerank, matched) = match query {
        Some(query) => {
            let documents: Vec<Document<'_>> = files
                .iter()
                .zip(&symbols)
                .zip(&roles)
                .map(|(((path, text), symbols), &role)| Document {
                    path,
                    text,
                    symbols,
                    role,
                })
                .collect();
            let (pagerank, matched) = query.scores_beside(&documents, || graph.pagerank(&teleport));
            (pagerank, Some(matched))
        }
        None => (graph.pagerank(&teleport), None),
    };
    let centrality = centrality(files, &pagerank);
    let plain: Vec<f64> = roles
        .iter()
        .zip(&centrality)
        .zip(&entry)
        .map(|((role, c), &e)| 0.5 * c + 0.3 * role.prior() + if e { 0.2 } else { 0.0 })
        .collect();
    let references = graph.into_references();
    let defined: Vec<usize> = symbols.iter().map(Vec::len).collect();
    let unmatched = |scores: Vec<f64>, references, defined| Ranking {
        matches: vec![true; files.len()],
        by_query: false,
        scores,
        references,
        defined,
    };
    let Some(mut matched) = matched else {
        return unmatched(plain, references, defined);
    };
    with_test_companions(files, &roles, &mut matched);
    let best = matched.iter().copied().fold(0.0, f64::max);
    if best <= 0.0 {
        // A query no file matches says nothing: rank as without one.
        return unmatched(plain, references, defined);
    }
    let recency: Vec<f64> = files
        .iter()
        .map(|(path, _)| {
            history.get(*path).map_or(0.0, |changes| {
                0.5f64.powf(changes.latest as f64 / RECENCY_HALF_LIFE)
            })
        })
        .collect();
    let scores = matched
        .iter()
        .zip(&plain)
        .zip(&centrality)
        .zip(&recency)
        .map(|(((&m, &p), &c), &r)| {
            if m > 0.0 {
                0.5 + 0.5 * (0.6 * m / best + 0.2 * c + 0.2 * r)
            } else {
                0.5 * p
            }
        })
        .collect();
    Ranking {
        matches: matched.iter().map(|&m| m > 0.0).collect(),
        by_query: true,
        scores,
        references,
        defined,
    }
}

/// A test file of a source file that matches (its stem less a `test`
/// affix: `JsonReaderTest.java` of `JsonReader.java`; or a start of that
/// stem, the longest that names a matching source: `JsonReaderPeekTest.java`
/// of `JsonReader.java`, [`role::tested_stems`]) matches at least
/// [`COMPANION_SHARE`] of it, and the rest of the way by its own match: a
/// change to the code is often a change to its tests, which the query
/// rarely names.
fn with_test_companions(files: &[(&str, &str)], roles: &[FileRole], matched: &mut [f64]) {
    let mut source_score: HashMap<String, f64> = HashMap::new();
    for (i, (path, _)) in files.iter().enumerate() {
        if matched[i] > 0.0 && roles[i] == FileRole::Code {
            let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
            let stem = name.split('.').next().unwrap_or_default().to_owned();
            let best = source_score.entry(stem).or_default();
            *best = best.max(matched[i]);
        }
    }
    for (i, (path, _)) in files.iter().enumerate() {
        if roles[i] != FileRole::Tests {
            continue;
        }
        let tested = role::tested_stems(path);
        if let Some(score) = tested.iter().find_map(|stem| source_score.get(stem)) {
            // Its own match still counts: of a source's several tests, the
            // one the query names comes first.
            let own = matched[i];
            matched[i] = own.max(COMPANION_SHARE * score + (1.0 - COMPANION_SHARE) * own);
        }
    }
}

/// Each source file's PageRank as a percentile among the source files;
/// `0.5` for every other file (the graph says nothing about prose or
/// configuration).
fn centrality(files: &[(&str, &str)], pagerank: &[f64]) -> Vec<f64> {
    let code: Vec<usize> = (0..files.len()).filter(|&i| is_code(files[i].0)).collect();
    let ranks: Vec<f64> = code.iter().map(|&i| pagerank[i]).collect();
    let mut out = vec![0.5; files.len()];
    for (&i, p) in code.iter().zip(percentiles(&ranks)) {
        out[i] = p;
    }
    out
}

/// Each value's percentile among `values`: the share of the others it is
/// greater than (ties share the lower rank), in `0.0..=1.0`.
fn percentiles(values: &[f64]) -> Vec<f64> {
    let n = values.len();
    if n < 2 {
        return vec![1.0; n];
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]));
    let mut out = vec![0.0; n];
    let mut start = 0;
    while start < n {
        let mut end = start;
        while end + 1 < n && values[order[end + 1]] == values[order[start]] {
            end += 1;
        }
        for &i in &order[start..=end] {
            out[i] = start as f64 / (n - 1) as f64;
        }
        start = end + 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_share_ties() {
        assert_eq!(
            percentiles(&[0.3, 0.1, 0.3, 0.9]),
            [1.0 / 3.0, 0.0, 1.0 / 3.0, 1.0]
        );
        assert_eq!(percentiles(&[5.0]), [1.0]);
    }

    const FILES: &[(&str, &str)] = &[
        ("README.md", "# Tides\nPredicts tides.\n"),
        ("src/harmonics.rs", "pub fn harmonic_sum() {}\n"),
        (
            "src/predict.rs",
            "use harmonics::harmonic_sum;\nfn predict() { harmonic_sum() }\n",
        ),
        ("src/units.rs", "pub fn metres() {}\n"),
        (
            "tests/predict.rs",
            "fn predict_works() { harmonic_sum(); metres() }\n",
        ),
    ];

    /// [`FILES`] ranked for `query`, without outlines or history.
    fn ranked(query: Option<&Query>) -> Ranking {
        ranked_files(FILES, query)
    }

    /// `files` ranked for `query`, without outlines or history.
    fn ranked_files<'t>(files: &[(&'t str, &'t str)], query: Option<&Query>) -> Ranking {
        ranked_with_history(files, query, &HashMap::new())
    }

    /// `files` ranked for `query` with `history`, without outlines.
    fn ranked_with_history<'t>(
        files: &[(&'t str, &'t str)],
        query: Option<&Query>,
        history: &HashMap<String, FileChanges>,
    ) -> Ranking {
        let hasher = NameHasher::new(3);
        let names: Vec<Option<FileNames>> = files
            .iter()
            .map(|(path, text)| {
                FileNames::of(text, keywords::Dialect::of(path), hasher).filter(|_| is_code(path))
            })
            .collect();
        rank(files, &names, hasher, &[], query, history)
    }

    #[test]
    fn without_a_query_the_used_file_beats_the_unused_one() {
        let ranking = ranked(None);
        let s = &ranking.scores;
        assert!(ranking.matches.iter().all(|&m| m));
        // harmonics is used by two files, units by one; the README is an entry point.
        assert!(s[1] > s[3] && s[3] > s[4], "{s:?}");
        assert!(s[0] > s[2], "{s:?}");
    }

    #[test]
    fn with_a_query_every_match_ranks_above_every_non_match() {
        let query = Query::parse("metres").unwrap();
        let ranking = ranked(Some(&query));
        assert_eq!(ranking.matches, [false, false, false, true, true]);
        let worst_match = ranking.scores[3].min(ranking.scores[4]);
        assert!(worst_match > 0.5);
        assert!(ranking.scores[..3].iter().all(|&s| s <= 0.5));
        // The source defining `metres` beats the test using it.
        assert!(ranking.scores[3] > ranking.scores[4]);
    }

    #[test]
    fn with_a_query_the_recently_changed_match_ranks_first() {
        let files: &[(&str, &str)] = &[
            ("src/tide.rs", "pub fn ebb() {}\n"),
            ("src/flood.rs", "pub fn ebb() {}\n"),
            ("src/moon.rs", "pub fn phase() {}\n"),
        ];
        let query = Query::parse("ebb").unwrap();
        let changed = |latest| FileChanges {
            weight: 0.0,
            latest,
        };
        let scores = |history: &[(&str, FileChanges)]| {
            let history = history
                .iter()
                .map(|(path, changes)| ((*path).to_owned(), *changes))
                .collect();
            ranked_with_history(files, Some(&query), &history).scores
        };
        let unchanged = scores(&[]);
        assert_eq!(unchanged[0], unchanged[1]);
        // The last commit changed `flood.rs`; `tide.rs` nine commits ago.
        let recent = scores(&[("src/flood.rs", changed(0)), ("src/tide.rs", changed(9))]);
        assert!(recent[1] > recent[0], "{recent:?}");
        // 0.5 + 0.5 × (0.6 × match + 0.2 × centrality + 0.2 × 0.5^(9/3)).
        assert!((recent[0] - unchanged[0] - 0.5 * 0.2 * 0.125).abs() < 1e-9);
        // Recency never lifts a file that does not match.
        let moon = scores(&[("src/moon.rs", changed(0))]);
        assert!(moon[2] < 0.5 && moon[0].min(moon[1]) > 0.5, "{moon:?}");
    }

    #[test]
    fn a_query_nothing_matches_ranks_as_none() {
        let query = Query::parse("touch up pr 1306").unwrap();
        let ranking = ranked(Some(&query));
        assert_eq!(ranking, ranked(None));
    }

    #[test]
    fn a_change_log_ranks_below_the_code_unless_the_query_names_it() {
        let files = [
            (
                "CHANGELOG.md",
                "## 2.0\n- Metres round down (metres rounding fixed).\n- Rounding of metres.\n",
            ),
            ("src/units.rs", "pub fn metres() {}\npub fn feet() {}\n"),
        ];
        let about_code = Query::parse("metres rounding").unwrap();
        let s = ranked_files(&files, Some(&about_code)).scores;
        assert!(s[1] > s[0], "{s:?}");
        let about_the_log = Query::parse("changelog metres rounding").unwrap();
        let s = ranked_files(&files, Some(&about_the_log)).scores;
        assert!(s[0] > s[1], "{s:?}");
    }

    #[test]
    fn a_matching_source_lifts_its_tests_the_one_the_query_names_first() {
        let files = [
            (
                "src/Tides.java",
                "class Tides {\n  // A flood after a surge: flood, surge.\n  \
                 int flood() { return surge(); }\n  int surge() { return 1; }\n}\n",
            ),
            (
                "src/Moon.java",
                "class Moon { int phase() { return 2; } }\n",
            ),
            (
                "test/TidesTest.java",
                "class TidesTest { void all() { new Tides().ebb(); } } // flood\n",
            ),
            (
                "test/TidesEbbTest.java",
                "class TidesEbbTest { void ebb() { new Tides().ebb(); } }\n",
            ),
            (
                "test/MoonTest.java",
                "class MoonTest { void phase() { new Moon().phase(); } }\n",
            ),
        ];
        let query = Query::parse("flood surge").unwrap();
        let ranking = ranked_files(&files, Some(&query));
        let s = &ranking.scores;
        // `TidesEbbTest` tests a start of its stem, `Tides`; `TidesTest`
        // names the query once besides, so it comes first of the two.
        assert_eq!(ranking.matches, [true, false, true, true, false]);
        assert!(s[0] > s[2] && s[2] > s[3] && s[3] > 0.5, "{s:?}");
        // A test of a source that does not match gets nothing from it.
        assert!(s[4] < 0.5, "{s:?}");
    }

    #[test]
    fn a_licence_ranks_below_the_code_unless_the_query_names_it() {
        let files = [
            (
                "LICENSE",
                "You may add an addendum to the NOTICE text: the addendum \
                 is yours. Such an addendum changes no term.\n",
            ),
            (
                "src/notes.rs",
                "// As the addendum says.\nfn parse() { helper() }\n",
            ),
            ("src/lib.rs", "pub fn helper() {}\n"),
        ];
        let about_code = Query::parse("Addendum to #1438").unwrap();
        let s = ranked_files(&files, Some(&about_code)).scores;
        assert!(s[1] > s[0], "{s:?}");
        let about_the_licence = Query::parse("license addendum").unwrap();
        let s = ranked_files(&files, Some(&about_the_licence)).scores;
        assert!(s[0] > s[1], "{s:?}");
    }
}
