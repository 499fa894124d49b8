//! Python's outline read from its lines and their indentation, without a
//! parse: the same [`Parsed`] tree-sitter's Python grammar gives for a
//! well-formed file (definitions, their rows, the rows of the blocks
//! around them, function bodies and their docstrings), about thirty times
//! faster. A file that is not laid out as the reading expects (an
//! unexpected indent, a clause without its statement, a `match`) gets
//! `None`, and is parsed.

use std::ops::Range;

use super::parsed::{Body, Parsed, ParsedSpan, body_rows, narrow, narrow_range};
use crate::python_lines::{LogicalLine, logical_lines};

/// What tree-sitter's Python grammar says of `text`, read without a
/// parse; `None` where the reading cannot be sure of it, or the text is
/// 4 GiB or more.
pub fn parse(text: &str) -> Option<Parsed> {
    u32::try_from(text.len()).ok()?;
    let mut reader: Reader<'_> = Reader {
        text,
        lines: logical_lines(text),
        at: 0,
        spans: Vec::new(),
        parsed: Parsed::default(),
        depth: 0,
    };
    while let Some(next) = reader.next_statement() {
        if reader.lines[next].indent != 0 {
            return None;
        }
        reader.at = next;
        reader.statement(0)?;
    }
    let mut parsed = reader.parsed;
    parsed.spans = reader
        .spans
        .into_iter()
        .map(|mut span| {
            span.context.sort_unstable();
            span.context.dedup();
            span
        })
        .collect();
    Some(parsed)
}

/// Where a node ends: a byte offset and its row.
#[derive(Clone, Copy)]
struct End {
    byte: usize,
    row: usize,
}

/// A block: its first statement's start, and its end.
struct Block {
    start: usize,
    row: usize,
    end: End,
    /// The logical line its first statement starts.
    first: LogicalLine,
}

/// The reading of one text.
struct Reader<'t> {
    text: &'t str,
    lines: Vec<LogicalLine>,
    /// The line read next.
    at: usize,
    spans: Vec<ParsedSpan>,
    parsed: Parsed,
    /// How many blocks the reading is inside.
    depth: usize,
}

/// The most blocks inside one another the reading follows (Python's own
/// parser allows 100 levels of indentation); a deeper file is parsed.
const MAX_DEPTH: usize = 100;

impl<'t> Reader<'t> {
    /// The first statement line at or after `at`.
    fn next_statement(&self) -> Option<usize> {
        (self.at..self.lines.len()).find(|&i| !self.lines[i].comment)
    }

    /// The words a line starts with: its first, and the one after `async`.
    fn keyword(&self, line: &LogicalLine) -> (&'t str, usize) {
        let head = &self.text[line.start..line.first_line_end];
        let first = word(head);
        if first == "async" {
            let rest = head[first.len()..].trim_start_matches([' ', '\t', '\x0c']);
            let second = word(rest);
            if matches!(second, "def" | "for" | "with") {
                return (second, head.len() - rest.len());
            }
        }
        (first, 0)
    }

    /// Closes a node that spans `rows`: when it spans more than one, its
    /// first and last rows are context of every span made since `mark`.
    fn close(&mut self, mark: usize, rows: (usize, usize)) {
        if rows.0 != rows.1 {
            for span in &mut self.spans[mark..] {
                span.context.extend([narrow(rows.0), narrow(rows.1)]);
            }
        }
    }

