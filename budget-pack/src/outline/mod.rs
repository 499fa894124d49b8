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
//! [the definition keyword scan](crate::rank::keywords::KeywordDefinitions) and the file
//! goes from RAW straight to LINKED.
//!
//! Python's outline is read from its lines and indentation where the
//! reading is sure of it (every well-formed file but one with a `match`
//! statement): the same outline, to the byte and row, as tree-sitter's,
//! about thirty times faster (320 against 10 MB/s on one core, on the
//! standard library). Tests compare them on CPython's standard
//! library.
//!
//! Parsing is the costly part (tree-sitter reads about 10 MB/s of
//! Python on one core), so `pack` parses only what can change its output:
//! every source file for the ranking's names (tests and examples aside:
//! the names they define are helpers) when there are at most
//! [`RANKING_PARSE_BYTES`] of source ([`for_ranking`]), and for skeletons
//! the best-ranked source files up to [`SKELETON_BYTES_PER_TOKEN`] bytes
//! per token of budget ([`forms`]): their skeletons alone would fill
//! RAW's share several times over, so a lower-ranked file's skeleton
//! could not get in.

use crate::parallel::parallel_map_largest_first;
use crate::rank::keywords::Dialect;
use crate::text_cache::TextCache;

pub mod focus;
#[cfg(feature = "tree-sitter")]
mod language;
mod parsed;
#[cfg(feature = "tree-sitter")]
mod python;
#[cfg(feature = "tree-sitter")]
mod syntax;

pub use parsed::{Body, Parsed, ParsedSpan};

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
    /// Its definitions' lines, in source order, for a [focused
    /// outline](focus::focused).
    pub spans: Vec<focus::Span<'t>>,
    /// What starts a line comment in its language (`//`, `#`).
    pub comment: &'static str,
}

/// Up to this many bytes of source, every source file is parsed for the
/// ranking's defined names; above it, the ranking scans for definition
/// keywords instead (one rule for the whole run).
pub const RANKING_PARSE_BYTES: usize = 4 << 20;

/// Skeletons are made for the best-ranked source files whose sizes add up
/// to this many bytes per token of budget. Measured with
/// `scripts/localize.py`: 8 carries as many of the changed files whole or
/// outlined as 16 did (held-out 71% either way, tuning set 56% against
/// 54%) and the same share of the most-imported files without a query,
/// for half the parsing; 4 lost a third of those (tokio's `bytes`: 85% to
/// 55%).
pub const SKELETON_BYTES_PER_TOKEN: u64 = 8;

/// The outlines of `files` (`(path, text)`) for the ranking, by position:
/// when the source files' texts add up to at most [`RANKING_PARSE_BYTES`],
/// those of the source files whose names the ranking reads (`defines` of
/// their path: a test's or an example's are helpers, which it does not)
/// but Python and Rust where there are more bytes of them than [`forms`]
/// parses (the scan of their names finds the definitions their outlines
/// have: [`Dialect`]), or of every source file when [`forms`] for a
/// `budget`-token payload
/// would parse them all; none of a file that [`may_outline`] rules out
/// (over [`MAX_OUTLINE_BYTES`], a table of strings); else none.
pub fn for_ranking<'t>(
    files: &[(&str, &'t str)],
    defines: &(dyn Fn(&str) -> bool + Sync),
    budget: u64,
    cache: &TextCache,
) -> Vec<Option<Outline<'t>>> {
    let source = source_bytes(files);
    if source > RANKING_PARSE_BYTES {
        return vec![None; files.len()];
    }
    // Parsed here on every core rather than later, one by one.
    let all = source <= skeleton_bytes(budget);
    // Python's and Rust's definitions need no parse: the scan of their
    // names finds the same. They are left to the scan where there is more
    // of them than the outlines parse (else the parse is only moved to
    // them, where it no longer runs beside the read of the git history).
    let scanned = |path: &str| Dialect::of(path) != Dialect::Any;
    let scannable: usize = files
        .iter()
        .filter(|(path, _)| scanned(path) && defines(path))
        .map(|(_, text)| text.len())
        .sum();
    let scan = !all && scannable > skeleton_bytes(budget);
    let parse = |path: &str, text: &str| {
        (all || defines(path) && !(scan && scanned(path))) && may_outline(path, text)
    };
    parallel_map_largest_first(
        files,
        // Which files are parsed is asked on the cores, once a file: one
        // left out returns at once.
        |(_, text)| text.len(),
        |&(path, text)| {
            parse(path, text)
                .then(|| cache.outline(path, text))
                .flatten()
        },
    )
}

