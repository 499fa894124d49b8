//! The exact counter (compiled-in vocabularies) against `tiktoken-rs`, OpenAI's own
//! algorithm ported to Rust: identical counts on random text of every kind,
//! and `count_tokens_up_to` consistent with `count_tokens`.

use std::sync::LazyLock;

use budget_runtime::estimate::{Encoding, ExactCounter, TokenCounter};
use proptest::prelude::*;
use tiktoken_rs::CoreBPE;

static REFERENCE: LazyLock<[CoreBPE; 2]> = LazyLock::new(|| {
    [
        tiktoken_rs::o200k_base().unwrap(),
        tiktoken_rs::cl100k_base().unwrap(),
    ]
});

fn reference(encoding: Encoding, text: &str) -> u64 {
    let bpe = match encoding {
        Encoding::O200kBase => &REFERENCE[0],
        _ => &REFERENCE[1],
    };
    bpe.encode_ordinary(text).len() as u64
}

/// Text that stresses the pretokenizer and the merges: any scalar value,
/// whitespace runs, ASCII punctuation runs, contractions, digits, base64,
/// CJK and emoji with modifiers.
fn hostile_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<char>().prop_map(String::from),
        "[ \t\r\n]{1,6}",
        "[!-/:-@\\[-`{-~]{1,12}",
        "('s|'t|'re|'ve|'m|'ll|'d|'S|'LL)",
        "[0-9]{1,9}",
        "[A-Za-z0-9+/]{4,40}={0,2}",
        "[a-z]{1,10}[A-Z][a-z]{0,6}",
        "[\u{4e00}-\u{9fff}\u{ac00}-\u{d7af}\u{3040}-\u{30ff}]{1,8}",
        "[\u{1f300}-\u{1faff}][\u{1f3fb}-\u{1f3ff}\u{200d}\u{fe0f}]?",
        "[\u{0}-\u{1f}\u{7f}-\u{9f}]{1,4}",
        "[\u{300}-\u{36f}\u{1100}-\u{11ff}]{1,6}",
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

/// ASCII text only, which `o200k_base` splits by a hand-written scan
/// rather than its regular expression: the same pieces of text as
/// [`hostile_text`] without the non-ASCII ones, and any ASCII byte.
fn hostile_ascii() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[\\x00-\\x7f]{1,8}",
        "[ \t\r\n\x0b\x0c]{1,6}",
        "[!-/:-@\\[-`{-~]{1,12}",
        "('s|'t|'re|'ve|'m|'ll|'d|'S|'LL|'Re)",
        "[0-9]{1,9}",
        "[A-Za-z0-9+/]{4,40}={0,2}",
        "[a-z]{1,10}[A-Z][a-z]{0,6}",
        "[A-Z]{1,6}[a-z]{0,3}",
    ];
    prop::collection::vec(piece, 0..60).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn ascii_counts_equal_tiktoken_rs(text in hostile_ascii(), limit in 0u64..80) {
        for encoding in Encoding::ALL {
            let counter = ExactCounter::new(encoding).unwrap();
            let exact = reference(encoding, &text);
            prop_assert_eq!(counter.count_tokens(&text), exact, "{} {:?}", encoding, text);
            prop_assert_eq!(counter.count_tokens_up_to(&text, limit), (exact <= limit).then_some(exact));
        }
    }

    #[test]
    fn counts_equal_tiktoken_rs(text in hostile_text()) {
        for encoding in Encoding::ALL {
            let ours = ExactCounter::new(encoding).unwrap().count_tokens(&text);
            prop_assert_eq!(ours, reference(encoding, &text), "{} {:?}", encoding, text);
        }
    }

    #[test]
    fn counting_up_to_a_limit_agrees_with_counting(text in hostile_text(), limit in 0u64..60) {
        for encoding in Encoding::ALL {
            let counter = ExactCounter::new(encoding).unwrap();
            let exact = reference(encoding, &text);
            let expected = (exact <= limit).then_some(exact);
            prop_assert_eq!(counter.count_tokens_up_to(&text, limit), expected);
        }
    }
}

#[test]
fn counts_equal_tiktoken_rs_on_every_unicode_plane() {
    // Every 97th scalar value of planes 0–16, as one text per plane.
    for plane in 0u32..=16 {
        let text: String = (plane << 16..(plane + 1) << 16)
            .step_by(97)
            .filter_map(char::from_u32)
            .collect();
        for encoding in Encoding::ALL {
            let ours = ExactCounter::new(encoding).unwrap().count_tokens(&text);
            assert_eq!(ours, reference(encoding, &text), "{encoding} plane {plane}");
        }
    }
}
