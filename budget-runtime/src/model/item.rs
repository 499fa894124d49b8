//! [`Item`]: an owned context item with a builder, for dynamic use.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use crate::estimate::{ContentType, DefaultCounter, Estimator};
use crate::model::{
    ContextItem, ContextKind, MetadataValue, MetadataValueRef, TagList, Tier, Timestamp,
};

/// An owned context item: the data-carrying form of [`ContextItem`].
///
/// Use it when items come from configuration, the network or a test vector;
/// for application structs prefer `#[derive(ContextItem)]`, which borrows.
///
/// ```
/// use budget::{ContextItem, ContextKind, Item};
///
/// let item = Item::builder("The deploy failed at step 3.")
///     .kind(ContextKind::TOOL_OUTPUT)
///     .priority(5)
///     .tag("ci")
///     .build()?;
/// assert_eq!(item.tokens(), 8); // estimated: 28 chars / 3.75, rounded up
/// assert!(item.tags().has_tag("CI"));
/// # Ok::<(), budget::model::ItemError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Item {
    content: String,
    tokens: DeclaredTokens,
    kind: ContextKind,
    content_type: ContentType,
    pinned: bool,
    timestamp: Option<Timestamp>,
    priority: Option<i64>,
    tags: Vec<String>,
    relevance_hint: Option<f64>,
    metadata: BTreeMap<String, MetadataValue>,
    relevance: Option<f64>,
    tier: Option<Tier>,
    link: Option<String>,
    description: Option<String>,
    original_tokens: Option<u64>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    group: Option<u64>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    lines: Option<RangeInclusive<u64>>,
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    skeleton: Option<String>,
}

impl Item {
    /// An item with `content` and an exact token count, every other field at
    /// its default.
    ///
    /// # Errors
    /// [`ItemError::EmptyContent`] if `content` is empty.
    pub fn new(content: impl Into<String>, tokens: u64) -> Result<Self, ItemError> {
        Self::builder(content).tokens(tokens).build()
    }

    /// A builder for an item with `content`.
    pub fn builder(content: impl Into<String>) -> ItemBuilder {
        ItemBuilder {
            item: Item {
                content: content.into(),
                tokens: DeclaredTokens::Count(0),
                kind: ContextKind::MESSAGE,
                content_type: ContentType::Markdown,
                pinned: false,
                timestamp: None,
                priority: None,
                tags: Vec::new(),
                relevance_hint: None,
                metadata: BTreeMap::new(),
                relevance: None,
                tier: None,
                link: None,
                description: None,
                original_tokens: None,
                group: None,
                lines: None,
                skeleton: None,
            },
            tokens: None,
        }
    }

    /// The token count before any external summarization, for diagnostics.
    pub fn original_tokens(&self) -> Option<u64> {
        self.original_tokens
    }

    /// All metadata entries.
    pub fn metadata_entries(&self) -> &BTreeMap<String, MetadataValue> {
        &self.metadata
    }

    /// The tags as strings.
    pub fn tag_slice(&self) -> &[String] {
        &self.tags
    }
}

impl ContextItem for Item {
    fn content(&self) -> Cow<'_, str> {
        Cow::Borrowed(&self.content)
    }
    fn tokens(&self) -> u64 {
        match self.tokens {
            DeclaredTokens::Count(tokens) => tokens,
            DeclaredTokens::Negative(_) => 0,
        }
    }
    fn negative_tokens(&self) -> Option<i64> {
        match self.tokens {
            DeclaredTokens::Count(_) => None,
            DeclaredTokens::Negative(tokens) => Some(tokens),
        }
    }
    fn kind(&self) -> &ContextKind {
        &self.kind
    }
    fn content_type(&self) -> ContentType {
        self.content_type
    }
    fn pinned(&self) -> bool {
        self.pinned
    }
    fn timestamp(&self) -> Option<Timestamp> {
        self.timestamp
    }
    fn priority(&self) -> Option<i64> {
        self.priority
    }
    fn tags(&self) -> &dyn TagList {
        &self.tags
    }
    fn relevance_hint(&self) -> Option<f64> {
        self.relevance_hint
    }
    fn metadata(&self, key: &str) -> Option<MetadataValueRef<'_>> {
        self.metadata.get(key).map(MetadataValue::as_ref)
    }
    fn relevance(&self) -> Option<f64> {
        self.relevance
    }
    fn tier(&self) -> Option<Tier> {
        self.tier
    }
    fn link(&self) -> Option<&str> {
        self.link.as_deref()
    }
    fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }
    fn group(&self) -> Option<u64> {
        self.group
    }
    fn lines(&self) -> Option<RangeInclusive<u64>> {
        self.lines.clone()
    }
    fn skeleton(&self) -> Option<Cow<'_, str>> {
        self.skeleton.as_deref().map(Cow::Borrowed)
    }
}

