//! A source file's outline from its syntax tree (tree-sitter): the names
//! it defines, for the reference graph, and its skeleton, for the
//! SKELETON tier.
//!
//! The skeleton is the file's text with the body of every function and
//! method left out: signatures, type definitions, fields, imports,
//! constants, comments and doc comments stay. A left-out body reads
//! `{ … }` in brace languages and `...` in Python, after the docstring's
//! first paragraph. A file gets a skeleton only when it saves at least
//! [`MIN_SAVING_PERCENT`] of the text; otherwise RAW or LINKED serve.
//!
//! Languages: Rust, Python, JavaScript, TypeScript (and TSX), Go, Java, C
//! and C++, by file extension. Other files, and every file without the
//! cargo feature `tree-sitter`, have no outline: ranking falls back to
//! [`graph::definitions`](crate::rank::graph::definitions) and the file
//! goes from RAW straight to LINKED.
//!
//! Parsing is the costly part (tree-sitter's Python grammar reads about
//! 7 MB/s on one core), so `pack` parses only what can change its output:
//! every source file for the ranking's names when there are at most
//! [`RANKING_PARSE_BYTES`] of source ([`for_ranking`]), and for skeletons
//! the best-ranked source files up to [`SKELETON_BYTES_PER_TOKEN`] bytes
//! per token of budget ([`skeletons`]): their skeletons alone would fill
//! RAW's share several times over, so a lower-ranked file's skeleton
//! could not get in.

use crate::parallel::parallel_map;

#[cfg(feature = "tree-sitter")]
mod language;
#[cfg(feature = "tree-sitter")]
mod syntax;

/// The smallest saving, in percent of the text's bytes, for which a
/// skeleton is worth carrying instead of the whole file.
pub const MIN_SAVING_PERCENT: usize = 30;

/// What the syntax tree says about one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline<'t> {
    /// The names the file defines (functions, methods, types, traits,
    /// modules, constants), in source order, as slices of its text.
    pub definitions: Vec<&'t str>,
    /// The file without its function bodies, when that saves at least
    /// [`MIN_SAVING_PERCENT`].
    pub skeleton: Option<String>,
}

/// Up to this many bytes of source, every source file is parsed for the
/// ranking's defined names; above it, the ranking scans for definition
/// keywords instead (one rule for the whole run).
pub const RANKING_PARSE_BYTES: usize = 4 << 20;

/// Skeletons are made for the best-ranked source files whose sizes add up
/// to this many bytes per token of budget.
pub const SKELETON_BYTES_PER_TOKEN: u64 = 16;

/// The outlines of `files` (`(path, text)`) for the ranking, by position:
/// every source file's when their texts add up to at most
/// [`RANKING_PARSE_BYTES`], else none.
pub fn for_ranking<'t>(files: &[(&str, &'t str)]) -> Vec<Option<Outline<'t>>> {
    let source: usize = files
        .iter()
        .filter(|(path, _)| has_grammar(path))
        .map(|(_, text)| text.len())
        .sum();
    if source > RANKING_PARSE_BYTES {
        return vec![None; files.len()];
    }
    parallel_map(files, |&(path, text)| outline(path, text))
}

