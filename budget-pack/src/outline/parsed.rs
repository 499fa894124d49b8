//! [`Parsed`]: what a file's syntax tree says, as offsets and rows of its
//! text, from which its [`Outline`] is made: all a run keeps of a parse
//! (never text), so that a later run of the same text need not parse it.

use std::borrow::Cow;
use std::ops::Range;

use super::focus::Span;
use super::{Outline, saves_enough};

/// A file's definitions and function bodies, by position in its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The byte ranges of the names it defines, in source order.
    pub definitions: Vec<Range<u32>>,
    /// Its definitions' rows (see [`Span`]), the name as a byte range.
    pub spans: Vec<ParsedSpan>,
    /// The function bodies a skeleton leaves out, sorted by start.
    pub bodies: Vec<Body>,
}

/// A [`Span`] with its name as a byte range and its rows as `u32`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedSpan {
    /// The byte range of its name.
    pub name: Range<u32>,
    /// Its first row.
    pub first: u32,
    /// Its last row.
    pub last: u32,
    /// The rows of its body a skeleton leaves out, if it has a body.
    pub body: Option<Range<u32>>,
    /// The first and last rows of the nodes around it, sorted.
    pub context: Vec<u32>,
}

/// A function body a skeleton leaves out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Body {
    /// Its byte range.
    pub bytes: Range<u32>,
    /// The byte range of its docstring (Python), if it opens with one.
    pub docstring: Option<Range<u32>>,
}

/// `range` as a `usize` range.
fn wide(range: &Range<u32>) -> Range<usize> {
    range.start as usize..range.end as usize
}

/// An offset or row of a text under 4 GiB as a `u32`.
#[cfg(feature = "tree-sitter")]
pub fn narrow(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A range of a text under 4 GiB as a `u32` range.
#[cfg(feature = "tree-sitter")]
pub fn narrow_range(range: Range<usize>) -> Range<u32> {
    narrow(range.start)..narrow(range.end)
}

impl Parsed {
    /// The outline of `text` (Python when `python`), if every offset is
    /// one of it (those a damaged cache gives may not be).
    pub fn outline<'t>(&self, python: bool, text: &'t str) -> Option<Outline<'t>> {
        let definitions = self
            .definitions
            .iter()
            .map(|range| text.get(wide(range)))
            .collect::<Option<Vec<&str>>>()?;
        let spans = self
            .spans
            .iter()
            .map(|span| {
                Some(Span {
                    name: text.get(wide(&span.name))?,
                    first: span.first as usize,
                    last: span.last as usize,
                    body: span.body.as_ref().map(wide),
                    context: span.context.iter().map(|&row| row as usize).collect(),
                })
            })
            .collect::<Option<Vec<Span<'t>>>>()?;
        let skeleton = skeleton(python, text, &self.bodies)?;
        Some(Outline {
            definitions,
            skeleton: Some(skeleton).filter(|s| saves_enough(s, text)),
            spans,
            comment: if python { "#" } else { "//" },
        })
    }
}

/// The rows a left-out body (`bytes` of `text`, on `rows`, first and
/// last) takes on its own (half-open, possibly empty): every row it
/// spans, but the first when something precedes the body on it or it
/// holds only the opener (`{`), and the last when something follows the
/// body on it or it holds only the closer (`}`).
#[cfg(feature = "tree-sitter")]
pub fn body_rows(text: &str, bytes: Range<usize>, rows: (usize, usize)) -> Range<usize> {
    // Each test reads from the body's ends only as far as it must: a
    // minified file is one line of thousands of bodies.
    let (before, inside, after) = (
        &text[..bytes.start],
        &text[bytes.clone()],
        &text[bytes.end..],
    );
    let own_first = blank(before.chars().rev()) && more_than_a_byte(inside.chars());
    let own_last = blank(after.chars()) && more_than_a_byte(inside.chars().rev());
    let first = rows.0 + usize::from(!own_first);
    let past = rows.1 + usize::from(own_last);
    first..past.max(first)
}

