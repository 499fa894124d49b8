//! The JSON format: one object with the members `meta`, `summary`, `raw`,
//! `skeleton` (when an item is carried as its skeleton), `linked` and
//! `fingerprint`, one member per line and one array element
//! per line. Non-finite scores are `null`.

use std::borrow::Cow;
use std::fmt::Write;

use crate::model::Tier;
use crate::payload::Fingerprint;
use crate::payload::render::{Entry, Overview, Render};

/// The JSON renderer.
pub(crate) struct Json;

/// `value` as a JSON string literal.
fn string(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c < ' ' => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `"name":` followed by `value` as a string.
fn member(out: &mut String, name: &str, value: &str) {
    let _ = write!(out, "\"{name}\":");
    string(out, value);
}

/// `"score":` and the score as a JSON number with at most three decimals
/// (`0.95`, `1`), in exponent form from a million up (`1.5e300`); `null`
/// when not finite.
fn score(out: &mut String, score: f64) {
    out.push_str("\"score\":");
    if !score.is_finite() {
        out.push_str("null");
    } else if score.abs() >= 1e6 {
        let _ = write!(out, "{score:e}");
    } else {
        let text = format!("{score:.3}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        out.push_str(if text == "-0" { "0" } else { text });
    }
}

/// `{"source":..,"lines":[a,b],"description":..` without the closing brace.
fn open_item(out: &mut String, entry: &Entry<'_>, gist_name: &str) {
    out.push('{');
    member(out, "source", &entry.source);
    if let Some(lines) = &entry.lines {
        let _ = write!(out, ",\"lines\":[{},{}]", lines.start(), lines.end());
    }
    if let Some(gist) = &entry.gist {
        out.push(',');
        member(out, gist_name, gist);
    }
}

/// `[`, the entries one per line separated by commas, `]`.
fn array<E>(out: &mut String, entries: &[E], write: impl Fn(&mut String, &E)) {
    out.push('[');
    for (index, entry) in entries.iter().enumerate() {
        out.push_str(if index == 0 { "\n" } else { ",\n" });
        write(out, entry);
    }
    if !entries.is_empty() {
        out.push('\n');
    }
    out.push(']');
}

impl Render for Json {
    fn raw_entry(&self, out: &mut String, entry: &Entry<'_>, content: &str, with_content: bool) {
        open_item(out, entry, "description");
        out.push(',');
        member(out, "language", entry.language);
        out.push(',');
        member(out, "content", if with_content { content } else { "" });
        out.push('}');
    }

    fn linked_entry(&self, out: &mut String, entry: &Entry<'_>, tokens: u64, _fetch: bool) {
        open_item(out, entry, "description");
        let _ = write!(out, ",\"tokens\":{tokens}}}");
    }

    fn mention_entry(&self, out: &mut String, entry: &Entry<'_>) {
        open_item(out, entry, "gist");
        out.push(',');
        score(out, entry.score);
        out.push('}');
    }

    fn meta(&self, out: &mut String, o: &Overview<'_>) {
        let b = o.budget;
        let _ = write!(
            out,
            "{{\"budget_tokens\":{},\"meta_tokens\":{},\"headroom_percent\":{},\"tiers\":[",
            b.total(),
            b.meta(),
            b.headroom_percent(),
        );
        let tiers: Vec<Tier> = o.tiers().collect();
        for (index, tier) in tiers.into_iter().rev().enumerate() {
            let _ = write!(
                out,
                "{}{{\"tier\":\"{tier}\",\"effective\":{},\"nominal\":{}}}",
                if index == 0 { "" } else { "," },
                b.effective(tier),
                b.nominal(tier),
            );
        }
        let _ = write!(out, "],\"candidates\":{},\"raw\":{},", o.candidates, o.raw);
        if o.skeletons {
            let _ = write!(out, "\"skeleton\":{},", o.skeleton);
        }
        let _ = write!(
            out,
            "\"linked\":{},\"summary\":{},\"omitted\":{},\"demotions\":{}}}",
            o.linked, o.summary, o.omitted, o.demotions,
        );
    }

    fn summary(&self, out: &mut String, o: &Overview<'_>, mentioned: &[Entry<'_>]) {
        out.push_str("{\"tiers\":[");
        for (index, tier) in o.tiers().enumerate() {
            let t = o.tally.tier(tier);
            let _ = write!(
                out,
                "{}{{\"tier\":\"{tier}\",\"items\":{},\"used\":{},\"limit\":{}}}",
                if index == 0 { "" } else { "," },
                o.items_in(tier),
                t.used,
                t.limit,
            );
        }
        out.push_str("],\"top\":");
        match &o.top {
            Some((entry, state)) => {
                out.push('{');
                member(out, "source", &entry.source);
                out.push(',');
                score(out, entry.score);
                let _ = write!(out, ",\"tier\":\"{state}\"}}");
            }
            None => out.push_str("null"),
        }
        out.push_str(",\"mentioned\":");
        array(out, mentioned, |out, entry| self.mention_entry(out, entry));
        out.push('}');
    }

    fn raw(&self, out: &mut String, raw: &[(Entry<'_>, Cow<'_, str>)]) {
        array(out, raw, |out, (entry, content)| {
            self.raw_entry(out, entry, content, true);
        });
    }

    fn skeleton(&self, out: &mut String, skeletons: &[(Entry<'_>, Cow<'_, str>)]) {
        array(out, skeletons, |out, (entry, skeleton)| {
            self.skeleton_entry(out, entry, skeleton, true);
        });
    }

    fn linked(&self, out: &mut String, linked: &[(Entry<'_>, u64)], fetch: bool) {
        array(out, linked, |out, (entry, tokens)| {
            self.linked_entry(out, entry, *tokens, fetch);
        });
    }

    fn tree(&self, out: &mut String, tree: &str) {
        string(out, tree);
    }

    fn join(&self, sections: &[(&str, &str)]) -> String {
        let mut doc =
            String::with_capacity(sections.iter().map(|s| s.1.len()).sum::<usize>() + 1_024);
        for (index, (name, section)) in sections.iter().enumerate() {
            let _ = write!(
                doc,
                "{}\"{name}\":{section}",
                if index == 0 { "{\n" } else { ",\n" }
            );
        }
        doc
    }

    fn finish(&self, out: &mut String, fingerprint: Option<&Fingerprint>) {
        if let Some(fingerprint) = fingerprint {
            out.push_str(",\n\"fingerprint\":{");
            for (index, (name, digest)) in fingerprint.digests().into_iter().enumerate() {
                let _ = write!(
                    out,
                    "{}\"{name}\":\"{digest}\"",
                    if index == 0 { "" } else { "," }
                );
            }
            out.push('}');
        }
        out.push_str("\n}\n");
    }
}
