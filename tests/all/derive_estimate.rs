//! The derived token estimate with `estimator = "ratios"` (the token-budget
//! rules' fixed ratios, selected by name) agrees with the runtime's
//! `RatioEstimator`:
//! one content field is estimated exactly as the estimator estimates its
//! text; several are estimated part by part, each at its own ratio, with
//! one token per blank-line separator.

use std::borrow::Cow;

use budget::{
    ContextItem, Estimator,
    estimate::{ContentType, RatioEstimator, ratio_estimate},
};
use proptest::prelude::*;

#[derive(ContextItem)]
#[context(estimator = "ratios", content_type = "code")]
struct CodeDoc<'a> {
    #[context(content)]
    text: &'a str,
}

#[derive(ContextItem)]
#[context(estimator = "ratios", content_type = "prose")]
struct ProseDoc<'a> {
    #[context(content)]
    text: &'a str,
}

#[derive(ContextItem)]
#[context(estimator = "ratios", content_type = "yaml")]
struct YamlDoc<'a> {
    #[context(content)]
    text: &'a str,
}

/// No `content_type`: markdown, the mixed-content default.
#[derive(ContextItem)]
#[context(estimator = "ratios")]
struct DefaultDoc<'a> {
    #[context(content)]
    text: &'a str,
}

#[derive(ContextItem)]
#[context(estimator = "ratios")]
struct TwoParts<'a> {
    #[context(content, content_type = "prose")]
    title: &'a str,
    #[context(content, content_type = "code")]
    body: &'a str,
}

#[derive(ContextItem)]
#[context(estimator = "ratios", content_type = "code")]
struct ThreeCodeParts {
    #[context(content)]
    a: String,
    #[context(content)]
    b: String,
    #[context(content)]
    c: String,
}

#[derive(ContextItem)]
#[context(estimator = "ratios")]
struct Counted {
    #[context(content)]
    text: String,
    #[context(tokens)]
    exact: Option<u64>,
}

#[derive(ContextItem)]
struct CountedUnsigned {
    #[context(content)]
    text: String,
    #[context(tokens)]
    exact: u64,
}

/// The four derived single-field estimates, in `ContentType::ALL` order.
fn derived(text: &str) -> [u64; 4] {
    [
        CodeDoc { text }.tokens(),
        ProseDoc { text }.tokens(),
        YamlDoc { text }.tokens(),
        DefaultDoc { text }.tokens(),
    ]
}

fn seed(text: &str) -> [u64; 4] {
    ContentType::ALL.map(|ct| RatioEstimator.estimate(text, ct))
}

#[test]
fn ascii_text_matches_hand_computed_and_runtime_values() {
    // 11 chars: 11/3.5 = 3.14 → 4, 11/4 = 2.75 → 3, 11/3.8 = 2.89 → 3, 11/3.75 = 2.93 → 3
    assert_eq!(derived("hello world"), [4, 3, 3, 3]);
    assert_eq!(derived("hello world"), seed("hello world"));
    // 100 chars: 28.6 → 29, 25, 26.3 → 27, 26.7 → 27
    let hundred = "a".repeat(100);
    assert_eq!(derived(&hundred), [29, 25, 27, 27]);
    assert_eq!(derived(&hundred), seed(&hundred));
}

#[test]
fn multi_byte_text_counts_characters_not_bytes() {
    // 8 chars in 24 bytes: 8/3.5 = 2.3 → 3, 8/4 = 2, 8/3.8 = 2.1 → 3, 8/3.75 = 2.1 → 3
    let japanese = "日本語のテキスト";
    assert_eq!(japanese.len(), 24);
    assert_eq!(derived(japanese), [3, 2, 3, 3]);
    assert_eq!(derived(japanese), seed(japanese));
    // Same character count as "hello world".
    assert_eq!(derived("héllo wörld"), [4, 3, 3, 3]);
    // Two scalar values (thumbs up + skin tone): 1 token at every ratio.
    assert_eq!(derived("👍🏽"), [1, 1, 1, 1]);
    assert_eq!(derived("👍🏽"), seed("👍🏽"));
}

#[test]
fn empty_text_costs_nothing() {
    assert_eq!(derived(""), [0, 0, 0, 0]);
    assert_eq!(derived(""), seed(""));
}

