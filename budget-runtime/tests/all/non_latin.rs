//! The default estimator (`NON_LATIN_SAFE_ESTIMATOR`, the non-Latin-safe mode)
//! never underestimates non-Latin text by more than 10% against the exact
//! `o200k_base` count: the multilingual samples and random strings of many
//! scripts; and it is the best guess on ASCII text.
#![cfg(feature = "exact")]

use crate::corpus;

use budget_runtime::estimate::NON_LATIN_SAFE_ESTIMATOR;
use budget_runtime::{
    Estimator,
    estimate::{CalibratedEstimator, ContentType, Encoding, ExactCounter, TokenCounter},
};

/// Scripts as ranges of characters, common and rare.
const SCRIPTS: &[(&str, &[(u32, u32)])] = &[
    ("cjk-common", &[(0x4E00, 0x4FFF)]),
    ("cjk-all", &[(0x4E00, 0x9FFF)]),
    ("cjk-ext-a", &[(0x3400, 0x4DB5)]),
    ("cjk-ext-b", &[(0x20000, 0x2A6DF)]),
    ("hangul", &[(0xAC00, 0xD7A3)]),
    ("hangul-jamo", &[(0x1100, 0x11FF)]),
    ("kana", &[(0x3041, 0x3096), (0x30A1, 0x30FA)]),
    ("cyrillic", &[(0x0400, 0x04FF)]),
    ("greek", &[(0x0370, 0x03FF)]),
    ("arabic", &[(0x0600, 0x06FF)]),
    ("hebrew", &[(0x0590, 0x05FF)]),
    ("devanagari", &[(0x0900, 0x097F)]),
    ("bengali", &[(0x0980, 0x09FF)]),
    ("tamil", &[(0x0B80, 0x0BFF)]),
    ("thai", &[(0x0E00, 0x0E7F)]),
    ("georgian", &[(0x10A0, 0x10FF)]),
    ("armenian", &[(0x0530, 0x058F)]),
    ("ethiopic", &[(0x1200, 0x137F)]),
    ("tibetan", &[(0x0F00, 0x0FFF)]),
    ("emoji", &[(0x1F300, 0x1FAFF)]),
    (
        "mixed",
        &[
            (0x0400, 0x04FF),
            (0x4E00, 0x9FFF),
            (0x0600, 0x06FF),
            (0x1F600, 0x1F64F),
        ],
    ),
];

/// `chars` random characters of `ranges`, a space before one in five.
fn random_text(ranges: &[(u32, u32)], seed: u64, chars: usize) -> String {
    let mut state = seed;
    let mut next = move |n: u64| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let mut text = String::new();
    while text.chars().filter(|c| *c != ' ').count() < chars {
        if !text.is_empty() && next(5) == 0 {
            text.push(' ');
        }
        let (lo, hi) = ranges[next(ranges.len() as u64) as usize];
        let offset = u32::try_from(next(u64::from(hi - lo + 1))).unwrap();
        if let Some(c) = char::from_u32(lo + offset) {
            text.push(c);
        }
    }
    text
}

fn assert_not_under_by_more_than_10_percent(name: &str, text: &str, exact: u64) {
    for ct in ContentType::ALL {
        let estimate = NON_LATIN_SAFE_ESTIMATOR.estimate(text, ct);
        assert!(
            estimate as f64 >= 0.9 * exact as f64,
            "{name} ({ct}): estimate {estimate} for {exact} exact tokens"
        );
    }
}

#[test]
fn random_scripts_are_not_underestimated() {
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    for (name, ranges) in SCRIPTS {
        for seed in 0..25 {
            for chars in [1, 3, 10, 50, 400] {
                let text = random_text(ranges, seed, chars);
                assert_not_under_by_more_than_10_percent(name, &text, o200k.count_tokens(&text));
            }
        }
    }
}

#[test]
fn multilingual_samples_are_not_underestimated() {
    for s in corpus::load_multilingual().unwrap() {
        assert_not_under_by_more_than_10_percent(&s.name, &s.text, s.o200k_base);
    }
}

#[test]
fn the_best_guess_is_not_safe_on_random_scripts() {
    // Why the default is not the plain best guess: random Hangul syllables
    // cost far more than Korean prose.
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    let text = random_text(&[(0xAC00, 0xD7A3)], 7, 400);
    let guess = CalibratedEstimator::new(Encoding::O200kBase).estimate(&text, ContentType::Prose);
    assert!((guess as f64) < 0.5 * o200k.count_tokens(&text) as f64);
}

#[test]
fn ascii_text_gets_the_best_guess() {
    let best = CalibratedEstimator::new(Encoding::O200kBase);
    let files = corpus::load_corpus().unwrap();
    let mut ascii_files = 0;
    for file in files.iter().filter(|f| f.text.is_ascii()) {
        assert_eq!(
            NON_LATIN_SAFE_ESTIMATOR.estimate(&file.text, file.content_type),
            best.estimate(&file.text, file.content_type),
            "{}",
            file.name
        );
        ascii_files += 1;
    }
    assert!(ascii_files > 100, "{ascii_files} ASCII files");
}
