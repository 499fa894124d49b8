//! Focused outlines: the part of a large file that matters, as a
//! sub-sequence of its lines.
//!
//! A file whose whole text does not fit the room it gets is carried as its
//! outline (every line outside function bodies) with the definitions that
//! matter most shown in full, best first, as far as the room goes. When
//! even the outline does not fit, the signature lines of the definitions
//! that matter come first (with the first and last lines of what encloses
//! them: the class, the `impl`, the namespace), then the other
//! definitions' signatures, outermost first. Each run of left-out lines
//! becomes one marker line naming its line numbers (`// … lines 40-92`),
//! after a first line that says how many lines are shown.

use std::fmt::Write as _;
use std::ops::Range;

/// A definition's lines in its file (0-based rows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span<'t> {
    /// The name it defines, a slice of the file's text.
    pub name: &'t str,
    /// Its first row.
    pub first: usize,
    /// Its last row.
    pub last: usize,
    /// The rows of its function body a skeleton leaves out (possibly
    /// empty); `None` for a definition without a body.
    pub body: Option<Range<usize>>,
    /// The first and last rows of the nodes enclosing it, sorted.
    pub context: Vec<usize>,
}

impl Span<'_> {
    /// Its signature rows: from its first row to its body, and its last.
    fn head(&self) -> impl Iterator<Item = usize> + '_ {
        let end = self.body.as_ref().map_or(self.first + 1, |b| b.start);
        (self.first..end.max(self.first + 1))
            .chain(std::iter::once(self.last))
            .chain(self.context.iter().copied())
    }
}

/// What a focused outline carries: its text and how many definitions it
/// shows in full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Focused {
    /// The outline, as it goes in the payload.
    pub text: String,
    /// Definitions shown in full, by name, best first.
    pub shown: Vec<String>,
}

/// The focused outline of `text` within `room` bytes (its marker lines
/// included), given its definitions `spans` and the `relevance` of each
/// (by position; `0.0` for none). Definitions that matter (a relevance
/// above zero and at least a tenth of the best) are shown in full, best
/// first, while they fit, after the outline takes at most half the room
/// when it has to be cut; `comment` starts the marker lines.
/// `None` when not even the first line fits.
pub fn focused(
    text: &str,
    spans: &[Span<'_>],
    relevance: &[f64],
    comment: &str,
    room: usize,
) -> Option<Focused> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut chosen = Chosen::new(&lines, comment);
    // A definition matters when it scores at least a tenth of the best
    // one: a term every definition holds (`return`) makes none stand out.
    let top = relevance.iter().copied().fold(0.0, f64::max);
    let matters = |i: usize| {
        relevance
            .get(i)
            .is_some_and(|&r| r > 0.0 && r >= top / 10.0)
    };
    let mut best: Vec<usize> = (0..spans.len()).filter(|&i| matters(i)).collect();
    best.sort_by(|&a, &b| relevance[b].total_cmp(&relevance[a]).then(a.cmp(&b)));

    let mut in_body = vec![false; lines.len()];
    for body in spans.iter().filter_map(|s| s.body.clone()) {
        for row in body.take_while(|&r| r < lines.len()) {
            in_body[row] = true;
        }
    }
    let outline: Vec<usize> = (0..lines.len()).filter(|&r| !in_body[r]).collect();
    // Signatures when the whole outline does not fit: of the definitions
    // that matter, then of the others, outermost (fewest enclosing rows)
    // first.
    let mut heads: Vec<usize> = (0..spans.len()).collect();
    heads.sort_by(|&a, &b| {
        let irrelevant = |i: usize| !matters(i);
        (irrelevant(a), spans[a].context.len())
            .cmp(&(irrelevant(b), spans[b].context.len()))
            .then(relevance_order(relevance, a, b))
            .then(a.cmp(&b))
    });
    let fill_outline = |chosen: &mut Chosen<'_>, room: usize| {
        if !chosen.try_add(outline.iter().copied(), room) {
            for &i in &heads {
                chosen.try_add(spans[i].head(), room);
            }
        }
    };
    fill_outline(&mut chosen, if best.is_empty() { room } else { room / 2 });
    let mut shown = Vec::new();
    for &i in &best {
        let span = &spans[i];
        if chosen.try_add(span.head().chain(span.first..=span.last), room) {
            shown.push(span.name.to_owned());
        }
    }
    fill_outline(&mut chosen, room);
    if !chosen.any() {
        return None;
    }
    Some(Focused {
        text: chosen.render(),
        shown,
    })
}