    /// Reads the statement at `at`, at indentation `indent`; returns its end.
    fn statement(&mut self, indent: usize) -> Option<End> {
        let line = self.lines[self.at];
        let (keyword, _) = self.keyword(&line);
        if self.text[line.start..].starts_with('@') {
            let mark = self.spans.len();
            while self.text[self.lines[self.at].start..].starts_with('@') {
                self.at += 1;
                self.at = self.next_statement()?;
                if self.lines[self.at].indent != indent {
                    return None;
                }
            }
            if !matches!(self.keyword(&self.lines[self.at]).0, "def" | "class") {
                return None;
            }
            let end = self.definition()?;
            self.close(mark, (line.rows.0, end.row));
            return Some(end);
        }
        let clauses: &[&str] = match keyword {
            "def" | "class" => return self.definition(),
            "if" => &["elif", "else"],
            "for" | "while" => &["else"],
            "try" => &["except", "else", "finally"],
            "with" => &[],
            "elif" | "else" | "except" | "finally" => return None,
            // A `match` statement (not an annotated name `match: str`).
            "match" | "case"
                if line.colon.is_some_and(|colon| {
                    !self.text[line.start + keyword.len()..colon]
                        .trim()
                        .is_empty()
                }) =>
            {
                return None;
            }
            _ => {
                self.at += 1;
                return Some(End {
                    byte: line.end,
                    row: line.rows.1,
                });
            }
        };
        let mark = self.spans.len();
        let mut end = self.enclosing_block(line)?;
        while let Some(next) = self.next_statement() {
            let clause = self.lines[next];
            if clause.indent != indent || !clauses.contains(&self.keyword(&clause).0) {
                break;
            }
            self.at = next;
            let inner = self.spans.len();
            end = self.enclosing_block(clause)?;
            self.close(inner, (clause.rows.0, end.row));
        }
        self.close(mark, (line.rows.0, end.row));
        Some(end)
    }

    /// Reads the `def` or `class` at `at`; returns its end.
    fn definition(&mut self) -> Option<End> {
        let line = self.lines[self.at];
        let (keyword, skip) = self.keyword(&line);
        let after = line.start + skip + keyword.len();
        let gap = self.text[after..line.first_line_end]
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\x0c'))
            .count();
        let name_start = after + gap;
        let name = self.text[name_start..line.first_line_end]
            .bytes()
            .take_while(|&b| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80)
            .count();
        if gap == 0 || name == 0 {
            return None;
        }
        let name = narrow_range(name_start..name_start + name);
        self.parsed.definitions.push(name.clone());
        let own = self.spans.len();
        self.spans.push(ParsedSpan {
            name,
            first: narrow(line.rows.0),
            ..ParsedSpan::default()
        });
        let function = keyword == "def";
        let block = self.block(line, function)?;
        let end = block.end;
        self.close(own + 1, (block.row, end.row));
        self.spans[own].last = narrow(end.row);
        if function {
            let rows = body_rows(self.text, block.start..end.byte, (block.row, end.row));
            self.spans[own].body = Some(narrow_range(rows));
            self.parsed.bodies.push(Body {
                bytes: narrow_range(block.start..end.byte),
                docstring: self.docstring(&block).map(narrow_range),
            });
        }
        self.close(own + 1, (line.rows.0, end.row));
        Some(end)
    }

    /// Reads the block of the compound statement or clause whose header
    /// is `header` (at `at`), outside a function, as [`Self::block`]; its
    /// rows are context of the spans it holds. Returns its end.
    fn enclosing_block(&mut self, header: LogicalLine) -> Option<End> {
        let mark = self.spans.len();
        let block = self.block(header, false)?;
        self.close(mark, (block.row, block.end.row));
        Some(block.end)
    }

    /// Reads the block of the compound statement or clause whose header
    /// is `header` (at `at`), leaving `at` past its last statement: only
    /// where it ends when it is a function's (what a function holds is
    /// not outlined).
    fn block(&mut self, header: LogicalLine, function: bool) -> Option<Block> {
        // Each block read is a call deeper: a hostile file of thousands
        // of nested blocks would run out of stack.
        if self.depth == MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let block = self.block_within(header, function);
        self.depth -= 1;
        block
    }

    /// [`Self::block`], within the depth limit.
    fn block_within(&mut self, header: LogicalLine, function: bool) -> Option<Block> {
        let colon = header.colon?;
        let inline = colon
            + 1
            + self.text[colon + 1..header.end]
                .bytes()
                .take_while(|b| matches!(b, b' ' | b'\t' | b'\x0c'))
                .count();
        self.at += 1;
        if inline < header.end && self.text.as_bytes()[inline] != b'#' {
            let row = header.rows.0 + self.text[header.start..inline].matches('\n').count();
            return Some(Block {
                start: inline,
                row,
                end: End {
                    byte: header.end,
                    row: header.rows.1,
                },
                first: header,
            });
        }
        let first = self.lines[self.next_statement()?];
        let indent = first.indent;
        if indent <= header.indent {
            return None;
        }
        let mut last = self.at;
        while let Some(next) = self.next_statement()
            && self.lines[next].indent >= indent
        {
            let line = self.lines[next];
            self.at = next;
            if function {
                self.at += 1;
            } else if line.indent > indent {
                return None;
            } else {
                self.statement(indent)?;
            }
            last = self.at;
        }
        // The lines of the block's last statement end at `last`; the
        // comments after them belong to it up to the first one indented
        // less (tree-sitter's scanner ends a block there).
        let mut end_line = self.lines[last - 1];
        for line in &self.lines[last..] {
            if !line.comment || line.indent < indent {
                break;
            }
            end_line = *line;
        }
        let end = End {
            byte: end_line.end,
            row: end_line.rows.1,
        };
        Some(Block {
            start: first.start,
            row: first.rows.0,
            end,
            first,
        })
    }

