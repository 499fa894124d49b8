//! Every `#[context(...)]` role reaches the matching `ContextItem` accessor,
//! for structs, tuple structs, generic structs, borrowed structs and enums.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use budget::{
    ContextItem, ContextKind, Estimator,
    estimate::{ContentType, DefaultCounter},
    model::{MetadataValueRef, Tier, Timestamp},
};

#[derive(ContextItem)]
#[context(kind = "Document", content_type = "markdown")]
struct Retrieved {
    #[context(content)]
    body: String,
    #[context(score)]
    similarity: f64,
    #[context(pinned)]
    pinned: bool,
    #[context(timestamp)]
    fetched_at: SystemTime,
    #[context(priority)]
    priority: Option<u8>,
    #[context(tags)]
    tags: Vec<String>,
    #[context(hint)]
    hint: Option<f64>,
    #[context(metadata)]
    metadata: HashMap<String, f64>,
    #[context(link)]
    url: String,
    #[context(description)]
    summary: Option<&'static str>,
    #[context(skeleton)]
    outline: String,
    #[context(skip)]
    #[allow(dead_code)]
    cache_key: u64,
}

fn retrieved() -> Retrieved {
    Retrieved {
        body: "Rust ownership explained.".into(),
        similarity: 0.55,
        pinned: true,
        fetched_at: UNIX_EPOCH + Duration::from_secs(1_700_000_000),
        priority: Some(3),
        tags: vec!["Rust".into(), "memory".into()],
        hint: Some(0.25),
        metadata: HashMap::from([("source_rank".to_owned(), 2.0)]),
        url: "https://example.invalid/ownership".into(),
        summary: Some("Ownership in one page"),
        outline: "# Ownership\n## Borrowing\n".into(),
        cache_key: 99,
    }
}

#[test]
fn every_role_reaches_its_accessor() {
    let item = retrieved();
    assert_eq!(item.content(), "Rust ownership explained.");
    assert_eq!(*item.kind(), ContextKind::DOCUMENT);
    assert_eq!(item.content_type(), ContentType::Markdown);
    assert_eq!(item.relevance(), Some(0.55));
    assert!(item.pinned());
    assert_eq!(
        item.timestamp(),
        Some(Timestamp::from_unix_seconds(1_700_000_000))
    );
    assert_eq!(item.priority(), Some(3));
    assert_eq!(item.tags().tag_count(), 2);
    assert!(item.tags().has_tag("rust"));
    assert_eq!(item.relevance_hint(), Some(0.25));
    assert_eq!(
        item.metadata("source_rank"),
        Some(MetadataValueRef::Float(2.0))
    );
    assert_eq!(item.metadata("missing"), None);
    assert_eq!(item.link(), Some("https://example.invalid/ownership"));
    assert_eq!(item.description(), Some("Ownership in one page"));
    assert_eq!(
        item.skeleton().as_deref(),
        Some("# Ownership\n## Borrowing\n")
    );
    // 0.55 is between the default LINKED (0.4) and RAW (0.7) thresholds.
    assert_eq!(item.tier(), Some(Tier::Linked));
}

/// Only `content`: every other accessor keeps the trait default.
#[derive(ContextItem)]
struct Bare {
    #[context(content)]
    text: Box<str>,
    #[allow(dead_code)]
    not_annotated: Vec<u8>,
}

#[test]
fn unannotated_roles_keep_the_defaults() {
    let item = Bare {
        text: "plain".into(),
        not_annotated: vec![1],
    };
    assert_eq!(*item.kind(), ContextKind::MESSAGE);
    assert_eq!(item.content_type(), ContentType::Markdown);
    assert!(!item.pinned());
    assert_eq!(item.timestamp(), None);
    assert_eq!(item.priority(), None);
    assert_eq!(item.tags().tag_count(), 0);
    assert_eq!(item.relevance_hint(), None);
    assert_eq!(item.metadata("k"), None);
    assert_eq!(item.relevance(), None);
    assert_eq!(item.tier(), None);
    assert_eq!(item.link(), None);
    assert_eq!(item.description(), None);
}

#[derive(ContextItem)]
#[context(tiers(raw = 0.9, linked = 0.5))]
struct Thresholded {
    #[context(content)]
    text: &'static str,
    #[context(score)]
    score: Option<f64>,
}

#[derive(ContextItem)]
struct Rated {
    #[context(content)]
    text: &'static str,
    #[context(score, scale = 10)]
    rating: f64,
}

#[derive(ContextItem)]
#[context(tier = "raw")]
struct AlwaysRaw {
    #[context(content)]
    text: &'static str,
    #[context(score)]
    score: f64,
}

#[test]
fn the_tier_follows_the_score_and_the_thresholds() {
    let tier = |score| Thresholded { text: "", score }.tier();
    assert_eq!(tier(Some(0.95)), Some(Tier::Raw));
    assert_eq!(tier(Some(0.9)), Some(Tier::Raw));
    assert_eq!(tier(Some(0.89)), Some(Tier::Linked));
    assert_eq!(tier(Some(0.5)), Some(Tier::Linked));
    assert_eq!(tier(Some(0.49)), Some(Tier::Summary));
    assert_eq!(tier(None), None);
    // NaN is no score: no relevance, and the payload decides the tier.
    assert_eq!(tier(Some(f64::NAN)), None);
    assert_eq!(
        Thresholded {
            text: "",
            score: Some(f64::NAN)
        }
        .relevance(),
        None
    );
    assert_eq!(tier(Some(f64::INFINITY)), Some(Tier::Raw));
}

