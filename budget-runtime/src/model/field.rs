//! Field adapters: how `#[derive(ContextItem)]` reads the fields of a user
//! struct. Each trait turns the field types one attribute accepts into what
//! the matching [`ContextItem`](crate::ContextItem) accessor returns, without
//! copying.
//!
//! | attribute            | trait                  | accepted field types |
//! |----------------------|------------------------|----------------------|
//! | `content`            | [`TextField`]          | anything `AsRef<str>`: `String`, `&str`, `Cow<str>`, `Box<str>`, `Arc<str>`, … |
//! | `link`, `description`, `skeleton` | [`OptionalTextField`] | `String`, `&str`, `Cow<str>`, `Box<str>`, `Rc<str>`, `Arc<str>`, and `Option` of any text type |
//! | `tokens`             | [`TokenCountField`]    | every unsigned primitive integer and `Option` of one |
//! | `priority`           | [`IntegerField`]       | every primitive integer and `Option` of one |
//! | `score`, `hint`      | [`FloatField`]         | `f64`, `f32` and `Option` of them |
//! | `pinned`             | [`FlagField`]          | `bool`, `Option<bool>` (`None` is `false`) |
//! | `timestamp`          | [`TimestampField`]     | [`Timestamp`], `SystemTime`, `chrono::DateTime<Utc>` (feature `chrono`), and `Option` of them |
//! | `group`              | [`GroupField`]         | `u64`, `u32`, `u16`, `u8` and `Option` of them |
//!
//! The traits are sealed: which field types are accepted is this module's
//! decision, so the traits can gain methods without breaking anyone. Store
//! another type as one of the accepted ones, or implement
//! [`ContextItem`](crate::ContextItem) by hand.
//!
//! ```compile_fail
//! use budget::__private_v0_1::budget_runtime::__derive::FlagField;
//!
//! struct Toggle(bool);
//!
//! // error[E0277]: the trait bound `Toggle: Sealed<Flag>` is not satisfied
//! impl FlagField for Toggle {
//!     fn as_flag(&self) -> bool {
//!         self.0
//!     }
//! }
//! ```

use std::borrow::Cow;
use std::rc::Rc;
use std::sync::Arc;
use std::time::SystemTime;

use crate::model::Timestamp;

/// The seal: a private supertrait, implemented for exactly the types that
/// implement the adapter named by its parameter, which nothing outside this
/// crate can name.
mod sealed {
    pub trait Sealed<Adapter: ?Sized> {}

    /// [`super::TextField`]'s seal. Its impl is a blanket one over
    /// `AsRef<str>`, so rustc reports a non-text field against the seal,
    /// not against `TextField`: the seal carries the same diagnostic.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is not a text type, so it cannot be a `#[context(content)]` field",
        label = "not `AsRef<str>`",
        note = "a content field is `String`, `&str`, `Cow<str>` or any other type that implements `AsRef<str>`"
    )]
    pub trait Text {}

    pub struct OptionalText;
    pub struct Integer;
    pub struct TokenCount;
    pub struct Group;
    pub struct Float;
    pub struct Flag;
    pub struct Instant;
}

use sealed::Sealed;

/// A field that holds an item's text (`#[context(content)]`).
///
/// Implemented for every `AsRef<str>` type.
///
/// ```
/// use std::borrow::Cow;
/// use budget::__private_v0_1::budget_runtime::__derive::TextField;
///
/// assert_eq!(TextField::as_text(&String::from("a")), "a");
/// assert_eq!(TextField::as_text(&Cow::Borrowed("b")), "b");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a text type, so it cannot be a `#[context(content)]` field",
    label = "not `AsRef<str>`",
    note = "a content field is `String`, `&str`, `Cow<str>` or any other type that implements `AsRef<str>`"
)]
pub trait TextField: sealed::Text {
    /// The text, borrowed from the field.
    fn as_text(&self) -> &str;
}

impl<T: AsRef<str> + ?Sized> sealed::Text for T {}

impl<T: AsRef<str> + ?Sized> TextField for T {
    #[inline]
    fn as_text(&self) -> &str {
        self.as_ref()
    }
}