    /// The byte range of the docstring a function's `block` opens with:
    /// a string literal alone in its first statement.
    fn docstring(&self, block: &Block) -> Option<Range<usize>> {
        let bytes = self.text.as_bytes();
        let prefix = bytes[block.start..]
            .iter()
            .take_while(|b| b"rRbBuUfFtT".contains(b))
            .count();
        let quote_at = block.start + prefix;
        if prefix > 2 || !matches!(bytes.get(quote_at), Some(b'"' | b'\'')) {
            return None;
        }
        let end = string_end(bytes, quote_at)?;
        let statement_end = block.first.end.max(end);
        let rest = self.text[end..statement_end].trim_start_matches([' ', '\t', '\x0c']);
        (rest.is_empty() || rest.starts_with(['#', ';', ',', '\r'])).then_some(block.start..end)
    }
}

/// Past the end of the string literal whose opening quote is at `at`;
/// `None` if it does not close.
fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let quote = bytes[at];
    let triple = bytes[at..].starts_with(&[quote; 3]);
    let mut i = at + if triple { 3 } else { 1 };
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' if !triple => return None,
            b if b == quote && (!triple || bytes[i..].starts_with(&[quote; 3])) => {
                return Some(i + if triple { 3 } else { 1 });
            }
            _ => i += 1,
        }
    }
    None
}

