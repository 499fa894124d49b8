//! Generators of hostile values, and items whose answers change between
//! calls.

use std::borrow::Cow;
use std::cell::Cell;

use budget_runtime::{
    ContextItem, ContextKind, Item,
    model::{Tier, Timestamp},
};
use proptest::prelude::*;

/// Token counts (`u64`): small, zero, powers of two and the extremes
/// (`u64::MAX` and its neighbours stand where `i64::MIN` and -1 stood
/// before counts became unsigned; negative counts are [`negative_tokens`]).
pub fn tokens() -> impl Strategy<Value = u64> {
    prop_oneof![
        6 => 0u64..2_000,
        2 => Just(0u64),
        1 => Just(u64::MAX),
        1 => Just(1u64 << 63),
        1 => (0u32..64).prop_map(|bit| 1u64 << bit),
        1 => (0u64..16).prop_map(|k| u64::MAX - k),
    ]
}

/// Negative declared counts, the Cupel input that enters through
/// [`ItemBuilder::signed_tokens`](budget_runtime::model::ItemBuilder::signed_tokens).
pub fn negative_tokens() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => -1_000i64..0,
        1 => Just(i64::MIN),
        1 => Just(-1i64),
    ]
}

/// Budget-sized counts: zero, small, huge and the extremes.
pub fn budget_tokens() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => 0u64..5_000,
        1 => Just(0u64),
        1 => Just(u64::MAX),
        1 => (0u32..64).prop_map(|bit| 1u64 << bit),
        1 => Just(u64::MAX - 1),
    ]
}

/// Floats: NaN, infinities, signed zeros, subnormals, extremes, ordinary.
pub fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        6 => 0.0f64..=1.0,
        1 => Just(f64::NAN),
        1 => Just(f64::INFINITY),
        1 => Just(f64::NEG_INFINITY),
        1 => Just(-0.0f64),
        1 => Just(f64::MIN_POSITIVE / 2.0),
        1 => Just(f64::MAX),
        1 => Just(f64::MIN),
        1 => -1e6f64..1e6,
    ]
}

/// Unicode edge cases, written out.
pub const EDGE_TEXTS: &[&str] = &[
    "",
    " ",
    "\u{3000}",
    "\0\0\0",
    "\u{feff}BOM",
    "a\u{0301}\u{0301}\u{0301}",
    "\u{202e}gnp.exe",
    "👩\u{200d}👩\u{200d}👧\u{200d}👦",
    "\u{2028}\u{2029}\r\n\r",
    "```\n````\n`````",
    "ᄀᄁᄂᄃᄄᄅᄆᄇᄈᄉ",
    "𠀀𠀁𠀂𪛖",
    "aGVsbG8gd29ybGQ=aGVsbG8gd29ybGQ=",
    "\u{10ffff}\u{e000}\u{fffd}",
    "| a | b |\n|---|---|",
    "# heading\n## META\n## RAW",
];

/// Text: edge cases, arbitrary Unicode, long runs of one character.
pub fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(EDGE_TEXTS).prop_map(str::to_owned),
        4 => any::<String>(),
        2 => "[ -~]{0,200}",
        1 => (prop::sample::select(&['x', '\0', '`', '\u{3000}', 'ᄀ', '😀', '\n'][..]), 0usize..20_000)
            .prop_map(|(c, n)| std::iter::repeat_n(c, n).collect()),
    ]
}

/// Non-empty text, for contents that must not be empty.
pub fn content() -> impl Strategy<Value = String> {
    text().prop_map(|t| if t.is_empty() { "x".to_owned() } else { t })
}

/// Kind labels: the well-known ones in odd cases and Unicode labels.
pub fn kind() -> impl Strategy<Value = ContextKind> {
    prop_oneof![
        3 => prop::sample::select(ContextKind::WELL_KNOWN.to_vec()),
        1 => prop::sample::select(&["message", "TOOLOUTPUT", "Ünïcödé", "ǅ", "ツール"][..])
            .prop_map(|label| ContextKind::new(label).unwrap()),
    ]
}

/// Timestamps over the whole `i128` range and near the epoch.
pub fn timestamp() -> impl Strategy<Value = Timestamp> {
    prop_oneof![
        3 => (-4_000_000_000i64..4_000_000_000).prop_map(Timestamp::from_unix_seconds),
        1 => any::<i128>().prop_map(Timestamp::from_unix_nanos),
        1 => prop::sample::select(&[i128::MIN, i128::MAX, 0, -1][..]).prop_map(Timestamp::from_unix_nanos),
    ]
}

/// The fields of an [`Item`], every one hostile.
#[derive(Clone, Debug)]
pub struct ItemSpec {
    pub content: String,
    pub tokens: u64,
    /// A negative declared count; when set it replaces `tokens`.
    pub negative: Option<i64>,
    pub kind: ContextKind,
    pub pinned: bool,
    pub timestamp: Option<Timestamp>,
    pub priority: Option<i64>,
    pub relevance: Option<f64>,
    pub hint: Option<f64>,
    pub tier: Option<Tier>,
    pub link: Option<String>,
    pub description: Option<String>,
    pub tags: Vec<String>,
}

