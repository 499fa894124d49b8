//! Rendering an assembled payload, and the item fragments whose estimated
//! size is each item's cost in a tier.
//!
//! The walk over the placed items is shared; each [`Format`] implements
//! the [`Render`] seam. Every format writes the same sections (TREE when
//! asked for, META, SUMMARY, RAW, SKELETON when an item is carried as its
//! skeleton, LINKED, fingerprint; META and the fingerprint unless turned
//! off) with the same numbers; within each tier's section and the SUMMARY
//! mentions, items appear in candidate order. The
//! output depends only on the inputs: same input, same bytes.

mod json;
mod markdown;
mod tree;
mod xml;

use std::borrow::Cow;
use std::ops::RangeInclusive;

use crate::model::ScoredItem;
use crate::model::{ContextItem, Tier};
use crate::payload::demotion::Slot;
use crate::payload::rank::Rank;
use crate::payload::{Fingerprint, Format, Sha256Digest, Tally, TierBudget};

pub(crate) use markdown::one_line;
pub(crate) use tree::{TREE_SHARE_PERCENT, tree_text};

/// Which optional parts a payload has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// The META section and the fingerprint.
    pub(crate) meta: bool,
    /// The TREE section.
    pub(crate) tree: bool,
    /// LINKED lines invite a fetch (`Fetch: N tokens.`).
    pub(crate) fetch_tool: bool,
}

impl Default for Layout {
    fn default() -> Self {
        Self {
            meta: true,
            tree: false,
            fetch_tool: false,
        }
    }
}

/// How much of the SUMMARY section's own text (its frame) is written: as
/// much as leaves room for a mention in SUMMARY's share, so that a small
/// total does not spend its whole share on the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SummaryDetail {
    /// The overview, the map of the tiers and the key findings.
    Full,
    /// The overview and the map.
    Map,
    /// A one-line overview.
    Line,
}

impl SummaryDetail {
    /// Every level, richest first.
    pub(crate) const ALL: [Self; 3] = [Self::Full, Self::Map, Self::Line];
}

