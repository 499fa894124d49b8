//! [`definable_lines`]: which lines of Rust source may start a definition
//! that tree-sitter's outline counts, found without a parse.

/// What a line of Rust source may start, by the state at its start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineStart {
    /// Whether an item there counts: the line starts outside comments,
    /// strings, function bodies and macro token trees.
    pub definable: bool,
    /// Whether it is directly in a trait's body (where `type Item;` is an
    /// associated type, which the outline does not count).
    pub in_trait: bool,
}

/// For each line of Rust source `text` (split at `\n`), what it may
/// start: see [`LineStart`].
pub fn definable_lines(text: &str) -> Vec<LineStart> {
    let bytes = text.as_bytes();
    let mut lines = Vec::with_capacity(bytes.len() / 32);
    let mut scan = Scan::default();
    lines.push(scan.line_start());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            lines.push(scan.line_start());
            i += 1;
            continue;
        }
        i = scan.step(bytes, i);
    }
    lines
}

/// An open group of brackets, and what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Group {
    /// Brackets of any other kind.
    Plain,
    /// A function's body or a macro's token tree: items in it do not count.
    Hidden,
    /// A trait's body.
    Trait,
}

#[derive(Default)]
struct Scan {
    /// The open groups, innermost last.
    groups: Vec<Group>,
    /// The depth of nested block comments the scan is in.
    comment: usize,
    /// An open string's closing, `"` followed by this many `#`, and
    /// whether escapes count in it (not in a raw string).
    string: Option<(usize, bool)>,
    /// What a `fn`, `trait` or macro began at this depth, which the next
    /// `{` there opens (or for a macro, the next bracket of any kind).
    pending: Option<Pending>,
}

/// A group a word began and the next bracket opens.
#[derive(Clone, Copy)]
struct Pending {
    depth: usize,
    group: Group,
    /// Whether `(` and `[` open it too (a macro's token tree).
    any_bracket: bool,
}

impl Scan {
    fn line_start(&self) -> LineStart {
        let hidden = self.groups.contains(&Group::Hidden);
        LineStart {
            definable: self.comment == 0 && self.string.is_none() && !hidden,
            in_trait: self.groups.last() == Some(&Group::Trait),
        }
    }

    /// Reads the token at `i` (not a line feed); the offset past it.
    fn step(&mut self, bytes: &[u8], i: usize) -> usize {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        if self.comment > 0 {
            if b == b'*' && next == Some(b'/') {
                self.comment -= 1;
                return i + 2;
            }
            if b == b'/' && next == Some(b'*') {
                self.comment += 1;
                return i + 2;
            }
            return i + 1;
        }
        if let Some((hashes, escapes)) = self.string {
            if b == b'\\' && escapes {
                // The escaped character, unless it ends the line (the
                // caller counts the lines).
                return if next == Some(b'\n') {
                    i + 1
                } else {
                    (i + 2).min(bytes.len())
                };
            }
            if b == b'"'
                && bytes.len() >= i + 1 + hashes
                && bytes[i + 1..i + 1 + hashes].iter().all(|&h| h == b'#')
            {
                self.string = None;
                return i + 1 + hashes;
            }
            return i + 1;
        }
        match b {
            b'/' if next == Some(b'/') => {
                // To the line's end: the line feed is the caller's.
                let end = bytes[i..].iter().position(|&c| c == b'\n');
                end.map_or(bytes.len(), |end| i + end)
            }
            b'/' if next == Some(b'*') => {
                self.comment = 1;
                i + 2
            }
            b'"' => {
                self.string = Some((0, true));
                i + 1
            }
            b'\'' => char_or_lifetime(bytes, i),
            b'{' | b'(' | b'[' => {
                let group = match self.pending {
                    Some(p) if p.depth == self.groups.len() && (b == b'{' || p.any_bracket) => {
                        self.pending = None;
                        p.group
                    }
                    _ => Group::Plain,
                };
                self.groups.push(group);
                i + 1
            }
            b'}' | b')' | b']' => {
                self.groups.pop();
                // What began inside the closed group opens nothing after it.
                if self.pending.is_some_and(|p| p.depth > self.groups.len()) {
                    self.pending = None;
                }
                i + 1
            }
            b';' => {
                // `fn f();`: a signature without a body.
                if self.pending.is_some_and(|p| p.depth == self.groups.len()) {
                    self.pending = None;
                }
                i + 1
            }
            _ if b == b'_' || b.is_ascii_alphabetic() => self.word(bytes, i),
            _ => i + 1,
        }
    }