#[test]
fn parts_are_estimated_at_their_own_ratio_plus_one_token_per_separator() {
    let item = TwoParts {
        title: "Fix the build",        // 13 chars as prose: 3.25 → 4
        body: "cargo build --release", // 21 chars as code: 6
    };
    assert_eq!(item.tokens(), 4 + 1 + 6);
    assert_eq!(
        item.tokens(),
        RatioEstimator.estimate(item.title, ContentType::Prose)
            + 1
            + RatioEstimator.estimate(item.body, ContentType::Code)
    );
    assert_eq!(item.content(), "Fix the build\n\ncargo build --release");

    let empty = TwoParts {
        title: "",
        body: "",
    };
    assert_eq!(empty.tokens(), 1);
    assert_eq!(empty.content(), "\n\n");

    let three = ThreeCodeParts {
        a: "x".into(),
        b: String::new(),
        c: "日本".into(),
    };
    // 1 + sep + 0 + sep + 1
    assert_eq!(three.tokens(), 4);
    assert_eq!(three.content(), "x\n\n\n\n日本");
}

#[test]
fn a_single_content_field_is_borrowed_not_copied() {
    let text = String::from("borrowed");
    let item = DefaultDoc { text: &text };
    match item.content() {
        Cow::Borrowed(content) => assert!(std::ptr::eq(content, text.as_str())),
        Cow::Owned(_) => panic!("a single content field must be borrowed"),
    }
}

#[test]
fn an_exact_count_overrides_the_estimate() {
    let text = "a".repeat(40); // estimate: 40 / 3.75 = 10.7 → 11
    let exact = Counted {
        text: text.clone(),
        exact: Some(7),
    };
    let estimated = Counted {
        text: text.clone(),
        exact: None,
    };
    assert_eq!(exact.tokens(), 7);
    assert_eq!(estimated.tokens(), 11);
    let huge = CountedUnsigned {
        text,
        exact: u64::MAX,
    };
    assert_eq!(huge.tokens(), u64::MAX);
}

#[test]
fn content_type_is_the_declared_one_and_its_ratio_is_const() {
    const CODE_RATIO: f64 = ContentType::Code.chars_per_token();
    const THOUSAND_CHARS: u64 = ratio_estimate(1_000, ContentType::Prose);
    assert_eq!(CODE_RATIO, 3.5);
    assert_eq!(THOUSAND_CHARS, 250);
    assert_eq!(ProseDoc { text: "" }.content_type(), ContentType::Prose);
    assert_eq!(
        DefaultDoc { text: "" }.content_type(),
        ContentType::Markdown
    );
    let three = ThreeCodeParts {
        a: String::new(),
        b: String::new(),
        c: String::new(),
    };
    assert_eq!(three.content_type(), ContentType::Code);
    assert_eq!(CodeDoc { text: "" }.content_type(), ContentType::Code);
    assert_eq!(
        TwoParts {
            title: "",
            body: ""
        }
        .content_type(),
        ContentType::Markdown
    );
}

proptest! {
    #[test]
    fn one_field_equals_the_seed_estimator(text in any::<String>()) {
        prop_assert_eq!(derived(&text), seed(&text));
    }

    #[test]
    fn two_fields_are_the_sum_of_their_estimates_plus_a_separator(
        title in any::<String>(),
        body in any::<String>(),
    ) {
        let item = TwoParts { title: &title, body: &body };
        let expected = RatioEstimator.estimate(&title, ContentType::Prose)
            + 1
            + RatioEstimator.estimate(&body, ContentType::Code);
        prop_assert_eq!(item.tokens(), expected);
        prop_assert_eq!(item.content(), format!("{title}\n\n{body}"));
    }

    /// Rounding each part up never undercounts the joined text. It
    /// overcounts by under one token per part (3) plus the separators'
    /// charge (2) less what their 4 characters cost in the joined text
    /// (4 / 3.5 > 1): under 3.9, so at most 3 tokens.
    #[test]
    fn parts_bound_the_joined_estimate(
        a in any::<String>(),
        b in any::<String>(),
        c in any::<String>(),
    ) {
        let item = ThreeCodeParts { a, b, c };
        let joined = RatioEstimator.estimate(&item.content(), ContentType::Code);
        prop_assert!(item.tokens() >= joined, "{} < {}", item.tokens(), joined);
        prop_assert!(item.tokens() <= joined + 3, "{} > {} + 3", item.tokens(), joined);
    }
}