/// `a` before `b` when its relevance is higher.
fn relevance_order(relevance: &[f64], a: usize, b: usize) -> std::cmp::Ordering {
    let r = |i: usize| relevance.get(i).copied().unwrap_or(0.0);
    r(b).total_cmp(&r(a))
}

/// An upper bound of the first line's bytes.
const HEADER_BYTES: usize = 80;
/// An upper bound of a marker line's bytes for indentations up to 16
/// bytes.
const MARKER_BYTES: usize = 40;

/// The rows chosen so far, and a bound of their rendering's size kept as
/// rows are added (runs change only around the row that changes).
struct Chosen<'a> {
    lines: &'a [&'a str],
    comment: &'a str,
    kept: Vec<bool>,
    kept_bytes: usize,
    /// Runs of left-out rows.
    gaps: usize,
    /// Runs of kept rows.
    runs: usize,
}

impl<'a> Chosen<'a> {
    fn new(lines: &'a [&'a str], comment: &'a str) -> Self {
        Self {
            lines,
            comment,
            kept: vec![false; lines.len()],
            kept_bytes: 0,
            gaps: usize::from(!lines.is_empty()),
            runs: 0,
        }
    }

    fn any(&self) -> bool {
        self.runs > 0
    }

    /// The bound of the rendered size.
    fn bytes(&self) -> usize {
        HEADER_BYTES + self.kept_bytes + self.gaps * MARKER_BYTES
    }

    /// (Whether `row` starts a gap, whether it starts a run.)
    fn starts(&self, row: usize) -> (bool, bool) {
        let Some(&kept) = self.kept.get(row) else {
            return (false, false);
        };
        let after_kept = row > 0 && self.kept[row - 1];
        let after_gap = row > 0 && !self.kept[row - 1];
        (
            !kept && (row == 0 || after_kept),
            kept && (row == 0 || after_gap),
        )
    }

    fn set(&mut self, row: usize, kept: bool) {
        let count = |c: &Self| {
            let (g0, r0) = c.starts(row);
            let (g1, r1) = c.starts(row + 1);
            (
                usize::from(g0) + usize::from(g1),
                usize::from(r0) + usize::from(r1),
            )
        };
        let (gaps, runs) = count(self);
        self.kept[row] = kept;
        let (new_gaps, new_runs) = count(self);
        self.gaps = self.gaps + new_gaps - gaps;
        self.runs = self.runs + new_runs - runs;
        let bytes = self.lines[row].len() + usize::from(!self.lines[row].ends_with('\n'));
        if kept {
            self.kept_bytes += bytes;
        } else {
            self.kept_bytes -= bytes;
        }
    }

    /// Keeps `rows` (all of them, or none) if the rendering then takes at
    /// most `room` bytes; whether they are kept.
    fn try_add(&mut self, rows: impl Iterator<Item = usize>, room: usize) -> bool {
        let mut new: Vec<usize> = rows.filter(|&r| r < self.lines.len()).collect();
        new.sort_unstable();
        new.dedup();
        new.retain(|&r| !self.kept[r]);
        for &r in &new {
            self.set(r, true);
        }
        if self.bytes() <= room {
            return true;
        }
        for &r in new.iter().rev() {
            self.set(r, false);
        }
        false
    }

    /// The kept lines, each run of left-out lines as one marker line (runs
    /// of blank lines are dropped without one), after a first line saying
    /// how many lines of how many are shown.
    fn render(&self) -> String {
        let mut body = String::new();
        let mut row = 0;
        while row < self.lines.len() {
            let run_end = (row..self.lines.len())
                .find(|&r| self.kept[r] != self.kept[row])
                .unwrap_or(self.lines.len());
            if self.kept[row] {
                for line in &self.lines[row..run_end] {
                    body.push_str(line);
                    if !line.ends_with('\n') {
                        body.push('\n');
                    }
                }
            } else if let Some(first) = self.lines[row..run_end]
                .iter()
                .find(|l| !l.trim().is_empty())
            {
                let depth = first
                    .bytes()
                    .take_while(|b| matches!(b, b' ' | b'\t'))
                    .count();
                let indent = &first[..depth.min(16)];
                let _ = writeln!(
                    body,
                    "{indent}{} … {}",
                    self.comment,
                    lines_label(row + 1, run_end)
                );
            }
            row = run_end;
        }
        let shown = self.kept.iter().filter(|&&k| k).count();
        let mut out = format!(
            "{} outline of lines 1-{} ({shown} shown); `{} … lines a-b` marks lines left out\n",
            self.comment,
            self.lines.len(),
            self.comment,
        );
        out.push_str(&body);
        out
    }
}