/// The skeletons of `files` by position, for a payload of `budget` tokens:
/// of the best-ranked source files (`ranked`: positions, best first) whose
/// sizes add up to [`SKELETON_BYTES_PER_TOKEN`] × `budget` bytes, each
/// one's skeleton where it has one; `None` for every other file. Outlines
/// already made (`outlines`, by position) are not parsed again.
pub fn skeletons(
    files: &[(&str, &str)],
    ranked: &[usize],
    budget: u64,
    outlines: &mut [Option<Outline<'_>>],
) -> Vec<Option<String>> {
    let limit =
        usize::try_from(budget.saturating_mul(SKELETON_BYTES_PER_TOKEN)).unwrap_or(usize::MAX);
    let mut bytes = 0usize;
    let mut wanted = Vec::new();
    for &position in ranked {
        let (path, text) = files[position];
        if !has_grammar(path) {
            continue;
        }
        if bytes.saturating_add(text.len()) > limit {
            break;
        }
        bytes += text.len();
        wanted.push(position);
    }
    let mut out = vec![None; files.len()];
    let unparsed: Vec<usize> = wanted
        .iter()
        .copied()
        .filter(|&p| outlines.get(p).is_none_or(Option::is_none))
        .collect();
    let parsed = parallel_map(&unparsed, |&p| outline(files[p].0, files[p].1));
    for (p, outline) in unparsed.into_iter().zip(parsed) {
        out[p] = outline.and_then(|o| o.skeleton);
    }
    for p in wanted {
        if let Some(outline) = outlines.get_mut(p).and_then(Option::as_mut) {
            out[p] = outline.skeleton.take();
        }
    }
    out
}

/// Whether the file at `path` is in a language with a grammar here (and
/// the feature `tree-sitter` is on).
fn has_grammar(path: &str) -> bool {
    #[cfg(feature = "tree-sitter")]
    return language::Language::of(path).is_some();
    #[cfg(not(feature = "tree-sitter"))]
    {
        let _ = path;
        false
    }
}

/// The outline of `text`, the file at `path`; `None` when its language
/// has no grammar here (or the feature `tree-sitter` is off) or it does
/// not parse at all.
#[cfg(feature = "tree-sitter")]
pub fn outline<'t>(path: &str, text: &'t str) -> Option<Outline<'t>> {
    let language = language::Language::of(path)?;
    syntax::outline(language, text)
}

/// Without the feature `tree-sitter`, no file has an outline.
#[cfg(not(feature = "tree-sitter"))]
pub fn outline<'t>(_path: &str, _text: &'t str) -> Option<Outline<'t>> {
    None
}

/// `skeleton` when it is at least [`MIN_SAVING_PERCENT`] smaller than
/// `text` (by bytes).
#[cfg_attr(not(feature = "tree-sitter"), allow(dead_code))]
fn worth_it(skeleton: String, text: &str) -> Option<String> {
    let saved = text.len().saturating_sub(skeleton.len());
    (saved * 100 >= text.len() * MIN_SAVING_PERCENT && !skeleton.trim().is_empty())
        .then_some(skeleton)
}

#[cfg(all(test, feature = "tree-sitter"))]
mod tests {
    use super::*;

    /// A Rust file of `n` functions with bodies worth leaving out.
    fn module(n: usize) -> String {
        (0..n)
            .map(|i| format!("pub fn f{i}(x: u64) -> u64 {{\n    let y = x * {i};\n    let z = y + 7;\n    z * z\n}}\n"))
            .collect()
    }

    #[test]
    fn only_the_best_ranked_files_within_the_byte_budget_get_skeletons() {
        let big = module(40);
        let files = [
            ("a.rs", big.as_str()),
            ("README.md", "# A\n"),
            ("b.rs", big.as_str()),
            ("c.rs", big.as_str()),
        ];
        let budget = u64::try_from(2 * big.len()).unwrap() / SKELETON_BYTES_PER_TOKEN + 1;
        let mut outlines = vec![None; files.len()];
        // Ranked c, README, a, b: c and a fit the bytes, b does not.
        let skeletons = skeletons(&files, &[3, 1, 0, 2], budget, &mut outlines);
        let has: Vec<bool> = skeletons.iter().map(Option::is_some).collect();
        assert_eq!(has, [true, false, false, true]);
        assert!(
            skeletons[0]
                .as_deref()
                .unwrap()
                .contains("pub fn f39(x: u64) -> u64 { … }")
        );
    }

    #[test]
    fn outlines_made_for_the_ranking_are_reused_and_large_trees_are_not_parsed() {
        let small = module(40);
        let files = [("a.rs", small.as_str()), ("notes.txt", "fn x() {}\n")];
        let mut outlines = for_ranking(&files);
        assert!(outlines[0].is_some() && outlines[1].is_none());
        let skeletons = skeletons(&files, &[0, 1], 1_000_000, &mut outlines);
        assert!(skeletons[0].is_some());
        // The skeleton moved out of the ranking's outline.
        assert!(outlines[0].as_ref().unwrap().skeleton.is_none());

        let huge = module(40).repeat(RANKING_PARSE_BYTES / module(40).len() + 1);
        assert!(for_ranking(&[("big.rs", huge.as_str())])[0].is_none());
    }
}
