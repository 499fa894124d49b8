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