/// `lines 3-9`, or `line 3`.
fn lines_label(first: usize, last: usize) -> String {
    if first == last {
        format!("line {first}")
    } else {
        format!("lines {first}-{last}")
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Three functions of five rows each (rows 0-4, 5-9, 10-14), bodies
    /// on rows 1-3, 6-8 and 11-13.
    fn three() -> (String, Vec<Span<'static>>) {
        let text: String = ["alpha", "beta", "gamma"]
            .iter()
            .map(|name| format!("fn {name}() {{\n    let a = 1;\n    let b = 2;\n    a + b\n}}\n"))
            .collect();
        let spans = ["alpha", "beta", "gamma"]
            .iter()
            .enumerate()
            .map(|(i, &name)| Span {
                name,
                first: 5 * i,
                last: 5 * i + 4,
                body: Some(5 * i + 1..5 * i + 4),
                context: Vec::new(),
            })
            .collect();
        (text, spans)
    }

    #[test]
    fn the_relevant_body_is_shown_and_the_others_are_marked() {
        let (text, spans) = three();
        let focused = focused(&text, &spans, &[0.0, 2.0, 0.0], "//", 10_000).unwrap();
        assert_eq!(focused.shown, ["beta"]);
        assert_eq!(
            focused.text,
            "// outline of lines 1-15 (9 shown); `// … lines a-b` marks lines left out\n\
             fn alpha() {\n    // … lines 2-4\n}\n\
             fn beta() {\n    let a = 1;\n    let b = 2;\n    a + b\n}\n\
             fn gamma() {\n    // … lines 12-14\n}\n"
        );
    }

    #[test]
    fn bodies_that_do_not_fit_stay_out_best_first() {
        let (text, spans) = three();
        let text = text.replace("let a = 1;", "let value = compute(1, 2, 3) + 42;");
        // Room for the outline and one body (and the bound's slack), not
        // two: a body adds about 50 bytes more than its marker.
        let one = focused(&text, &spans, &[0.0, 0.0, 3.0], "//", 10_000).unwrap();
        let focused = focused(&text, &spans, &[1.0, 0.0, 3.0], "//", one.text.len() + 40).unwrap();
        assert_eq!(focused.shown, ["gamma"]);
        assert!(
            focused.text.contains("fn alpha() {\n    // … lines 2-4\n}"),
            "{}",
            focused.text
        );
    }

    #[test]
    fn definitions_far_below_the_best_do_not_matter() {
        let (text, spans) = three();
        let focused = focused(&text, &spans, &[0.01, 0.01, 1.0], "//", 10_000).unwrap();
        assert_eq!(focused.shown, ["gamma"]);
    }

    #[test]
    fn nothing_fits_a_tiny_room() {
        let (text, spans) = three();
        assert_eq!(focused(&text, &spans, &[1.0; 3], "//", 10), None);
    }

    /// The rows of `text` and the marker lines in `outline`, in order.
    fn is_subsequence_with_markers(text: &str, outline: &str) -> bool {
        let rows: Vec<&str> = text.lines().collect();
        let mut next = 0;
        for line in outline.lines().skip(1) {
            if line.trim_start().starts_with("// … line") {
                continue;
            }
            match rows[next..].iter().position(|r| *r == line) {
                Some(at) => next += at + 1,
                None => return false,
            }
        }
        true
    }

    proptest! {
        #[test]
        fn a_focused_outline_is_the_files_rows_in_order_within_the_room(
            sizes in proptest::collection::vec((0usize..6, 0usize..6), 1..12),
            relevance in proptest::collection::vec(0.0f64..3.0, 12),
            room in 0usize..2_000,
        ) {
            // Functions with `head` extra signature rows and `body` body rows.
            let mut text = String::new();
            let mut spans = Vec::new();
            let mut row = 0;
            for (i, &(head, body)) in sizes.iter().enumerate() {
                let first = row;
                text.push_str(&format!("fn f{i}(\n"));
                text.push_str(&"    arg: u8,\n".repeat(head));
                text.push_str(") {\n");
                row += head + 2;
                let body_rows = row..row + body;
                for b in 0..body {
                    text.push_str(&format!("    step({i}, {b});\n"));
                }
                row += body;
                text.push_str("}\n\n");
                row += 2;
                spans.push(Span { name: "f", first, last: row - 2, body: Some(body_rows), context: Vec::new() });
            }
            if let Some(focused) = focused(&text, &spans, &relevance, "//", room) {
                prop_assert!(focused.text.len() <= room, "{} > {room}", focused.text.len());
                prop_assert!(is_subsequence_with_markers(&text, &focused.text), "{}", focused.text);
                for name in &focused.shown {
                    prop_assert_eq!(name, "f");
                }
            }
        }
    }
}
