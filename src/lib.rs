//! Token budgets for LLM context windows.
//!
//! `budget` is the facade over two crates: `budget-runtime` (budgets,
//! estimation, the selection pipeline, payload assembly, compaction, budget
//! contracts) and `budget-derive` (`#[derive(ContextItem)]` and `budget!`).
//! Everything is re-exported here.
//!
#![doc = include_str!("docs/budget_macro.md")]
#![forbid(unsafe_code)]

pub use budget_derive::budget;
pub use budget_runtime::*;

/// Implements [`ContextItem`](trait@ContextItem) for a struct or an enum
/// from `#[context(...)]` attributes. The impl reads the fields in place:
/// nothing is copied, and a single content field is returned borrowed.
/// For a struct it also implements [`EstimationRatio`].
///
/// ```
/// use budget::{ContextItem, ContextKind, Tier};
///
/// #[derive(ContextItem)]
/// #[context(kind = "Document", tiers(raw = 0.8, linked = 0.5))]
/// struct SearchHit<'a> {
///     #[context(content, content_type = "prose")]
///     title: &'a str,
///     #[context(content)]
///     body: String,
///     #[context(score)]
///     similarity: f64,
///     #[context(link)]
///     url: &'a str,
///     cache_key: u64, // no attribute: ignored
/// }
///
/// let hit = SearchHit {
///     title: "Ownership",
///     body: "Each value has one owner.".into(),
///     similarity: 0.6,
///     url: "book/ch04-01.html",
///     cache_key: 7,
/// };
/// assert_eq!(hit.content(), "Ownership\n\nEach value has one owner.");
/// // 9 chars as prose → 3, separator → 1, 25 chars as markdown → 7
/// assert_eq!(hit.tokens(), 11);
/// assert_eq!(*hit.kind(), ContextKind::DOCUMENT);
/// assert_eq!(hit.tier(), Some(Tier::Linked));
/// assert_eq!(hit.link(), Some("book/ch04-01.html"));
/// ```
///
/// # Container attributes
///
/// On the struct, or on an enum variant with fields:
///
/// | attribute | meaning | default |
/// |---|---|---|
/// | `kind = "ToolOutput"` | the [`ContextKind`]: one word; the well-known kinds are `Message`, `Document`, `ToolOutput`, `Memory`, `SystemPrompt` | `Message` |
/// | `content_type = "code"` | the [`ContentType`] (`code`, `prose`, `yaml`, `markdown`) whose seed ratio estimates the content fields | `markdown` |
/// | `tier = "raw"` | a fixed [`Tier`] (`raw`, `linked`, `summary`) | from the score |
/// | `tiers(raw = 0.7, linked = 0.4)` | score thresholds, within `0.0..=1.0`, `raw >= linked`: a score `>= raw` is RAW, `>= linked` LINKED, else SUMMARY; needs a `score` field | `raw = 0.7, linked = 0.4` |
/// | `crate = "path"` | where the `budget` crate is, if renamed (struct or enum only) | `::budget` |
///
/// # Field attributes
///
/// A field has at most one role; unannotated fields are ignored.
///
/// | attribute | field type | accessor |
/// |---|---|---|
/// | `content` | any `AsRef<str>`: `String`, `&str`, `Cow<str>`, … ([`TextField`]) | `content()`, `tokens()` |
/// | `content, content_type = "code"` | as above, estimated at its own ratio | |
/// | `tokens` | an integer or `Option` of one ([`IntegerField`]): an exact count that replaces the estimate when present | `tokens()` |
/// | `score` | `f64`, `f32` or `Option` of them ([`FloatField`]); NaN counts as no score | `relevance()`, `tier()` |
/// | `score, scale = 10` | a score on a 0–10 scale, divided by 10 | |
/// | `pinned` | `bool` ([`FlagField`]) | `pinned()` |
/// | `timestamp` | `SystemTime`, [`Timestamp`], `chrono::DateTime<Utc>` (feature `chrono`), optional ([`TimestampField`]) | `timestamp()` |
/// | `priority` | an integer or `Option` of one | `priority()` |
/// | `tags` | a `Vec`, array, slice or set of strings ([`TagList`]) | `tags()` |
/// | `hint` | `f64` or `Option<f64>` | `relevance_hint()` |
/// | `metadata` | a `HashMap` or `BTreeMap` of string to value ([`MetadataMap`]) | `metadata(key)` |
/// | `link` | a path or URL, optional ([`OptionalTextField`]) | `link()` |
/// | `description` | a one-line description, optional | `description()` |
/// | `skip` | anything: the field is ignored | |
///
/// # Token estimate
///
/// Without a `tokens` field (or when it is `None`) the estimate is computed
/// on each call, without allocating, by [`seed_estimate_parts`]: each content
/// field costs `seed_estimate(count_chars(field), its content type)`, and
/// each blank line joining two content fields costs
/// [`PART_SEPARATOR_TOKENS`] (1). With one content field this is exactly
/// [`SeedEstimator`]'s estimate. Several content fields are joined in
/// declaration order by [`join_parts`].
///
/// # Enums
///
/// A newtype variant without attributes forwards every accessor to the
/// value it wraps; a variant with `#[context]` fields is read like a struct.
///
/// ```
/// use budget::{ContextItem, ContextKind};
///
/// #[derive(ContextItem)]
/// struct Note {
///     #[context(content)]
///     text: String,
/// }
///
/// #[derive(ContextItem)]
/// enum Entry {
///     Note(Note),
///     #[context(kind = "ToolOutput", content_type = "code")]
///     Tool(#[context(content)] String, #[context(tokens)] Option<u32>),
/// }
///
/// let tool = Entry::Tool("exit status 1".into(), Some(5));
/// assert_eq!(*tool.kind(), ContextKind::TOOL_OUTPUT);
/// assert_eq!(tool.tokens(), 5);
/// let note = Entry::Note(Note { text: "hello".into() });
/// assert_eq!(note.tokens(), 2); // 5 chars / 3.75, rounded up
/// ```
///
/// # Errors
///
/// Misuse is a compile error at the offending token, with every bad
/// attribute of the item reported at once: unknown keys (with the closest
/// valid one), duplicates, a missing `content` field, bad kinds, content
/// types, tiers or thresholds, and field types that do not fit their role.
/// Generic field types get the matching bound (`T: TextField`, …).
#[doc(inline)]
pub use budget_derive::ContextItem;

#[doc(hidden)]
pub mod __private {
    pub use budget_runtime;
    pub use std;
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
