use super::*;

fn counts(text: &str) -> Vec<(&'static str, u64)> {
    let f = TextFeatures::of(text);
    Feature::ALL
        .iter()
        .filter(|feature| f.get(**feature) > 0)
        .map(|feature| (feature.name(), f.get(*feature)))
        .collect()
}

#[test]
fn empty_text_has_no_features() {
    assert_eq!(TextFeatures::of(""), TextFeatures::default());
}

#[test]
fn ascii_code_is_counted_by_hand() {
    // words: getUserName, x, longidentifier ; humps: get|User|Name = 2
    // long excess: getUserName 11-6=5, longidentifier 14-6=8 → 13
    // digits: 1234567 → 3 groups ; punct: ( , ) ; → runs "(" ", " is punct+space...
    let text = "getUserName(x, 1234567);\n\n\tlongidentifier";
    assert_eq!(
        counts(text),
        [
            ("words", 3),
            ("case_changes", 2),
            ("ascii_letters", 11 + 1 + 14),
            ("long_word_excess", 13),
            ("digit_groups", 3),
            ("ascii_punctuation", 4),
            ("punctuation_runs", 3), // "(" "," ");"
            ("line_break_runs", 1),
        ]
    );
}

#[test]
fn space_runs_need_two_characters() {
    assert_eq!(counts(" a b"), [("words", 2), ("ascii_letters", 2)]);
    assert_eq!(
        counts("a \t b"),
        [("words", 2), ("ascii_letters", 2), ("space_runs", 1)]
    );
}

#[test]
fn uppercase_runs_are_not_case_changes() {
    // Only lower→upper counts: "HTTPServer" has none, "parseHTTP" one.
    assert_eq!(TextFeatures::of("HTTPServer").get(Feature::CaseChanges), 0);
    assert_eq!(TextFeatures::of("parseHTTP").get(Feature::CaseChanges), 1);
}

#[test]
fn non_ascii_groups() {
    assert_eq!(
        counts("Zürich Łódź Москва Αθήνα שלום"),
        [
            ("words", 5),
            ("ascii_letters", 6),          // Z r i c h, d
            ("latin1_letters", 2),         // ü ó
            ("latin_extended_letters", 2), // Ł ź
            ("cyrillic_letters", 6),
            ("other_two_byte_letters", 9), // Greek 5, Hebrew 4
            ("non_ascii_words", 5),
        ]
    );
    assert_eq!(counts("東京です"), [("cjk_chars", 4)]);
    assert_eq!(counts("สวัสดี"), [("unspaced_script_chars", 6)]);
    assert_eq!(
        counts("नमस्ते"),
        [
            ("words", 1),
            ("other_three_byte_letters", 6),
            ("non_ascii_words", 1)
        ]
    );
    assert_eq!(
        counts("— “x”"),
        [
            ("words", 1),
            ("ascii_letters", 1),
            ("general_punctuation", 3)
        ]
    );
    assert_eq!(counts("├──"), [("box_drawing", 3)]);
    assert_eq!(counts("± → ©"), [("symbols", 3)]);
    // 👨‍👩‍👧 is three emoji joined by two U+200D; ❤️ is U+2764 U+FE0F.
    assert_eq!(counts("👨\u{200D}👩\u{200D}👧❤️"), [("emoji_scalars", 7)]);
}

#[test]
fn every_scalar_is_counted_once_at_most() {
    // Non-ASCII scalars each land in exactly one character feature.
    let text = "aé€日😀ก\u{0905}Ω—│×";
    let f = TextFeatures::of(text);
    let per_char: u64 = [
        Feature::Latin1Letters,
        Feature::LatinExtendedLetters,
        Feature::CyrillicLetters,
        Feature::OtherTwoByteLetters,
        Feature::OtherThreeByteLetters,
        Feature::UnspacedScriptChars,
        Feature::CjkChars,
        Feature::GeneralPunctuation,
        Feature::BoxDrawing,
        Feature::Symbols,
        Feature::EmojiScalars,
    ]
    .iter()
    .map(|x| f.get(*x))
    .sum();
    assert_eq!(per_char, text.chars().count() as u64 - 1);
}

/// The scan before the bit-parallel path: the automaton over every
/// character (the implementation the fast path must agree with).
fn of_automaton(text: &str) -> TextFeatures {
    let mut scan = Scan::new();
    scan.scalar(text.as_bytes(), 0, text.len());
    scan.finish()
}

