//! [`Feature`]: the counts the calibrated estimator reads from a text.

use std::fmt;

/// How many [`Feature`]s there are.
pub const FEATURE_COUNT: usize = 22;

/// One count the calibrated model reads from a text. Every count is in
/// occurrences (characters, runs or words, as named); characters are Unicode
/// scalar values.
///
/// A *word* is a maximal run of letters: ASCII letters and the alphabetic
/// non-ASCII groups below (Latin-1 and Latin Extended letters, Cyrillic,
/// other two-byte alphabets, other three-byte alphabets). Digits,
/// punctuation, whitespace, CJK, symbols and emoji end a word.
///
/// ```
/// use budget::estimate::{Feature, TextFeatures};
///
/// let f = TextFeatures::of("parseJson(12345)");
/// assert_eq!(f.get(Feature::Words), 1);
/// assert_eq!(f.get(Feature::CaseChanges), 1); // "parse|Json"
/// assert_eq!(f.get(Feature::DigitGroups), 2); // "123" "45"
/// assert_eq!(Feature::DigitGroups.name(), "digit_groups");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Feature {
    /// Words (maximal runs of letters).
    Words,
    /// ASCII lowercase letters directly followed by an ASCII uppercase letter
    /// inside a word (`camelCase` humps).
    CaseChanges,
    /// ASCII letters.
    AsciiLetters,
    /// Letters beyond the sixth in each word, summed over words.
    LongWordExcess,
    /// Runs of ASCII digits, each counted as `ceil(length / 3)` groups.
    DigitGroups,
    /// ASCII punctuation, symbols and control characters other than
    /// tab, line feed and carriage return.
    AsciiPunctuation,
    /// Maximal runs of ASCII punctuation.
    PunctuationRuns,
    /// ASCII punctuation beyond the second character of each run
    /// (operators, regular expressions, Markdown link syntax).
    PunctuationRunExcess,
    /// Maximal runs of line breaks (`\n`, `\r`).
    LineBreakRuns,
    /// Maximal runs of two or more spaces or tabs (indentation, alignment).
    SpaceRuns,
    /// Latin-1 letters `U+00C0..=U+00FF` (except `×` and `÷`).
    Latin1Letters,
    /// Latin Extended letters `U+0100..=U+024F` and `U+1E00..=U+1EFF`.
    LatinExtendedLetters,
    /// Cyrillic letters `U+0400..=U+052F`.
    CyrillicLetters,
    /// Other two-byte letters `U+0250..=U+07FF` (IPA, Greek, Armenian,
    /// Hebrew, Arabic, …).
    OtherTwoByteLetters,
    /// Other three-byte letters `U+0800..=U+1FFF` (Indic scripts, Georgian,
    /// Greek Extended, …) except the unspaced scripts.
    OtherThreeByteLetters,
    /// Characters of scripts written without spaces between words: Thai and
    /// Lao `U+0E00..=U+0EFF`, Myanmar `U+1000..=U+109F`, Khmer
    /// `U+1780..=U+17FF`.
    UnspacedScriptChars,
    /// CJK ideographs, kana, Hangul, CJK punctuation and full-width forms
    /// (`U+2E80..=U+9FFF`, `U+AC00..=U+D7AF`, `U+F900..=U+FAFF`,
    /// `U+FF00..=U+FFEF`).
    CjkChars,
    /// General punctuation `U+2000..=U+206F` (dashes, typographic quotes,
    /// ellipsis, special spaces) except the zero-width joiner.
    GeneralPunctuation,
    /// Box-drawing and block characters `U+2500..=U+259F`.
    BoxDrawing,
    /// Other non-ASCII symbols: `U+0080..=U+00BF`, `×`, `÷`, arrows, maths,
    /// technical and letter-like symbols, private use, and every other
    /// non-ASCII character not named by another feature.
    Symbols,
    /// Emoji and their joiners: `U+200D`, `U+2600..=U+27BF`,
    /// `U+FE00..=U+FE0F` and every character from `U+10000` on.
    EmojiScalars,
    /// Words that contain at least one non-ASCII letter.
    NonAsciiWords,
}

