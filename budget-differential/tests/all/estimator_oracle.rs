//! The calibrated estimator as it was before its scan was made faster (a
//! frozen copy of `budget-runtime`'s `estimate/features.rs` scan and of the
//! estimate formula in `estimate/calibrated.rs` at commit d31211d): the
//! oracle that the current implementation must match bit for bit, on random
//! text and on every corpus file. Never edit it to make a test pass. Being a
//! verbatim copy, it keeps its `as` casts: the cast lints are lifted here.

#![allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]

use budget_runtime::estimate::ContentType;
use budget_runtime::estimate::{CalibratedEstimator, EstimateMode, FEATURE_COUNT, Feature};

/// The feature counts of `text`, as the scan counted them before.
fn features(text: &str) -> [u64; FEATURE_COUNT] {
    let bytes = text.as_bytes();
    let mut scan = Scan::new();
    let mut i = 0;
    while let Some(block) = bytes.get(i..i + BLOCK) {
        match <&[u8; BLOCK]>::try_from(block) {
            Ok(block) if is_ascii(block) => {
                scan.ascii_block(block);
                i += BLOCK;
            }
            _ => i = scan.scalar(bytes, i, i + BLOCK),
        }
    }
    scan.scalar(bytes, i, bytes.len());
    scan.finish()
}

/// `estimator`'s estimate of a text of `len_bytes` bytes with feature
/// counts `counts`, by the formula as it was before.
fn estimate(
    estimator: &CalibratedEstimator,
    counts: &[u64; FEATURE_COUNT],
    len_bytes: usize,
    content_type: ContentType,
) -> u64 {
    const NON_LATIN_SEPARATOR_SHARE: f64 = 0.25;
    if len_bytes == 0 {
        return 0;
    }
    let coefficients = estimator.calibration().for_content_type(content_type);
    let raw: f64 = coefficients
        .weights
        .iter()
        .zip(counts)
        .map(|(w, &n)| w * n as f64)
        .sum();
    let scaled = match estimator.mode() {
        EstimateMode::BestGuess => raw,
        EstimateMode::Margin => raw * coefficients.safety_factor,
        EstimateMode::NonLatinSafe => Feature::ALL
            .iter()
            .map(|&f| {
                let weight = match f.max_tokens_per_occurrence() {
                    Some(bytes) if bytes > 1.0 => bytes + NON_LATIN_SEPARATOR_SHARE,
                    _ => coefficients.weights[f.index()],
                };
                weight * counts[f.index()] as f64
            })
            .sum(),
        EstimateMode::UpperBound => return u64::try_from(len_bytes).unwrap_or(u64::MAX),
        mode => panic!("the frozen estimator knows no mode {mode:?}"),
    };
    let tokens = scaled.ceil() as u64;
    let max = u64::try_from(len_bytes).unwrap_or(u64::MAX);
    tokens.clamp(1, max)
}

// How the scan works: a small automaton reads one input class per character
// (ASCII letters by case, digits, spaces, line breaks, punctuation,
// non-ASCII letters, other non-ASCII). Its state remembers just enough of
// the current run (kind, capped length, digit position, whether the word
// has a non-ASCII letter). The hot loop only counts how often each
// (state, input) pair occurs; every run- and word-based feature is a sum of
// such pair counts, added up once at the end from the `EMITS` table.

/// Input classes of the automaton.
const LOWER: usize = 0;
const UPPER: usize = 1;
const DIGIT: usize = 2;
const SPACE: usize = 3;
const LINE_BREAK: usize = 4;
const PUNCT: usize = 5;
const NON_ASCII_LETTER: usize = 6;
const NON_ASCII_OTHER: usize = 7;
const INPUTS: usize = 8;

/// Letter states carry the length of the word so far, capped here: the
/// letter after the sixth is the first to count as long-word excess.
const LETTER_LEN_CAP: usize = 6;
/// Letter kinds: last letter lowercase or not, word has a non-ASCII letter or not.
const LETTER_KINDS: usize = 4;
const KIND_LOWER: usize = 0;
const KIND_UPPER: usize = 1;
const KIND_LOWER_NA: usize = 2;
const KIND_UPPER_NA: usize = 3;

