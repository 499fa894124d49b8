//! With the `serde` feature, budgets and items round-trip and are validated
//! on deserialization.
#![cfg(feature = "serde")]

use budget_runtime::{
    ContextBudget, ContextItem, ContextKind, Item,
    estimate::ContentType,
    model::{Tier, Timestamp},
};

#[test]
fn budget_round_trips() {
    let budget = ContextBudget::builder(128_000, 100_000)
        .output_reserve(4_096)
        .reserved_slot(ContextKind::TOOL_OUTPUT, 2)
        .safety_margin_percent(10.0)
        .build()
        .unwrap();
    let json = serde_json::to_string(&budget).unwrap();
    let back: ContextBudget = serde_json::from_str(&json).unwrap();
    assert_eq!(back, budget);
}

#[test]
fn invalid_budget_is_rejected_with_numbers() {
    let err = serde_json::from_str::<ContextBudget>(r#"{"max_tokens": 800, "target_tokens": 900}"#)
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("target_tokens 900 exceeds max_tokens 800"),
        "{err}"
    );
    let err = serde_json::from_str::<ContextBudget>(
        r#"{"max_tokens": 800, "target_tokens": 100, "bogus": 1}"#,
    )
    .unwrap_err();
    assert!(err.to_string().contains("bogus"), "{err}");
}

#[test]
fn defaults_apply_when_fields_are_missing() {
    let budget: ContextBudget =
        serde_json::from_str(r#"{"max_tokens": 10, "target_tokens": 5}"#).unwrap();
    assert_eq!(budget, ContextBudget::new(10, 5).unwrap());
}

#[test]
fn item_round_trips_and_validates() {
    let item = Item::builder("hello")
        .tokens(3)
        .kind(ContextKind::DOCUMENT)
        .content_type(ContentType::Prose)
        .timestamp(Timestamp::from_unix_seconds(1_700_000_000))
        .tags(["a", "b"])
        .metadata("cupel:trust", 0.5)
        .metadata("source", "web")
        .tier(Tier::Linked)
        .build()
        .unwrap();
    let json = serde_json::to_string(&item).unwrap();
    let back: Item = serde_json::from_str(&json).unwrap();
    assert_eq!(back, item);

    let err = serde_json::from_str::<Item>(r#"{"content": ""}"#).unwrap_err();
    assert!(err.to_string().contains("must not be empty"), "{err}");
    let err = serde_json::from_str::<Item>(r#"{"content": "x", "kind": "  "}"#).unwrap_err();
    assert!(err.to_string().contains("ContextKind"), "{err}");
}

#[test]
fn missing_tokens_are_counted_by_the_default_counter() {
    let item: Item =
        serde_json::from_str(r#"{"content": "hello world", "content_type": "prose"}"#).unwrap();
    #[cfg(feature = "o200k")]
    assert_eq!(item.tokens(), 2); // exact o200k_base: "hello", " world"
    #[cfg(not(feature = "o200k"))]
    assert_eq!(item.tokens(), 11); // the UTF-8 length
}

/// Audit row: a timestamp far in the future, read from JSON, made `{:?}` of
/// the item overflow.
#[test]
fn far_future_timestamp_from_json_formats() {
    let item: Item = serde_json::from_str(
        r#"{"content": "x", "tokens": 1, "timestamp": 796899343984252629811200000000000}"#,
    )
    .unwrap();
    let shown = format!("{item:?}");
    // 2⁶³ days after the epoch (worked out with Python's `datetime`).
    assert!(
        shown.contains("25252734927768524-07-28T00:00:00Z"),
        "{shown}"
    );
}
