//! [`KeywordDefinitions`]: the names that follow a definition keyword
//! (`def`, `class`, `fn`, `struct`, `func`, …) in source text, found
//! among its [`identifiers`] so that one scan of a text gives both its
//! uses and its definitions; of Python and Rust, those their syntax
//! trees have ([`Dialect`]).

use super::identifiers::identifiers;
use super::role::{is_python, is_rust};
use super::{python_scopes, rust_scopes};

/// The line (from 0) of each of `names`, slices of `text` in order.
fn lines_of(text: &str, names: &[&str]) -> Vec<usize> {
    let start = text.as_ptr() as usize;
    let (mut line, mut counted) = (0, 0);
    names
        .iter()
        .map(|name| {
            let at = name.as_ptr() as usize - start;
            line += memchr::memchr_iter(b'\n', &text.as_bytes()[counted..at]).count();
            counted = at;
            line
        })
        .collect()
}

/// The words of the start of a Rust line before a keyword, each
/// attribute (`#[cfg(test)]`) and the path of a visibility
/// (`pub(in crate::kv)`) taken out, for the modifier test.
fn rust_modifiers(text: &str) -> String {
    let mut words = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '#' if depth == 0 && text[at..].starts_with("#[") => {
                chars.next();
                depth = 1;
                words.push(' ');
            }
            '(' if depth == 0 && text[..at].ends_with("pub") => {
                // `pub(crate)` and `pub(in path)` read as `pub`.
                depth = 1;
            }
            '[' | '(' if depth > 0 => depth += 1,
            ']' | ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    words.push(' ');
                }
            }
            _ if depth > 0 => {}
            c => words.push(c),
        }
    }
    words
}

/// The keywords after which the next word on the line is a defined name,
/// in the languages packed most (Python, Rust, JavaScript/TypeScript, Go,
/// Java/Kotlin/C#, C/C++, Ruby, shell).
const DEFINITION_KEYWORDS: [&str; 17] = [
    "class",
    "def",
    "enum",
    "fn",
    "fun",
    "func",
    "function",
    "interface",
    "macro_rules!",
    "mod",
    "module",
    "record",
    "struct",
    "trait",
    "type",
    "typedef",
    "union",
];

/// Words that may stand before a definition keyword on its line
/// (`pub fn`, `export default class`, `public final class`, `async def`);
/// a keyword after any other word is prose or an expression (`# the
/// class of`, `x = type(y)`), not a definition. Sorted.
const MODIFIERS: [&str; 22] = [
    "abstract",
    "async",
    "const",
    "data",
    "declare",
    "default",
    "export",
    "extern",
    "final",
    "inline",
    "internal",
    "open",
    "override",
    "partial",
    "private",
    "protected",
    "pub",
    "public",
    "sealed",
    "static",
    "unsafe",
    "virtual",
];

/// The longest start of a line, before a definition keyword, that is
/// looked through for [`MODIFIERS`] (bytes): indentation and a few of
/// them.
const MAX_MODIFIERS_BYTES: usize = 256;

/// Whether `word` (a whitespace-separated word) may stand before a
/// definition keyword: one of the [`MODIFIERS`], or a Rust visibility
/// (`pub(crate)`).
fn is_modifier(word: &str) -> bool {
    MODIFIERS.binary_search(&word).is_ok() || word.starts_with("pub(")
}

/// Bit `n` of entry `b`: a keyword whose identifier (`macro_rules` for
/// `macro_rules!`) is `n` bytes long starts with byte `b`. One load
/// rejects nearly every identifier of a text before any comparison.
const KEYWORD_SHAPES: [u16; 256] = {
    let mut shapes = [0u16; 256];
    let mut i = 0;
    while i < DEFINITION_KEYWORDS.len() {
        let word = DEFINITION_KEYWORDS[i].as_bytes();
        let identifier = word.len() - (word[word.len() - 1] == b'!') as usize;
        shapes[word[0] as usize] |= 1 << identifier;
        i += 1;
    }
    shapes
};

/// Whether `identifier` could start a definition keyword, by its first
/// byte and length alone ([`KEYWORD_SHAPES`]).
fn may_be_keyword(identifier: &str) -> bool {
    let Some(&first) = identifier.as_bytes().first() else {
        return false;
    };
    // Keywords are shorter than 16 bytes: bit 15 is never set.
    KEYWORD_SHAPES[usize::from(first)] >> identifier.len().min(15) & 1 == 1
}

