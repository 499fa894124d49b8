//! Item metadata: [`MetadataValue`] (owned), [`MetadataValueRef`] (borrowed)
//! and [`MetadataMap`], read access to a map of them.

use std::borrow::{Borrow, Cow};
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::hash::{BuildHasher, Hash};

/// A borrowed metadata value, as scorers read it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum MetadataValueRef<'a> {
    /// A string.
    Str(&'a str),
    /// A floating-point number.
    Float(f64),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl MetadataValueRef<'_> {
    /// The value as a number: floats and integers as they are, strings parsed
    /// as `f64` (after trimming); `None` for booleans and unparseable strings.
    pub fn as_f64(self) -> Option<f64> {
        match self {
            Self::Float(v) => Some(v),
            Self::Int(v) => Some(v as f64),
            Self::Str(s) => s.trim().parse().ok(),
            Self::Bool(_) => None,
        }
    }

    /// Whether the value's text form equals `expected` exactly (numbers and
    /// booleans compare by their `Display` form).
    pub fn text_equals(self, expected: &str) -> bool {
        match self {
            Self::Str(s) => s == expected,
            other => other.to_string() == expected,
        }
    }
}

impl fmt::Display for MetadataValueRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Str(s) => f.write_str(s),
            Self::Float(v) => write!(f, "{v}"),
            Self::Int(v) => write!(f, "{v}"),
            Self::Bool(v) => write!(f, "{v}"),
        }
    }
}

/// An owned metadata value, stored by [`Item`](crate::Item).
///
/// ```
/// use budget::model::MetadataValue;
///
/// let v = MetadataValue::from("0.8");
/// assert_eq!(v.as_ref().as_f64(), Some(0.8));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
#[non_exhaustive]
pub enum MetadataValue {
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// A string.
    String(String),
}

impl MetadataValue {
    /// A borrowed view of this value.
    pub fn as_ref(&self) -> MetadataValueRef<'_> {
        match self {
            Self::String(s) => MetadataValueRef::Str(s),
            Self::Float(v) => MetadataValueRef::Float(*v),
            Self::Int(v) => MetadataValueRef::Int(*v),
            Self::Bool(v) => MetadataValueRef::Bool(*v),
        }
    }
}

impl From<&str> for MetadataValue {
    fn from(v: &str) -> Self {
        Self::String(v.to_owned())
    }
}
impl From<String> for MetadataValue {
    fn from(v: String) -> Self {
        Self::String(v)
    }
}
impl From<f64> for MetadataValue {
    fn from(v: f64) -> Self {
        Self::Float(v)
    }
}
impl From<i64> for MetadataValue {
    fn from(v: i64) -> Self {
        Self::Int(v)
    }
}
impl From<bool> for MetadataValue {
    fn from(v: bool) -> Self {
        Self::Bool(v)
    }
}

/// A value type that can be read as a [`MetadataValueRef`].
pub trait AsMetadataValue {
    /// The borrowed view.
    fn as_metadata_value(&self) -> MetadataValueRef<'_>;
}

impl AsMetadataValue for MetadataValue {
    fn as_metadata_value(&self) -> MetadataValueRef<'_> {
        self.as_ref()
    }
}
impl AsMetadataValue for String {
    fn as_metadata_value(&self) -> MetadataValueRef<'_> {
        MetadataValueRef::Str(self)
    }
}
impl AsMetadataValue for &str {
    fn as_metadata_value(&self) -> MetadataValueRef<'_> {
        MetadataValueRef::Str(self)
    }
}
impl AsMetadataValue for Cow<'_, str> {
    fn as_metadata_value(&self) -> MetadataValueRef<'_> {
        MetadataValueRef::Str(self)
    }
}
impl AsMetadataValue for f64 {
    fn as_metadata_value(&self) -> MetadataValueRef<'_> {
        MetadataValueRef::Float(*self)
    }
}
impl AsMetadataValue for i64 {
    fn as_metadata_value(&self) -> MetadataValueRef<'_> {
        MetadataValueRef::Int(*self)
    }
}
impl AsMetadataValue for bool {
    fn as_metadata_value(&self) -> MetadataValueRef<'_> {
        MetadataValueRef::Bool(*self)
    }
}

/// A map from string keys to metadata values, read by key.
///
/// Implemented for `HashMap` and `BTreeMap` with keys that borrow as `str`
/// and values implementing [`AsMetadataValue`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a metadata map",
    label = "not a `MetadataMap`",
    note = "metadata is a `HashMap` or `BTreeMap` with `str`-like keys and `String`, `&str`, `f64`, `i64`, `bool` or `MetadataValue` values, or an `Option` of one"
)]
pub trait MetadataMap {
    /// The value stored under `key`, if any.
    fn metadata_value(&self, key: &str) -> Option<MetadataValueRef<'_>>;
}

impl<K, V, S> MetadataMap for HashMap<K, V, S>
where
    K: Borrow<str> + Hash + Eq,
    V: AsMetadataValue,
    S: BuildHasher,
{
    fn metadata_value(&self, key: &str) -> Option<MetadataValueRef<'_>> {
        self.get(key).map(AsMetadataValue::as_metadata_value)
    }
}

impl<K, V> MetadataMap for BTreeMap<K, V>
where
    K: Borrow<str> + Ord,
    V: AsMetadataValue,
{
    fn metadata_value(&self, key: &str) -> Option<MetadataValueRef<'_>> {
        self.get(key).map(AsMetadataValue::as_metadata_value)
    }
}

impl<M: MetadataMap> MetadataMap for Option<M> {
    fn metadata_value(&self, key: &str) -> Option<MetadataValueRef<'_>> {
        self.as_ref().and_then(|m| m.metadata_value(key))
    }
}

impl<M: MetadataMap + ?Sized> MetadataMap for &M {
    fn metadata_value(&self, key: &str) -> Option<MetadataValueRef<'_>> {
        (**self).metadata_value(key)
    }
}