/// The bytes of the texts of `files` (`(path, text)`) in a language with
/// a grammar here.
fn source_bytes(files: &[(&str, &str)]) -> usize {
    files
        .iter()
        .filter(|(path, _)| has_grammar(path))
        .map(|(_, text)| text.len())
        .sum()
}

/// Whether [`for_ranking`] parses `files` (`(path, text)`): whether their
/// source is at most [`RANKING_PARSE_BYTES`]; else the ranking takes the
/// definitions a keyword scan finds.
pub fn ranking_parses(files: &[(&str, &str)]) -> bool {
    source_bytes(files) <= RANKING_PARSE_BYTES
}

/// How many bytes of the best-ranked source files [`forms`] parses for a
/// `budget`-token payload ([`SKELETON_BYTES_PER_TOKEN`] per token).
fn skeleton_bytes(budget: u64) -> usize {
    usize::try_from(budget.saturating_mul(SKELETON_BYTES_PER_TOKEN)).unwrap_or(usize::MAX)
}

/// The best-ranked source files get outlines whatever their size (up to
/// [`MAX_OUTLINE_BYTES`]) and, for all but the first, the full outline
/// room; this many of them.
pub const FULL_ROOM_RANKS: usize = 5;

/// A file larger than this is never parsed for its outline (generated
/// code, vendored bundles): tree-sitter would take a tenth of a second per
/// megabyte for little a reader can use.
pub const MAX_OUTLINE_BYTES: usize = 1 << 20;

/// The relevance of each of a file's definitions, given as `(name, text)`.
pub type Relevance<'a> = dyn Fn(&[(&str, &str)]) -> Vec<f64> + Sync + 'a;

/// How outlines are focused on what matters.
pub struct Focus<'a> {
    /// The relevance of each of a file's definitions, from their names and
    /// texts (above zero for one that matters): how well it matches the
    /// query, or, without one, how many files use it.
    pub relevance: &'a Relevance<'a>,
    /// Whether relevant definitions make an outline focused even when the
    /// plain skeleton fits (with a query: their bodies are what the reader
    /// asked for).
    pub expand: bool,
    /// The room for one file's outline, in bytes, given its position in
    /// the files and its rank (0 for the best-ranked file).
    pub room: &'a (dyn Fn(usize, usize) -> usize + Sync),
}

/// A file's SKELETON form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// The file without its function bodies.
    Skeleton(String),
    /// A [focused outline](focus::focused).
    Focused(focus::Focused),
}

impl Form {
    /// Its text.
    pub fn text(&self) -> &str {
        match self {
            Self::Skeleton(text) => text,
            Self::Focused(focused) => &focused.text,
        }
    }

    /// Moves the text out.
    pub fn into_text(self) -> String {
        match self {
            Self::Skeleton(text) => text,
            Self::Focused(focused) => focused.text,
        }
    }
}

