//! The guaranteed upper bound (`EstimateMode::UpperBound`) against the
//! exact counter: the vocabulary fact its proof rests on, the audit's
//! hostile families, the corpus, and random text of every kind.
#![cfg(feature = "exact")]

use crate::corpus;

use budget_runtime::estimate::{TextFeatures, guaranteed_upper_bound};
use budget_runtime::{
    Estimator,
    estimate::{
        CalibratedEstimator, ContentType, Encoding, EstimateMode, ExactCounter, TokenCounter,
    },
};
use proptest::prelude::*;

fn counters() -> [ExactCounter; 2] {
    Encoding::ALL.map(|e| ExactCounter::new(e).unwrap())
}

fn bound(text: &str) -> u64 {
    let bound = guaranteed_upper_bound(text);
    for ct in ContentType::ALL {
        assert_eq!(
            CalibratedEstimator::upper_bound(Encoding::O200kBase).estimate(text, ct),
            bound
        );
    }
    bound
}

#[test]
fn not_every_pair_of_ascii_letters_is_a_token() {
    // Why letter runs are bounded by their bytes: `bq` is one piece of two
    // tokens under o200k_base.
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    assert_eq!(o200k.count_tokens("bq"), 2);
}

/// The audit's families (issue 14): the old upper-bound mode gave 245, 431,
/// 109, 928 and 2,004 tokens for them.
fn audit_families() -> Vec<(&'static str, String)> {
    // Rare CJK: every 7th ideograph of the Extension A block.
    let rare_cjk: String = (0x3400u32..0x4DB5)
        .step_by(7)
        .filter_map(char::from_u32)
        .take(1_000)
        .collect();
    // Base64 of pseudo-random bytes (an LCG), 76-character lines.
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut state = 0x2545_f491_u64;
    let mut base64 = String::new();
    for i in 0..3_300 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        base64.push(char::from(alphabet[(state >> 58) as usize]));
        if i % 76 == 75 {
            base64.push('\n');
        }
    }
    vec![
        (
            "1,000 Hangul jamo",
            (0..1_000)
                .map(|i| char::from_u32(0x1100 + i % 0x100).unwrap())
                .collect(),
        ),
        (
            "4,000 chars of ASCII punctuation",
            "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
                .chars()
                .cycle()
                .take(4_000)
                .collect(),
        ),
        ("1,000 NULs", "\0".repeat(1_000)),
        ("rare CJK", rare_cjk),
        ("base64", base64),
    ]
}

#[test]
fn audit_families_stay_under_the_bound() {
    for (name, text) in audit_families() {
        for counter in counters() {
            let exact = counter.count_tokens(&text);
            for ct in ContentType::ALL {
                let estimate = CalibratedEstimator::upper_bound(counter.encoding().unwrap())
                    .estimate(&text, ct);
                assert!(
                    estimate >= exact,
                    "{name}: {estimate} < exact {exact} ({:?})",
                    counter.encoding()
                );
            }
        }
    }
}

#[test]
fn hangul_jamo_nearly_reach_the_byte_bound() {
    // Almost every byte of a jamo string is its own token: no bound much
    // below the byte length holds for such text, so the bound is tight here.
    let (_, jamo) = &audit_families()[0];
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    assert_eq!(jamo.len(), 3_000);
    assert_eq!(o200k.count_tokens(jamo), 2_985);
    assert_eq!(bound(jamo), 3_000);
}

#[test]
fn margin_mode_is_not_a_bound_on_hostile_text() {
    // Why the margin mode is not called an upper bound.
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    let margin = CalibratedEstimator::new(Encoding::O200kBase).with_mode(EstimateMode::Margin);
    let (_, jamo) = &audit_families()[0];
    assert!(margin.estimate(jamo, ContentType::Prose) < o200k.count_tokens(jamo) / 2);
}

#[test]
fn no_feature_based_bound_can_be_tight_on_prose() {
    // Same features, very different exact counts: an estimator that reads
    // only the features and is never below exact must be at least 2× over
    // on the common words.
    let common = "the the the the the the the the";
    let rare = "xqz xqz xqz xqz xqz xqz xqz xqz";
    assert_eq!(TextFeatures::of(common), TextFeatures::of(rare));
    for counter in counters() {
        let (c, r) = (counter.count_tokens(common), counter.count_tokens(rare));
        assert_eq!(c, 8, "{:?}", counter.encoding());
        assert!(r >= 2 * c, "{:?}: {r} vs {c}", counter.encoding());
        assert!(bound(common) >= r);
    }
}

#[test]
fn corpus_and_multilingual_samples_stay_under_the_bound() {
    let mut samples = corpus::load_multilingual().unwrap();
    samples.extend(corpus::load_corpus().unwrap());
    for s in &samples {
        let b = bound(&s.text);
        for encoding in Encoding::ALL {
            assert!(b >= s.exact(encoding), "{encoding} {}: {b}", s.name);
        }
    }
}

/// Random strings from every Unicode plane, punctuation and whitespace
/// runs, base64, binary-like control text, letters in both cases and
/// contractions.
fn hostile_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<char>().prop_map(String::from),
        prop::collection::vec(any::<char>(), 1..20).prop_map(String::from_iter),
        "[!-/:-@\\[-`{-~]{1,40}",
        "[ \t\r\n]{1,12}",
        "[A-Za-z0-9+/]{4,80}={0,2}",
        "[\u{0}-\u{1f}\u{7f}]{1,20}",
        "[a-zA-Z]{1,16}",
        "(?:[a-z]{1,6}'(?:s|t|re|ve|m|ll|d) ){1,4}",
        "[\u{1100}-\u{11ff}\u{3400}-\u{4db5}\u{20000}-\u{2a6df}]{1,20}",
        "[\u{300}-\u{36f}]{1,10}",
        "[0-9\u{660}-\u{669}\u{966}-\u{96f}]{1,12}",
    ];
    prop::collection::vec(piece, 0..30).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn never_below_the_exact_count(text in hostile_text()) {
        let b = bound(&text);
        for counter in counters() {
            let exact = counter.count_tokens(&text);
            prop_assert!(b >= exact, "{:?}: bound {} < exact {} for {:?}", counter.encoding(), b, exact, text);
        }
    }
}
