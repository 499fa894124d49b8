//! [`CountedItem`]: an item as the prompt budget counts it.

use std::borrow::Cow;

use crate::model::{
    ContentType, ContextItem, ContextKind, MetadataValueRef, TagList, Tier, Timestamp,
};

/// `item` with its token count replaced by the prompt's counter: its content
/// plus the separator that joins it to its neighbour in the context message.
pub(crate) struct CountedItem<'a, T> {
    pub item: &'a T,
    pub tokens: i64,
}

impl<T: ContextItem> ContextItem for CountedItem<'_, T> {
    fn content(&self) -> Cow<'_, str> {
        self.item.content()
    }
    fn tokens(&self) -> i64 {
        self.tokens
    }
    fn kind(&self) -> &ContextKind {
        self.item.kind()
    }
    fn content_type(&self) -> ContentType {
        self.item.content_type()
    }
    fn pinned(&self) -> bool {
        false
    }
    fn timestamp(&self) -> Option<Timestamp> {
        self.item.timestamp()
    }
    fn priority(&self) -> Option<i64> {
        self.item.priority()
    }
    fn tags(&self) -> &dyn TagList {
        self.item.tags()
    }
    fn relevance_hint(&self) -> Option<f64> {
        self.item.relevance_hint()
    }
    fn metadata(&self, key: &str) -> Option<MetadataValueRef<'_>> {
        self.item.metadata(key)
    }
    fn relevance(&self) -> Option<f64> {
        self.item.relevance()
    }
    fn tier(&self) -> Option<Tier> {
        self.item.tier()
    }
    fn link(&self) -> Option<&str> {
        self.item.link()
    }
    fn description(&self) -> Option<&str> {
        self.item.description()
    }
    fn group(&self) -> Option<u64> {
        self.item.group()
    }
}
