//! Rendering an assembled payload as XML: one `<payload>` element with the
//! SUMMARY mentions, the RAW files in full (CDATA) and the LINKED files.

use std::fmt::Write;

use budget::payload::{HybridPayload, ItemState, Placement};
use budget::{ContextItem, Item};

/// The payload as XML. Files appear in candidate order within each section;
/// file text is carried verbatim in CDATA (a `]]>` inside is split across
/// two sections), so the document is well-formed for any text.
pub fn render(payload: &HybridPayload<'_, Item>, budget_tokens: u64) -> String {
    let placements = payload.placements();
    let count = |state| placements.iter().filter(|p| p.state == state).count();
    let mut out = String::with_capacity(payload.markdown().len());
    let _ = writeln!(
        out,
        "<payload budget_tokens=\"{budget_tokens}\" files=\"{}\" raw=\"{}\" linked=\"{}\" summary=\"{}\" omitted=\"{}\">",
        placements.len(),
        count(ItemState::Raw),
        count(ItemState::Linked),
        count(ItemState::Summary),
        count(ItemState::Omitted),
    );
    section(
        &mut out,
        "summary",
        placements,
        ItemState::Summary,
        |out, p| {
            open_file(out, p.item);
            let _ = write!(out, " score=\"{:.3}\">", p.score);
            text(out, p.item.description().unwrap_or(""));
            out.push_str("</file>\n");
        },
    );
    section(&mut out, "raw", placements, ItemState::Raw, |out, p| {
        open_file(out, p.item);
        out.push_str("><![CDATA[\n");
        let content = p.item.content();
        out.push_str(&content.replace("]]>", "]]]]><![CDATA[>"));
        if !content.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("]]></file>\n");
    });
    section(
        &mut out,
        "linked",
        placements,
        ItemState::Linked,
        |out, p| {
            open_file(out, p.item);
            let _ = write!(out, " tokens=\"{}\">", p.item.tokens());
            text(out, p.item.description().unwrap_or(""));
            out.push_str("</file>\n");
        },
    );
    out.push_str("</payload>\n");
    out
}

fn section(
    out: &mut String,
    name: &str,
    placements: &[Placement<'_, Item>],
    state: ItemState,
    mut file: impl FnMut(&mut String, &Placement<'_, Item>),
) {
    let _ = writeln!(out, "<{name}>");
    for placement in placements.iter().filter(|p| p.state == state) {
        file(out, placement);
    }
    let _ = writeln!(out, "</{name}>");
}

/// `<file path="…" lines="1-N"` without the closing `>`.
fn open_file(out: &mut String, item: &Item) {
    out.push_str("<file path=\"");
    attribute(out, item.link().unwrap_or(""));
    out.push('"');
    let lines = item.content().lines().count();
    let _ = write!(out, " lines=\"1-{lines}\"");
}

fn attribute(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            _ => escape_char(out, c),
        }
    }
}

fn text(out: &mut String, value: &str) {
    for c in value.chars() {
        escape_char(out, c);
    }
}

fn escape_char(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        _ => out.push(c),
    }
}

#[cfg(test)]
mod tests {
    use budget::payload::{PayloadAssembler, TierBudget};

    use super::*;

    #[test]
    fn cdata_survives_its_own_terminator_and_paths_are_escaped() {
        let items = [Item::builder("a ]]> b")
            .tokens(5)
            .link("dir/\"q\"&<x>.txt")
            .build()
            .unwrap()];
        let payload = PayloadAssembler::new(TierBudget::with_total(20_000).unwrap())
            .assemble_items(&items)
            .unwrap();
        let xml = render(&payload, 20_000);
        assert!(xml.contains(
            "<file path=\"dir/&quot;q&quot;&amp;&lt;x&gt;.txt\" lines=\"1-1\"><![CDATA[\na ]]]]><![CDATA[> b\n]]></file>"
        ), "{xml}");
        assert!(xml.starts_with("<payload budget_tokens=\"20000\" files=\"1\" raw=\"1\""));
        assert!(xml.ends_with("</linked>\n</payload>\n"));
    }
}
