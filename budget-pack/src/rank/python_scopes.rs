//! [`definable_lines`]: which lines of Python source may start a
//! definition that tree-sitter's outline counts (one at module or class
//! level), found without a parse.

use crate::python_lines::logical_lines;

/// For each line of Python source `text` (split at `\n`), whether it starts
/// a statement outside every function's body: not inside a string,
/// brackets or a line continued by a backslash, not blank or a comment,
/// and not indented under a `def` (what a function defines is local, and
/// the outlines leave it out). Classes, `if` and `try` blocks do not hide
/// what they hold. Indentation counts a tab as eight spaces, as
/// tree-sitter's Python scanner does.
pub fn definable_lines(text: &str) -> Vec<bool> {
    let mut lines = vec![false; memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1];
    // The indentation of each `def` whose body the scan is in, innermost last.
    let mut functions: Vec<usize> = Vec::new();
    for line in logical_lines(text).iter().filter(|line| !line.comment) {
        while functions.last().is_some_and(|&outer| outer >= line.indent) {
            functions.pop();
        }
        lines[line.rows.0] = functions.is_empty();
        let mut words = text[line.start..line.first_line_end].split_ascii_whitespace();
        let first = words.next().unwrap_or_default();
        if first == "def" || first == "async" && words.next().is_some_and(|w| w == "def") {
            functions.push(line.indent);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `text` whose definitions count.
    fn definable(text: &str) -> Vec<usize> {
        definable_lines(text)
            .iter()
            .enumerate()
            .filter(|&(_, &yes)| yes)
            .map(|(line, _)| line)
            .collect()
    }

    #[test]
    fn a_functions_body_is_local_and_a_classes_is_not() {
        let text = "class Tide:\n    def height(self):\n        def helper():\n            pass\n        class Local: pass\n        return 1\n\n    async def ebb(self): pass\n\ndef flood():\n    pass\n";
        assert_eq!(definable(text), [0, 1, 7, 9]);
    }

    #[test]
    fn strings_brackets_and_backslashes_continue_a_statement() {
        let text = "x = \"\"\"\ndef not_code():\n\"\"\"\ny = (1,\ndef also_not)\nz = 1 + \\\ndef still_not\ndef real(): pass\ns = 'it''s' # ( not a bracket\ndef after(): pass\n";
        assert_eq!(definable(text), [0, 3, 5, 7, 8, 9]);
    }

    #[test]
    fn an_escaped_quote_does_not_close_a_string() {
        let text = "s = r'\\''\ndef a(): pass\nt = \"\"\"x\\\"\"\"\"\ndef b(): pass\n";
        assert_eq!(definable(text), [0, 1, 2, 3]);
    }

    #[test]
    fn comments_and_blank_lines_do_not_end_a_body() {
        let text =
            "def f():\n    x = 1\n# a comment at the margin\n\n    return x\ndef g(): pass\n";
        assert_eq!(definable(text), [0, 5]);
    }

    #[test]
    fn tabs_count_eight() {
        let text = "def f():\n\tif x:\n        def inner(): pass\ndef g(): pass\n";
        assert_eq!(definable(text), [0, 3]);
    }
}

/// The scan's definitions of real Python are tree-sitter's, name for name
/// and in order: CPython's standard library (as `python3` reports it;
/// every module outside its tests) and this repository's scripts.
#[cfg(all(test, feature = "tree-sitter"))]
mod against_tree_sitter {
    use crate::rank::keywords::{Dialect, unlike_tree_sitter};
    use crate::test_corpus::python_modules;

    #[test]
    fn definitions_are_tree_sitters() {
        let files = python_modules();
        let differ = unlike_tree_sitter(&files, Dialect::Python);
        assert!(
            differ.is_empty(),
            "{} of {} files differ: {differ:?}",
            differ.len(),
            files.len()
        );
    }
}