/// States: start, letters (kind × length), digits (position in a group of
/// three), one space, two or more spaces, line breaks, punctuation (by run
/// length), other.
const START: usize = 0;
const FIRST_LETTER: usize = 1;
const FIRST_DIGIT: usize = FIRST_LETTER + LETTER_KINDS * LETTER_LEN_CAP;
const ONE_SPACE: usize = FIRST_DIGIT + 3;
const SPACES: usize = ONE_SPACE + 1;
const IN_LINE_BREAKS: usize = SPACES + 1;
/// Punctuation runs of one, two, and three or more characters.
const IN_PUNCT: usize = IN_LINE_BREAKS + 1;
const IN_PUNCT_2: usize = IN_PUNCT + 1;
const IN_PUNCT_LONG: usize = IN_PUNCT_2 + 1;
const IN_OTHER: usize = IN_PUNCT_LONG + 1;
const STATES: usize = IN_OTHER + 1;

const fn letter_state(kind: usize, len: usize) -> usize {
    FIRST_LETTER + kind * LETTER_LEN_CAP + (len - 1)
}

/// `(kind, length)` of a letter state, or `None` for other states.
const fn letter_of(state: usize) -> Option<(usize, usize)> {
    if state >= FIRST_LETTER && state < FIRST_DIGIT {
        let offset = state - FIRST_LETTER;
        Some((offset / LETTER_LEN_CAP, offset % LETTER_LEN_CAP + 1))
    } else {
        None
    }
}

/// Whether a digit read in `state` joins the current group of three digits
/// (the state is the first or second digit of a group).
const fn continues_digit_group(state: usize) -> bool {
    state >= FIRST_DIGIT && state < FIRST_DIGIT + 2
}

/// The state after reading `input` in `state`.
const fn next_state(state: usize, input: usize) -> usize {
    match input {
        LOWER | UPPER | NON_ASCII_LETTER => {
            let (non_ascii, len) = match letter_of(state) {
                Some((kind, len)) => (kind >= KIND_LOWER_NA, len + 1),
                None => (false, 1),
            };
            let len = if len > LETTER_LEN_CAP {
                LETTER_LEN_CAP
            } else {
                len
            };
            let kind = match (input, non_ascii) {
                (LOWER, false) => KIND_LOWER,
                (LOWER, true) => KIND_LOWER_NA,
                (UPPER, false) => KIND_UPPER,
                _ => KIND_UPPER_NA,
            };
            letter_state(kind, len)
        }
        DIGIT if continues_digit_group(state) => state + 1,
        DIGIT => FIRST_DIGIT,
        SPACE => {
            if state == ONE_SPACE || state == SPACES {
                SPACES
            } else {
                ONE_SPACE
            }
        }
        LINE_BREAK => IN_LINE_BREAKS,
        PUNCT if state == IN_PUNCT => IN_PUNCT_2,
        PUNCT if state == IN_PUNCT_2 || state == IN_PUNCT_LONG => IN_PUNCT_LONG,
        PUNCT => IN_PUNCT,
        _ => IN_OTHER,
    }
}

/// The features (bit `i` = `Feature::ALL[i]`) that reading `input` in
/// `state` adds one to.
const fn emits(state: usize, input: usize) -> u32 {
    const fn bit(feature: Feature) -> u32 {
        1 << feature.index()
    }
    let letter = letter_of(state);
    let mut bits = 0;
    match input {
        LOWER | UPPER | NON_ASCII_LETTER => {
            if input != NON_ASCII_LETTER {
                bits |= bit(Feature::AsciiLetters);
            }
            match letter {
                None => {
                    bits |= bit(Feature::Words);
                    if input == NON_ASCII_LETTER {
                        bits |= bit(Feature::NonAsciiWords);
                    }
                }
                Some((kind, len)) => {
                    if input == UPPER && (kind == KIND_LOWER || kind == KIND_LOWER_NA) {
                        bits |= bit(Feature::CaseChanges);
                    }
                    if input == NON_ASCII_LETTER && kind < KIND_LOWER_NA {
                        bits |= bit(Feature::NonAsciiWords);
                    }
                    if len >= LETTER_LEN_CAP {
                        bits |= bit(Feature::LongWordExcess);
                    }
                }
            }
        }
        DIGIT if !continues_digit_group(state) => bits |= bit(Feature::DigitGroups),
        SPACE if state == ONE_SPACE => bits |= bit(Feature::SpaceRuns),
        LINE_BREAK if state != IN_LINE_BREAKS => bits |= bit(Feature::LineBreakRuns),
        PUNCT => {
            bits |= bit(Feature::AsciiPunctuation);
            if state == IN_PUNCT_2 || state == IN_PUNCT_LONG {
                bits |= bit(Feature::PunctuationRunExcess);
            } else if state != IN_PUNCT {
                bits |= bit(Feature::PunctuationRuns);
            }
        }
        _ => {}
    }
    bits
}