/// Whether `word` is one of the [`DEFINITION_KEYWORDS`] (asked after
/// [`may_be_keyword`], which few identifiers pass).
fn is_definition_keyword(word: &str) -> bool {
    DEFINITION_KEYWORDS.contains(&word)
}

/// The names after a definition keyword in source code `text`, in order
/// (repeats kept): where a keyword is a whole word (between ASCII
/// whitespace) that starts its line or follows only [`MODIFIERS`], the
/// leading identifier of the next word on its line, if that word starts
/// with one. For Go's `func (r *Reader) Read(`, the name
/// after the receiver. The scan that finds them is [`KeywordDefinitions`].
#[cfg(test)]
pub fn keyword_definitions(text: &str) -> Vec<&str> {
    definitions_as(text, Dialect::Any)
}

/// The names [`KeywordDefinitions`] finds in `text` read as `dialect`.
#[cfg(test)]
pub fn definitions_as(text: &str, dialect: Dialect) -> Vec<&str> {
    let mut scan = KeywordDefinitions::new(text, dialect);
    for identifier in identifiers(text) {
        scan.see(identifier);
    }
    scan.into_names()
}

/// The names tree-sitter's outline of `text` (the file at `path`)
/// defines, in order.
#[cfg(all(test, feature = "tree-sitter"))]
pub fn tree_sitter_definitions<'t>(path: &str, text: &'t str) -> Option<Vec<&'t str>> {
    let parsed = crate::outline::parse(path, text)?;
    Some(
        parsed
            .definitions
            .iter()
            .map(|range| &text[range.start as usize..range.end as usize])
            .collect(),
    )
}

/// Those of `files` (readable, parsed) whose names read as `dialect` are
/// not tree-sitter's, name for name and in order.
#[cfg(all(test, feature = "tree-sitter"))]
pub fn unlike_tree_sitter(files: &[std::path::PathBuf], dialect: Dialect) -> Vec<String> {
    files
        .iter()
        .filter_map(|file| {
            let text = std::fs::read_to_string(file).ok()?;
            let path = file.to_string_lossy();
            let expected = tree_sitter_definitions(&path, &text)?;
            (definitions_as(&text, dialect) != expected).then(|| path.into_owned())
        })
        .collect()
}

/// The scan for the names after definition keywords (`fn`, `class`,
/// `def`, `func`, …), fed one identifier of its text at a time, in
/// order (slices of the text), so that the scan that counts a text's
/// identifiers finds them too.
#[derive(Debug)]
pub struct KeywordDefinitions<'t> {
    text: &'t str,
    /// Identifiers before this offset belong to a word already taken as a
    /// name.
    skip_until: usize,
    /// The names found so far.
    names: Vec<&'t str>,
    /// For Rust, whether each name follows `type`.
    types: Vec<bool>,
    dialect: Dialect,
}

/// How a text's definitions are told: by the keyword rule alone, or as
/// tree-sitter's outline of its language has them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// The keyword rule, any language.
    #[default]
    Any,
    /// Python: `def` and `class` only, outside function bodies
    /// ([`python_scopes`](super::python_scopes)).
    Python,
    /// Rust: `const` and `static` define too; nothing inside function
    /// bodies or macros, nor a trait's `type` ([`rust_scopes`]).
    Rust,
}

impl Dialect {
    /// The dialect of the file at `path`, by its extension.
    pub fn of(path: &str) -> Self {
        if is_python(path) {
            Self::Python
        } else if is_rust(path) {
            Self::Rust
        } else {
            Self::Any
        }
    }
}

impl<'t> KeywordDefinitions<'t> {
    /// A scan of `text`, read as `dialect`.
    pub fn new(text: &'t str, dialect: Dialect) -> Self {
        Self {
            text,
            skip_until: 0,
            names: Vec::new(),
            types: Vec::new(),
            dialect,
        }
    }

