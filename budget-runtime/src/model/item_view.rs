//! [`ItemView`]: another item seen with its own token count and pin, every
//! other accessor forwarded.

use std::borrow::Cow;

use crate::estimate::ContentType;
use crate::model::{ContextItem, ContextKind, MetadataValueRef, TagList, Tier, Timestamp};

/// `inner` with `tokens` and `pinned` replaced: a group seen as one
/// candidate, a member pinned with its group, an item counted by another
/// counter before a pipeline run.
///
/// ```
/// use budget::{ContextBudget, ContextItem, Item, Pipeline, model::ItemView};
///
/// let items = [Item::builder("counted by the model's own tokenizer").tokens(9).build()?];
/// let recounted: Vec<ItemView<'_>> =
///     items.iter().map(|item| ItemView { inner: item, tokens: 12, pinned: false }).collect();
/// let selection = Pipeline::builder().build().run(&recounted, &ContextBudget::new(100, 100)?)?;
/// assert_eq!(selection.tokens(), 12);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ItemView<'a> {
    /// The item every other accessor forwards to.
    pub inner: &'a dyn ContextItem,
    /// The tokens this view reports.
    pub tokens: u64,
    /// Whether this view is pinned.
    pub pinned: bool,
}

impl<'a> ItemView<'a> {
    /// `inner`, pinned, with the token count a run read for it (`tokens`).
    pub(crate) fn pinned(inner: &'a dyn ContextItem, tokens: u64) -> Self {
        Self {
            inner,
            tokens,
            pinned: true,
        }
    }
}

impl ContextItem for ItemView<'_> {
    fn content(&self) -> Cow<'_, str> {
        self.inner.content()
    }
    fn tokens(&self) -> u64 {
        self.tokens
    }
    fn kind(&self) -> &ContextKind {
        self.inner.kind()
    }
    fn content_type(&self) -> ContentType {
        self.inner.content_type()
    }
    fn pinned(&self) -> bool {
        self.pinned
    }
    fn timestamp(&self) -> Option<Timestamp> {
        self.inner.timestamp()
    }
    fn priority(&self) -> Option<i64> {
        self.inner.priority()
    }
    fn tags(&self) -> &dyn TagList {
        self.inner.tags()
    }
    fn relevance_hint(&self) -> Option<f64> {
        self.inner.relevance_hint()
    }
    fn metadata(&self, key: &str) -> Option<MetadataValueRef<'_>> {
        self.inner.metadata(key)
    }
    fn relevance(&self) -> Option<f64> {
        self.inner.relevance()
    }
    fn tier(&self) -> Option<Tier> {
        self.inner.tier()
    }
    fn link(&self) -> Option<&str> {
        self.inner.link()
    }
    fn description(&self) -> Option<&str> {
        self.inner.description()
    }
    fn group(&self) -> Option<u64> {
        self.inner.group()
    }
    fn lines(&self) -> Option<std::ops::RangeInclusive<u64>> {
        self.inner.lines()
    }
}