// Transitions fit in a byte and features in the bits of a u32.
const _: () = assert!(STATES <= 256 && FEATURE_COUNT <= 32);

/// `NEXT[state * INPUTS + input]`: the automaton's transitions.
const NEXT: [u8; STATES * INPUTS] = {
    let mut table = [0u8; STATES * INPUTS];
    let mut i = 0;
    while i < STATES * INPUTS {
        table[i] = next_state(i / INPUTS, i % INPUTS) as u8;
        i += 1;
    }
    table
};

/// `EMITS[state * INPUTS + input]`: the features each transition counts.
const EMITS: [u32; STATES * INPUTS] = {
    let mut table = [0u32; STATES * INPUTS];
    let mut i = 0;
    while i < STATES * INPUTS {
        table[i] = emits(i / INPUTS, i % INPUTS);
        i += 1;
    }
    table
};

/// How many (transition, feature) pairs `EMITS` holds.
const EMIT_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < STATES * INPUTS {
        n += EMITS[i].count_ones() as usize;
        i += 1;
    }
    n
};

/// `EMITS` flattened into `(transition, feature index)` pairs, so that the
/// final sum is one branch-free pass.
const EMIT_LIST: [(u16, u8); EMIT_COUNT] = {
    let mut list = [(0u16, 0u8); EMIT_COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < STATES * INPUTS {
        let mut bits = EMITS[i];
        while bits != 0 {
            list[n] = (i as u16, bits.trailing_zeros() as u8);
            n += 1;
            bits &= bits - 1;
        }
        i += 1;
    }
    list
};

/// Input class of each ASCII byte. Control characters other than tab, line
/// feed and carriage return count as punctuation.
const ASCII_INPUT: [u8; 128] = {
    let mut table = [PUNCT as u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = if c.is_ascii_lowercase() {
            LOWER as u8
        } else if c.is_ascii_uppercase() {
            UPPER as u8
        } else if c.is_ascii_digit() {
            DIGIT as u8
        } else if c == b' ' || c == b'\t' {
            SPACE as u8
        } else if c == b'\n' || c == b'\r' {
            LINE_BREAK as u8
        } else {
            PUNCT as u8
        };
        b += 1;
    }
    table
};

/// The feature a non-ASCII scalar counts towards, and whether it is a letter.
const fn non_ascii_feature(cp: u32) -> (Feature, bool) {
    match cp {
        0xD7 | 0xF7 | 0x80..=0xBF => (Feature::Symbols, false),
        0xC0..=0xFF => (Feature::Latin1Letters, true),
        0x100..=0x24F | 0x1E00..=0x1EFF => (Feature::LatinExtendedLetters, true),
        0x400..=0x52F => (Feature::CyrillicLetters, true),
        0x250..=0x7FF => (Feature::OtherTwoByteLetters, true),
        0xE00..=0xEFF | 0x1000..=0x109F | 0x1780..=0x17FF => (Feature::UnspacedScriptChars, false),
        0x800..=0x1FFF => (Feature::OtherThreeByteLetters, true),
        0x2E80..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF => {
            (Feature::CjkChars, false)
        }
        0x200D | 0x2600..=0x27BF | 0xFE00..=0xFE0F | 0x10000.. => (Feature::EmojiScalars, false),
        0x2000..=0x206F => (Feature::GeneralPunctuation, false),
        0x2500..=0x259F => (Feature::BoxDrawing, false),
        _ => (Feature::Symbols, false),
    }
}

/// Decodes the scalar whose lead byte is at `i` (not ASCII); returns it and
/// its UTF-8 length. `bytes` is valid UTF-8, so the continuation bytes exist;
/// missing ones read as zero instead of panicking.
#[inline]
fn decode(bytes: &[u8], i: usize, lead: u8) -> (u32, usize) {
    let cont = |k: usize| u32::from(bytes.get(i + k).copied().unwrap_or(0x80) & 0x3F);
    if lead < 0xE0 {
        ((u32::from(lead & 0x1F) << 6) | cont(1), 2)
    } else if lead < 0xF0 {
        ((u32::from(lead & 0x0F) << 12) | (cont(1) << 6) | cont(2), 3)
    } else {
        (
            (u32::from(lead & 0x07) << 18) | (cont(1) << 12) | (cont(2) << 6) | cont(3),
            4,
        )
    }
}

/// Bytes per block of the bit-parallel ASCII path: one bit per byte in a `u64`.
const BLOCK: usize = 64;

/// Whether every byte of `block` is ASCII.
#[inline]
fn is_ascii(block: &[u8; BLOCK]) -> bool {
    block
        .chunks_exact(8)
        .fold(0u64, |any, word| any | word_of(word))
        & HIGH_BITS
        == 0
}

/// Eight bytes as a little-endian word (byte `k` in bits `8k..8k + 8`).
#[inline]
fn word_of(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(bytes);
    u64::from_le_bytes(word)
}

const LOW_BITS: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// Per byte of an ASCII `word`: the high bit set where the byte is `>= c`.
#[inline]
fn at_least(word: u64, c: u8) -> u64 {
    // Bytes are < 0x80 and 0x80 - c <= 0x80: no carry crosses a byte.
    word.wrapping_add(LOW_BITS * (0x80 - u64::from(c))) & HIGH_BITS
}

/// Per byte of an ASCII `word`: the high bit set where the byte is `c`.
#[inline]
fn equal(word: u64, c: u8) -> u64 {
    // x < 0x80 per byte; x + 0x7F has its high bit clear only for x == 0.
    let x = word ^ (LOW_BITS * u64::from(c));
    !x.wrapping_add(LOW_BITS * 0x7F) & HIGH_BITS
}

/// The high bits of the eight bytes of `lanes`, as eight contiguous bits.
#[inline]
const fn gather(lanes: u64) -> u64 {
    // Bit 8k moves to bit 56 + k; the partial products never collide.
    (lanes >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The byte classes of an ASCII block, one bit per byte (bit `i` = byte `i`).
#[derive(Default)]
struct Classes {
    lower: u64,
    upper: u64,
    digit: u64,
    space: u64,
    line_break: u64,
}

impl Classes {
    #[inline]
    fn of(block: &[u8; BLOCK]) -> Self {
        let mut classes = Self::default();
        for (k, bytes) in block.chunks_exact(8).enumerate() {
            let word = word_of(bytes);
            let folded = word | (LOW_BITS * 0x20);
            let letter = at_least(folded, b'a') & !at_least(folded, b'{');
            // Bit 5 (0x20) set: lowercase; moved to the high bit by << 2.
            let case = word << 2;
            let digit = at_least(word, b'0') & !at_least(word, b':');
            let space = equal(word, b' ') | equal(word, b'\t');
            let line_break = equal(word, b'\n') | equal(word, b'\r');
            let shift = 8 * k;
            classes.lower |= gather(letter & case) << shift;
            classes.upper |= gather(letter & !case) << shift;
            classes.digit |= gather(digit) << shift;
            classes.space |= gather(space) << shift;
            classes.line_break |= gather(line_break) << shift;
        }
        classes
    }
}

/// `mask` shifted towards higher positions by `k` (1..=6) bytes, the
/// vacated low bits filled from `history` (the classes of the bytes before
/// the block, the byte just before in bit 63).
#[inline]
const fn before(mask: u64, history: u64, k: u32) -> u64 {
    (mask << k) | (history >> (64 - k))
}

/// The run of set bits ending at bit 63, in bits (0..=64).
#[inline]
fn trailing_run(mask: u64) -> usize {
    // leading_zeros is at most 64: the conversion cannot fail.
    usize::try_from((!mask).leading_zeros()).unwrap_or(BLOCK)
}

/// `n` (0..=6) set bits at the top of a word: the last `n` bytes before a block.
#[inline]
fn last_bytes(n: usize) -> u64 {
    if n == 0 { 0 } else { !0u64 << (64 - n) }
}

/// The scan of one text: the automaton (its state, the counts of its
/// transitions) for non-ASCII blocks and the tail, a bit-parallel pass for
/// 64-byte blocks of ASCII. Both count the same features; the automaton's
/// state is carried across.
struct Scan {
    counts: [u64; FEATURE_COUNT],
    transitions: [u64; STATES * INPUTS],
    state: usize,
}

impl Scan {
    fn new() -> Self {
        Self {
            counts: [0; FEATURE_COUNT],
            transitions: [0; STATES * INPUTS],
            state: START,
        }
    }

    /// Runs the automaton over the characters that start in `from..to`
    /// (`from` on a character boundary); returns where the next character
    /// starts (`to`, or past it when a character straddles `to`).
    fn scalar(&mut self, bytes: &[u8], from: usize, to: usize) -> usize {
        let mut i = from;
        while i < to {
            let Some(&b) = bytes.get(i) else { break };
            let input = if b < 0x80 {
                i += 1;
                usize::from(ASCII_INPUT[usize::from(b)])
            } else {
                let (cp, width) = decode(bytes, i, b);
                i += width;
                let (feature, letter) = non_ascii_feature(cp);
                self.counts[feature.index()] += 1;
                if letter {
                    NON_ASCII_LETTER
                } else {
                    NON_ASCII_OTHER
                }
            };
            let transition = self.state * INPUTS + input;
            self.transitions[transition] += 1;
            self.state = usize::from(NEXT[transition]);
        }
        i
    }

    /// Counts the features of an ASCII block with bit operations on its
    /// byte classes, exactly as the automaton would, and moves the
    /// automaton to the state it would end in.
    fn ascii_block(&mut self, block: &[u8; BLOCK]) {
        let Classes {
            lower,
            upper,
            digit,
            space,
            line_break,
        } = Classes::of(block);
        let letter = lower | upper;
        let punct = !(letter | digit | space | line_break);

        // What the state says about the bytes before the block.
        let state = self.state;
        let (letters_before, lower_before, non_ascii_word) = match letter_of(state) {
            Some((kind, len)) => (
                last_bytes(len),
                last_bytes(usize::from(kind == KIND_LOWER || kind == KIND_LOWER_NA)),
                kind >= KIND_LOWER_NA,
            ),
            None => (0, 0, false),
        };
        let digit_before = continues_digit_group(state) || state == FIRST_DIGIT + 2;
        let spaces_before = match state {
            ONE_SPACE => last_bytes(1),
            SPACES => last_bytes(2),
            _ => 0,
        };
        let breaks_before = last_bytes(usize::from(state == IN_LINE_BREAKS));
        let punct_before = match state {
            IN_PUNCT => last_bytes(1),
            IN_PUNCT_2 => last_bytes(2),
            IN_PUNCT_LONG => last_bytes(3),
            _ => 0,
        };

        let mut long_word = letter;
        for k in 1..=6 {
            long_word &= before(letter, letters_before, k);
        }
        let digit_groups = digit_group_starts(digit, digit_before.then(|| state - FIRST_DIGIT));

        let mut add = |feature: Feature, mask: u64| {
            self.counts[feature.index()] += u64::from(mask.count_ones());
        };
        add(Feature::AsciiLetters, letter);
        add(Feature::Words, letter & !before(letter, letters_before, 1));
        add(Feature::CaseChanges, upper & before(lower, lower_before, 1));
        add(Feature::LongWordExcess, long_word);
        add(Feature::DigitGroups, digit_groups);
        add(Feature::AsciiPunctuation, punct);
        add(
            Feature::PunctuationRuns,
            punct & !before(punct, punct_before, 1),
        );
        add(
            Feature::PunctuationRunExcess,
            punct & before(punct, punct_before, 1) & before(punct, punct_before, 2),
        );
        add(
            Feature::LineBreakRuns,
            line_break & !before(line_break, breaks_before, 1),
        );
        add(
            Feature::SpaceRuns,
            space & before(space, spaces_before, 1) & !before(space, spaces_before, 2),
        );

        // The state after the last byte, from the run it ends.
        const LAST: u64 = 1 << 63;
        self.state = if letter & LAST != 0 {
            let run = trailing_run(letter);
            let whole = run == 64 && letters_before != 0;
            let len = if whole {
                LETTER_LEN_CAP
            } else {
                run.min(LETTER_LEN_CAP)
            };
            let kind = match (lower & LAST != 0, whole && non_ascii_word) {
                (true, false) => KIND_LOWER,
                (true, true) => KIND_LOWER_NA,
                (false, false) => KIND_UPPER,
                (false, true) => KIND_UPPER_NA,
            };
            letter_state(kind, len)
        } else if digit & LAST != 0 {
            let run = trailing_run(digit);
            let position = match (run == 64, digit_before) {
                (true, true) => state - FIRST_DIGIT + run,
                _ => run - 1,
            };
            FIRST_DIGIT + position % 3
        } else if space & LAST != 0 {
            if trailing_run(space) >= 2 {
                SPACES
            } else {
                ONE_SPACE
            }
        } else if line_break & LAST != 0 {
            IN_LINE_BREAKS
        } else {
            match trailing_run(punct) {
                1 => IN_PUNCT,
                2 => IN_PUNCT_2,
                _ => IN_PUNCT_LONG,
            }
        };
    }

    /// The counts, with every transition's features added.
    fn finish(mut self) -> [u64; FEATURE_COUNT] {
        for &(transition, feature) in &EMIT_LIST {
            self.counts[usize::from(feature)] += self.transitions[usize::from(transition)];
        }
        self.counts
    }
}

/// The digits of `digit` that start a group of three (`DigitGroups`): the
/// first of each run, then every third. `continued` is the position in its
/// group (0, 1, 2) of the digit just before the block, if there is one.
#[inline]
fn digit_group_starts(digit: u64, continued: Option<usize>) -> u64 {
    let digit_before = u64::from(continued.is_some());
    let mut starts = digit & !((digit << 1) | digit_before);
    if let Some(position) = continued {
        // The run goes on: its next group starts at byte 2 - position.
        let first = 2 - position;
        let prefix = (2u64 << first) - 1;
        if digit & prefix == prefix {
            starts |= 1 << first;
        }
    }
    // A group starts three digits after another if the run lasts that long.
    let three = digit & (digit << 1) & (digit << 2);
    let mut next = starts;
    loop {
        next = (next << 3) & three;
        if next == 0 {
            return starts;
        }
        starts |= next;
    }
}

/// The current implementation against the frozen one: every feature count
/// and every estimate (both encodings, every content type, every mode),
/// expected values from the reference only.
mod tests {
    use super::*;
    use budget_runtime::estimate::{Encoding, Estimator, NON_LATIN_SAFE_ESTIMATOR, TextFeatures};
    use proptest::prelude::*;

    const MODES: [EstimateMode; 4] = [
        EstimateMode::BestGuess,
        EstimateMode::Margin,
        EstimateMode::NonLatinSafe,
        EstimateMode::UpperBound,
    ];

    /// Asserts that the features and the estimates of `text` are the
    /// reference's: every encoding, mode and content type from the counted
    /// features, and the whole path from the text for every mode and the
    /// default estimator. `what` names the text in the failure message.
    fn assert_identical(text: &str, what: &str) {
        let expected = features(text);
        let counted = TextFeatures::of(text);
        assert_eq!(counted.counts(), &expected, "features of {what}");
        for encoding in Encoding::ALL {
            for mode in MODES {
                let estimator = CalibratedEstimator::new(encoding).with_mode(mode);
                for content_type in ContentType::ALL {
                    assert_eq!(
                        estimator.estimate_features(&counted, text.len(), content_type),
                        estimate(&estimator, &expected, text.len(), content_type),
                        "{encoding} {mode:?} {content_type:?} estimate of {what}"
                    );
                }
            }
        }
        for (mode, content_type) in MODES.into_iter().zip(ContentType::ALL) {
            let estimator = CalibratedEstimator::new(Encoding::O200kBase).with_mode(mode);
            assert_eq!(
                estimator.estimate(text, content_type),
                estimate(&estimator, &expected, text.len(), content_type),
                "{mode:?} {content_type:?} estimate of {what}"
            );
        }
        assert_eq!(
            NON_LATIN_SAFE_ESTIMATOR.estimate(text, ContentType::Prose),
            estimate(
                &NON_LATIN_SAFE_ESTIMATOR,
                &expected,
                text.len(),
                ContentType::Prose
            ),
            "default estimate of {what}"
        );
    }

    #[test]
    fn identical_on_every_corpus_file_and_the_multilingual_samples() {
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = manifest.join("../budget-runtime/tests/data/corpus");
        let tsv = std::fs::read_to_string(dir.join("tokens.tsv")).expect("the vendored corpus");
        let mut files = 0;
        for line in tsv.lines().skip(1) {
            let file = line.split('\t').next().expect("a file column");
            let text = std::fs::read_to_string(dir.join(file)).expect("a corpus file");
            assert_identical(&text, file);
            // Every phase against the 64-byte blocks, and short pieces.
            for start in 1..8 {
                let piece = text.get(start..).unwrap_or_default();
                assert_eq!(
                    TextFeatures::of(piece).counts(),
                    &features(piece),
                    "features of {file} from byte {start}"
                );
            }
            for piece in text.split_inclusive('\n').take(50) {
                assert_identical(piece, &format!("a line of {file}"));
            }
            files += 1;
        }
        assert_eq!(files, 160);
        let samples = std::fs::read_to_string(
            manifest.join("../budget-runtime/tests/data/multilingual.toml"),
        )
        .expect("the multilingual samples");
        assert_identical(&samples, "multilingual.toml");
        for (n, line) in samples.lines().enumerate() {
            assert_identical(line, &format!("multilingual.toml line {n}"));
        }
    }

    /// One run of ASCII characters of one kind, up to a little over a
    /// block long.
    fn ascii_run() -> impl Strategy<Value = String> {
        prop_oneof![
            "[a-z]{1,70}",
            "[A-Z]{1,9}[a-z]{0,9}",
            "[a-zA-Z]{1,12}",
            "[a-zA-Z0-9_]{1,20}",
            "[0-9]{1,70}",
            "[!-/:-@\\[-`{-~]{1,9}",
            "[\u{0}-\u{8}\u{b}\u{c}\u{e}-\u{1f}\u{7f}]{1,3}",
            "[ \t]{1,70}",
            "[\r\n]{1,3}",
            "[ -~\t\n\r]{1,80}",
        ]
    }

    /// One run of non-ASCII characters of one script or kind.
    fn other_run() -> impl Strategy<Value = String> {
        prop_oneof![
            "[àéîõüçñßÀÉŁłŒœżźžšđ]{1,5}",
            "[а-яА-Я]{1,8}",
            "[α-ωΑ-Ω]{1,8}",
            "[א-ת]{1,6}",
            "[ا-ي]{1,6}",
            "[अ-ह्]{1,6}",
            "[ก-ฮ]{1,6}",
            "[一-龥ぁ-んァ-ン가-힣]{1,6}",
            "[、。「」！？（）]{1,3}",
            "[—–‘’“”…\u{200b}\u{00a0}]{1,3}",
            "[─│┌┐└┘├┤█]{1,4}",
            "[±×÷→⇒∑√∞©®™€£¥]{1,3}",
            "[😀-🙏🚀-🛿]{1,3}",
            "[\u{1f3fb}-\u{1f3ff}\u{200d}\u{fe0f}❤☀]{1,3}",
            any::<char>().prop_map(String::from),
        ]
    }

    /// Text in which ASCII and other scripts, emoji and control characters
    /// alternate about equally.
    fn mixed_text() -> impl Strategy<Value = String> {
        prop::collection::vec(prop_oneof![ascii_run(), other_run()], 0..60)
            .prop_map(|runs| runs.concat())
    }

    /// Mostly ASCII text with now and then another script or an emoji, so
    /// that several ASCII blocks follow one another between non-ASCII ones
    /// and runs cross the 64-byte blocks at every phase.
    fn mostly_ascii_text() -> impl Strategy<Value = String> {
        prop::collection::vec(prop_oneof![8 => ascii_run(), 1 => other_run()], 0..120)
            .prop_map(|runs| runs.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn identical_on_mixed_text(text in mixed_text()) {
            assert_identical(&text, "mixed text");
        }

        #[test]
        fn identical_on_mostly_ascii_text(text in mostly_ascii_text()) {
            assert_identical(&text, "mostly ASCII text");
        }

        #[test]
        fn identical_on_ascii_heavy_text(text in "[ -~\t\n\r]{0,400}") {
            assert_identical(&text, "ASCII text");
            assert_identical(&text.repeat(5), "repeated ASCII text");
        }

        #[test]
        fn identical_on_any_text(text in any::<String>()) {
            assert_identical(&text, "random text");
            assert_identical(&text.repeat(9), "repeated random text");
        }
    }
}