/// One format's writer of payload sections and item fragments.
pub(crate) trait Render {
    /// An item's RAW entry. With `with_content` false only its frame is
    /// written (what surrounds the content), for costing: the item's RAW
    /// cost is its content's count plus the frame's estimate.
    fn raw_entry(&self, out: &mut String, entry: &Entry<'_>, content: &str, with_content: bool);
    /// An item's SKELETON entry: by default its
    /// [`raw_entry`](Render::raw_entry) with its skeleton for content.
    fn skeleton_entry(
        &self,
        out: &mut String,
        entry: &Entry<'_>,
        skeleton: &str,
        with_content: bool,
    ) {
        self.raw_entry(out, entry, skeleton, with_content);
    }
    /// An item's LINKED entry, naming its size (`tokens`); `fetch` when
    /// the model can fetch it.
    fn linked_entry(&self, out: &mut String, entry: &Entry<'_>, tokens: u64, fetch: bool);
    /// An item's SUMMARY mention.
    fn mention_entry(&self, out: &mut String, entry: &Entry<'_>);
    /// The META section.
    fn meta(&self, out: &mut String, overview: &Overview<'_>);
    /// The SUMMARY section, its mentions included.
    fn summary(&self, out: &mut String, overview: &Overview<'_>, mentioned: &[Entry<'_>]);
    /// The RAW section.
    fn raw(&self, out: &mut String, raw: &[(Entry<'_>, Cow<'_, str>)]);
    /// The SKELETON section (written only when it has items).
    fn skeleton(&self, out: &mut String, skeletons: &[(Entry<'_>, Cow<'_, str>)]);
    /// The LINKED section.
    fn linked(&self, out: &mut String, linked: &[(Entry<'_>, u64)], fetch: bool);
    /// The TREE section around the tree's text.
    fn tree(&self, out: &mut String, tree: &str);
    /// The document up to its fingerprint, from the sections present, in
    /// order, named (`tree`, `meta`, `summary`, `raw`, `skeleton`,
    /// `linked`); the
    /// payload digest covers exactly these bytes.
    fn join(&self, sections: &[(&str, &str)]) -> String;
    /// Appends the fingerprint, if there is one, and whatever closes the
    /// document.
    fn finish(&self, out: &mut String, fingerprint: Option<&Fingerprint>);
}

impl Format {
    /// The format's renderer.
    pub(crate) fn renderer(self) -> &'static dyn Render {
        match self {
            Self::Markdown => &markdown::Markdown,
            Self::Xml => &xml::Xml,
            Self::Json => &json::Json,
        }
    }
}

/// One item as every format shows it.
pub(crate) struct Entry<'i> {
    /// Its link on one line, or `item N` without one.
    pub(crate) source: Cow<'i, str>,
    /// Its description on one line, if it has a non-blank one. For a
    /// mention without a description: the first non-blank line of its
    /// content, cut to [`MENTION_FIRST_LINE_CHARS`] characters (`…` marks
    /// a cut).
    pub(crate) gist: Option<Cow<'i, str>>,
    /// The lines of its source it holds.
    pub(crate) lines: Option<RangeInclusive<u64>>,
    /// The language of its content, for a fence's info string; set only
    /// for RAW entries ([`Entry::raw`]), empty otherwise.
    pub(crate) language: &'static str,
    /// Its score.
    pub(crate) score: f64,
}

/// Characters of content a SUMMARY mention shows when the item has no
/// description.
const MENTION_FIRST_LINE_CHARS: usize = 120;

impl<'i> Entry<'i> {
    /// `item` at `position` with `score`.
    pub(crate) fn of<T: ContextItem + ?Sized>(item: &'i T, position: usize, score: f64) -> Self {
        Self {
            source: match item.link().map(one_line) {
                Some(link) if !link.is_empty() => link,
                _ => Cow::Owned(format!("item {position}")),
            },
            gist: item.description().map(one_line).filter(|d| !d.is_empty()),
            lines: item.lines(),
            language: "",
            score,
        }
    }

    /// `item` as a RAW entry: with the language of its content.
    pub(crate) fn raw<T: ContextItem + ?Sized>(item: &'i T, position: usize, score: f64) -> Self {
        Self {
            language: markdown::fence_language(item.link(), item.content_type()),
            ..Self::of(item, position, score)
        }
    }

    /// `item` as a SUMMARY mention: without a description, the first line
    /// of its content stands in.
    pub(crate) fn mention<T: ContextItem + ?Sized>(
        item: &'i T,
        position: usize,
        score: f64,
    ) -> Self {
        let mut entry = Self::of(item, position, score);
        if entry.gist.is_none() {
            entry.gist = first_line(&item.content()).map(Cow::Owned);
        }
        entry
    }
}

/// The first line of `content` with something on it, on one line and cut
/// to [`MENTION_FIRST_LINE_CHARS`] characters (`…` marks a cut). Only as
/// much of the line is read as the cut keeps (a minified file is one line
/// of megabytes).
fn first_line(content: &str) -> Option<String> {
    let line = content.lines().find_map(|line| {
        let mut out = String::new();
        let mut chars = 0;
        for word in markdown::words(line) {
            if chars > MENTION_FIRST_LINE_CHARS {
                break;
            }
            if !out.is_empty() {
                out.push(' ');
                chars += 1;
            }
            // Enough of a long word to tell where the cut falls.
            let room = (MENTION_FIRST_LINE_CHARS + 1).saturating_sub(chars);
            let kept = word
                .char_indices()
                .nth(room)
                .map_or(word, |(end, _)| &word[..end]);
            out.push_str(kept);
            chars += kept.chars().count();
        }
        Some(out).filter(|out| !out.is_empty())
    })?;
    let mut chars = line.char_indices();
    match chars.nth(MENTION_FIRST_LINE_CHARS) {
        None => Some(line),
        Some((cut, _)) => Some(format!("{}…", line[..cut].trim_end())),
    }
}

/// The numbers META and SUMMARY report.
pub(crate) struct Overview<'i> {
    pub(crate) budget: &'i TierBudget,
    pub(crate) tally: &'i Tally,
    /// Candidates offered.
    pub(crate) candidates: usize,
    pub(crate) raw: usize,
    pub(crate) skeleton: usize,
    pub(crate) linked: usize,
    pub(crate) summary: usize,
    pub(crate) omitted: usize,
    pub(crate) demotions: usize,
    /// The top-ranked placed item and its tier.
    pub(crate) top: Option<(Entry<'i>, Tier)>,
    /// Whether any candidate has a skeleton: only then do META and
    /// SUMMARY speak of the SKELETON tier.
    pub(crate) skeletons: bool,
    /// How much of SUMMARY's frame is written (Markdown; the XML and JSON
    /// frames are small and always whole).
    pub(crate) detail: SummaryDetail,
}

impl Overview<'_> {
    /// The tiers META and SUMMARY report, most detailed first: SKELETON
    /// only when a candidate has a skeleton.
    pub(crate) fn tiers(&self) -> impl Iterator<Item = Tier> {
        let skeletons = self.skeletons;
        Tier::ALL
            .into_iter()
            .filter(move |&tier| tier != Tier::Skeleton || skeletons)
    }

    /// The items in `tier`.
    pub(crate) fn items_in(&self, tier: Tier) -> usize {
        match tier {
            Tier::Raw => self.raw,
            Tier::Skeleton => self.skeleton,
            Tier::Linked => self.linked,
            Tier::Summary => self.summary,
        }
    }
}

/// What the renderer needs to know about an assembled payload.
pub(crate) struct RenderInput<'r, 'a, T: ?Sized> {
    pub(crate) budget: &'r TierBudget,
    pub(crate) tally: &'r Tally,
    pub(crate) candidates: &'r [ScoredItem<'a, T>],
    pub(crate) slots: &'r [Slot],
    pub(crate) demotions: usize,
    pub(crate) layout: Layout,
    /// The TREE section's text, with [`Layout::tree`].
    pub(crate) tree: Option<&'r str>,
    /// How much of SUMMARY's frame is written.
    pub(crate) summary_detail: SummaryDetail,
}

/// The SUMMARY section of `format` with no mentions, its numbers at their
/// widest (every count the number of candidates, every tier full) and the
/// longest source of any candidate as the top-ranked item: at least as long
/// as the section's text without its mentions will be.
pub(crate) fn summary_frame<T: ContextItem + ?Sized>(
    format: Format,
    budget: &TierBudget,
    candidates: &[ScoredItem<'_, T>],
    detail: SummaryDetail,
) -> String {
    let n = candidates.len();
    let mut tally = Tally::new(budget);
    for tier in Tier::ALL {
        tally = tally.with_frame(tier, u64::MAX);
    }
    // The score whose text is longest: the largest finite magnitude,
    // negative on a tie (`-1234.567` over `0.950`; `NaN` and `inf` are
    // shorter than any finite score's `0.000`).
    let score = candidates
        .iter()
        .map(|c| c.score)
        .filter(|score| score.is_finite())
        .max_by(|a, b| {
            a.abs()
                .total_cmp(&b.abs())
                .then(b.is_sign_positive().cmp(&a.is_sign_positive()))
        })
        .unwrap_or(0.0);
    // The candidate whose source is longest (its link, or `item N`).
    let source_len = |position: usize, c: &ScoredItem<'_, T>| match c.item.link() {
        Some(link) if !link.trim().is_empty() => link.len(),
        _ => "item ".len() + position.to_string().len(),
    };
    let top = candidates
        .iter()
        .enumerate()
        .max_by_key(|&(position, c)| source_len(position, c))
        .map(|(position, c)| (Entry::of(c.item, position, score), Tier::Summary));
    let overview = Overview {
        budget,
        tally: &tally,
        candidates: n,
        raw: n,
        skeleton: n,
        linked: n,
        summary: n,
        omitted: n,
        demotions: n,
        top,
        skeletons: has_skeletons(candidates),
        detail,
    };
    let mut out = String::new();
    format.renderer().summary(&mut out, &overview, &[]);
    out
}

/// Renders the whole payload in `format`, and its fingerprint.
pub(crate) fn render<T: ContextItem + ?Sized>(
    format: Format,
    input: &RenderInput<'_, '_, T>,
) -> (String, Fingerprint) {
    let renderer = format.renderer();
    let placed = || {
        input
            .slots
            .iter()
            .zip(input.candidates)
            .enumerate()
            .filter(|(_, (slot, _))| slot.tier.is_some())
    };
    let in_tier = |tier: Option<Tier>| {
        input
            .slots
            .iter()
            .zip(input.candidates)
            .enumerate()
            .filter(move |(_, (slot, _))| slot.tier == tier)
            .map(|(position, (_, candidate))| (position, candidate))
    };
    let count = |tier| in_tier(tier).count();
    let top = placed()
        .max_by(|(pa, (_, a)), (pb, (_, b))| Rank::new(a.score, *pa).cmp(&Rank::new(b.score, *pb)))
        .and_then(|(position, (slot, c))| Some((Entry::of(c.item, position, c.score), slot.tier?)));
    let overview = Overview {
        budget: input.budget,
        tally: input.tally,
        candidates: input.slots.len(),
        raw: count(Some(Tier::Raw)),
        skeleton: count(Some(Tier::Skeleton)),
        linked: count(Some(Tier::Linked)),
        summary: count(Some(Tier::Summary)),
        omitted: count(None),
        demotions: input.demotions,
        top,
        skeletons: has_skeletons(input.candidates),
        detail: input.summary_detail,
    };
    let mentioned: Vec<Entry<'_>> = in_tier(Some(Tier::Summary))
        .map(|(position, c)| Entry::mention(c.item, position, c.score))
        .collect();
    let raw: Vec<(Entry<'_>, Cow<'_, str>)> = in_tier(Some(Tier::Raw))
        .map(|(position, c)| (Entry::raw(c.item, position, c.score), c.item.content()))
        .collect();
    let skeletons: Vec<(Entry<'_>, Cow<'_, str>)> = in_tier(Some(Tier::Skeleton))
        .map(|(position, c)| {
            let skeleton = c.item.skeleton().unwrap_or_default();
            (Entry::raw(c.item, position, c.score), skeleton)
        })
        .collect();
    let linked: Vec<(Entry<'_>, u64)> = in_tier(Some(Tier::Linked))
        .map(|(position, c)| (Entry::of(c.item, position, c.score), c.tokens))
        .collect();

    let mut sections: [String; 6] = Default::default();
    if let Some(tree) = input.tree {
        renderer.tree(&mut sections[0], tree);
    }
    if input.layout.meta {
        renderer.meta(&mut sections[1], &overview);
    }
    renderer.summary(&mut sections[2], &overview, &mentioned);
    renderer.raw(&mut sections[3], &raw);
    if !skeletons.is_empty() {
        renderer.skeleton(&mut sections[4], &skeletons);
    }
    renderer.linked(&mut sections[5], &linked, input.layout.fetch_tool);
    let [
        tree,
        meta,
        summary,
        raw_section,
        skeleton_section,
        linked_section,
    ] = &sections;

    let mut sources: Vec<Cow<'_, str>> = raw
        .iter()
        .chain(&skeletons)
        .map(|(entry, _)| entry)
        .chain(linked.iter().map(|(entry, _)| entry))
        .chain(&mentioned)
        .map(|entry| entry.source.clone())
        .collect();
    let present: Vec<(&str, &str)> = [
        ("tree", tree),
        ("meta", meta),
        ("summary", summary),
        ("raw", raw_section),
        ("skeleton", skeleton_section),
        ("linked", linked_section),
    ]
    .into_iter()
    .filter(|(name, section)| !section.is_empty() || !matches!(*name, "tree" | "meta" | "skeleton"))
    .map(|(name, section)| (name, section.as_str()))
    .collect();
    let mut doc = renderer.join(&present);
    let fingerprint = Fingerprint {
        meta: Sha256Digest::of(meta.as_bytes()),
        summary: Sha256Digest::of(summary.as_bytes()),
        raw: Sha256Digest::of(raw_section.as_bytes()),
        skeleton: (!skeleton_section.is_empty())
            .then(|| Sha256Digest::of(skeleton_section.as_bytes())),
        linked: Sha256Digest::of(linked_section.as_bytes()),
        sources: Fingerprint::of_sources(&mut sources),
        payload: Sha256Digest::of(doc.as_bytes()),
    };
    renderer.finish(&mut doc, input.layout.meta.then_some(&fingerprint));
    (doc, fingerprint)
}

/// Whether any candidate has a skeleton.
fn has_skeletons<T: ContextItem + ?Sized>(candidates: &[ScoredItem<'_, T>]) -> bool {
    candidates.iter().any(|c| c.item.skeleton().is_some())
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

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The first line read word by word is the whole first line made
        /// one line and then cut, as a mention first showed it.
        #[test]
        fn first_line_is_the_cut_of_the_whole_line(
            content in "([a-zé]{0,70}|[ \t]{1,3}|\n|\u{2028}){0,40}"
        ) {
            let whole = content.lines().map(one_line).find(|line| !line.is_empty());
            let expected = whole.map(|line| match line.char_indices().nth(MENTION_FIRST_LINE_CHARS) {
                None => line.into_owned(),
                Some((cut, _)) => format!("{}…", line[..cut].trim_end()),
            });
            proptest::prop_assert_eq!(first_line(&content), expected);
        }
    }

    #[test]
    fn a_megabyte_line_is_cut_without_being_joined() {
        let line = "x".repeat(1 << 20);
        let cut = first_line(&line).unwrap_or_default();
        assert_eq!(cut.chars().count(), MENTION_FIRST_LINE_CHARS + 1);
        assert!(cut.ends_with("x…"));
    }
}
