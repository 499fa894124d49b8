//! [`TextFeatures`]: character-class counts of a text, the inputs of the
//! [`CalibratedEstimator`](crate::estimate::CalibratedEstimator).

use budget_rules::convert::{table_u8, table_u16};

use crate::estimate::feature::{FEATURE_COUNT, Feature};

/// The character-class counts of one text, gathered in a single pass
/// without allocation.
///
/// ```
/// use budget::estimate::{Feature, TextFeatures};
///
/// let f = TextFeatures::of("日本語 and émigré\n\n    done 👍");
/// assert_eq!(f.get(Feature::CjkChars), 3);
/// assert_eq!(f.get(Feature::Words), 3); // "and", "émigré", "done"
/// assert_eq!(f.get(Feature::Latin1Letters), 2);
/// assert_eq!(f.get(Feature::NonAsciiWords), 1);
/// assert_eq!(f.get(Feature::LineBreakRuns), 1);
/// assert_eq!(f.get(Feature::SpaceRuns), 1);
/// assert_eq!(f.get(Feature::EmojiScalars), 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TextFeatures {
    counts: [u64; FEATURE_COUNT],
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
        table[i] = table_u8(next_state(i / INPUTS, i % INPUTS));
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
        let mut bits = EMITS[i];
        while bits != 0 {
            n += 1;
            bits &= bits - 1;
        }
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
            // `trailing_zeros` of a non-zero u32 is below 32: its low byte is it.
            list[n] = (table_u16(i), bits.trailing_zeros().to_le_bytes()[0]);
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
    let mut table = [table_u8(PUNCT); 128];
    let mut b = 0;
    while b < 128 {
        let c = table_u8(b);
        table[b] = if c.is_ascii_lowercase() {
            table_u8(LOWER)
        } else if c.is_ascii_uppercase() {
            table_u8(UPPER)
        } else if c.is_ascii_digit() {
            table_u8(DIGIT)
        } else if c == b' ' || c == b'\t' {
            table_u8(SPACE)
        } else if c == b'\n' || c == b'\r' {
            table_u8(LINE_BREAK)
        } else {
            table_u8(PUNCT)
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

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// `1 << j` for the bytes of the block's word `j` (bytes `8j..8j + 8`).
const WORD_BIT: [u8; BLOCK] = {
    let mut bits = [0u8; BLOCK];
    let mut i = 0;
    while i < BLOCK {
        bits[i] = 1 << (i / 8);
        i += 1;
    }
    bits
};

/// The bytes of `block` for which `class` holds, one bit per byte (bit `i`
/// = byte `i`).
///
/// A branch-free pass over the bytes (the compiler turns it into vector
/// compares) marks byte `8j + k` with bit `j`; ORing the eight words stacks
/// them into bit `j` of byte `k`, and a transposition of that 8×8 bit
/// matrix puts the bit at `8j + k`.
#[inline(always)]
fn class_mask(block: &[u8; BLOCK], class: impl Fn(u8) -> bool) -> u64 {
    let mut marks = [0u8; BLOCK];
    for ((mark, &byte), &bit) in marks.iter_mut().zip(block).zip(&WORD_BIT) {
        *mark = if class(byte) { bit } else { 0 };
    }
    transpose(
        marks
            .chunks_exact(8)
            .fold(0, |stacked, word| stacked | word_of(word)),
    )
}

/// The 8×8 bit matrix `x` (bit `c` of byte `r` at bit `8r + c`) transposed:
/// bit `c` of byte `r` moves to bit `r` of byte `c` (three rounds of swaps
/// of 1×1, 2×2 and 4×4 sub-blocks).
#[inline(always)]
const fn transpose(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// The byte classes of an ASCII block, one bit per byte (bit `i` = byte `i`).
struct Classes {
    lower: u64,
    upper: u64,
    digit: u64,
    space: u64,
    line_break: u64,
}

impl Classes {
    #[inline(always)]
    fn of(block: &[u8; BLOCK]) -> Self {
        // Three masks tell the six classes apart (fewer masks to stack and
        // transpose than one per class): letters, lowercase letters with
        // digits and line breaks, and whitespace.
        let is_line_break = |b: u8| b == b'\n' || b == b'\r';
        let letter = class_mask(block, |b| (b | 0x20).wrapping_sub(b'a') < 26);
        let lower_digit_or_break = class_mask(block, |b| {
            b.wrapping_sub(b'a') < 26 || b.is_ascii_digit() || is_line_break(b)
        });
        let white = class_mask(block, |b| b == b' ' || b == b'\t' || is_line_break(b));
        Self {
            lower: letter & lower_digit_or_break,
            upper: letter & !lower_digit_or_break,
            digit: lower_digit_or_break & !(letter | white),
            space: white & !lower_digit_or_break,
            line_break: white & lower_digit_or_break,
        }
    }
}

/// How many bytes before a block the bit-parallel pass looks back: the
/// letter after six others is the first to count as long-word excess.
const TAIL_BYTES: u32 = 6;

/// The last [`TAIL_BYTES`] bits of a block's class mask, the last byte in
/// bit 5: what the next block needs to know of the class.
#[inline]
const fn tail(mask: u64) -> u64 {
    mask >> (64 - TAIL_BYTES)
}

/// `mask` shifted towards higher positions by `k` (1..=6) bytes, the
/// vacated low bits filled from `tail` (the class in the bytes before the
/// block, see [`tail`]).
///
/// Two shifts and an OR: the double-width shift the compiler would make of
/// `(mask << k) | (previous_mask >> (64 - k))` is slow on some processors.
#[inline]
const fn before(mask: u64, tail: u64, k: u32) -> u64 {
    (mask << k) | (tail >> (TAIL_BYTES - k))
}

/// A tail whose last `n` (0..=6) bytes are set.
#[inline]
fn tail_of_run(n: usize) -> u64 {
    (0x3F << (6 - n)) & 0x3F
}

/// The run of set bits that ends a tail, in bytes (0..=6).
#[inline]
fn run_at_end(tail: u64) -> usize {
    // At most 6 leading zeros (bits 0..58 of the complement are set): the
    // conversion cannot fail.
    usize::try_from((!(tail << (64 - TAIL_BYTES))).leading_zeros()).unwrap_or(0)
}

/// What the bit-parallel pass needs to know of the bytes before a block:
/// the tails of their class masks (see [`tail`]), either those of the ASCII
/// block before or what an automaton state stands for.
#[derive(Clone, Copy)]
struct History {
    letter: u64,
    lower: u64,
    digit: u64,
    /// The digits that start a group of three (`DigitGroups`).
    digit_group_starts: u64,
    space: u64,
    line_break: u64,
    punct: u64,
    /// Whether the word ending at the last byte has a non-ASCII letter.
    non_ascii_word: bool,
}

/// The last byte in a tail.
const LAST: u64 = 1 << (TAIL_BYTES - 1);

impl History {
    /// The bytes that the automaton's `state` remembers.
    fn of_state(state: usize) -> Self {
        let (letter, lower, non_ascii_word) = match letter_of(state) {
            Some((kind, len)) => (
                tail_of_run(len),
                tail_of_run(usize::from(kind == KIND_LOWER || kind == KIND_LOWER_NA)),
                kind >= KIND_LOWER_NA,
            ),
            None => (0, 0, false),
        };
        // The last digit is at `position` (0, 1, 2) in its group of three:
        // the group started `position` bytes earlier, digits all along.
        let (digit, digit_group_starts) = match state.checked_sub(FIRST_DIGIT) {
            Some(position) if position < 3 => (tail_of_run(position + 1), LAST >> position),
            _ => (0, 0),
        };
        let space = match state {
            ONE_SPACE => tail_of_run(1),
            SPACES => tail_of_run(2),
            _ => 0,
        };
        let punct = match state {
            IN_PUNCT => tail_of_run(1),
            IN_PUNCT_2 => tail_of_run(2),
            IN_PUNCT_LONG => tail_of_run(3),
            _ => 0,
        };
        Self {
            letter,
            lower,
            digit,
            digit_group_starts,
            space,
            line_break: tail_of_run(usize::from(state == IN_LINE_BREAKS)),
            punct,
            non_ascii_word,
        }
    }

    /// The automaton's state after the ASCII block whose tails these are.
    fn state(&self) -> usize {
        if self.letter & LAST != 0 {
            let kind = match (self.lower & LAST != 0, self.non_ascii_word) {
                (true, false) => KIND_LOWER,
                (true, true) => KIND_LOWER_NA,
                (false, false) => KIND_UPPER,
                (false, true) => KIND_UPPER_NA,
            };
            letter_state(kind, run_at_end(self.letter).min(LETTER_LEN_CAP))
        } else if self.digit & LAST != 0 {
            // The last group of the run starts in the last three bytes, the
            // last digit's position in it (0, 1, 2) bytes before.
            let position = (self.digit_group_starts << (64 - TAIL_BYTES)).leading_zeros();
            FIRST_DIGIT + usize::try_from(position).unwrap_or(0)
        } else if self.space & LAST != 0 {
            if run_at_end(self.space) >= 2 {
                SPACES
            } else {
                ONE_SPACE
            }
        } else if self.line_break & LAST != 0 {
            IN_LINE_BREAKS
        } else {
            match run_at_end(self.punct) {
                1 => IN_PUNCT,
                2 => IN_PUNCT_2,
                _ => IN_PUNCT_LONG,
            }
        }
    }
}

/// The scan of one text: the automaton (its state, the counts of its
/// transitions) for non-ASCII blocks and the tail, a bit-parallel pass for
/// runs of 64-byte blocks of ASCII. Both count the same features; from one
/// ASCII block to the next the bit-parallel pass carries the tails of the
/// block's class masks ([`History`]), converted from and to the automaton's
/// state where a run of such blocks starts and ends.
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

    /// Counts the 64-byte blocks of ASCII from byte `from` on, as long as
    /// they last, exactly as the automaton would, and moves the automaton to
    /// the state it would end in; returns where they end.
    fn ascii_blocks(&mut self, bytes: &[u8], from: usize) -> usize {
        let mut i = from;
        let mut history = History::of_state(self.state);
        while let Some(block) = bytes
            .get(i..i + BLOCK)
            .and_then(|block| <&[u8; BLOCK]>::try_from(block).ok())
            .filter(|block| is_ascii(block))
        {
            history = self.ascii_block(block, &history);
            i += BLOCK;
        }
        if i != from {
            self.state = history.state();
        }
        i
    }

    /// Counts the features of an ASCII block with bit operations on its
    /// byte classes, given the `history` of the bytes before; returns the
    /// block's.
    #[inline(always)]
    fn ascii_block(&mut self, block: &[u8; BLOCK], history: &History) -> History {
        let Classes {
            lower,
            upper,
            digit,
            space,
            line_break,
        } = Classes::of(block);
        let letter = lower | upper;
        let punct = !(letter | digit | space | line_break);

        // Letters with 1, 3 and 6 letters before them in the word (and
        // the same in the tails), each from the one before by doubling.
        let after_letter = before(letter, history.letter, 1);
        let two = letter & after_letter;
        let two_tail = history.letter & (history.letter << 1);
        let four = two & before(two, two_tail, 2);
        let four_tail = two_tail & (two_tail << 2);
        let long_word = four & before(four, four_tail, 3);
        let digit_groups = digit_group_starts(digit, history);

        let mut add = |feature: Feature, mask: u64| {
            self.counts[feature.index()] += u64::from(mask.count_ones());
        };
        add(Feature::AsciiLetters, letter);
        add(Feature::Words, letter & !after_letter);
        add(
            Feature::CaseChanges,
            upper & before(lower, history.lower, 1),
        );
        add(Feature::LongWordExcess, long_word);
        add(Feature::DigitGroups, digit_groups);
        add(Feature::AsciiPunctuation, punct);
        add(
            Feature::PunctuationRuns,
            punct & !before(punct, history.punct, 1),
        );
        add(
            Feature::PunctuationRunExcess,
            punct & before(punct, history.punct, 1) & before(punct, history.punct, 2),
        );
        add(
            Feature::LineBreakRuns,
            line_break & !before(line_break, history.line_break, 1),
        );
        add(
            Feature::SpaceRuns,
            space & before(space, history.space, 1) & !before(space, history.space, 2),
        );

        History {
            letter: tail(letter),
            lower: tail(lower),
            digit: tail(digit),
            digit_group_starts: tail(digit_groups),
            space: tail(space),
            line_break: tail(line_break),
            punct: tail(punct),
            // The word goes on only if the whole block is letters.
            non_ascii_word: history.non_ascii_word && letter == u64::MAX,
        }
    }

    /// The counts, with every transition's features added.
    fn finish(mut self) -> TextFeatures {
        for &(transition, feature) in &EMIT_LIST {
            self.counts[usize::from(feature)] += self.transitions[usize::from(transition)];
        }
        TextFeatures {
            counts: self.counts,
        }
    }
}

/// The digits of `digit` that start a group of three (`DigitGroups`): the
/// first of each run, then every third, counting from the starts in
/// `history` for a run that goes on from the bytes before.
#[inline]
fn digit_group_starts(digit: u64, history: &History) -> u64 {
    let after_digit = before(digit, history.digit, 1);
    // Three digits in a row end here.
    let three = digit & after_digit & before(digit, history.digit, 2);
    let mut starts = digit & !after_digit;
    let mut next = before(starts, history.digit_group_starts, 3) & three;
    while next != 0 {
        starts |= next;
        next = (next << 3) & three;
    }
    starts
}

impl TextFeatures {
    /// Counts the features of `text` in one pass over its bytes: O(n) time,
    /// no allocation.
    ///
    /// ```
    /// use budget::estimate::{Feature, TextFeatures};
    ///
    /// let f = TextFeatures::of("fn main() {\n    let x = 1;\n}");
    /// assert_eq!(f.get(Feature::Words), 4); // fn main let x
    /// assert_eq!(f.get(Feature::SpaceRuns), 1); // the indentation
    /// assert_eq!(f.get(Feature::LineBreakRuns), 2);
    /// assert_eq!(f.get(Feature::AsciiPunctuation), 6); // ( ) { = ; }
    /// ```
    pub fn of(text: &str) -> Self {
        let bytes = text.as_bytes();
        let mut scan = Scan::new();
        let mut i = scan.ascii_blocks(bytes, 0);
        while i + BLOCK <= bytes.len() {
            // A block with a non-ASCII byte, then the ASCII ones after it.
            i = scan.scalar(bytes, i, i + BLOCK);
            i = scan.ascii_blocks(bytes, i);
        }
        scan.scalar(bytes, i, bytes.len());
        scan.finish()
    }

    /// The count of one feature.
    ///
    /// ```
    /// use budget::estimate::{Feature, TextFeatures};
    /// assert_eq!(TextFeatures::of("a  b").get(Feature::SpaceRuns), 1);
    /// ```
    pub fn get(&self, feature: Feature) -> u64 {
        self.counts[feature.index()]
    }

    /// All counts, indexed by [`Feature::index`].
    ///
    /// ```
    /// use budget::estimate::{Feature, TextFeatures};
    /// let f = TextFeatures::of("ab");
    /// assert_eq!(f.counts()[Feature::AsciiLetters.index()], 2);
    /// ```
    pub fn counts(&self) -> &[u64; FEATURE_COUNT] {
        &self.counts
    }
}

#[cfg(test)]
mod tests;
