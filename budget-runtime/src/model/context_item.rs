//! [`ContextItem`]: what the pipeline needs to know about a piece of context.

use std::borrow::Cow;

use crate::estimate::ContentType;
use crate::model::tags::NoTags;
use crate::model::{ContextKind, MetadataValueRef, TagList, Tier, Timestamp};

static DEFAULT_KIND: ContextKind = ContextKind::MESSAGE;

/// A piece of context the pipeline can estimate, score, slice and place.
///
/// Implement it by hand, derive it with `#[derive(ContextItem)]` from the
/// `budget` crate, or use the owned [`Item`](crate::Item). Only
/// [`content`](ContextItem::content) and [`tokens`](ContextItem::tokens) are
/// required; every other accessor has the specification's default. The
/// pipeline reads items through shared references and never copies or
/// mutates them.
///
/// ```
/// use std::borrow::Cow;
/// use budget::{ContextItem, ContextKind, Estimator, estimate::{ContentType, RatioEstimator}};
///
/// struct ToolResult { output: String }
///
/// impl ContextItem for ToolResult {
///     fn content(&self) -> Cow<'_, str> { Cow::Borrowed(&self.output) }
///     fn tokens(&self) -> u64 {
///         RatioEstimator.estimate(&self.output, ContentType::Code)
///     }
///     fn kind(&self) -> &ContextKind {
///         static KIND: ContextKind = ContextKind::TOOL_OUTPUT;
///         &KIND
///     }
/// }
///
/// let r = ToolResult { output: "fn main() {}".into() };
/// assert_eq!(r.tokens(), 4); // 12 chars / 3.5, rounded up
/// assert!(!r.pinned());
/// ```
pub trait ContextItem {
    /// The text that goes in front of the model. Deduplication compares it
    /// byte for byte.
    fn content(&self) -> Cow<'_, str>;

    /// Token count, exact or estimated (tokens).
    ///
    /// Read **once** per [`Pipeline::run`](crate::Pipeline::run) and per
    /// [`ScoredItem::new`](crate::model::ScoredItem::new): every stage, the
    /// report and a payload assembled from the selection use that one
    /// figure. A count that changes between calls therefore cannot make the
    /// stages disagree, but a run sees only the first answer.
    fn tokens(&self) -> u64;

    /// A negative token count declared by the item's source, if any.
    ///
    /// Token counts are unsigned everywhere in this crate; the Cupel
    /// specification alone defines negative counts, as an input the
    /// Classify stage excludes with
    /// [`ExclusionReason::NegativeTokens`](crate::pipeline::ExclusionReason::NegativeTokens)
    /// and adds (negative) to
    /// [`SelectionReport::total_tokens_considered`](crate::pipeline::SelectionReport::total_tokens_considered).
    /// The owned [`Item`](crate::Item) built with
    /// [`ItemBuilder::signed_tokens`](crate::model::ItemBuilder::signed_tokens)
    /// (or deserialized) is where such counts enter. Return `Some` only
    /// with a count below zero; the default is `None`.
    ///
    /// ```
    /// use budget::{ContextItem, Item};
    ///
    /// let item = Item::builder("from a Cupel vector").signed_tokens(-5).build()?;
    /// assert_eq!(item.negative_tokens(), Some(-5));
    /// assert_eq!(item.tokens(), 0);
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    fn negative_tokens(&self) -> Option<i64> {
        None
    }

    /// The item's kind (default [`ContextKind::MESSAGE`]).
    fn kind(&self) -> &ContextKind {
        &DEFAULT_KIND
    }

    /// The content type used for estimation (default [`ContentType::Markdown`]).
    fn content_type(&self) -> ContentType {
        ContentType::Markdown
    }

    /// Pinned items bypass scoring and slicing and are always included.
    /// Read once per pipeline run, like [`tokens`](ContextItem::tokens).
    fn pinned(&self) -> bool {
        false
    }

    /// When the item was created or observed.
    fn timestamp(&self) -> Option<Timestamp> {
        None
    }

    /// Caller priority; higher is more important.
    fn priority(&self) -> Option<i64> {
        None
    }

    /// Descriptive tags (compared ASCII case-insensitively).
    fn tags(&self) -> &dyn TagList {
        &NoTags
    }

    /// The future-relevance hint, conventionally in `0.0..=1.0`.
    fn relevance_hint(&self) -> Option<f64> {
        None
    }

