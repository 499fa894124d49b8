//! The Markdown format, and its building blocks: fences, code spans,
//! one-line text, table cells and fence languages.
//!
//! The document is up to seven sections in this order, separated by one
//! empty line: `## TREE` (when asked for), `## META`, `## SUMMARY`,
//! `## RAW`, `## SKELETON` (when an item is carried as its skeleton),
//! `## LINKED`, `## Fingerprint` (META and the fingerprint unless turned
//! off).

use std::borrow::Cow;
use std::fmt::Write;

use crate::estimate::ContentType;
use crate::model::Tier;
use crate::payload::Fingerprint;
use crate::payload::render::{Entry, Overview, Render, SummaryDetail, count, score_text};

/// The Markdown renderer.
pub(crate) struct Markdown;

/// Writes `entries` with `write`, or `_None._` when there are none.
fn entries<E>(out: &mut String, entries: &[E], separator: &str, write: impl Fn(&mut String, &E)) {
    if entries.is_empty() {
        out.push_str("_None._\n");
    }
    for (index, entry) in entries.iter().enumerate() {
        if index > 0 {
            out.push_str(separator);
        }
        write(out, entry);
    }
}

/// ` (lines a-b)` or ` (line a)`.
fn push_lines(out: &mut String, entry: &Entry<'_>) {
    match &entry.lines {
        Some(lines) if lines.end() > lines.start() => {
            let _ = write!(out, " (lines {}-{})", lines.start(), lines.end());
        }
        Some(lines) => {
            let _ = write!(out, " (line {})", lines.start());
        }
        None => {}
    }
}

/// Heading (with the line range when `lines`), description, fenced
/// content (only the fences without `with_content`).
fn block(out: &mut String, entry: &Entry<'_>, content: &str, with_content: bool, lines: bool) {
    out.push_str("### ");
    code_span(out, &entry.source);
    if lines {
        push_lines(out, entry);
    }
    out.push('\n');
    if let Some(description) = &entry.gist {
        out.push('\n');
        out.push_str(description);
        out.push('\n');
    }
    let fence = fence_for(content);
    let _ = writeln!(out, "\n{fence}{}", entry.language);
    if with_content {
        out.push_str(content);
        if !content.is_empty() && !content.ends_with('\n') {
            out.push('\n');
        }
    }
    out.push_str(&fence);
    out.push('\n');
}

impl Render for Markdown {
    /// Heading, description, fenced content.
    fn raw_entry(&self, out: &mut String, entry: &Entry<'_>, content: &str, with_content: bool) {
        block(out, entry, content, with_content, false);
    }

    /// Heading with the full text's line range, description, fenced skeleton.
    fn skeleton_entry(
        &self,
        out: &mut String,
        entry: &Entry<'_>,
        skeleton: &str,
        with_content: bool,
    ) {
        block(out, entry, skeleton, with_content, true);
    }

    /// Source, line range, description and size (`Fetch:` before the
    /// size with `fetch`).
    fn linked_entry(&self, out: &mut String, entry: &Entry<'_>, tokens: u64, fetch: bool) {
        out.push_str("- ");
        code_span(out, &entry.source);
        push_lines(out, entry);
        let fetch = if fetch { "Fetch: " } else { "" };
        match &entry.gist {
            // One full stop after a description that ends a sentence.
            Some(description) if description.ends_with(['.', '!', '?']) => {
                let _ = writeln!(out, ": {description} {fetch}{tokens} tokens.");
            }
            Some(description) => {
                let _ = writeln!(out, ": {description}. {fetch}{tokens} tokens.");
            }
            None => {
                let _ = writeln!(out, ". {fetch}{tokens} tokens.");
            }
        }
    }

    fn tree(&self, out: &mut String, tree: &str) {
        out.push_str("## TREE\n\n");
        let fence = fence_for(tree);
        let _ = write!(out, "{fence}text\n{tree}{fence}\n");
    }

    /// Source, line range, gist, score.
    fn mention_entry(&self, out: &mut String, entry: &Entry<'_>) {
        out.push_str("- ");
        code_span(out, &entry.source);
        push_lines(out, entry);
        if let Some(gist) = &entry.gist {
            let _ = write!(out, ": {gist}");
        }
        let _ = writeln!(out, " (score {})", score_text(entry.score));
    }