/// A field that may hold a short text: a link or a description
/// (`#[context(link)]`, `#[context(description)]`).
///
/// ```
/// use budget::__private_v0_1::budget_runtime::__derive::OptionalTextField;
///
/// assert_eq!(OptionalTextField::as_optional_text(&"docs/a.md"), Some("docs/a.md"));
/// assert_eq!(OptionalTextField::as_optional_text(&None::<String>), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a `#[context(link)]`, `#[context(description)]` or `#[context(skeleton)]` field",
    label = "not a text type or an `Option` of one",
    note = "use `String`, `&str`, `Cow<str>`, `Box<str>`, `Rc<str>`, `Arc<str>`, or an `Option` of an `AsRef<str>` type"
)]
pub trait OptionalTextField: Sealed<sealed::OptionalText> {
    /// The text, if the field holds one.
    fn as_optional_text(&self) -> Option<&str>;
}

macro_rules! impl_optional_text_for_text {
    ($($ty:ty),* $(,)?) => {$(
        impl Sealed<sealed::OptionalText> for $ty {}

        impl OptionalTextField for $ty {
            #[inline]
            fn as_optional_text(&self) -> Option<&str> {
                Some(self.as_ref())
            }
        }
    )*};
}

impl_optional_text_for_text!(String, str, Cow<'_, str>, Box<str>, Rc<str>, Arc<str>);

impl<T: OptionalTextField + ?Sized> Sealed<sealed::OptionalText> for &T {}

impl<T: OptionalTextField + ?Sized> OptionalTextField for &T {
    #[inline]
    fn as_optional_text(&self) -> Option<&str> {
        (**self).as_optional_text()
    }
}

impl<T: AsRef<str>> Sealed<sealed::OptionalText> for Option<T> {}

impl<T: AsRef<str>> OptionalTextField for Option<T> {
    #[inline]
    fn as_optional_text(&self) -> Option<&str> {
        self.as_ref().map(AsRef::as_ref)
    }
}

/// A field that may hold an integer: a priority (`#[context(priority)]`).
///
/// Values outside the `i64` range saturate to `i64::MIN` / `i64::MAX`.
///
/// ```
/// use budget::__private_v0_1::budget_runtime::__derive::IntegerField;
///
/// assert_eq!(IntegerField::as_integer(&42u32), Some(42));
/// assert_eq!(IntegerField::as_integer(&None::<i64>), None);
/// assert_eq!(IntegerField::as_integer(&u64::MAX), Some(i64::MAX));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an integer, so it cannot be a `#[context(priority)]` field",
    label = "not an integer or an `Option` of one",
    note = "use a primitive integer type (`i64`, `u32`, `usize`, …) or an `Option` of one"
)]
pub trait IntegerField: Sealed<sealed::Integer> {
    /// The value as `i64` (saturating), if the field holds one.
    fn as_integer(&self) -> Option<i64>;
}

macro_rules! impl_integer_field {
    ($($ty:ty),* $(,)?) => {$(
        impl Sealed<sealed::Integer> for $ty {}

        impl IntegerField for $ty {
            #[inline]
            fn as_integer(&self) -> Option<i64> {
                Some(match i64::try_from(*self) {
                    Ok(value) => value,
                    // Only values beyond the i64 range fail; keep their sign.
                    Err(_) if *self > 0 => i64::MAX,
                    Err(_) => i64::MIN,
                })
            }
        }
    )*};
}

impl_integer_field!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);

/// A field that may hold an exact token count (`#[context(tokens)]`).
///
/// Token counts are unsigned: implemented for the unsigned primitive
/// integers and `Option` of them. `u128` values beyond `u64::MAX` saturate.
///
/// ```
/// use budget::__private_v0_1::budget_runtime::__derive::TokenCountField;
///
/// assert_eq!(TokenCountField::as_token_count(&42u32), Some(42));
/// assert_eq!(TokenCountField::as_token_count(&None::<u64>), None);
/// assert_eq!(TokenCountField::as_token_count(&u128::MAX), Some(u64::MAX));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an unsigned integer, so it cannot be a `#[context(tokens)]` field",
    label = "not an unsigned integer or an `Option` of one",
    note = "token counts are unsigned: use `u64`, `u32`, `usize`, … or an `Option` of one"
)]
pub trait TokenCountField: Sealed<sealed::TokenCount> {
    /// The count in tokens, if the field holds one.
    fn as_token_count(&self) -> Option<u64>;
}

macro_rules! impl_token_count_field {
    ($($ty:ty),* $(,)?) => {$(
        impl Sealed<sealed::TokenCount> for $ty {}

        impl TokenCountField for $ty {
            #[inline]
            fn as_token_count(&self) -> Option<u64> {
                Some(u64::try_from(*self).unwrap_or(u64::MAX))
            }
        }
    )*};
}

impl_token_count_field!(u8, u16, u32, u64, u128, usize);

