//! [`logical_lines`]: Python source as its statements' lines and its
//! comment lines, found without a parse: what tells where the
//! definitions and blocks of a file are (the ranking's names, the
//! outlines).

/// One logical line of Python source: a statement's lines (joined by
/// open brackets, strings or backslashes), or a line holding only a
/// comment. Offsets are bytes of the text, rows count `\n`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogicalLine {
    /// Where its first line's indentation ends.
    pub start: usize,
    /// Where its first line ends (at its `\n` or the text's end).
    pub first_line_end: usize,
    /// Its indentation's width: a space counts one, a tab eight, a form
    /// feed starts it again (as tree-sitter's Python scanner counts).
    pub indent: usize,
    /// Its first and last rows.
    pub rows: (usize, usize),
    /// Where its content ends: past its last line's comment (trailing
    /// spaces and `\r` included, as a comment token has them), else past
    /// its last byte that is not whitespace.
    pub end: usize,
    /// The first `:` outside brackets, strings and comments that is not
    /// part of `:=`: where a compound statement's header ends.
    pub colon: Option<usize>,
    /// Whether the line holds only a comment.
    pub comment: bool,
}

/// The logical lines of `text` in order; blank lines have none.
pub fn logical_lines(text: &str) -> Vec<LogicalLine> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut state = Continuation::default();
    let mut open: Option<LogicalLine> = None;
    let mut line_start = 0;
    for (row, line) in text.split('\n').enumerate() {
        let line_end = line_start + line.len();
        let indent_end = line_start
            + line
                .bytes()
                .position(|b| !matches!(b, b' ' | b'\t' | b'\x0c'))
                .unwrap_or(line.len());
        let rest = &bytes[indent_end..line_end];
        if open.is_none() {
            let blank = rest.is_empty() || rest == b"\r";
            if !blank {
                let comment = rest[0] == b'#';
                let current = LogicalLine {
                    start: indent_end,
                    first_line_end: line_end,
                    indent: indentation(&bytes[line_start..indent_end]),
                    rows: (row, row),
                    end: line_end,
                    colon: None,
                    comment,
                };
                if comment {
                    lines.push(current);
                } else {
                    open = Some(current);
                }
            }
        }
        let read = state.read(rest, indent_end);
        if let Some(current) = open.as_mut() {
            current.rows.1 = row;
            if current.colon.is_none() {
                current.colon = read.colon;
            }
            current.end = if read.comment {
                line_end
            } else {
                read.code_end.unwrap_or(current.end)
            };
            if state.is_clear() {
                lines.extend(open.take());
            }
        }
        line_start = line_end + 1;
    }
    lines.extend(open);
    lines
}

/// The width of a line's indentation: a space counts one, a tab eight, a
/// form feed starts it again.
fn indentation(whitespace: &[u8]) -> usize {
    whitespace.iter().fold(0, |width, &b| match b {
        b'\t' => width + 8,
        b'\x0c' => 0,
        _ => width + 1,
    })
}

/// What one line holds outside strings, by byte offset in the text.
#[derive(Default)]
struct LineRead {
    /// Whether it ends in a comment.
    comment: bool,
    /// Past the last byte of code that is not whitespace.
    code_end: Option<usize>,
    /// The first `:` at bracket depth zero (not `:=`).
    colon: Option<usize>,
}

/// What a line leaves open for the next: a string, brackets, a backslash.
#[derive(Default)]
struct Continuation {
    /// The open string's quote and whether it is triple-quoted.
    string: Option<(u8, bool)>,
    /// How many brackets are open.
    depth: usize,
    /// Whether the line ended in a backslash outside a string.
    backslash: bool,
}

impl Continuation {
    /// Whether nothing is open: the next line starts a statement.
    fn is_clear(&self) -> bool {
        self.string.is_none() && self.depth == 0 && !self.backslash
    }

    /// Reads one line (without its `\n`) from where its indentation ends,
    /// at byte `offset` of the text.
    fn read(&mut self, line: &[u8], offset: usize) -> LineRead {
        let mut read = LineRead::default();
        self.backslash = false;
        let mut i = 0;
        while i < line.len() {
            let b = line[i];
            if let Some((quote, triple)) = self.string {
                read.code_end = Some(offset + i + 1);
                if b == b'\\' {
                    // An escape, even in a raw string, keeps the next
                    // character (a quote) in the string.
                    if i + 1 == line.len() {
                        self.backslash = !triple;
                    }
                    i += 2;
                    continue;
                }
                if b == quote && (!triple || line[i..].starts_with(&[quote; 3])) {
                    self.string = None;
                    i += if triple { 3 } else { 1 };
                    read.code_end = Some(offset + i);
                    continue;
                }
                i += 1;
                continue;
            }
            match b {
                b'#' => {
                    read.comment = true;
                    break;
                }
                b'\'' | b'"' => {
                    let triple = line[i..].starts_with(&[b; 3]);
                    self.string = Some((b, triple));
                    i += if triple { 3 } else { 1 };
                    read.code_end = Some(offset + i);
                    continue;
                }
                b'(' | b'[' | b'{' => self.depth += 1,
                b')' | b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                b'\\' if i + 1 == line.len() || line[i + 1..] == *b"\r" => {
                    self.backslash = true;
                }
                b':' if self.depth == 0
                    && read.colon.is_none()
                    && line.get(i + 1) != Some(&b'=') =>
                {
                    read.colon = Some(offset + i);
                }
                _ => {}
            }
            if !matches!(b, b' ' | b'\t' | b'\r' | b'\x0c' | b'\\') {
                read.code_end = Some(offset + i + 1);
            }
            i += 1;
        }
        // A single-quoted string ends with its line unless a backslash
        // continues it.
        if matches!(self.string, Some((_, false))) && !self.backslash {
            self.string = None;
        }
        read
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows, indentation, content, colon (from the start) and whether a
    /// comment: what a line says.
    type Said<'t> = ((usize, usize), usize, &'t str, Option<usize>, bool);

    fn lines(text: &str) -> Vec<Said<'_>> {
        logical_lines(text)
            .iter()
            .map(|l| {
                (
                    l.rows,
                    l.indent,
                    &text[l.start..l.end],
                    l.colon.map(|c| c - l.start),
                    l.comment,
                )
            })
            .collect()
    }

    #[test]
    fn statements_join_their_lines_and_comments_stand_alone() {
        let text = "def f(a,\n      b): # sig  \n\n\t# tab\n    x = {1: 2}  \r\n    if (n := 3): s = '''a\n# not\n'''\n";
        assert_eq!(
            lines(text),
            [
                ((0, 1), 0, "def f(a,\n      b): # sig  ", Some(17), false),
                ((3, 3), 8, "# tab", None, true),
                ((4, 4), 4, "x = {1: 2}", None, false),
                (
                    (5, 7),
                    4,
                    "if (n := 3): s = '''a\n# not\n'''",
                    Some(11),
                    false
                ),
            ]
        );
    }

    #[test]
    fn backslashes_and_single_quotes_continue_or_end_a_line() {
        let text = "x = 1 + \\\n  2\ns = 'a\\\nb'\nt = 'open\nu = 1\n";
        let rows: Vec<(usize, usize)> = logical_lines(text).iter().map(|l| l.rows).collect();
        assert_eq!(rows, [(0, 1), (2, 3), (4, 4), (5, 5)]);
    }
}