/// The identifier `text` starts with (ASCII letters, digits and `_`).
fn word(text: &str) -> &str {
    let end = text
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || b == b'_'))
        .unwrap_or(text.len());
    &text[..end]
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::outline::MAX_OUTLINE_BYTES;
    use crate::outline::language::Language;
    use crate::outline::syntax;
    use crate::test_corpus::{files_under, python_modules};

    /// Where the reading and tree-sitter differ on `text`, if they do and
    /// tree-sitter reads it without an error (where it has one, its
    /// recovery is not what anyone should match).
    fn difference(text: &str) -> Option<String> {
        let read = parse(text)?;
        let parsed = syntax::parse(Language::Python, text).unwrap();
        if read == parsed || has_error(text) {
            return None;
        }
        let first = |a: &[ParsedSpan], b: &[ParsedSpan]| {
            let at = a.iter().zip(b).position(|(x, y)| x != y);
            at.map(|i| format!("{:?} / {:?}", a[i], b[i]))
        };
        Some(if read.definitions != parsed.definitions {
            format!(
                "definitions {:?} / {:?}",
                read.definitions, parsed.definitions
            )
        } else if read.bodies != parsed.bodies {
            format!("bodies {:?} / {:?}", read.bodies, parsed.bodies)
        } else {
            format!("spans {:?}", first(&read.spans, &parsed.spans))
        })
    }

    fn has_error(text: &str) -> bool {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&Language::Python.grammar()).unwrap();
        parser.parse(text, None).unwrap().root_node().has_error()
    }

    /// Reads `files`: how many the reading declined, and the differences.
    fn compare(files: &[PathBuf]) -> (usize, Vec<String>) {
        let texts: Vec<(&PathBuf, String)> = files
            .iter()
            .filter_map(|path| Some((path, std::fs::read_to_string(path).ok()?)))
            .collect();
        let declined = texts
            .iter()
            .filter(|(_, text)| parse(text).is_none())
            .count();
        let differ = texts
            .iter()
            .filter_map(|(path, text)| Some(format!("{}: {}", path.display(), difference(text)?)))
            .collect();
        (declined, differ)
    }

    /// The reading gives tree-sitter's outline, to the byte and row, of
    /// every module of CPython's standard library outside its tests and
    /// of this repository's scripts, and declines almost none.
    #[test]
    fn the_standard_library_reads_as_tree_sitter_parses_it() {
        let files = python_modules();
        let (declined, differ) = compare(&files);
        assert_eq!(differ, Vec::<String>::new());
        assert!(declined <= files.len() / 200, "{declined} declined");
    }

    /// The same, of the Python files under `BUDGET_PYTHON_TREE` (a
    /// survey of other code: `cargo test -p budget-pack --lib
    /// against_a_tree -- --ignored --nocapture`).
    #[test]
    #[ignore = "needs BUDGET_PYTHON_TREE"]
    fn against_a_tree() {
        let dir = std::env::var("BUDGET_PYTHON_TREE").expect("BUDGET_PYTHON_TREE");
        let files = files_under(Path::new(&dir), "py", &[]);
        let (declined, differ) = compare(&files);
        assert!(
            differ.is_empty(),
            "{} of {} files differ ({declined} declined): {differ:#?}",
            differ.len(),
            files.len()
        );
    }

    /// Checks the reading of `text` against tree-sitter's parse.
    fn as_tree_sitter(text: &str) {
        assert!(!has_error(text), "tree-sitter reads it: {text}");
        let read = parse(text).expect("read");
        assert_eq!(
            read,
            syntax::parse(Language::Python, text).unwrap(),
            "{text}"
        );
    }

    #[test]
    fn comments_after_a_block_belong_to_it_until_one_is_indented_less() {
        as_tree_sitter(
            "class A:\n    def f(self):\n        return 1   \n        # eight\n      # six\n  # two\n    # four\nx = 1\n",
        );
        as_tree_sitter("def f():\n    if x:\n        a\n    # c\n    else:\n        b\n# end\n");
        as_tree_sitter(
            "class C:\n    if x:\n        def f(): pass\n        # c\n    # d\n  # e\n    else:\n        pass\n",
        );
        as_tree_sitter("def k():\r\n    return 1 # crlf\r\n    # more\r\n\r\n");
    }

    #[test]
    fn one_line_bodies_end_with_their_line() {
        as_tree_sitter("def g(): pass;  \ndef h(): a = 1; b = 2 # c  \nclass C: x = 1\n");
        as_tree_sitter("def d(): \"doc\"; return 1\nif x: y = {1: 2}\nelse: z = lambda: 3\n");
    }

    #[test]
    fn decorators_clauses_and_blocks_are_context() {
        as_tree_sitter(
            "@d\n# between\n\n@e(1,\n   2)\nasync def m():\n    \"doc\", 1\n    x = (1,\n      2) # tail\n",
        );
        as_tree_sitter(
            "try:\n    import a\nexcept ImportError:\n    def k(): pass\n    class K:\n        def k(self):\n            pass\nelse:\n    pass\nfinally:\n    pass\nfor i in x:\n    def f(): pass\nelse:\n    with a as b, c:\n        class D: pass\n",
        );
    }

    #[test]
    fn docstrings_are_lone_string_literals() {
        as_tree_sitter(
            "def a():\n    r'''Raw.\n\n    More.'''\ndef b():\n    \"x\" \"y\"\ndef c():\n    \"x\".strip()\ndef d():\n    # first\n    f\"\"\"F.\"\"\"\n",
        );
    }

    #[test]
    fn what_it_cannot_be_sure_of_is_parsed() {
        assert_eq!(
            parse("match x:\n    case 1:\n        def f(): pass\n"),
            None
        );
        assert_eq!(parse("  x = 1\n"), None, "an indented first line");
        assert_eq!(
            parse("if x:\n        a\n    b\n"),
            None,
            "a dedent to no level"
        );
        assert_eq!(parse("else:\n    pass\n"), None);
        assert!(
            parse("match: str = 1\ncase = 2\n").is_some(),
            "names, not statements"
        );
        let nested = |levels: usize| {
            (0..levels)
                .map(|level| format!("{}if x:\n", " ".repeat(level)))
                .collect::<String>()
                + &" ".repeat(levels)
                + "pass\n"
        };
        assert!(parse(&nested(MAX_DEPTH)).is_some());
        // As deep as a file outlines may be (1 MiB) can nest, on a stack
        // of a worker's size: past the limit, declined, not a crash.
        let deep = nested(1_400);
        assert!(deep.len() <= MAX_OUTLINE_BYTES);
        let read = std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn(move || parse(&deep))
            .unwrap()
            .join();
        assert_eq!(read.unwrap(), None);
    }
}