/// Text made of runs that cross 64-byte block boundaries at every
/// phase: words in both cases, digit runs, punctuation, spaces, line
/// breaks, and now and then a non-ASCII letter or symbol.
fn blocky_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let run = prop_oneof![
        "[a-z]{1,70}",
        "[A-Z]{1,9}[a-z]{0,9}",
        "[a-zA-Z]{1,12}",
        "[0-9]{1,70}",
        "[!-/:-@\\[-`{-~]{1,9}",
        "[\u{0}-\u{8}\u{b}\u{c}\u{e}-\u{1f}\u{7f}]{1,3}",
        "[ \t]{1,70}",
        "[\r\n]{1,3}",
        "[éßŁжΩ]{1,3}",
        "[日é€😀ก—│×]",
    ];
    proptest::collection::vec(run, 0..40).prop_map(|runs| runs.concat())
}

#[test]
fn bit_parallel_path_matches_the_automaton_on_the_corpus() {
    // $BUDGET_CORPUS_DIR, the vendored corpus, or the shared one beside
    // the workspace.
    let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("BUDGET_CORPUS_DIR")
        .map(std::path::PathBuf::from)
        .into_iter()
        .chain([
            manifest.join("tests/data/corpus"),
            manifest.join("../../shared/corpus"),
        ])
        .find(|dir| dir.join("tokens.tsv").is_file())
        .expect("the token corpus");
    let tsv = std::fs::read_to_string(dir.join("tokens.tsv")).unwrap();
    let mut files = 0;
    for line in tsv.lines().skip(1) {
        let file = line.split('\t').next().unwrap();
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        assert_eq!(TextFeatures::of(&text), of_automaton(&text), "{file}");
        files += 1;
    }
    assert_eq!(files, 160);
    let samples = std::fs::read_to_string(manifest.join("tests/data/multilingual.toml")).unwrap();
    assert_eq!(TextFeatures::of(&samples), of_automaton(&samples));
}

#[test]
fn bit_parallel_path_matches_the_automaton_on_crafted_blocks() {
    // Each run ends exactly at, before and after a block boundary,
    // entered in every state the automaton has.
    let prefixes = [
        "", "a", "ab", "abcdef", "abcdefg", "xY", "é", "éa", "Éa", "1", "12", "123", "1234", " ",
        "  ", "\n", ".", "..", "...", "日", "a1", "1a",
    ];
    let bodies: Vec<String> = ["a", "A", "aB", "1", ";", " ", "\t", "\n", "é", "日", "aé"]
        .iter()
        .flat_map(|unit| (60..=70).map(move |n| unit.repeat(n)))
        .collect();
    for prefix in prefixes {
        for body in &bodies {
            for suffix in ["", "a", "B", "7", " ", "!", "\r", "ж"] {
                let text = format!("{prefix}{body}{suffix}{body}");
                assert_eq!(TextFeatures::of(&text), of_automaton(&text), "{text:?}");
            }
        }
    }
}

proptest::proptest! {
    #[test]
    fn each_non_ascii_scalar_lands_in_exactly_one_feature(text in proptest::prelude::any::<String>()) {
        let f = TextFeatures::of(&text);
        let per_char: u64 = Feature::ALL
            .iter()
            .filter(|x| x.max_tokens_per_occurrence().is_some_and(|m| m > 1.0))
            .map(|x| f.get(*x))
            .sum();
        let non_ascii = text.chars().filter(|c| !c.is_ascii()).count() as u64;
        proptest::prop_assert_eq!(per_char, non_ascii);
    }

    #[test]
    fn bit_parallel_path_matches_the_automaton(text in blocky_text()) {
        proptest::prop_assert_eq!(TextFeatures::of(&text), of_automaton(&text));
    }

    #[test]
    fn bit_parallel_path_matches_the_automaton_on_any_text(text in proptest::prelude::any::<String>()) {
        let text = text.repeat(8);
        proptest::prop_assert_eq!(TextFeatures::of(&text), of_automaton(&text));
    }

    #[test]
    fn ascii_letters_and_punctuation_are_counted_per_character(text in proptest::prelude::any::<String>()) {
        let f = TextFeatures::of(&text);
        let letters = text.chars().filter(char::is_ascii_alphabetic).count() as u64;
        let punct = text
            .chars()
            .filter(|c| c.is_ascii() && !c.is_ascii_alphanumeric() && !" \t\n\r".contains(*c))
            .count() as u64;
        proptest::prop_assert_eq!(f.get(Feature::AsciiLetters), letters);
        proptest::prop_assert_eq!(f.get(Feature::AsciiPunctuation), punct);
        proptest::prop_assert!(f.get(Feature::Words) <= text.chars().count() as u64);
        proptest::prop_assert!(f.get(Feature::CaseChanges) <= letters / 2);
    }
}