    /// The metadata value under `key`, if any.
    fn metadata(&self, key: &str) -> Option<MetadataValueRef<'_>> {
        let _ = key;
        None
    }

    /// A relevance score the application already has (for example a
    /// retrieval similarity), conventionally in `0.0..=1.0`.
    fn relevance(&self) -> Option<f64> {
        None
    }

    /// The hybrid-payload tier the item asks for; `None` lets the payload
    /// assembler decide from the score.
    fn tier(&self) -> Option<Tier> {
        None
    }

    /// Where the full content can be fetched (path or URL), shown when the
    /// item is demoted to [`Tier::Linked`].
    fn link(&self) -> Option<&str> {
        None
    }

    /// A one-line description, shown for [`Tier::Linked`] and in summaries.
    fn description(&self) -> Option<&str> {
        None
    }

    /// The atomic group the item belongs to, if any: the pipeline includes
    /// the members of a group (items returning the same id) whole or not at
    /// all, whatever the slicer, pins them all when one is pinned, and never
    /// deduplicates them. Use it for an assistant message with tool calls
    /// and every result of those calls (a chat API rejects a call without its
    /// result). Default `None`: the item stands alone.
    ///
    /// ```
    /// use budget::{ContextItem, Item};
    /// let call = Item::builder("read_file(src/lib.rs)").group(7).build()?;
    /// assert_eq!(call.group(), Some(7));
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    fn group(&self) -> Option<u64> {
        None
    }

    /// The lines of its source the content holds (1-based, inclusive), shown
    /// with the [`link`](ContextItem::link) when the item is rendered in
    /// [`Tier::Linked`] or mentioned. Default `None`: unknown.
    ///
    /// ```
    /// use budget::{ContextItem, Item};
    /// let file = Item::builder("a\nb\n").link("notes.txt").lines(1..=2).build()?;
    /// assert_eq!(file.lines(), Some(1..=2));
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    fn lines(&self) -> Option<std::ops::RangeInclusive<u64>> {
        None
    }

    /// The item's outline without bodies (signatures, type definitions and
    /// doc comments), carried in [`Tier::Skeleton`] when the full content
    /// does not fit RAW. Default `None`: the item has no skeleton and goes
    /// from RAW straight to LINKED.
    ///
    /// ```
    /// use budget::{ContextItem, Item};
    /// let file = Item::builder("fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n")
    ///     .skeleton("fn add(a: u32, b: u32) -> u32 { … }\n")
    ///     .build()?;
    /// assert_eq!(file.skeleton().as_deref(), Some("fn add(a: u32, b: u32) -> u32 { … }\n"));
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    fn skeleton(&self) -> Option<Cow<'_, str>> {
        None
    }
}

impl<T: ContextItem + ?Sized> ContextItem for &T {
    fn content(&self) -> Cow<'_, str> {
        (**self).content()
    }
    fn tokens(&self) -> u64 {
        (**self).tokens()
    }
    fn negative_tokens(&self) -> Option<i64> {
        (**self).negative_tokens()
    }
    fn kind(&self) -> &ContextKind {
        (**self).kind()
    }
    fn content_type(&self) -> ContentType {
        (**self).content_type()
    }
    fn pinned(&self) -> bool {
        (**self).pinned()
    }
    fn timestamp(&self) -> Option<Timestamp> {
        (**self).timestamp()
    }
    fn priority(&self) -> Option<i64> {
        (**self).priority()
    }
    fn tags(&self) -> &dyn TagList {
        (**self).tags()
    }
    fn relevance_hint(&self) -> Option<f64> {
        (**self).relevance_hint()
    }
    fn metadata(&self, key: &str) -> Option<MetadataValueRef<'_>> {
        (**self).metadata(key)
    }
    fn relevance(&self) -> Option<f64> {
        (**self).relevance()
    }
    fn tier(&self) -> Option<Tier> {
        (**self).tier()
    }
    fn link(&self) -> Option<&str> {
        (**self).link()
    }
    fn description(&self) -> Option<&str> {
        (**self).description()
    }
    fn group(&self) -> Option<u64> {
        (**self).group()
    }
    fn lines(&self) -> Option<std::ops::RangeInclusive<u64>> {
        (**self).lines()
    }
    fn skeleton(&self) -> Option<Cow<'_, str>> {
        (**self).skeleton()
    }
}