impl ItemSpec {
    /// The item, or `None` when the builder rejects it (checked elsewhere).
    pub fn build(&self) -> Option<Item> {
        let builder = Item::builder(self.content.clone());
        let mut builder = match self.negative {
            Some(negative) => builder.signed_tokens(negative),
            None => builder.tokens(self.tokens),
        }
        .kind(self.kind.clone())
        .pinned(self.pinned)
        .tags(self.tags.clone());
        if let Some(t) = self.timestamp {
            builder = builder.timestamp(t);
        }
        if let Some(p) = self.priority {
            builder = builder.priority(p);
        }
        if let Some(r) = self.relevance {
            builder = builder.relevance(r);
        }
        if let Some(h) = self.hint {
            builder = builder.relevance_hint(h);
        }
        if let Some(t) = self.tier {
            builder = builder.tier(t);
        }
        if let Some(l) = &self.link {
            builder = builder.link(l.clone());
        }
        if let Some(d) = &self.description {
            builder = builder.description(d.clone());
        }
        builder.build().ok()
    }
}

/// Items with hostile fields; `pinned` with the given weight out of 10.
pub fn item_spec(pinned_weight: u32) -> impl Strategy<Value = ItemSpec> {
    let pinned = prop_oneof![10 - pinned_weight => Just(false), pinned_weight => Just(true)];
    (
        (
            content(),
            tokens(),
            prop_oneof![11 => Just(None), 2 => negative_tokens().prop_map(Some)],
            kind(),
            pinned,
        ),
        (
            prop::option::of(timestamp()),
            prop::option::of(any::<i64>()),
            prop::option::of(float()),
            prop::option::of(float()),
        ),
        (
            prop::option::of(prop::sample::select(
                &[Tier::Raw, Tier::Linked, Tier::Summary][..],
            )),
            prop::option::of(text()),
            prop::option::of(text()),
            prop::collection::vec(text(), 0..3),
        ),
    )
        .prop_map(
            |(
                (content, tokens, negative, kind, pinned),
                (timestamp, priority, relevance, hint),
                (tier, link, description, tags),
            )| {
                ItemSpec {
                    content,
                    tokens,
                    negative,
                    kind,
                    pinned,
                    timestamp,
                    priority,
                    relevance,
                    hint,
                    tier,
                    link,
                    description,
                    tags,
                }
            },
        )
}

/// Items that the builder accepts (content repaired to be non-empty).
pub fn items(pinned_weight: u32, max: usize) -> impl Strategy<Value = Vec<Item>> {
    prop::collection::vec(item_spec(pinned_weight), 0..max)
        .prop_map(|specs| specs.iter().filter_map(ItemSpec::build).collect())
}

/// An item whose answers change from call to call: `tokens`, `pinned`,
/// `content` and `kind` cycle through their lists. The first answer of each
/// is what a run that reads it once sees.
#[derive(Debug)]
pub struct Unstable {
    pub tokens: Vec<u64>,
    pub pinned: Vec<bool>,
    pub contents: Vec<String>,
    pub kinds: Vec<ContextKind>,
    calls: [Cell<usize>; 4],
}

impl Clone for Unstable {
    fn clone(&self) -> Self {
        Self::new(
            self.tokens.clone(),
            self.pinned.clone(),
            self.contents.clone(),
            self.kinds.clone(),
        )
    }
}

impl Unstable {
    pub fn new(
        tokens: Vec<u64>,
        pinned: Vec<bool>,
        contents: Vec<String>,
        kinds: Vec<ContextKind>,
    ) -> Self {
        Self {
            tokens,
            pinned,
            contents,
            kinds,
            calls: Default::default(),
        }
    }

    fn next<'a, T>(&self, field: usize, values: &'a [T]) -> &'a T {
        let call = self.calls[field].get();
        self.calls[field].set(call + 1);
        &values[call % values.len()]
    }

    /// How many times `tokens()` was called.
    pub fn token_calls(&self) -> usize {
        self.calls[0].get()
    }
}

impl ContextItem for Unstable {
    fn content(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.next(2, &self.contents).as_str())
    }
    fn tokens(&self) -> u64 {
        *self.next(0, &self.tokens)
    }
    fn pinned(&self) -> bool {
        *self.next(1, &self.pinned)
    }
    fn kind(&self) -> &ContextKind {
        self.next(3, &self.kinds)
    }
}

/// Unstable items: every answer drawn again on each call.
pub fn unstable() -> impl Strategy<Value = Unstable> {
    (
        prop::collection::vec(tokens(), 1..4),
        prop::collection::vec(any::<bool>(), 1..3),
        prop::collection::vec(content(), 1..3),
        prop::collection::vec(kind(), 1..3),
    )
        .prop_map(|(tokens, pinned, contents, kinds)| {
            Unstable::new(tokens, pinned, contents, kinds)
        })
}