/// Whether the characters of `line`, read up to its end (a line feed),
/// are all whitespace.
#[cfg(feature = "tree-sitter")]
fn blank(line: impl Iterator<Item = char>) -> bool {
    line.take_while(|&c| c != '\n').all(char::is_whitespace)
}

/// Whether the characters of `line`, read up to its end (a line feed),
/// trimmed of whitespace, are more than one byte long: more than an
/// opener (`{`) or a closer (`}`).
#[cfg(feature = "tree-sitter")]
fn more_than_a_byte(line: impl Iterator<Item = char>) -> bool {
    let mut text = line
        .take_while(|&c| c != '\n')
        .filter(|c| !c.is_whitespace());
    match text.next() {
        Some(first) => first.len_utf8() > 1 || text.next().is_some(),
        None => false,
    }
}

/// `text` with each of `bodies` (sorted; one that overlaps the one before
/// is passed over) replaced by its elision: `{ … }`, or in Python the
/// docstring's first paragraph and `...`.
fn skeleton(python: bool, text: &str, bodies: &[Body]) -> Option<String> {
    let mut out = String::with_capacity(text.len() / 2);
    let mut copied = 0;
    for body in bodies {
        let range = wide(&body.bytes);
        if range.start < copied {
            continue;
        }
        out.push_str(text.get(copied..range.start)?);
        if python {
            python_body(&mut out, body, text)?;
        } else {
            out.push_str("{ … }");
        }
        copied = range.end;
    }
    out.push_str(text.get(copied..)?);
    Some(out)
}

/// A Python body left out: its docstring's first paragraph, if it has a
/// docstring, then `...` on the body's indentation.
fn python_body(out: &mut String, body: &Body, text: &str) -> Option<()> {
    let start = body.bytes.start as usize;
    // The body's indentation: what precedes it on its line, when that is
    // all whitespace (read back only that far: a line may be long).
    let before = text.get(..start)?;
    let indent_start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| c == '\n' || !c.is_whitespace());
    let indent = match indent_start {
        Some((at, '\n')) => &before[at + 1..],
        Some(_) => "",
        None => before,
    };
    match &body.docstring {
        Some(docstring) => {
            out.push_str(first_paragraph(text.get(wide(docstring))?, indent).as_ref());
            out.push('\n');
            out.push_str(indent);
            out.push_str("...");
        }
        None => out.push_str("..."),
    }
    Some(())
}

/// A docstring cut after its first paragraph, closed with its own quotes.
fn first_paragraph<'d>(docstring: &'d str, indent: &str) -> Cow<'d, str> {
    let quotes = ["\"\"\"", "'''"]
        .into_iter()
        .find(|q| docstring.ends_with(q) && docstring.len() >= 6);
    let Some(quotes) = quotes else {
        return docstring.into();
    };
    let blank = docstring.match_indices('\n').map(|(i, _)| i).find(|&i| {
        docstring[i + 1..]
            .trim_start_matches([' ', '\t'])
            .starts_with('\n')
    });
    match blank {
        Some(cut) if cut + quotes.len() < docstring.len() - quotes.len() => {
            format!("{}\n{indent}{quotes}", docstring[..cut].trim_end()).into()
        }
        _ => docstring.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_outside_the_text_give_no_outline() {
        let text = "fn a() { 1 }\n";
        let good = Parsed {
            definitions: std::iter::once(3..4).collect(),
            spans: Vec::new(),
            bodies: vec![Body {
                bytes: 7..12,
                docstring: None,
            }],
        };
        let outline = good.outline(false, text).unwrap();
        assert_eq!(outline.definitions, ["a"]);
        let mut past_end = good.clone();
        past_end.definitions = std::iter::once(3..40).collect();
        assert_eq!(past_end.outline(false, text), None);
        let mut inside_a_character = good;
        inside_a_character.bodies[0].bytes = 7..12;
        assert_eq!(
            inside_a_character
                .outline(false, "fn é() { 1 }\n")
                .map(|o| o.definitions),
            None
        );
    }
}
