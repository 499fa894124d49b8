//! Rendering a hybrid payload as Markdown, and the item fragments whose
//! estimated size is each item's cost in a tier.
//!
//! The document is five sections in this order, separated by one empty
//! line: `## META`, `## SUMMARY`, `## RAW`, `## LINKED`, `## Fingerprint`.
//! Within RAW, LINKED and the SUMMARY mentions, items appear in candidate
//! order. The output depends only on the inputs: same input, same bytes.

use std::borrow::Cow;
use std::fmt::Write;

use crate::model::{ContextItem, Tier};
use crate::payload::candidate::Rank;
use crate::payload::demotion::Slot;
use crate::payload::markdown::{code_span, fence_for, fence_language, one_line, table_cell};
use crate::payload::{Candidate, Fingerprint, ItemState, Sha256Digest, Tally, TierBudget};

/// What the renderer needs to know about an assembled payload.
pub(crate) struct RenderInput<'r, 'a, T: ?Sized> {
    pub(crate) budget: &'r TierBudget,
    pub(crate) tally: &'r Tally,
    pub(crate) candidates: &'r [Candidate<'a, T>],
    pub(crate) slots: &'r [Slot],
    pub(crate) demotions: usize,
}

impl<'r, 'a, T: ?Sized> RenderInput<'r, 'a, T> {
    /// `(position, candidate)` of every item in `state`, by position.
    fn in_state(
        &self,
        state: ItemState,
    ) -> impl Iterator<Item = (usize, &'r Candidate<'a, T>)> + use<'r, 'a, T> {
        self.slots
            .iter()
            .zip(self.candidates)
            .enumerate()
            .filter(move |(_, (slot, _))| slot.state == state)
            .map(|(position, (_, candidate))| (position, candidate))
    }

    /// `(position, candidate)` of every item in some tier, by position.
    fn placed(&self) -> impl Iterator<Item = (usize, &'r Candidate<'a, T>)> + use<'r, 'a, T> {
        self.slots
            .iter()
            .zip(self.candidates)
            .enumerate()
            .filter(|(_, (slot, _))| slot.state != ItemState::Omitted)
            .map(|(position, (_, candidate))| (position, candidate))
    }
}

/// Writes one entry per item with `write`, `separator` between entries, or
/// `_None._` when there are none.
fn push_entries<'c, C: 'c>(
    out: &mut String,
    entries: impl Iterator<Item = (usize, &'c C)>,
    separator: &str,
    mut write: impl FnMut(&mut String, usize, &C),
) {
    let mut any = false;
    for (position, candidate) in entries {
        if any {
            out.push_str(separator);
        }
        any = true;
        write(out, position, candidate);
    }
    if !any {
        out.push_str("_None._\n");
    }
}

/// How many items ended in each state.
#[derive(Default)]
struct Counts {
    raw: usize,
    linked: usize,
    summary: usize,
    omitted: usize,
}

impl Counts {
    fn of(slots: &[Slot]) -> Self {
        let mut counts = Self::default();
        for slot in slots {
            match slot.state {
                ItemState::Raw => counts.raw += 1,
                ItemState::Linked => counts.linked += 1,
                ItemState::Summary => counts.summary += 1,
                ItemState::Omitted => counts.omitted += 1,
            }
        }
        counts
    }
}

/// An item's source: its link on one line, or `item N` without one.
pub(crate) fn source_label<T: ContextItem + ?Sized>(item: &T, position: usize) -> Cow<'_, str> {
    match item.link().map(one_line) {
        Some(link) if !link.is_empty() => link,
        _ => Cow::Owned(format!("item {position}")),
    }
}

/// `n` and the noun, singular for exactly one: `1 item`, `2 items`.
fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// A score with three decimals; `n/a` for NaN.
fn score_text(score: f64) -> String {
    if score.is_nan() {
        "n/a".to_owned()
    } else {
        format!("{score:.3}")
    }
}