/// A field that may hold an atomic group id (`#[context(group)]`): the
/// value [`ContextItem::group`](crate::ContextItem::group) returns, shared by
/// items the pipeline includes whole or not at all.
///
/// Implemented for the unsigned integers that convert to `u64` without loss
/// (`u64`, `u32`, `u16`, `u8`) and `Option` of them. Not for `usize` or
/// `u128`, whose conversion could fail and merge distinct groups, nor for
/// signed integers: convert such ids to `u64` in your own type.
///
/// ```
/// use budget::__private_v0_1::budget_runtime::__derive::GroupField;
///
/// assert_eq!(GroupField::as_group(&7u64), Some(7));
/// assert_eq!(GroupField::as_group(&Some(3u32)), Some(3));
/// assert_eq!(GroupField::as_group(&None::<u64>), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a group id, so it cannot be a `#[context(group)]` field",
    label = "not `u64` or `Option<u64>`",
    note = "a group id is `u64`, `u32`, `u16`, `u8` or an `Option` of one; store a `usize`, signed or other id as `u64`"
)]
pub trait GroupField: Sealed<sealed::Group> {
    /// The group id, if the field holds one.
    fn as_group(&self) -> Option<u64>;
}

macro_rules! impl_group_field {
    ($($ty:ty),* $(,)?) => {$(
        impl Sealed<sealed::Group> for $ty {}

        impl GroupField for $ty {
            #[inline]
            fn as_group(&self) -> Option<u64> {
                Some(u64::from(*self))
            }
        }
    )*};
}

impl_group_field!(u8, u16, u32, u64);

/// A field that may hold a floating-point number: a relevance score
/// (`#[context(score)]`) or a future-relevance hint (`#[context(hint)]`).
///
/// `f32` widens exactly, so `0.9f32` reads as `0.89999997…`, just below a
/// threshold of `0.9`; use `f64` where scores sit on threshold values.
///
/// ```
/// use budget::__private_v0_1::budget_runtime::__derive::FloatField;
///
/// assert_eq!(FloatField::as_float(&0.5f32), Some(0.5));
/// assert_eq!(FloatField::as_float(&None::<f64>), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a float, so it cannot be a `#[context(score)]` or `#[context(hint)]` field",
    label = "not `f64`, `f32` or an `Option` of one",
    note = "scores and hints are `f64` or `f32` (optionally in an `Option`); convert integer ratings with `#[context(score, scale = 10)]` on an `f64` field"
)]
pub trait FloatField: Sealed<sealed::Float> {
    /// The value as `f64`, if the field holds one.
    fn as_float(&self) -> Option<f64>;
}

impl Sealed<sealed::Float> for f64 {}

impl FloatField for f64 {
    #[inline]
    fn as_float(&self) -> Option<f64> {
        Some(*self)
    }
}

impl Sealed<sealed::Float> for f32 {}

impl FloatField for f32 {
    #[inline]
    fn as_float(&self) -> Option<f64> {
        Some(f64::from(*self))
    }
}

/// A field that says whether an item is pinned (`#[context(pinned)]`).
///
/// ```
/// use budget::__private_v0_1::budget_runtime::__derive::FlagField;
///
/// assert!(FlagField::as_flag(&true));
/// assert!(!FlagField::as_flag(&None::<bool>));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `bool`, so it cannot be a `#[context(pinned)]` field",
    label = "not `bool` or `Option<bool>`"
)]
pub trait FlagField: Sealed<sealed::Flag> {
    /// The flag (`false` when absent).
    fn as_flag(&self) -> bool;
}

impl Sealed<sealed::Flag> for bool {}

impl FlagField for bool {
    #[inline]
    fn as_flag(&self) -> bool {
        *self
    }
}

/// A field that may hold an instant (`#[context(timestamp)]`).
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use budget::model::Timestamp;
/// use budget::__private_v0_1::budget_runtime::__derive::TimestampField;
///
/// let t = UNIX_EPOCH + Duration::from_secs(60);
/// assert_eq!(t.as_timestamp(), Some(Timestamp::from_unix_seconds(60)));
/// assert_eq!(None::<Timestamp>.as_timestamp(), None);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a point in time, so it cannot be a `#[context(timestamp)]` field",
    label = "not convertible to `budget::model::Timestamp`",
    note = "use `SystemTime`, `budget::model::Timestamp`, `chrono::DateTime<Utc>` (feature `chrono`), or an `Option` of one; convert other types to one of these"
)]
pub trait TimestampField: Sealed<sealed::Instant> {
    /// The instant, if the field holds one.
    fn as_timestamp(&self) -> Option<Timestamp>;
}

