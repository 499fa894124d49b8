//! [`FragmentCosts`]: what an item costs in each tier, from its rendered
//! fragment.

use crate::estimate::{ContentType, Estimator, OnDemandCounts};
use crate::model::ScoredItem;
use crate::model::{ContextItem, Tier};
use crate::payload::demotion::TierCost;
use crate::payload::render::{Entry, Render};

/// Costs from the rendered fragments, estimated as Markdown; contents
/// counted on demand under [`PayloadAssembler::exact_counts`](crate::payload::PayloadAssembler::exact_counts).
pub(crate) struct FragmentCosts<'c, 'a, 'e, T: ?Sized> {
    pub(crate) candidates: &'c [ScoredItem<'a, T>],
    pub(crate) renderer: &'static dyn Render,
    /// LINKED lines invite a fetch.
    pub(crate) fetch: bool,
    pub(crate) estimator: &'e dyn Estimator,
    pub(crate) counts: Option<&'e OnDemandCounts<'e>>,
    pub(crate) buffer: String,
}

impl<T: ContextItem + ?Sized> FragmentCosts<'_, '_, '_, T> {
    /// The estimate of the fragment in the buffer; under exact counts, if
    /// over `room`, any count from `room + 1` up to it: most fragments
    /// offered to a full tier are counted only as far as proves they do
    /// not fit (what [`AssignmentReason`](crate::payload::AssignmentReason)
    /// says of `needed` under exact counts).
    fn fragment(&self, room: u64) -> u64 {
        if self.counts.is_none() {
            return self.estimator.estimate(&self.buffer, ContentType::Markdown);
        }
        self.estimator
            .estimate_up_to(&self.buffer, ContentType::Markdown, room)
            .unwrap_or(room.saturating_add(1))
    }

    /// The LINKED line's cost with `tokens` as the printed size, up to
    /// `room` ([`fragment`](Self::fragment)).
    fn link_line(&mut self, position: usize, tokens: u64, room: u64) -> u64 {
        let candidate = self.candidates[position];
        let entry = Entry::of(candidate.item, position, candidate.score);
        self.buffer.clear();
        self.renderer
            .linked_entry(&mut self.buffer, &entry, tokens, self.fetch);
        self.fragment(room)
    }
}

impl<T: ContextItem + ?Sized> TierCost for FragmentCosts<'_, '_, '_, T> {
    fn cost(&mut self, position: usize, tier: Tier, room: u64) -> u64 {
        let candidate = self.candidates[position];
        let item = candidate.item;
        self.buffer.clear();
        match (tier, self.counts) {
            (Tier::Raw, counts) => {
                let content = item.content();
                // The content alone past the room proves the entry does not
                // fit: most offers end here, without rendering the frame.
                let exact = match counts {
                    None => None,
                    Some(counts) => match counts.up_to(position, &content, room) {
                        Some(exact) => Some(exact),
                        None => return counts.at_least(position),
                    },
                };
                let entry = Entry::raw(item, position, candidate.score);
                self.renderer
                    .raw_entry(&mut self.buffer, &entry, &content, false);
                let content_tokens = exact.unwrap_or_else(|| {
                    candidate
                        .tokens
                        .max(self.estimator.estimate(&content, ContentType::Markdown))
                });
                let frame = self.fragment(room.saturating_sub(content_tokens));
                frame.saturating_add(content_tokens)
            }
            (Tier::Skeleton, counts) => {
                let skeleton = item.skeleton().unwrap_or_default();
                // As in RAW: past the room, one token more proves it.
                let exact = match counts {
                    None => None,
                    Some(counts) => match counts.counter().count_tokens_up_to(&skeleton, room) {
                        Some(exact) => Some(exact),
                        None => return room.saturating_add(1),
                    },
                };
                let entry = Entry::raw(item, position, candidate.score);
                self.renderer
                    .skeleton_entry(&mut self.buffer, &entry, &skeleton, false);
                let skeleton_tokens = exact
                    .unwrap_or_else(|| self.estimator.estimate(&skeleton, ContentType::Markdown));
                let frame = self.fragment(room.saturating_sub(skeleton_tokens));
                frame.saturating_add(skeleton_tokens)
            }
            (Tier::Linked, None) => self.link_line(position, candidate.tokens, room),
            (Tier::Linked, Some(counts)) => {
                if let Some(exact) = counts.known_exact(position) {
                    return self.link_line(position, exact, room);
                }
                // The line with the smallest count the content may have: if
                // even that does not fit, neither does the line with the
                // exact count, which is no shorter.
                let smallest = self.link_line(position, counts.at_least(position), room);
                if smallest > room {
                    return smallest;
                }
                let exact = counts.exact(position, &item.content());
                self.link_line(position, exact, room)
            }
            (Tier::Summary, _) => {
                let entry = Entry::mention(item, position, candidate.score);
                self.renderer.mention_entry(&mut self.buffer, &entry);
                self.fragment(room)
            }
        }
    }

    fn offers(&self, position: usize, tier: Tier) -> bool {
        tier != Tier::Skeleton || self.candidates[position].item.skeleton().is_some()
    }
}