/// The RAW block of an item. With `content = None` only the frame is
/// written (heading, description, fence lines), for costing: the item's
/// RAW cost is its `tokens()` plus the frame's estimate.
pub(crate) fn push_raw_block<T: ContextItem + ?Sized>(
    out: &mut String,
    item: &T,
    position: usize,
    full_content: &str,
    with_content: bool,
) {
    out.push_str("### ");
    code_span(out, &source_label(item, position));
    out.push('\n');
    if let Some(description) = item.description().map(one_line).filter(|d| !d.is_empty()) {
        out.push('\n');
        out.push_str(&description);
        out.push('\n');
    }
    let fence = fence_for(full_content);
    let language = fence_language(item.link(), item.content_type());
    let _ = writeln!(out, "\n{fence}{language}");
    if with_content {
        out.push_str(full_content);
        if !full_content.is_empty() && !full_content.ends_with('\n') {
            out.push('\n');
        }
    }
    out.push_str(&fence);
    out.push('\n');
}

/// The LINKED line of an item: source, line range when known (metadata
/// `line_start` / `line_end`), description and fetch cost (its tokens).
pub(crate) fn push_link_line<T: ContextItem + ?Sized>(
    out: &mut String,
    candidate: &Candidate<'_, T>,
    position: usize,
) {
    let item = candidate.item;
    out.push_str("- ");
    code_span(out, &source_label(item, position));
    let line = |key| {
        item.metadata(key)
            .and_then(|v| v.as_f64())
            .filter(|v| v.is_finite() && *v >= 0.0 && v.fract() == 0.0)
            .map(budget_rules::convert::saturating_u64_from_f64)
    };
    match (line("line_start"), line("line_end")) {
        (Some(start), Some(end)) if end > start => {
            let _ = write!(out, " (lines {start}-{end})");
        }
        (Some(start), _) => {
            let _ = write!(out, " (line {start})");
        }
        _ => {}
    }
    if let Some(description) = item.description().map(one_line).filter(|d| !d.is_empty()) {
        let _ = write!(out, ": {description}");
    }
    let _ = writeln!(out, ". Fetch: {} tokens.", candidate.tokens);
}

/// Characters of content a SUMMARY mention shows when the item has no
/// description.
const MENTION_FIRST_LINE_CHARS: usize = 120;

/// The SUMMARY mention of an item: source, description (or, without one,
/// the first non-blank line of its content, cut to 120 characters with
/// `…`), score.
pub(crate) fn push_mention_line<T: ContextItem + ?Sized>(
    out: &mut String,
    item: &T,
    position: usize,
    score: f64,
) {
    out.push_str("- ");
    code_span(out, &source_label(item, position));
    match item.description().map(one_line).filter(|d| !d.is_empty()) {
        Some(description) => {
            let _ = write!(out, ": {description}");
        }
        None => {
            let content = item.content();
            if let Some(line) = first_line(&content) {
                let _ = write!(out, ": {line}");
            }
        }
    }
    let _ = writeln!(out, " (score {})", score_text(score));
}

/// The first line of `content` with something on it, on one line and cut
/// to [`MENTION_FIRST_LINE_CHARS`] characters (`…` marks a cut).
fn first_line(content: &str) -> Option<String> {
    let line = content
        .lines()
        .map(one_line)
        .find(|line| !line.is_empty())?;
    let mut chars = line.char_indices();
    match chars.nth(MENTION_FIRST_LINE_CHARS) {
        None => Some(line.into_owned()),
        Some((cut, _)) => Some(format!("{}…", line[..cut].trim_end())),
    }
}

/// Renders the whole payload and its fingerprint.
pub(crate) fn render<T: ContextItem + ?Sized>(
    input: &RenderInput<'_, '_, T>,
) -> (String, Fingerprint) {
    let counts = Counts::of(input.slots);
    let meta = meta_section(input, &counts);
    let summary = summary_section(input, &counts);
    let raw = raw_section(input);
    let linked = linked_section(input);

    let mut sources: Vec<Cow<'_, str>> = input
        .placed()
        .map(|(position, candidate)| source_label(candidate.item, position))
        .collect();

    let mut doc =
        String::with_capacity(meta.len() + summary.len() + raw.len() + linked.len() + 1_024);
    for section in [&meta, &summary, &raw, &linked] {
        doc.push_str(section);
        doc.push('\n');
    }
    let fingerprint = Fingerprint {
        meta: Sha256Digest::of(meta.as_bytes()),
        summary: Sha256Digest::of(summary.as_bytes()),
        raw: Sha256Digest::of(raw.as_bytes()),
        linked: Sha256Digest::of(linked.as_bytes()),
        sources: Fingerprint::of_sources(&mut sources),
        payload: Sha256Digest::of(doc.as_bytes()),
    };
    fingerprint.render(&mut doc);
    (doc, fingerprint)
}