    /// Reads the identifier at `i`; the offset past it.
    fn word(&mut self, bytes: &[u8], i: usize) -> usize {
        let end = i + bytes[i..]
            .iter()
            .position(|&c| !(c == b'_' || c.is_ascii_alphanumeric()))
            .unwrap_or(bytes.len() - i);
        let word = &bytes[i..end];
        // Raw strings: r"…", r#"…"#, br"…", cr"…".
        if matches!(word, b"r" | b"br" | b"cr") {
            let hashes = bytes[end..].iter().take_while(|&&c| c == b'#').count();
            if bytes.get(end + hashes) == Some(&b'"') {
                self.string = Some((hashes, false));
                return end + hashes + 1;
            }
        }
        if matches!(word, b"b") && bytes.get(end) == Some(&b'\'') {
            return char_or_lifetime(bytes, end);
        }
        let depth = self.groups.len();
        // A `fn` inside what an outer item began (a parameter's type, as
        // in `fn apply(f: fn(u32))`) begins nothing of its own.
        if self.pending.is_some_and(|p| p.depth < depth) {
            return end;
        }
        let pending = |group, any_bracket| {
            Some(Pending {
                depth,
                group,
                any_bracket,
            })
        };
        match word {
            b"fn" => self.pending = pending(Group::Hidden, false),
            b"trait" => self.pending = pending(Group::Trait, false),
            // `name!` then a group: a macro's token tree (and
            // `macro_rules! name { … }`'s body).
            _ if bytes.get(end) == Some(&b'!') && bytes.get(end + 1) != Some(&b'=') => {
                self.pending = pending(Group::Hidden, true);
            }
            _ => {}
        }
        end
    }
}

/// The offset past a character literal (`'a'`, `'\n'`, `'é'`) or a
/// lifetime's quote (`'a`) at `i`.
fn char_or_lifetime(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i + 1) {
        Some(b'\\') => {
            // An escape (`'\''` escapes the quote itself): to the closing
            // quote after the escaped character, at most a few bytes on.
            let close = bytes
                .get(i + 3..)
                .unwrap_or_default()
                .iter()
                .take(12)
                .position(|&c| c == b'\'');
            close.map_or(i + 1, |close| i + 4 + close)
        }
        Some(&first) => {
            let width = match first {
                0x00..=0x7f => 1,
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                _ => 4,
            };
            if bytes.get(i + 1 + width) == Some(&b'\'') {
                i + 2 + width
            } else {
                i + 1
            }
        }
        None => i + 1,
    }
}

#[cfg(test)]
mod tests {
    use crate::rank::keywords::{Dialect, definitions_as};

    /// The scan's definitions, checked against tree-sitter's.
    fn definitions(text: &str) -> Vec<&str> {
        let names = definitions_as(text, Dialect::Rust);
        #[cfg(feature = "tree-sitter")]
        assert_eq!(
            Some(&names),
            crate::rank::keywords::tree_sitter_definitions("tide.rs", text).as_ref(),
            "tree-sitter's"
        );
        names
    }

    #[test]
    fn items_count_and_what_a_function_or_a_macro_holds_does_not() {
        let text = "pub(crate) const LIMIT: u32 = 1;\nstatic mut COUNT: u32 = 0;\npub const fn tide() -> u32 {\n    struct Local;\n    fn inner() {}\n    1\n}\nlazy_static! {\n    static ref TABLE: u32 = 2;\n}\nmacro_rules! ebb {\n    () => { fn hidden() {} };\n}\n#[cfg(test)] mod tests {\n    #[test] fn flood() {}\n}\n";
        assert_eq!(
            definitions(text),
            ["LIMIT", "COUNT", "tide", "ebb", "tests", "flood"]
        );
    }

    #[test]
    fn a_functions_type_opens_no_body() {
        let text = "struct Hook { call: fn(u32) -> u32 }\nmod tide {\n    impl Moon {\n        fn phase(&self) {}\n    }\n    type Call = fn();\n    fn apply(f: fn(u32), x: u32) {\n        struct Local;\n    }\n    struct Ebb;\n}\n";
        assert_eq!(
            definitions(text),
            ["Hook", "tide", "phase", "Call", "apply", "Ebb"]
        );
    }

    #[test]
    fn a_traits_type_is_no_item_and_an_impls_is() {
        let text = "pub trait Tide {\n    type Height;\n    const MAX: u32;\n    fn height(&self);\n}\nimpl Tide for Moon {\n    type Height = u32;\n    fn height(&self) {}\n}\n";
        assert_eq!(
            definitions(text),
            ["Tide", "MAX", "height", "Height", "height"]
        );
    }

    #[test]
    fn strings_chars_and_comments_hide_braces_and_lines() {
        let text = "const A: &str = \"{ \\\"\n fn not_code() {}\";\nconst B: char = '{';\nconst C: char = '\\'';\nfn lifetimes<'a>(x: &'a str) {}\n/* fn in_comment() {}\n/* nested */ fn still() {} */\nconst D: &str = r#\"\nfn raw() {}\"#;\nfn r#async() {}\nconst _: () = ();\nextern \"C\" fn ffi() {}\npub(in crate::kv) mod inner {}\n";
        assert_eq!(
            definitions(text),
            [
                "A",
                "B",
                "C",
                "lifetimes",
                "D",
                "r#async",
                "_",
                "ffi",
                "inner"
            ]
        );
    }
}

/// The scan's definitions of real Rust are tree-sitter's, name for name
/// and in order: every Rust file of this repository.
#[cfg(all(test, feature = "tree-sitter"))]
mod against_tree_sitter {
    use crate::rank::keywords::{Dialect, unlike_tree_sitter};
    use crate::test_corpus::{files_under, repository};

    #[test]
    fn definitions_are_tree_sitters() {
        let files = files_under(&repository(), "rs", &["target", ".git"]);
        assert!(files.len() > 300, "{} files", files.len());
        let differ = unlike_tree_sitter(&files, Dialect::Rust);
        assert!(
            differ.is_empty(),
            "{} of {} files differ: {differ:?}",
            differ.len(),
            files.len()
        );
    }
}