#[test]
fn scale_brings_a_rating_into_zero_to_one() {
    let item = |rating| Rated { text: "", rating };
    assert_eq!(item(7.0).relevance(), Some(0.7));
    assert_eq!(item(7.0).tier(), Some(Tier::Raw));
    assert_eq!(item(6.9).tier(), Some(Tier::Linked));
    assert_eq!(item(4.0).tier(), Some(Tier::Linked));
    assert_eq!(item(3.9).tier(), Some(Tier::Summary));
}

#[test]
fn a_fixed_tier_ignores_the_score() {
    let item = AlwaysRaw {
        text: "",
        score: 0.0,
    };
    assert_eq!(item.tier(), Some(Tier::Raw));
    assert_eq!(item.relevance(), Some(0.0));
}

/// A tuple struct and a generic, borrowing struct.
#[derive(ContextItem)]
#[context(kind = "Memory")]
struct Fact(#[context(content)] String, #[context(priority)] i64);

#[derive(ContextItem)]
struct Doc<'a, T> {
    #[context(content)]
    body: &'a str,
    #[context(content)]
    appendix: T,
    #[context(metadata)]
    metadata: BTreeMap<&'a str, &'a str>,
}

#[test]
fn tuple_generic_and_borrowed_structs() {
    let fact = Fact("The deploy key rotates monthly.".into(), 5);
    assert_eq!(fact.content(), "The deploy key rotates monthly.");
    assert_eq!(fact.priority(), Some(5));
    assert_eq!(*fact.kind(), ContextKind::MEMORY);

    let body = String::from("body");
    let doc = Doc {
        body: &body,
        appendix: Cow::Borrowed("appendix"),
        metadata: BTreeMap::from([("lang", "en")]),
    };
    assert_eq!(doc.content(), "body\n\nappendix");
    assert_eq!(doc.metadata("lang"), Some(MetadataValueRef::Str("en")));
    let owned = Doc {
        body: &body,
        appendix: String::from("x"),
        metadata: BTreeMap::new(),
    };
    // Each part by the default counter, and 1 for the separator.
    let count = |t: &str| DefaultCounter.estimate(t, ContentType::Markdown);
    assert_eq!(owned.tokens(), count("body") + 1 + count("x"));
}

/// An enum: newtype variants delegate, struct variants read their fields.
#[derive(ContextItem)]
enum Context {
    Document(Retrieved),
    Fact(Fact),
    #[context(kind = "ToolOutput", content_type = "code", tier = "summary")]
    Tool {
        #[context(content)]
        output: String,
        #[context(tokens)]
        exact: usize,
    },
    #[context(kind = "SystemPrompt")]
    System(#[context(content)] &'static str, #[context(pinned)] bool),
}

#[test]
fn enums_delegate_per_variant() {
    let doc = Context::Document(retrieved());
    assert_eq!(doc.content(), "Rust ownership explained.");
    assert_eq!(*doc.kind(), ContextKind::DOCUMENT);
    assert_eq!(doc.tier(), Some(Tier::Linked));
    assert_eq!(doc.link(), Some("https://example.invalid/ownership"));
    assert_eq!(
        doc.metadata("source_rank"),
        Some(MetadataValueRef::Float(2.0))
    );
    assert_eq!(doc.tokens(), retrieved().tokens());
    assert_eq!(
        doc.skeleton().as_deref(),
        Some("# Ownership\n## Borrowing\n")
    );
    // An empty skeleton is no skeleton.
    let bare = Context::Document(Retrieved {
        outline: String::new(),
        ..retrieved()
    });
    assert_eq!(bare.skeleton(), None);

    let fact = Context::Fact(Fact("f".into(), 1));
    assert_eq!(*fact.kind(), ContextKind::MEMORY);
    assert_eq!(fact.priority(), Some(1));
    assert_eq!(fact.link(), None);

    let tool = Context::Tool {
        output: "exit 1".into(),
        exact: 12,
    };
    assert_eq!(*tool.kind(), ContextKind::TOOL_OUTPUT);
    assert_eq!(tool.content_type(), ContentType::Code);
    assert_eq!(tool.tokens(), 12);
    assert_eq!(tool.tier(), Some(Tier::Summary));
    assert!(!tool.pinned());
    assert_eq!(tool.tags().tag_count(), 0);
    assert_eq!(tool.metadata("source_rank"), None);
    assert_eq!(tool.skeleton(), None);

    let system = Context::System("Be brief.", true);
    assert_eq!(*system.kind(), ContextKind::SYSTEM_PROMPT);
    assert!(system.pinned());
    assert_eq!(
        system.tokens(),
        DefaultCounter.estimate("Be brief.", ContentType::Markdown)
    );
}

#[cfg(feature = "chrono")]
#[test]
fn chrono_timestamps_convert() {
    #[derive(ContextItem)]
    struct Event {
        #[context(content)]
        text: String,
        #[context(timestamp)]
        at: Option<chrono::DateTime<chrono::Utc>>,
    }
    let at = chrono::DateTime::from_timestamp(1_718_452_800, 0).unwrap();
    let event = Event {
        text: "e".into(),
        at: Some(at),
    };
    assert_eq!(
        event.timestamp(),
        Timestamp::from_ymd_hms(2024, 6, 15, 12, 0, 0)
    );
}
