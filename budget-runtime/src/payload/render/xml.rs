//! The XML format: one `<payload>` element holding `<meta>`, `<summary>`,
//! `<raw>`, `<skeleton>` (when an item is carried as its skeleton),
//! `<linked>` and `<fingerprint/>`, one child per line.
//!
//! RAW contents are carried verbatim in CDATA (a `]]>` inside is split
//! across two sections): an item's text is exactly its content, and the
//! document is well-formed for any content.
//! Characters XML 1.0 cannot carry at all (control characters other than
//! tab, newline and carriage return; U+FFFE and U+FFFF) are written as
//! U+FFFD, the replacement character.

use std::borrow::Cow;
use std::fmt::Write;

use crate::payload::Fingerprint;
use crate::payload::render::{Entry, Overview, Render};

/// The XML renderer.
pub(crate) struct Xml;

/// Whether XML 1.0 can carry `c`.
fn is_xml_char(c: char) -> bool {
    match c {
        '\t' | '\n' | '\r' => true,
        '\u{FFFE}' | '\u{FFFF}' => false,
        c => c >= ' ',
    }
}

/// `c`, or U+FFFD when XML cannot carry it.
fn carried(c: char) -> char {
    if is_xml_char(c) { c } else { '\u{FFFD}' }
}

/// `value` escaped for text and double-quoted attributes.
fn escape(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(carried(c)),
        }
    }
}

/// ` name="value"`, escaped.
fn attribute(out: &mut String, name: &str, value: &str) {
    let _ = write!(out, " {name}=\"");
    escape(out, value);
    out.push('"');
}

/// ` score="…"` with three decimals (`NaN`, `inf` as Rust writes them).
fn score(out: &mut String, score: f64) {
    let _ = write!(out, " score=\"{score:.3}\"");
}

/// `<item source=".." lines="a-b"` and a description attribute, unclosed.
fn open_item(out: &mut String, entry: &Entry<'_>, with_gist: bool) {
    out.push_str("<item");
    attribute(out, "source", &entry.source);
    if let Some(lines) = &entry.lines {
        let _ = write!(out, " lines=\"{}-{}\"", lines.start(), lines.end());
    }
    if with_gist && let Some(description) = &entry.gist {
        attribute(out, "description", description);
    }
}

/// `content` verbatim in CDATA sections.
fn cdata(out: &mut String, content: &str) {
    out.push_str("<![CDATA[");
    let content: Cow<'_, str> = if content.chars().all(is_xml_char) {
        Cow::Borrowed(content)
    } else {
        Cow::Owned(content.chars().map(carried).collect())
    };
    out.push_str(&content.replace("]]>", "]]]]><![CDATA[>"));
    out.push_str("]]>");
}

/// `<name>`, the `entries`, `</name>`, one per line.
fn list<E>(out: &mut String, name: &str, entries: &[E], write: impl Fn(&mut String, &E)) {
    let _ = writeln!(out, "<{name}>");
    for entry in entries {
        write(out, entry);
    }
    let _ = writeln!(out, "</{name}>");
}

impl Render for Xml {
    fn raw_entry(&self, out: &mut String, entry: &Entry<'_>, content: &str, with_content: bool) {
        open_item(out, entry, true);
        attribute(out, "language", entry.language);
        out.push('>');
        if with_content {
            cdata(out, content);
        } else {
            out.push_str("<![CDATA[]]>");
        }
        out.push_str("</item>\n");
    }

    fn linked_entry(&self, out: &mut String, entry: &Entry<'_>, tokens: u64, _fetch: bool) {
        open_item(out, entry, true);
        let _ = writeln!(out, " tokens=\"{tokens}\"/>");
    }

    fn mention_entry(&self, out: &mut String, entry: &Entry<'_>) {
        open_item(out, entry, false);
        score(out, entry.score);
        out.push('>');
        if let Some(gist) = &entry.gist {
            escape(out, gist);
        }
        out.push_str("</item>\n");
    }

    fn meta(&self, out: &mut String, o: &Overview<'_>) {
        let b = o.budget;
        let _ = writeln!(
            out,
            "<meta budget_tokens=\"{}\" meta_tokens=\"{}\" headroom_percent=\"{}\" candidates=\"{}\" raw=\"{}\"{} linked=\"{}\" summary=\"{}\" omitted=\"{}\" demotions=\"{}\">",
            b.total(),
            b.meta(),
            b.headroom_percent(),
            o.candidates,
            o.raw,
            if o.skeletons {
                format!(" skeleton=\"{}\"", o.skeleton)
            } else {
                String::new()
            },
            o.linked,
            o.summary,
            o.omitted,
            o.demotions,
        );
        for tier in o.tiers().collect::<Vec<_>>().into_iter().rev() {
            let _ = writeln!(
                out,
                "<tier name=\"{tier}\" effective=\"{}\" nominal=\"{}\"/>",
                b.effective(tier),
                b.nominal(tier),
            );
        }
        out.push_str("</meta>\n");
    }

    fn summary(&self, out: &mut String, o: &Overview<'_>, mentioned: &[Entry<'_>]) {
        out.push_str("<summary>\n");
        for tier in o.tiers() {
            let t = o.tally.tier(tier);
            let _ = writeln!(
                out,
                "<tier name=\"{tier}\" items=\"{}\" used=\"{}\" limit=\"{}\"/>",
                o.items_in(tier),
                t.used,
                t.limit,
            );
        }
        if let Some((entry, state)) = &o.top {
            out.push_str("<top");
            attribute(out, "source", &entry.source);
            score(out, entry.score);
            let _ = writeln!(out, " tier=\"{state}\"/>");
        }
        list(out, "mentioned", mentioned, |out, entry| {
            self.mention_entry(out, entry);
        });
        out.push_str("</summary>\n");
    }

    fn raw(&self, out: &mut String, raw: &[(Entry<'_>, Cow<'_, str>)]) {
        list(out, "raw", raw, |out, (entry, content)| {
            self.raw_entry(out, entry, content, true);
        });
    }

    fn skeleton(&self, out: &mut String, skeletons: &[(Entry<'_>, Cow<'_, str>)]) {
        list(out, "skeleton", skeletons, |out, (entry, skeleton)| {
            self.skeleton_entry(out, entry, skeleton, true);
        });
    }

    fn linked(&self, out: &mut String, linked: &[(Entry<'_>, u64)], fetch: bool) {
        list(out, "linked", linked, |out, (entry, tokens)| {
            self.linked_entry(out, entry, *tokens, fetch);
        });
    }

    fn tree(&self, out: &mut String, tree: &str) {
        out.push_str("<tree>");
        cdata(out, tree);
        out.push_str("</tree>\n");
    }

    fn join(&self, sections: &[(&str, &str)]) -> String {
        let mut doc =
            String::with_capacity(sections.iter().map(|s| s.1.len()).sum::<usize>() + 1_024);
        doc.push_str("<payload>\n");
        sections
            .iter()
            .for_each(|(_, section)| doc.push_str(section));
        doc
    }

    fn finish(&self, out: &mut String, fingerprint: Option<&Fingerprint>) {
        if let Some(fingerprint) = fingerprint {
            out.push_str("<fingerprint");
            for (name, digest) in fingerprint.digests() {
                let _ = write!(out, " {name}=\"{digest}\"");
            }
            out.push_str("/>\n");
        }
        out.push_str("</payload>\n");
    }
}
