//! [`TagList`]: read access to an item's tags without copying them.

use std::collections::{BTreeSet, HashSet};

/// A collection of tags an item exposes to scorers.
///
/// Implemented for the usual string collections (`Vec<S>`, `[S; N]`, `&[S]`,
/// `HashSet<S>`, `BTreeSet<S>` with `S: AsRef<str>`) and for `Option` of
/// those. Tag comparison in the pipeline is ASCII case-insensitive.
///
/// ```
/// use budget::model::TagList;
///
/// let tags = vec!["Rust".to_string(), "async".to_string()];
/// assert!(tags.has_tag("rust"));
/// assert_eq!(tags.tag_count(), 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a collection of tags",
    label = "not a `TagList`",
    note = "tags are a `Vec`, array, slice, `HashSet` or `BTreeSet` of `AsRef<str>` values, or an `Option` of one"
)]
pub trait TagList {
    /// Calls `f` with every tag, in the collection's order.
    fn for_each_tag(&self, f: &mut dyn FnMut(&str));

    /// The number of tags.
    fn tag_count(&self) -> usize {
        let mut count = 0;
        self.for_each_tag(&mut |_| count += 1);
        count
    }

    /// Whether a tag equal to `tag` (ASCII case-insensitive) is present.
    fn has_tag(&self, tag: &str) -> bool {
        let mut found = false;
        self.for_each_tag(&mut |t| found |= t.eq_ignore_ascii_case(tag));
        found
    }
}

/// The empty tag list, the default of [`ContextItem::tags`](crate::ContextItem::tags).
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTags;

impl TagList for NoTags {
    fn for_each_tag(&self, _f: &mut dyn FnMut(&str)) {}
    fn tag_count(&self) -> usize {
        0
    }
}

macro_rules! impl_tag_list_for_iterable {
    ($($ty:ty),* $(,)?) => {$(
        impl<S: AsRef<str>> TagList for $ty {
            fn for_each_tag(&self, f: &mut dyn FnMut(&str)) {
                for tag in self.iter() {
                    f(tag.as_ref());
                }
            }
            fn tag_count(&self) -> usize {
                self.len()
            }
        }
    )*};
}

impl_tag_list_for_iterable!(Vec<S>, &[S], HashSet<S>, BTreeSet<S>);

impl<S: AsRef<str>, const N: usize> TagList for [S; N] {
    fn for_each_tag(&self, f: &mut dyn FnMut(&str)) {
        for tag in self {
            f(tag.as_ref());
        }
    }
    fn tag_count(&self) -> usize {
        N
    }
}

impl<L: TagList> TagList for Option<L> {
    fn for_each_tag(&self, f: &mut dyn FnMut(&str)) {
        if let Some(list) = self {
            list.for_each_tag(f);
        }
    }
}

impl<L: TagList + ?Sized> TagList for &L {
    fn for_each_tag(&self, f: &mut dyn FnMut(&str)) {
        (**self).for_each_tag(f);
    }
    fn tag_count(&self) -> usize {
        (**self).tag_count()
    }
}