    fn meta(&self, out: &mut String, o: &Overview<'_>) {
        let b = o.budget;
        out.push_str("## META\n\n");
        let _ = writeln!(
            out,
            "- Budget: {} tokens. META {}; SUMMARY {}/{}, LINKED {}/{}, {} {}/{} (effective/nominal, headroom {}%).",
            b.total(),
            b.meta(),
            b.effective(Tier::Summary),
            b.nominal(Tier::Summary),
            b.effective(Tier::Linked),
            b.nominal(Tier::Linked),
            if o.skeletons {
                "RAW and SKELETON"
            } else {
                "RAW"
            },
            b.effective(Tier::Raw),
            b.nominal(Tier::Raw),
            b.headroom_percent(),
        );
        let _ = write!(
            out,
            "- Items: {}; RAW {}, ",
            count(o.candidates, "candidate", "candidates"),
            o.raw,
        );
        if o.skeletons {
            let _ = write!(out, "SKELETON {}, ", o.skeleton);
        }
        let _ = writeln!(
            out,
            "LINKED {}, SUMMARY {}, omitted {}; {}.",
            o.linked,
            o.summary,
            o.omitted,
            count(o.demotions, "demotion", "demotions"),
        );
    }

    fn summary(&self, out: &mut String, o: &Overview<'_>, mentioned: &[Entry<'_>]) {
        out.push_str("## SUMMARY\n\n");
        let _ = write!(
            out,
            "{}: {} in full (RAW), ",
            count(o.candidates, "candidate", "candidates"),
            o.raw,
        );
        if o.skeletons {
            let _ = write!(out, "{} outlined (SKELETON), ", o.skeleton);
        }
        let _ = writeln!(
            out,
            "{} linked (LINKED), {} mentioned here (SUMMARY), {} omitted.\n",
            o.linked, o.summary, o.omitted,
        );
        if o.detail == SummaryDetail::Line {
            out.push_str("Mentioned:\n\n");
            entries(out, mentioned, "", |out, entry| {
                self.mention_entry(out, entry)
            });
            return;
        }
        out.push_str("| Tier | Section | Tokens | Why included |\n| --- | --- | --- | --- |\n");
        for tier in o.tiers() {
            let why = match tier {
                Tier::Raw => "carried in full",
                Tier::Skeleton => {
                    "signatures and doc comments, bodies left out; shares RAW's limit"
                }
                Tier::Linked => "listed with link, description and size",
                Tier::Summary => "mentioned below",
            };
            let t = o.tally.tier(tier);
            let _ = writeln!(
                out,
                "| {tier} | `## {tier}` | {} of {} | {}, {} |",
                t.used,
                t.limit,
                count(o.items_in(tier), "item", "items"),
                table_cell(why)
            );
        }
        if o.detail == SummaryDetail::Map {
            out.push_str("\nMentioned:\n\n");
            entries(out, mentioned, "", |out, entry| {
                self.mention_entry(out, entry)
            });
            return;
        }
        out.push_str("\nKey findings:\n\n");
        match &o.top {
            Some((entry, state)) => {
                out.push_str("- Top-ranked item: ");
                code_span(out, &entry.source);
                let _ = writeln!(out, " (score {}, {state}).", score_text(entry.score));
            }
            None => out.push_str("- No item made it into the payload.\n"),
        }
        let _ = writeln!(
            out,
            "- {}; {} omitted.",
            count(o.demotions, "demotion", "demotions"),
            count(o.omitted, "item", "items")
        );
        out.push_str("\nMentioned:\n\n");
        entries(out, mentioned, "", |out, entry| {
            self.mention_entry(out, entry)
        });
    }

    fn raw(&self, out: &mut String, raw: &[(Entry<'_>, Cow<'_, str>)]) {
        out.push_str("## RAW\n\n");
        entries(out, raw, "\n", |out, (entry, content)| {
            self.raw_entry(out, entry, content, true);
        });
    }

    fn skeleton(&self, out: &mut String, skeletons: &[(Entry<'_>, Cow<'_, str>)]) {
        out.push_str(
            "## SKELETON\n\nOutlines: signatures, types and doc comments, with the bodies left out.\n\n",
        );
        entries(out, skeletons, "\n", |out, (entry, skeleton)| {
            self.skeleton_entry(out, entry, skeleton, true);
        });
    }

    fn linked(&self, out: &mut String, linked: &[(Entry<'_>, u64)], fetch: bool) {
        out.push_str("## LINKED\n\n");
        entries(out, linked, "", |out, (entry, tokens)| {
            self.linked_entry(out, entry, *tokens, fetch);
        });
    }

    fn join(&self, sections: &[(&str, &str)]) -> String {
        let mut doc =
            String::with_capacity(sections.iter().map(|s| s.1.len() + 1).sum::<usize>() + 1_024);
        for (_, section) in sections {
            doc.push_str(section);
            doc.push('\n');
        }
        doc
    }

    fn finish(&self, out: &mut String, fingerprint: Option<&Fingerprint>) {
        let Some(fingerprint) = fingerprint else {
            // No empty line after the last section.
            out.pop();
            return;
        };
        out.push_str("## Fingerprint\n\n");
        out.push_str(
            "SHA-256: sections from heading to last newline; sources sorted, one per line; payload = all bytes before this section.\n\n",
        );
        for (name, digest) in fingerprint.digests() {
            let _ = writeln!(out, "- {name}: `{digest}`");
        }
    }
}

/// The longest run of consecutive backticks in `text`.
pub(crate) fn longest_backtick_run(text: &str) -> usize {
    // Jumps from backtick to backtick (`find` searches with memchr): most
    // contents hold few or none, and every fragment costed scans its content.
    let mut longest = 0;
    let mut rest = text;
    while let Some(start) = rest.find('`') {
        let run = rest[start..].bytes().take_while(|&b| b == b'`').count();
        longest = longest.max(run);
        rest = &rest[start + run..];
    }
    longest
}

/// The backtick fence for a fenced block of `content`: three backticks, or
/// one more than the longest run inside the content, whichever is longer.
pub(crate) fn fence_for(content: &str) -> String {
    "`".repeat((longest_backtick_run(content) + 1).max(3))
}

/// `text` on one line: every run of spaces, control characters (newlines
/// and tabs included) and Unicode line or paragraph separators becomes one
/// space, and the ends are trimmed.
pub(crate) fn one_line(text: &str) -> Cow<'_, str> {
    if is_clean_line(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for word in words(text) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    Cow::Owned(out)
}

/// The words [`one_line`] joins with single spaces: the runs of `text`
/// between spaces and break characters (controls, U+2028, U+2029).
pub(crate) fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c == ' ' || is_break(c))
        .filter(|word| !word.is_empty())
}