/// Builds an [`Item`]; see [`Item::builder`].
///
/// Without [`tokens`](ItemBuilder::tokens), the count is estimated from the
/// content with the [`DefaultCounter`] (exact `o200k_base` by default);
/// [`build_with`](ItemBuilder::build_with) takes another counter.
#[derive(Clone, Debug)]
#[must_use = "call .build() to get the item"]
pub struct ItemBuilder {
    item: Item,
    tokens: Option<DeclaredTokens>,
}

/// A token count as the item's source declared it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DeclaredTokens {
    Count(u64),
    /// Below zero: only the Cupel conformance format declares these.
    Negative(i64),
}

impl DeclaredTokens {
    /// The one conversion from a signed count: non-negative counts become
    /// `u64` counts, negative ones stay negative for the Classify stage.
    fn from_signed(tokens: i64) -> Self {
        match u64::try_from(tokens) {
            Ok(count) => Self::Count(count),
            Err(_) => Self::Negative(tokens),
        }
    }
}

impl ItemBuilder {
    /// An exact token count (tokens).
    pub fn tokens(mut self, tokens: u64) -> Self {
        self.tokens = Some(DeclaredTokens::Count(tokens));
        self
    }

    /// An exact token count that may be negative, as the Cupel conformance
    /// format allows. A count `>= 0` is the same as
    /// [`tokens`](ItemBuilder::tokens); a negative count makes
    /// [`ContextItem::negative_tokens`] return it (and
    /// [`ContextItem::tokens`] 0), so the pipeline excludes the item with
    /// [`ExclusionReason::NegativeTokens`](crate::pipeline::ExclusionReason::NegativeTokens).
    ///
    /// ```
    /// use budget::{ContextItem, Item};
    ///
    /// let item = Item::builder("x").signed_tokens(7).build()?;
    /// assert_eq!((item.tokens(), item.negative_tokens()), (7, None));
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    pub fn signed_tokens(mut self, tokens: i64) -> Self {
        self.tokens = Some(DeclaredTokens::from_signed(tokens));
        self
    }
    /// The kind (default `Message`).
    pub fn kind(mut self, kind: ContextKind) -> Self {
        self.item.kind = kind;
        self
    }
    /// The content type used for estimation (default markdown).
    pub fn content_type(mut self, content_type: ContentType) -> Self {
        self.item.content_type = content_type;
        self
    }
    /// Pins the item: always included, never scored or sliced.
    pub fn pinned(mut self, pinned: bool) -> Self {
        self.item.pinned = pinned;
        self
    }
    /// When the item was created or observed.
    pub fn timestamp(mut self, timestamp: impl Into<Timestamp>) -> Self {
        self.item.timestamp = Some(timestamp.into());
        self
    }
    /// Caller priority; higher is more important.
    pub fn priority(mut self, priority: i64) -> Self {
        self.item.priority = Some(priority);
        self
    }
    /// Adds one tag.
    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.item.tags.push(tag.into());
        self
    }
    /// Adds several tags.
    pub fn tags<I: IntoIterator<Item = S>, S: Into<String>>(mut self, tags: I) -> Self {
        self.item.tags.extend(tags.into_iter().map(Into::into));
        self
    }
    /// The future-relevance hint.
    pub fn relevance_hint(mut self, hint: f64) -> Self {
        self.item.relevance_hint = Some(hint);
        self
    }
    /// Adds a metadata entry (a later entry with the same key replaces it).
    pub fn metadata(mut self, key: impl Into<String>, value: impl Into<MetadataValue>) -> Self {
        self.item.metadata.insert(key.into(), value.into());
        self
    }
    /// An application relevance score.
    pub fn relevance(mut self, relevance: f64) -> Self {
        self.item.relevance = Some(relevance);
        self
    }
    /// A fixed hybrid-payload tier.
    pub fn tier(mut self, tier: Tier) -> Self {
        self.item.tier = Some(tier);
        self
    }
    /// Where the full content lives (path or URL).
    pub fn link(mut self, link: impl Into<String>) -> Self {
        self.item.link = Some(link.into());
        self
    }
    /// A one-line description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.item.description = Some(description.into());
        self
    }
    /// The token count before external summarization.
    pub fn original_tokens(mut self, tokens: u64) -> Self {
        self.item.original_tokens = Some(tokens);
        self
    }

    /// The item's skeleton, its outline without bodies (see
    /// [`ContextItem::skeleton`]); an empty one is no skeleton.
    pub fn skeleton(mut self, skeleton: impl Into<String>) -> Self {
        self.item.skeleton = Some(skeleton.into()).filter(|s| !s.is_empty());
        self
    }

    /// The atomic group the item belongs to (see [`ContextItem::group`]).
    pub fn group(mut self, group: u64) -> Self {
        self.item.group = Some(group);
        self
    }

    /// The lines of its source the content holds (1-based, inclusive; see
    /// [`ContextItem::lines`]).
    ///
    /// ```
    /// use budget::{ContextItem, Item};
    /// let hunk = Item::builder("fn main() {}").link("src/main.rs").lines(40..=52).build()?;
    /// assert_eq!(hunk.lines(), Some(40..=52));
    /// assert!(Item::builder("x").lines(0..=3).build().is_err()); // lines start at 1
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    pub fn lines(mut self, lines: RangeInclusive<u64>) -> Self {
        self.item.lines = Some(lines);
        self
    }

    /// The item.
    ///
    /// # Errors
    /// [`ItemError::EmptyContent`] if the content is empty;
    /// [`ItemError::InvalidLines`] if a line range starts at 0 or ends
    /// before it starts.
    pub fn build(self) -> Result<Item, ItemError> {
        self.build_with(&DefaultCounter)
    }

    /// The item, its token count (unless given with
    /// [`tokens`](ItemBuilder::tokens)) taken from `estimator` for the
    /// item's content type: a calibrated estimator, or an exact counter
    /// (every [`TokenCounter`](crate::estimate::TokenCounter) is an [`Estimator`]).
    ///
    /// # Errors
    /// As [`build`](Self::build).
    ///
    /// ```
    /// use budget::{ContextItem, Item, estimate::{CalibratedEstimator, ContentType, Encoding}};
    ///
    /// let estimator = CalibratedEstimator::new(Encoding::O200kBase);
    /// let item = Item::builder("東京の天気は晴れです")
    ///     .content_type(ContentType::Prose)
    ///     .build_with(&estimator)?;
    /// assert!(item.tokens() >= 8); // exact o200k_base count: 8; fixed ratios say 3
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    pub fn build_with(self, estimator: &dyn Estimator) -> Result<Item, ItemError> {
        let mut item = self.item;
        if item.content.is_empty() {
            return Err(ItemError::EmptyContent);
        }
        if let Some(lines) = &item.lines
            && (*lines.start() == 0 || lines.end() < lines.start())
        {
            return Err(ItemError::InvalidLines {
                start: *lines.start(),
                end: *lines.end(),
            });
        }
        item.tokens = match self.tokens {
            Some(declared) => declared,
            None => DeclaredTokens::Count(estimator.estimate(&item.content, item.content_type)),
        };
        Ok(item)
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::*;

    /// Serialized as the number it was declared as (negative ones too).
    impl serde::Serialize for DeclaredTokens {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            match *self {
                Self::Count(tokens) => serializer.serialize_u64(tokens),
                Self::Negative(tokens) => serializer.serialize_i64(tokens),
            }
        }
    }

    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Raw {
        content: String,
        #[serde(default)]
        tokens: Option<i64>,
        #[serde(default)]
        kind: Option<ContextKind>,
        #[serde(default)]
        content_type: Option<ContentType>,
        #[serde(default)]
        pinned: bool,
        #[serde(default)]
        timestamp: Option<Timestamp>,
        #[serde(default)]
        priority: Option<i64>,
        #[serde(default)]
        tags: Vec<String>,
        #[serde(default)]
        relevance_hint: Option<f64>,
        #[serde(default)]
        metadata: BTreeMap<String, MetadataValue>,
        #[serde(default)]
        relevance: Option<f64>,
        #[serde(default)]
        tier: Option<Tier>,
        #[serde(default)]
        link: Option<String>,
        #[serde(default)]
        description: Option<String>,
        #[serde(default)]
        original_tokens: Option<u64>,
        #[serde(default)]
        group: Option<u64>,
        #[serde(default)]
        lines: Option<RangeInclusive<u64>>,
        #[serde(default)]
        skeleton: Option<String>,
    }

    impl<'de> serde::Deserialize<'de> for Item {
        /// Deserializes and validates (empty content is an error); a missing
        /// `tokens` is estimated.
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let raw = Raw::deserialize(deserializer)?;
            let mut builder = Item::builder(raw.content);
            builder.tokens = raw.tokens.map(DeclaredTokens::from_signed);
            builder.item.kind = raw.kind.unwrap_or_default();
            builder.item.content_type = raw.content_type.unwrap_or_default();
            builder.item.pinned = raw.pinned;
            builder.item.timestamp = raw.timestamp;
            builder.item.priority = raw.priority;
            builder.item.tags = raw.tags;
            builder.item.relevance_hint = raw.relevance_hint;
            builder.item.metadata = raw.metadata;
            builder.item.relevance = raw.relevance;
            builder.item.tier = raw.tier;
            builder.item.link = raw.link;
            builder.item.description = raw.description;
            builder.item.original_tokens = raw.original_tokens;
            builder.item.group = raw.group;
            builder.item.lines = raw.lines;
            builder.item.skeleton = raw.skeleton.filter(|s| !s.is_empty());
            builder.build().map_err(serde::de::Error::custom)
        }
    }
}