impl Feature {
    /// Every feature, in the order of [`TextFeatures::counts`].
    pub const ALL: [Self; FEATURE_COUNT] = [
        Self::Words,
        Self::CaseChanges,
        Self::AsciiLetters,
        Self::LongWordExcess,
        Self::DigitGroups,
        Self::AsciiPunctuation,
        Self::PunctuationRuns,
        Self::PunctuationRunExcess,
        Self::LineBreakRuns,
        Self::SpaceRuns,
        Self::Latin1Letters,
        Self::LatinExtendedLetters,
        Self::CyrillicLetters,
        Self::OtherTwoByteLetters,
        Self::OtherThreeByteLetters,
        Self::UnspacedScriptChars,
        Self::CjkChars,
        Self::GeneralPunctuation,
        Self::BoxDrawing,
        Self::Symbols,
        Self::EmojiScalars,
        Self::NonAsciiWords,
    ];

    /// The position of this feature in [`TextFeatures::counts`] and in
    /// [`Coefficients::weights`](crate::estimate::Coefficients::weights).
    ///
    /// ```
    /// use budget::estimate::Feature;
    /// assert_eq!(Feature::Words.index(), 0);
    /// assert_eq!(Feature::ALL[Feature::CjkChars.index()], Feature::CjkChars);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The feature's snake_case name, as used in reports.
    ///
    /// ```
    /// assert_eq!(budget::estimate::Feature::CjkChars.name(), "cjk_chars");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Self::Words => "words",
            Self::CaseChanges => "case_changes",
            Self::AsciiLetters => "ascii_letters",
            Self::LongWordExcess => "long_word_excess",
            Self::DigitGroups => "digit_groups",
            Self::AsciiPunctuation => "ascii_punctuation",
            Self::PunctuationRuns => "punctuation_runs",
            Self::PunctuationRunExcess => "punctuation_run_excess",
            Self::LineBreakRuns => "line_break_runs",
            Self::SpaceRuns => "space_runs",
            Self::Latin1Letters => "latin1_letters",
            Self::LatinExtendedLetters => "latin_extended_letters",
            Self::CyrillicLetters => "cyrillic_letters",
            Self::OtherTwoByteLetters => "other_two_byte_letters",
            Self::OtherThreeByteLetters => "other_three_byte_letters",
            Self::UnspacedScriptChars => "unspaced_script_chars",
            Self::CjkChars => "cjk_chars",
            Self::GeneralPunctuation => "general_punctuation",
            Self::BoxDrawing => "box_drawing",
            Self::Symbols => "symbols",
            Self::EmojiScalars => "emoji_scalars",
            Self::NonAsciiWords => "non_ascii_words",
        }
    }

    /// The most tokens one occurrence of this feature can cost: a token
    /// covers at least one byte, so a character costs at most its UTF-8
    /// length. `None` for features that are not single characters.
    ///
    /// ```
    /// use budget::estimate::Feature;
    /// assert_eq!(Feature::CjkChars.max_tokens_per_occurrence(), Some(3.0));
    /// assert_eq!(Feature::Words.max_tokens_per_occurrence(), None);
    /// ```
    pub const fn max_tokens_per_occurrence(self) -> Option<f64> {
        match self {
            Self::Latin1Letters
            | Self::LatinExtendedLetters
            | Self::CyrillicLetters
            | Self::OtherTwoByteLetters => Some(2.0),
            Self::OtherThreeByteLetters
            | Self::UnspacedScriptChars
            | Self::CjkChars
            | Self::GeneralPunctuation
            | Self::BoxDrawing
            | Self::Symbols => Some(3.0),
            Self::EmojiScalars => Some(4.0),
            Self::AsciiLetters | Self::AsciiPunctuation => Some(1.0),
            _ => None,
        }
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