    /// The names found, in order: of Python and Rust, those their
    /// outlines have.
    pub fn into_names(self) -> Vec<&'t str> {
        if self.dialect == Dialect::Any || self.names.is_empty() {
            return self.names;
        }
        let lines = lines_of(self.text, &self.names);
        match self.dialect {
            Dialect::Python => {
                let definable = python_scopes::definable_lines(self.text);
                self.names
                    .into_iter()
                    .zip(lines)
                    .filter(|&(_, line)| definable.get(line).copied().unwrap_or(false))
                    .map(|(name, _)| name)
                    .collect()
            }
            Dialect::Rust | Dialect::Any => {
                let starts = rust_scopes::definable_lines(self.text);
                self.names
                    .into_iter()
                    .zip(lines)
                    .zip(self.types)
                    .filter(|&((_, line), is_type)| {
                        let start = starts.get(line).copied().unwrap_or_default();
                        start.definable && !(is_type && start.in_trait)
                    })
                    .map(|((name, _), _)| name)
                    .collect()
            }
        }
    }

    /// Takes the next identifier of the text, a slice of it.
    pub fn see(&mut self, identifier: &'t str) {
        let bytes = self.text.as_bytes();
        let start = identifier.as_ptr() as usize - self.text.as_ptr() as usize;
        // This runs on every identifier of every source file.
        let rust = self.dialect == Dialect::Rust;
        let rust_item = rust && matches!(identifier, "const" | "static");
        if !(may_be_keyword(identifier) || rust_item) {
            return;
        }
        // Common words of the keywords' shapes (`for`, `return`) end here.
        let keyword = rust_item || identifier == "macro_rules" || is_definition_keyword(identifier);
        if !keyword || start < self.skip_until {
            return;
        }
        if rust
            && !rust_item
            && !matches!(
                identifier,
                "enum" | "fn" | "macro_rules" | "mod" | "struct" | "trait" | "type" | "union"
            )
        {
            return;
        }
        if self.dialect == Dialect::Python && identifier != "def" && identifier != "class" {
            return;
        }
        let mut end = start + identifier.len();
        if identifier == "macro_rules" && bytes.get(end) == Some(&b'!') {
            end += 1;
        }
        let whole_word = (start == 0 || bytes[start - 1].is_ascii_whitespace())
            && bytes.get(end).is_none_or(u8::is_ascii_whitespace);
        if !whole_word || !(rust_item || is_definition_keyword(&self.text[start..end])) {
            return;
        }
        // Modifiers before a keyword are a few short words: a longer start
        // of its line is not looked through (a minified line holds
        // thousands of keywords).
        let back = start.min(MAX_MODIFIERS_BYTES + 1);
        let line_start = match bytes[start - back..start].iter().rposition(|&b| b == b'\n') {
            Some(at) => start - back + at + 1,
            None if start <= MAX_MODIFIERS_BYTES => 0,
            None => return,
        };
        let before = if rust {
            std::borrow::Cow::Owned(rust_modifiers(&self.text[line_start..start]))
        } else {
            std::borrow::Cow::Borrowed(&self.text[line_start..start])
        };
        if !before
            .split_ascii_whitespace()
            .all(|word| is_modifier(word) || rust && word.starts_with('"') && word.ends_with('"'))
        {
            return;
        }
        // The name is the next word on the same line.
        let next_start = end
            + bytes[end..]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
        if next_start == bytes.len() {
            self.skip_until = usize::MAX;
            return;
        }
        if bytes[end..next_start].contains(&b'\n') {
            return;
        }
        let next_end = next_start
            + bytes[next_start..]
                .iter()
                .take_while(|b| !b.is_ascii_whitespace())
                .count();
        self.skip_until = next_end;
        // ASCII whitespace and the text's ends are char boundaries.
        let mut next = &self.text[next_start..next_end];
        if identifier == "func" && next.starts_with('(') {
            let line_start = self.text[..next_start].rfind('\n').map_or(0, |s| s + 1);
            let line_end = self.text[next_start..]
                .find('\n')
                .map_or(self.text.len(), |e| next_start + e);
            let Some((_, after)) = self.text[line_start..line_end].split_once(')') else {
                return;
            };
            next = after.trim_start();
        }
        if rust_item && matches!(next, "fn" | "unsafe" | "async" | "extern") {
            // `const fn`: a modifier here; the `fn` comes next.
            self.skip_until = start + identifier.len();
            return;
        }
        if rust_item && next == "mut" {
            let after = &self.text[next_end..];
            let skipped = after.len() - after.trim_start().len();
            let word_end = after[skipped..]
                .find(|c: char| c.is_ascii_whitespace())
                .map_or(after.len(), |e| skipped + e);
            next = &after[skipped..word_end];
            self.skip_until = next_end + word_end;
        }
        let name = if self.dialect != Dialect::Any {
            // `def _(…)`, `const _: () = …;`: underscores alone make a
            // name; so does a raw identifier (`fn r#async`), all of it.
            let raw = if rust && next.starts_with("r#") { 2 } else { 0 };
            let end = raw
                + next[raw..]
                    .bytes()
                    .position(|b| !(b.is_ascii_alphanumeric() || b == b'_' || !b.is_ascii()))
                    .unwrap_or(next.len() - raw);
            Some(&next[..end]).filter(|name| name.len() > raw)
        } else {
            identifiers(next)
                .next()
                .filter(|name| next.starts_with(name))
        };
        if let Some(name) = name {
            self.names.push(name);
            if rust {
                self.types.push(identifier == "type");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule stated line by line: each keyword that is a whole word,
    /// with only modifiers before it on its line, takes the next word of
    /// its line, if any, as its name's word.
    fn by_lines(text: &str) -> Vec<&str> {
        let mut names = Vec::new();
        for line in text.split('\n') {
            let words: Vec<&str> = line.split_ascii_whitespace().collect();
            let mut i = 0;
            while i < words.len() {
                let first = words[..i].iter().all(|w| is_modifier(w))
                    && offset(line, words[i]) <= MAX_MODIFIERS_BYTES;
                if !first || !is_definition_keyword(words[i]) || i + 1 == words.len() {
                    i += 1;
                    continue;
                }
                let mut next = words[i + 1];
                i += 2;
                if words[i - 2] == "func" && next.starts_with('(') {
                    let Some((_, after)) = line.split_once(')') else {
                        continue;
                    };
                    next = after.trim_start();
                }
                let name = next
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || !c.is_ascii()))
                    .find(|run| run.chars().any(char::is_alphanumeric));
                if let Some(name) = name.filter(|name| next.starts_with(name)) {
                    names.push(name);
                }
            }
        }
        names
    }

    /// Where in `line` its word `word` (a slice of it) starts, in bytes.
    fn offset(line: &str, word: &str) -> usize {
        word.as_ptr() as usize - line.as_ptr() as usize
    }

    #[test]
    fn every_keyword_passes_the_shape_filter_and_the_match() {
        for keyword in DEFINITION_KEYWORDS {
            assert!(is_definition_keyword(keyword), "{keyword}");
            let identifier = keyword.trim_end_matches('!');
            assert!(may_be_keyword(identifier), "{keyword}");
        }
        for other in [
            "self", "return", "clas", "classes", "d", "", "x", "typedefs",
        ] {
            assert!(!is_definition_keyword(other), "{other}");
        }
        assert!(!may_be_keyword("self") && !may_be_keyword("while"));
    }

    #[test]
    fn names_follow_keywords_on_their_line() {
        let text = "class Foo(Base):\n    def bar(self): pass\nfn baz<T>() {}\n\
                    macro_rules! m { }\nfunc (r *Reader) Read(p []byte)\n\
                    typedef struct Pair pair;\nx.def y\ndef\nz\nstruct *p";
        assert_eq!(
            keyword_definitions(text),
            ["Foo", "bar", "baz", "m", "Read", "struct"]
        );
    }

    #[test]
    fn keywords_in_prose_or_expressions_define_nothing() {
        let text = "# The class of a request, and the type of its body.\n\
                    x = type(y) # a function that returns\n\
                    \"\"\"Return the struct for the module index.\"\"\"\n\
                    pub(crate) async fn fetch() {}\n\
                    export default class Client {}\n\
                    public static final class Holder {}\n    async def main(): pass\n";
        assert_eq!(
            keyword_definitions(text),
            ["fetch", "Client", "Holder", "main"]
        );
    }

    #[test]
    fn a_keyword_far_into_its_line_is_not_looked_back_from() {
        // A minified line: every `function` is deep into it.
        let line = "function f(){}; ".repeat(20_000);
        let text = format!("{line}\nfunction tide() {{}}\n");
        assert_eq!(keyword_definitions(&text), ["f", "tide"]);
        let deep = |indent: usize| format!("\n{}fn deep() {{}}\n", " ".repeat(indent));
        assert_eq!(keyword_definitions(&deep(MAX_MODIFIERS_BYTES)), ["deep"]);
        assert!(keyword_definitions(&deep(MAX_MODIFIERS_BYTES + 1)).is_empty());
    }

    #[test]
    fn modifiers_are_sorted_for_binary_search() {
        assert!(MODIFIERS.windows(2).all(|w| w[0] < w[1]));
    }

    proptest::proptest! {
        #[test]
        fn keyword_definitions_follow_the_rule_line_by_line(
            parts in proptest::collection::vec(
                "def|class|func|fn|struct|macro_rules!|typedef|pub|pub\\(crate\\)|async| {100}|x_1|é|\\(|\\)|\\*|\\.|:| |\t|\n|\r",
                0..40,
            )
        ) {
            let text = parts.concat();
            proptest::prop_assert_eq!(keyword_definitions(&text), by_lines(&text));
        }
    }
}