/// An [`Item`](crate::Item) could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ItemError {
    /// The specification requires non-empty content.
    #[error("item content must not be empty")]
    EmptyContent,
    /// A line range must start at line 1 or later and not end before it
    /// starts.
    #[error(
        "line range {start}..={end} is invalid: lines are numbered from 1 and a range must not end before it starts"
    )]
    InvalidLines {
        /// The first line given.
        start: u64,
        /// The last line given.
        end: u64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_content_is_rejected() {
        assert_eq!(Item::new("", 3), Err(ItemError::EmptyContent));
    }

    #[test]
    fn explicit_tokens_override_the_estimate() {
        let item = Item::builder("hello world")
            .signed_tokens(-4)
            .build()
            .unwrap();
        assert_eq!(item.negative_tokens(), Some(-4));
        assert_eq!(item.tokens(), 0);
        let ratios = Item::builder("hello world")
            .content_type(ContentType::Prose)
            .build_with(&crate::estimate::RatioEstimator)
            .unwrap();
        assert_eq!(ratios.tokens(), 3); // 11 chars / 4.0 → 2.75 → 3
        let default = Item::builder("hello world").build().unwrap();
        #[cfg(feature = "o200k")]
        assert_eq!(default.tokens(), 2); // exact o200k_base: "hello", " world"
        #[cfg(not(feature = "o200k"))]
        assert_eq!(default.tokens(), 11); // the UTF-8 length
    }

    #[test]
    fn accessors_return_what_was_built() {
        let ts = Timestamp::from_unix_seconds(1_700_000_000);
        let item = Item::builder("x")
            .tokens(1)
            .kind(ContextKind::MEMORY)
            .pinned(true)
            .timestamp(ts)
            .priority(-3)
            .tags(["a", "B"])
            .relevance_hint(0.25)
            .metadata("cupel:trust", 0.5)
            .relevance(0.9)
            .tier(Tier::Linked)
            .link("docs/a.md")
            .description("A doc")
            .original_tokens(10)
            .build()
            .unwrap();
        assert_eq!(item.kind(), &ContextKind::MEMORY);
        assert!(item.pinned());
        assert_eq!(item.timestamp(), Some(ts));
        assert_eq!(item.priority(), Some(-3));
        assert!(item.tags().has_tag("b"));
        assert_eq!(item.tags().tag_count(), 2);
        assert_eq!(item.relevance_hint(), Some(0.25));
        assert_eq!(
            item.metadata("cupel:trust"),
            Some(MetadataValueRef::Float(0.5))
        );
        assert_eq!(item.metadata("missing"), None);
        assert_eq!(item.relevance(), Some(0.9));
        assert_eq!(item.tier(), Some(Tier::Linked));
        assert_eq!(item.link(), Some("docs/a.md"));
        assert_eq!(item.description(), Some("A doc"));
        assert_eq!(item.original_tokens(), Some(10));
    }
}