/// Whether `c` breaks a line for [`one_line`]: a control character (line
/// feeds and tabs included) or a Unicode line or paragraph separator.
fn is_break(c: char) -> bool {
    c.is_control() || c == '\u{2028}' || c == '\u{2029}'
}

/// Whether [`one_line`] would return `text` unchanged: no break characters,
/// no double spaces, no space at either end. A byte scan for ASCII text.
fn is_clean_line(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.first() == Some(&b' ') || bytes.last() == Some(&b' ') {
        return false;
    }
    if !bytes.is_ascii() {
        // C1 controls and U+2028 / U+2029 are breaks too.
        return !text.chars().any(is_break) && !text.contains("  ");
    }
    // Folds without an early exit, which the compiler turns into wide
    // compares: every entry's link and description pass here, again for
    // each tier an item is offered to.
    let control = bytes
        .iter()
        .fold(false, |found, &byte| found | (byte < 0x20) | (byte == 0x7f));
    let double_space = bytes
        .iter()
        .zip(bytes.iter().skip(1))
        .fold(false, |found, (&a, &b)| found | (a == b' ') & (b == b' '));
    !control && !double_space
}

/// `text` as an inline code span, on one line: delimited by one backtick
/// more than its longest backtick run, padded with a space when it starts
/// or ends with a backtick (CommonMark strips one such space each side).
pub(crate) fn code_span(out: &mut String, text: &str) {
    let text = one_line(text);
    let ticks = "`".repeat(longest_backtick_run(&text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    let _ = write!(out, "{ticks}{pad}{text}{pad}{ticks}");
}

/// `text` as a table cell: one line, with `|` escaped.
pub(crate) fn table_cell(text: &str) -> Cow<'_, str> {
    let line = one_line(text);
    if line.contains('|') {
        Cow::Owned(line.replace('|', "\\|"))
    } else {
        line
    }
}

/// The info string of a fenced block: the language named by the link's
/// file extension when it is a known one, otherwise one derived from the
/// content type (`text` for code and prose).
pub(crate) fn fence_language(link: Option<&str>, content_type: ContentType) -> &'static str {
    let extension = link
        .and_then(|l| l.rsplit(['/', '\\']).next())
        .and_then(|name| name.rsplit_once('.'))
        .map(|(_, ext)| ext);
    const LANGUAGES: &[(&[&str], &str)] = &[
        (&["rs"], "rust"),
        (&["py"], "python"),
        (&["js", "mjs", "cjs"], "javascript"),
        (&["ts", "tsx"], "typescript"),
        (&["go"], "go"),
        (&["java"], "java"),
        (&["kt"], "kotlin"),
        (&["c", "h"], "c"),
        (&["cc", "cpp", "cxx", "hpp"], "cpp"),
        (&["cs"], "csharp"),
        (&["rb"], "ruby"),
        (&["sh", "bash"], "bash"),
        (&["toml"], "toml"),
        (&["json"], "json"),
        (&["yaml", "yml"], "yaml"),
        (&["md", "markdown"], "markdown"),
        (&["html", "htm"], "html"),
        (&["css"], "css"),
        (&["sql"], "sql"),
        (&["txt"], "text"),
    ];
    let by_extension = extension.and_then(|ext| {
        LANGUAGES
            .iter()
            .find(|(extensions, _)| extensions.iter().any(|e| e.eq_ignore_ascii_case(ext)))
            .map(|&(_, language)| language)
    });
    by_extension.unwrap_or(match content_type {
        ContentType::Yaml => "yaml",
        ContentType::Markdown => "markdown",
        ContentType::Code | ContentType::Prose => "text",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_is_longer_than_any_backtick_run() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a `b` c"), "```");
        assert_eq!(fence_for("```rust\n```"), "````");
        assert_eq!(fence_for("x ````` y"), "``````");
    }

    #[test]
    fn the_longest_run_is_found_anywhere() {
        assert_eq!(longest_backtick_run(""), 0);
        assert_eq!(longest_backtick_run("no ticks"), 0);
        assert_eq!(longest_backtick_run("`"), 1);
        assert_eq!(longest_backtick_run("a``b```c`"), 3);
        assert_eq!(longest_backtick_run("````é``ü"), 4);
        assert_eq!(longest_backtick_run("é``ü`````"), 5);
    }

    #[test]
    fn code_span_pads_leading_backticks() {
        let mut s = String::new();
        code_span(&mut s, "a`b");
        assert_eq!(s, "``a`b``");
        s.clear();
        code_span(&mut s, "`x");
        assert_eq!(s, "`` `x ``");
        s.clear();
        code_span(&mut s, "src/lib.rs");
        assert_eq!(s, "`src/lib.rs`");
    }

    proptest::proptest! {
        /// One line is the words joined by single spaces, whether or not
        /// the text was clean already.
        #[test]
        fn one_line_joins_the_words(text in "([ab]|é| |\t|\n|\u{7f}|\u{85}|\u{2028}){0,30}") {
            let joined = words(&text).collect::<Vec<_>>().join(" ");
            proptest::prop_assert_eq!(one_line(&text), joined);
        }
    }

    #[test]
    fn one_line_collapses_whitespace() {
        assert_eq!(one_line("a\nb\r\n  c\t"), "a b c");
        assert!(matches!(one_line("already clean"), Cow::Borrowed(_)));
        assert!(matches!(one_line("héllo wörld"), Cow::Borrowed(_)));
        assert_eq!(one_line("a\u{2028}b\u{85}c"), "a b c");
        assert_eq!(one_line(" héllo  wörld "), "héllo wörld");
        assert_eq!(one_line(""), "");
    }

    #[test]
    fn table_cells_escape_pipes() {
        assert_eq!(table_cell("a | b\nc"), "a \\| b c");
    }

    #[test]
    fn languages_come_from_extension_then_content_type() {
        assert_eq!(
            fence_language(Some("src/lib.rs"), ContentType::Prose),
            "rust"
        );
        assert_eq!(
            fence_language(Some("a.d/config.YML"), ContentType::Code),
            "yaml"
        );
        assert_eq!(fence_language(Some("Makefile"), ContentType::Code), "text");
        assert_eq!(fence_language(None, ContentType::Markdown), "markdown");
    }
}