/// The SKELETON forms of `files` by position, for a payload of `budget`
/// tokens: of the [`FULL_ROOM_RANKS`] best-ranked source files (`ranked`:
/// positions, best first), and of the next whose sizes add up to
/// [`SKELETON_BYTES_PER_TOKEN`] × `budget` bytes (a file that would pass
/// it is skipped, not the rest), each one's form where it has one; `None`
/// for every other file. Outlines already made (`outlines`, by position)
/// are not made again; those made here (from `cache` where it can) are
/// added to them.
///
/// The form is the plain skeleton when it fits the room and nothing asks
/// for a body ([`Focus::expand`]); else the focused outline within the
/// room, when it saves [`MIN_SAVING_PERCENT`]; else the plain skeleton.
pub fn forms<'t>(
    files: &[(&str, &'t str)],
    ranked: &[usize],
    budget: u64,
    outlines: &mut [Option<Outline<'t>>],
    focus: &Focus<'_>,
    cache: &TextCache,
) -> Vec<Option<Form>> {
    let limit = skeleton_bytes(budget);
    let mut bytes = 0usize;
    let mut wanted = Vec::new();
    let mut rank_of = vec![0; files.len()];
    for (rank, &position) in ranked.iter().enumerate() {
        rank_of[position] = rank;
        let (path, text) = files[position];
        // The byte budget first: it is asked of every file, and
        // `may_outline` reads the start of a text.
        let within = wanted.len() < FULL_ROOM_RANKS || bytes.saturating_add(text.len()) <= limit;
        if !within || !may_outline(path, text) {
            continue;
        }
        bytes += text.len();
        wanted.push(position);
    }
    let unparsed: Vec<usize> = wanted
        .iter()
        .copied()
        .filter(|&p| outlines.get(p).is_none_or(Option::is_none))
        .collect();
    let size = |&p: &usize| files[p].1.len();
    let made =
        parallel_map_largest_first(&unparsed, size, |&p| cache.outline(files[p].0, files[p].1));
    for (&p, outline) in unparsed.iter().zip(made) {
        outlines[p] = outline;
    }
    let outlines = &*outlines;
    let made = parallel_map_largest_first(&wanted, size, |&p| {
        let outline = outlines[p].as_ref()?;
        form(files[p].1, outline, focus, (focus.room)(p, rank_of[p]))
    });
    let mut out = vec![None; files.len()];
    for (&p, form) in wanted.iter().zip(made) {
        out[p] = form;
    }
    out
}

/// The SKELETON form of the file at `path` within `room` bytes (see
/// [`forms`]; [`Focus::room`] is not asked), from its `outline` when
/// [`forms`] made one, else made now (from `cache` where it can): an
/// outline made again for the room left at the file's turn.
pub fn form_within(
    path: &str,
    text: &str,
    outline: Option<&Outline<'_>>,
    focus: &Focus<'_>,
    room: usize,
    cache: &TextCache,
) -> Option<Form> {
    match outline {
        Some(outline) => form(text, outline, focus, room),
        None => form(text, &cache.outline(path, text)?, focus, room),
    }
}

/// The SKELETON form of `text` within `room` bytes, from its `outline`
/// (see [`forms`]).
fn form(text: &str, outline: &Outline<'_>, focus: &Focus<'_>, room: usize) -> Option<Form> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let rows = |first: usize, last: usize| {
        let start = starts.get(first).copied().unwrap_or(text.len());
        let end = starts.get(last + 1).copied().unwrap_or(text.len());
        &text[start..end.max(start)]
    };
    let definitions: Vec<(&str, &str)> = outline
        .spans
        .iter()
        .map(|span| (span.name, rows(span.first, span.last)))
        .collect();
    let relevance = (focus.relevance)(&definitions);
    let asks = focus.expand && relevance.iter().any(|&r| r > 0.0);
    let plain = outline.skeleton.clone();
    if !asks && plain.as_ref().is_some_and(|s| s.len() <= room) || outline.spans.is_empty() {
        return plain.map(Form::Skeleton);
    }
    focus::focused(text, &outline.spans, &relevance, outline.comment, room)
        .filter(|focused| saves_enough(&focused.text, text))
        .map(Form::Focused)
        .or_else(|| plain.map(Form::Skeleton))
}

/// Whether `text`, the file at `path`, may have an outline: its language
/// has a grammar here, it is at most [`MAX_OUTLINE_BYTES`], and it is no
/// [`string_table`].
pub fn may_outline(path: &str, text: &str) -> bool {
    has_grammar(path) && text.len() <= MAX_OUTLINE_BYTES && !string_table(text)
}

/// Whether `text` reads as a table of string literals (pydoc's 750 KB
/// `topics.py`, message catalogues): nine in ten of the lines it starts
/// with begin with a quote (a module that opens with an `__all__` list
/// or SQL strings stays well below). Its outline would be one
/// assignment, not worth parsing for; the words `def` and `class` inside
/// its strings make it look like a file of definitions to a keyword
/// scan.
fn string_table(text: &str) -> bool {
    /// The start of the text looked at, in bytes, and the fewest
    /// non-blank lines in it that can tell.
    const SAMPLE_BYTES: usize = 8 * 1024;
    const MIN_LINES: usize = 20;
    let mut end = text.len().min(SAMPLE_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let (mut lines, mut quoted) = (0usize, 0usize);
    for line in text[..end].lines() {
        let Some(first) = line.trim_start().chars().next() else {
            continue;
        };
        lines += 1;
        quoted += usize::from(matches!(first, '\'' | '"' | '`'));
    }
    lines >= MIN_LINES && quoted * 10 >= lines * 9
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

/// The grammar of the file at `path`, as a tag (one per language), and
/// whether it is Python; `None` when its language has no grammar here (or
/// the feature `tree-sitter` is off).
#[cfg(feature = "tree-sitter")]
pub fn grammar(path: &str) -> Option<(u8, bool)> {
    let language = language::Language::of(path)?;
    Some((language as u8, language.is_python()))
}

/// Without the feature `tree-sitter`, no file has a grammar.
#[cfg(not(feature = "tree-sitter"))]
pub fn grammar(_path: &str) -> Option<(u8, bool)> {
    None
}

/// What the syntax tree of `text`, the file at `path`, says; `None` when
/// it has no [`grammar`] or does not parse at all. Its
/// [`outline`](Parsed::outline) is the file's outline.
#[cfg(feature = "tree-sitter")]
pub fn parse(path: &str, text: &str) -> Option<Parsed> {
    match language::Language::of(path)? {
        // Read without a parse where the reading is sure of it.
        language::Language::Python => {
            python::parse(text).or_else(|| syntax::parse(language::Language::Python, text))
        }
        language => syntax::parse(language, text),
    }
}

/// Without the feature `tree-sitter`, nothing parses.
#[cfg(not(feature = "tree-sitter"))]
pub fn parse(_path: &str, _text: &str) -> Option<Parsed> {
    None
}

/// Whether `outline` is at least [`MIN_SAVING_PERCENT`] smaller than
/// `text` (by bytes) and not blank.
fn saves_enough(outline: &str, text: &str) -> bool {
    let saved = text.len().saturating_sub(outline.len());
    saved * 100 >= text.len() * MIN_SAVING_PERCENT && !outline.trim().is_empty()
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

    /// No definition matters, and every outline has room.
    const PLAIN: Focus<'static> = Focus {
        relevance: &|definitions| vec![0.0; definitions.len()],
        expand: false,
        room: &|_, _| usize::MAX,
    };

    fn skeletons<'t>(
        files: &[(&str, &'t str)],
        ranked: &[usize],
        budget: u64,
        outlines: &mut [Option<Outline<'t>>],
    ) -> Vec<Option<String>> {
        forms(files, ranked, budget, outlines, &PLAIN, &TextCache::none())
            .into_iter()
            .map(|form| form.map(Form::into_text))
            .collect()
    }

    /// A table of strings (as pydoc's `topics.py` is made) has no outline
    /// worth a parse; code with docstrings and string-heavy lines does.
    #[test]
    fn a_table_of_strings_is_not_outlined() {
        let mut table =
            "# Autogenerated\ntopics = {'assert': 'The assert statement\\n'\n".to_owned();
        for i in 0..40 {
            table.push_str(&format!("           '   class Example{i}:\\n'\n           '       def method(self): pass\\n'\n"));
        }
        table.push_str("}\n");
        assert!(string_table(&table));
        assert!(!may_outline("topics.py", &table));
        let code = format!(
            "\"\"\"A module.\n\nWith a docstring.\n\"\"\"\n{}",
            (0..40)
                .map(|i| format!("def f{i}():\n    \"\"\"Doc.\"\"\"\n    return '{i}'\n"))
                .collect::<String>()
        );
        assert!(!string_table(&code));
        assert!(may_outline("module.py", &code));
        // A module that opens with a long `__all__` list is code.
        let listed = format!(
            "__all__ = [\n{}]\n{}",
            (0..30)
                .map(|i| format!("    'name{i}',\n"))
                .collect::<String>(),
            (0..10)
                .map(|i| format!("def name{i}():\n    pass\n"))
                .collect::<String>()
        );
        assert!(!string_table(&listed));
        // Too few lines to tell.
        assert!(!string_table("'a'\n'b'\n"));
    }

    #[test]
    fn past_the_best_files_only_those_within_the_byte_budget_get_skeletons() {
        let big = module(40);
        let names: Vec<String> = (0..8).map(|i| format!("f{i}.rs")).collect();
        let mut files: Vec<(&str, &str)> =
            names.iter().map(|n| (n.as_str(), big.as_str())).collect();
        files.push(("README.md", "# A\n"));
        // Room for six files' bytes: the best five always, then one more.
        let budget = u64::try_from(6 * big.len()).unwrap() / SKELETON_BYTES_PER_TOKEN + 1;
        let mut outlines = vec![None; files.len()];
        let ranked = [8, 0, 1, 2, 3, 4, 5, 6, 7];
        let made = skeletons(&files, &ranked, budget, &mut outlines);
        let has: Vec<bool> = made.iter().map(Option::is_some).collect();
        assert_eq!(
            has,
            [true, true, true, true, true, true, false, false, false]
        );
        assert!(
            made[0]
                .as_deref()
                .unwrap()
                .contains("pub fn f39(x: u64) -> u64 { … }")
        );
        // A file over the byte budget among the best five still gets one.
        let mut outlines = vec![None; 2];
        let two = [("huge.rs", big.as_str()), ("small.rs", "fn a() {}\n")];
        assert!(skeletons(&two, &[0, 1], 1, &mut outlines)[0].is_some());
    }

    #[test]
    fn outlines_made_for_the_ranking_are_reused_and_large_trees_are_not_parsed() {
        let small = module(40);
        let files = [
            ("a.rs", small.as_str()),
            ("notes.txt", "fn x() {}\n"),
            ("tests/a.rs", small.as_str()),
        ];
        let not_tests = |path: &str| !path.starts_with("tests/");
        // With room for every outline, every source file is parsed.
        let all = for_ranking(&files, &not_tests, 1_000_000, &TextCache::none());
        assert!(all[0].is_some() && all[1].is_none() && all[2].is_some());
        // Room for the outlines of the source but not of the tests: the
        // source is parsed, not the tests.
        let source_only = (small.len() as u64).div_ceil(SKELETON_BYTES_PER_TOKEN);
        let mut outlines = for_ranking(&files, &not_tests, source_only, &TextCache::none());
        assert!(outlines[0].is_some() && outlines[1].is_none() && outlines[2].is_none());
        // An outline already made is used as it is, not parsed again.
        if let Some(outline) = &mut outlines[0] {
            outline.skeleton = Some("fn marked();".to_owned());
        }
        let made = skeletons(&files, &[0, 1, 2], 1_000_000, &mut outlines);
        assert_eq!(made[0].as_deref(), Some("fn marked();"));
        // A test left unparsed for the ranking is parsed for its skeleton.
        assert!(made[2].is_some() && outlines[2].is_some());
        // One parsed for a skeleton is kept for a refit.
        let mut outlines = vec![None, None, None];
        skeletons(&files, &[0, 1], 1_000_000, &mut outlines);
        assert!(outlines[0].is_some() && outlines[1].is_none());

        let huge = module(40).repeat(RANKING_PARSE_BYTES / module(40).len() + 1);
        let every = |_: &str| true;
        let big = [("big.rs", huge.as_str())];
        assert!(for_ranking(&big, &every, u64::MAX, &TextCache::none())[0].is_none());
    }

    #[test]
    fn python_and_rust_are_left_to_the_scan_where_the_outlines_would_not_parse_them_all() {
        let python = "class Tide:\n    def height(self):\n        return 1\n\n".repeat(50);
        let rust = module(40);
        let go = "package tide\n\nfunc Height() int {\n\treturn 1\n}\n".repeat(20);
        let files = [
            ("tides.py", python.as_str()),
            ("tides.rs", rust.as_str()),
            ("tides.go", go.as_str()),
        ];
        let every = |_: &str| true;
        // 8 bytes of skeletons per token: 800 bytes, less than the two.
        let few = for_ranking(&files, &every, 100, &TextCache::none());
        assert!(few[0].is_none() && few[1].is_none() && few[2].is_some());
        // Room for all: all parsed, as the outlines would.
        let all = for_ranking(&files, &every, 1_000_000, &TextCache::none());
        assert!(all.iter().all(Option::is_some));
        // Python and Rust the outlines could all hold: parsed beside the rest.
        let short = [
            ("tides.py", "def ebb():\n    pass\n"),
            ("tides.rs", "fn flood() {}\n"),
            ("tides.go", go.as_str()),
        ];
        let some = for_ranking(&short, &every, 100, &TextCache::none());
        assert!(some.iter().all(Option::is_some));
    }
}