impl Sealed<sealed::Instant> for Timestamp {}

impl TimestampField for Timestamp {
    #[inline]
    fn as_timestamp(&self) -> Option<Timestamp> {
        Some(*self)
    }
}

impl Sealed<sealed::Instant> for SystemTime {}

impl TimestampField for SystemTime {
    #[inline]
    fn as_timestamp(&self) -> Option<Timestamp> {
        Some(Timestamp::from(*self))
    }
}

#[cfg(feature = "chrono")]
impl Sealed<sealed::Instant> for chrono::DateTime<chrono::Utc> {}

#[cfg(feature = "chrono")]
impl TimestampField for chrono::DateTime<chrono::Utc> {
    #[inline]
    fn as_timestamp(&self) -> Option<Timestamp> {
        Some(Timestamp::from(*self))
    }
}

/// `Option` and reference forwarding for the single-valued adapters.
macro_rules! impl_option_and_ref {
    ($trait:ident: $marker:ident, $method:ident -> $out:ty, absent = $absent:expr) => {
        impl<T: $trait> Sealed<sealed::$marker> for Option<T> {}

        impl<T: $trait + ?Sized> Sealed<sealed::$marker> for &T {}

        impl<T: $trait> $trait for Option<T> {
            #[inline]
            fn $method(&self) -> $out {
                match self {
                    Some(value) => value.$method(),
                    None => $absent,
                }
            }
        }

        impl<T: $trait + ?Sized> $trait for &T {
            #[inline]
            fn $method(&self) -> $out {
                (**self).$method()
            }
        }
    };
}

impl_option_and_ref!(IntegerField: Integer, as_integer -> Option<i64>, absent = None);
impl_option_and_ref!(TokenCountField: TokenCount, as_token_count -> Option<u64>, absent = None);
impl_option_and_ref!(GroupField: Group, as_group -> Option<u64>, absent = None);
impl_option_and_ref!(FloatField: Float, as_float -> Option<f64>, absent = None);
impl_option_and_ref!(FlagField: Flag, as_flag -> bool, absent = false);
impl_option_and_ref!(TimestampField: Instant, as_timestamp -> Option<Timestamp>, absent = None);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_saturate_at_the_i64_range() {
        assert_eq!(u128::MAX.as_integer(), Some(i64::MAX));
        assert_eq!(i128::MIN.as_integer(), Some(i64::MIN));
        assert_eq!((-5i8).as_integer(), Some(-5));
        assert_eq!(Some(7usize).as_integer(), Some(7));
        assert_eq!(IntegerField::as_integer(&&Some(3u8)), Some(3));
    }

    #[test]
    fn token_counts_saturate_at_the_u64_range() {
        assert_eq!(u128::MAX.as_token_count(), Some(u64::MAX));
        assert_eq!(Some(7usize).as_token_count(), Some(7));
        assert_eq!(TokenCountField::as_token_count(&&Some(3u8)), Some(3));
        assert_eq!(None::<u32>.as_token_count(), None);
    }

    #[test]
    fn group_ids_widen_without_loss() {
        assert_eq!(u64::MAX.as_group(), Some(u64::MAX));
        assert_eq!(255u8.as_group(), Some(255));
        assert_eq!(Some(u32::MAX).as_group(), Some(4_294_967_295));
        assert_eq!(GroupField::as_group(&&Some(9u16)), Some(9));
        assert_eq!(None::<u64>.as_group(), None);
    }

    #[test]
    fn text_adapters_borrow() {
        let owned = String::from("body");
        assert!(std::ptr::eq(owned.as_text(), owned.as_str()));
        let arc: Arc<str> = Arc::from("x");
        assert_eq!(arc.as_optional_text(), Some("x"));
        assert_eq!(Some("link").as_optional_text(), Some("link"));
        assert_eq!(None::<&str>.as_optional_text(), None);
    }

    #[test]
    fn flags_and_floats() {
        assert!(!false.as_flag());
        assert!(Some(true).as_flag());
        assert!(f64::NAN.as_float().is_some_and(f64::is_nan));
        assert_eq!(Some(0.25f32).as_float(), Some(0.25));
    }

    #[cfg(feature = "chrono")]
    #[test]
    fn chrono_instants_convert() {
        let t = chrono::DateTime::from_timestamp(1_718_452_800, 5).unwrap();
        assert_eq!(
            t.as_timestamp(),
            Some(Timestamp::from_unix_nanos(1_718_452_800_000_000_005))
        );
    }
}