fn meta_section<T: ?Sized>(input: &RenderInput<'_, '_, T>, counts: &Counts) -> String {
    let b = input.budget;
    let mut out = String::from("## META\n\n");
    let _ = writeln!(
        out,
        "- Budget: {} tokens. META {}; SUMMARY {}/{}, LINKED {}/{}, RAW {}/{} (effective/nominal, headroom {}%).",
        b.total(),
        b.meta(),
        b.effective(Tier::Summary),
        b.nominal(Tier::Summary),
        b.effective(Tier::Linked),
        b.nominal(Tier::Linked),
        b.effective(Tier::Raw),
        b.nominal(Tier::Raw),
        b.headroom_percent(),
    );
    let _ = writeln!(
        out,
        "- Items: {}; RAW {}, LINKED {}, SUMMARY {}, omitted {}; {}.",
        count(input.slots.len(), "candidate", "candidates"),
        counts.raw,
        counts.linked,
        counts.summary,
        counts.omitted,
        count(input.demotions, "demotion", "demotions"),
    );
    out
}

fn summary_section<T: ContextItem + ?Sized>(
    input: &RenderInput<'_, '_, T>,
    counts: &Counts,
) -> String {
    let mut out = String::from("## SUMMARY\n\n");
    let _ = writeln!(
        out,
        "{}: {} in full (RAW), {} linked (LINKED), {} mentioned here (SUMMARY), {} omitted.\n",
        count(input.slots.len(), "candidate", "candidates"),
        counts.raw,
        counts.linked,
        counts.summary,
        counts.omitted,
    );
    out.push_str("| Tier | Section | Tokens | Why included |\n| --- | --- | --- | --- |\n");
    let rows = [
        (Tier::Raw, counts.raw, "carried in full"),
        (
            Tier::Linked,
            counts.linked,
            "listed with link, description and fetch cost",
        ),
        (Tier::Summary, counts.summary, "mentioned below"),
    ];
    for (tier, n, why) in rows {
        let t = input.tally.tier(tier);
        let _ = writeln!(
            out,
            "| {tier} | `## {tier}` | {} of {} | {}, {} |",
            t.used,
            t.limit,
            count(n, "item", "items"),
            table_cell(why)
        );
    }
    out.push_str("\nKey findings:\n\n");
    let top = input
        .placed()
        .max_by(|(pa, a), (pb, b)| Rank::new(a.score, *pa).cmp(&Rank::new(b.score, *pb)));
    match top {
        Some((position, candidate)) => {
            out.push_str("- Top-ranked item: ");
            code_span(&mut out, &source_label(candidate.item, position));
            let state = input.slots[position].state;
            let _ = writeln!(out, " (score {}, {state}).", score_text(candidate.score));
        }
        None => out.push_str("- No item made it into the payload.\n"),
    }
    let _ = writeln!(
        out,
        "- {}; {} omitted.",
        count(input.demotions, "demotion", "demotions"),
        count(counts.omitted, "item", "items")
    );
    out.push_str("\nMentioned:\n\n");
    push_entries(
        &mut out,
        input.in_state(ItemState::Summary),
        "",
        |out, position, c| push_mention_line(out, c.item, position, c.score),
    );
    out
}

fn raw_section<T: ContextItem + ?Sized>(input: &RenderInput<'_, '_, T>) -> String {
    let mut out = String::from("## RAW\n\n");
    push_entries(
        &mut out,
        input.in_state(ItemState::Raw),
        "\n",
        |out, position, c| push_raw_block(out, c.item, position, &c.item.content(), true),
    );
    out
}

fn linked_section<T: ContextItem + ?Sized>(input: &RenderInput<'_, '_, T>) -> String {
    let mut out = String::from("## LINKED\n\n");
    push_entries(
        &mut out,
        input.in_state(ItemState::Linked),
        "",
        |out, position, c| push_link_line(out, c, position),
    );
    out
}
