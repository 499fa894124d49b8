//! The generated code compiles clean under strict lints, next to user items
//! that shadow the names it could otherwise pick up.
#![deny(warnings, unused_qualifications, unused_results, missing_docs)]
#![deny(clippy::all)]

use ::std::borrow::Cow;
use ::std::collections::BTreeMap;
use ::std::time::SystemTime;

use budget::ContextItem;

/// Shadows `std::option::Option`.
#[allow(dead_code)]
pub struct Option;
/// Shadows `std::result::Result`.
#[allow(dead_code)]
pub struct Result;
/// Shadows the `std` crate name in this module.
pub mod std {}
/// Shadows the `core` crate name in this module.
pub mod core {}

/// A message with every role.
#[derive(ContextItem)]
#[context(kind = "Message", content_type = "prose", tiers(raw = 0.9, linked = 0.3))]
pub struct Everything<'a> {
    /// Title.
    #[context(content)]
    pub title: Cow<'a, str>,
    /// Body.
    #[context(content, content_type = "code")]
    pub body: String,
    /// Exact count.
    #[context(tokens)]
    pub tokens: ::core::option::Option<u32>,
    /// Score.
    #[context(score, scale = 10)]
    pub score: f64,
    /// Pinned.
    #[context(pinned)]
    pub pinned: bool,
    /// Time.
    #[context(timestamp)]
    pub at: ::core::option::Option<SystemTime>,
    /// Priority.
    #[context(priority)]
    pub priority: i32,
    /// Tags.
    #[context(tags)]
    pub tags: Vec<&'a str>,
    /// Hint.
    #[context(hint)]
    pub hint: f32,
    /// Metadata.
    #[context(metadata)]
    pub metadata: BTreeMap<String, String>,
    /// Link.
    #[context(link)]
    pub link: &'a str,
    /// Description.
    #[context(description)]
    pub description: ::core::option::Option<String>,
    /// Atomic group.
    #[context(group)]
    pub group: ::core::option::Option<u64>,
    /// Ignored.
    #[context(skip)]
    pub internal: u64,
    /// Not annotated: ignored too.
    pub other: (),
}

/// A generic newtype-delegating enum.
#[derive(ContextItem)]
pub enum Either<'a, T, G> {
    /// Delegates.
    Left(Everything<'a>),
    /// Reads its own fields.
    #[context(kind = "Document", tier = "linked")]
    Right {
        /// Text.
        #[context(content)]
        text: T,
        /// Group.
        #[context(group)]
        group: G,
    },
}

fn main() {
    let item = Everything {
        title: Cow::Borrowed("t"),
        body: "b".to_owned(),
        tokens: None,
        score: 5.0,
        pinned: false,
        at: None,
        priority: 1,
        tags: vec!["x"],
        hint: 0.5,
        metadata: BTreeMap::new(),
        link: "l",
        description: None,
        group: Some(3),
        internal: 0,
        other: (),
    };
    let either: Either<'_, String, u32> = Either::Right {
        text: "r".to_owned(),
        group: 4,
    };
    let total = item.tokens() + either.tokens();
    assert_eq!(total, 4);
    assert_eq!(either.group(), Some(4));
    let left: Either<'_, String, u32> = Either::Left(item);
    assert_eq!(left.group(), Some(3));
}
