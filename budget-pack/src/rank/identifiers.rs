//! [`identifiers`]: the words of source text, found 64 bytes at a time.
//!
//! Every file's text is scanned for identifiers (the reference graph, BM25,
//! the definition keywords), so the scan classifies eight bytes per
//! arithmetic step and finds where words start and end from bit masks
//! rather than branching on every byte.

/// `0x01` in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The maximal runs of ASCII letters, digits, `_` and non-ASCII characters
/// in `text` that hold at least one letter or digit. (Non-ASCII characters
/// all count as word characters: a byte scan, several times faster than
/// decoding, and non-ASCII punctuation inside code is rare.)
pub fn identifiers(text: &str) -> Identifiers<'_> {
    let (word, alphanumeric) = block_masks(text.as_bytes(), 0);
    Identifiers {
        text,
        block: 0,
        starts: word & !(word << 1),
        word,
        alphanumeric,
    }
}

/// The iterator [`identifiers`] returns.
#[derive(Clone, Debug)]
pub struct Identifiers<'t> {
    text: &'t str,
    /// The 64-byte block whose masks are loaded.
    block: usize,
    /// Bit `i`: a run of word bytes starts at byte `i` of the block (and
    /// was not read yet).
    starts: u64,
    /// Bit `i`: byte `i` of the block is a word byte.
    word: u64,
    /// Bit `i`: byte `i` of the block is an ASCII letter or digit.
    alphanumeric: u64,
}

impl Identifiers<'_> {
    /// Loads the next block's masks; `false` past the text's end.
    fn advance(&mut self) -> bool {
        let carry = self.word >> 63;
        self.block += 1;
        if self.block * 64 >= self.text.len() {
            return false;
        }
        (self.word, self.alphanumeric) = block_masks(self.text.as_bytes(), self.block);
        self.starts = self.word & !(self.word << 1 | carry);
        true
    }
}

impl<'t> Iterator for Identifiers<'t> {
    type Item = &'t str;

    // Called once per identifier (millions in a large tree): as a call,
    // saving and restoring registers was a fifth of its instructions.
    #[inline(always)]
    fn next(&mut self) -> Option<&'t str> {
        loop {
            while self.starts == 0 {
                if !self.advance() {
                    return None;
                }
            }
            let from = self.starts.trailing_zeros();
            self.starts &= self.starts - 1;
            let start = self.block * 64 + from as usize;
            // The run ends at the first byte that is no word byte, in this
            // block or a later one (bits past the text's end are clear).
            let mut ahead = u64::MAX << from;
            let mut alphanumeric = false;
            let end = loop {
                let stops = !self.word & ahead;
                let before = stops.wrapping_sub(1) & !stops & ahead;
                if stops != 0 {
                    alphanumeric |= self.alphanumeric & before != 0;
                    break self.block * 64 + stops.trailing_zeros() as usize;
                }
                alphanumeric |= self.alphanumeric & ahead != 0;
                ahead = u64::MAX;
                if !self.advance() {
                    break self.text.len();
                }
            };
            // Runs start and end at ASCII bytes or the text's ends: char boundaries.
            let run = &self.text[start..end.min(self.text.len())];
            if alphanumeric || !run.is_ascii() && run.chars().any(char::is_alphanumeric) {
                return Some(run);
            }
        }
    }
}

/// The masks of the 64-byte block `index` of `bytes` (the last may be
/// shorter; bits past its end are clear): bit `i` is set when its byte `i`
/// is a word byte, and in the second when it is an ASCII letter or digit.
fn block_masks(bytes: &[u8], index: usize) -> (u64, u64) {
    let start = index * 64;
    let block = &bytes[start..bytes.len().min(start + 64)];
    let (mut word, mut alphanumeric) = (0u64, 0u64);
    let mut add = |k: usize, eight: u64| {
        let (w, a) = classify(eight);
        word |= high_bits(w) << (8 * k);
        alphanumeric |= high_bits(a) << (8 * k);
    };
    // Whole eights are read as they are (no copy: this runs on every
    // block of every source file); the last part is padded with zeros,
    // which are no word bytes, so nothing past the end is set.
    let eights = block.chunks_exact(8);
    let rest = eights.remainder();
    let whole = eights.len();
    for (k, eight) in eights.enumerate() {
        add(k, u64::from_le_bytes(eight.try_into().unwrap_or_default()));
    }
    if !rest.is_empty() {
        let mut buffer = [0u8; 8];
        buffer[..rest.len()].copy_from_slice(rest);
        add(whole, u64::from_le_bytes(buffer));
    }
    (word, alphanumeric)
}

/// The high bits of the eight bytes of `mask` (each `0x80` or `0`) as
/// eight bits, byte `i`'s as bit `i`.
fn high_bits(mask: u64) -> u64 {
    (mask >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// For eight bytes (`x`, little-endian): the high bit of each word byte
/// (an ASCII letter, digit or `_`, or any byte of a non-ASCII character),
/// and of each ASCII letter or digit.
fn classify(x: u64) -> (u64, u64) {
    let non_ascii = x & HIGH;
    let low = x & !HIGH;
    let digit = in_range(low, b'0', b'9');
    // Setting bit 5 folds upper case onto lower case (and no other byte onto it).
    let letter = in_range(low | (ONES * 0x20), b'a', b'z');
    let underscore = !(low ^ (ONES * u64::from(b'_'))).wrapping_add(ONES * 0x7F) & HIGH;
    let alphanumeric = (digit | letter) & !non_ascii;
    (
        alphanumeric | underscore & !non_ascii | non_ascii,
        alphanumeric,
    )
}

/// The high bit of each byte of `low` (every byte below `0x80`) that is
/// in `lo..=hi` (`hi` below `0x80`): no byte's sum carries into the next.
fn in_range(low: u64, lo: u8, hi: u8) -> u64 {
    let at_least_lo = low.wrapping_add(ONES * u64::from(0x80 - lo));
    let above_hi = low.wrapping_add(ONES * u64::from(0x7F - hi));
    at_least_lo & !above_hi & HIGH
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_are_word_runs_with_a_letter_or_digit() {
        let found: Vec<&str> = identifiers("__ _x a-b é1 «» — x__y 9").collect();
        assert_eq!(found, ["_x", "a", "b", "é1", "x__y", "9"]);
    }

    #[test]
    fn runs_cross_blocks_and_end_with_the_text() {
        let long = format!("{} {}", "a".repeat(63), "_".repeat(70) + "z");
        let found: Vec<&str> = identifiers(&long).collect();
        assert_eq!(found, ["a".repeat(63), "_".repeat(70) + "z"]);
        assert_eq!(identifiers("").count(), 0);
        assert_eq!(identifiers(&" ".repeat(200)).count(), 0);
    }

    #[test]
    fn every_byte_is_classified_as_the_table_says() {
        for byte in 0..=255u8 {
            let (word, alphanumeric) = classify(u64::from(byte) * ONES);
            let expect_alphanumeric = byte.is_ascii_alphanumeric();
            let expect_word = expect_alphanumeric || byte == b'_' || byte >= 0x80;
            assert_eq!(word == HIGH, expect_word, "{byte:#x}");
            assert_eq!(word == 0, !expect_word, "{byte:#x}");
            assert_eq!(alphanumeric == HIGH, expect_alphanumeric, "{byte:#x}");
            assert_eq!(alphanumeric == 0, !expect_alphanumeric, "{byte:#x}");
        }
    }

    proptest::proptest! {
        #[test]
        fn identifiers_match_their_definition(
            text in "[a-zA-Z09_ /:@\\[`{^\u{7f}.é—«\n]{0,200}"
        ) {
            // Runs of ASCII letters, digits, `_` and non-ASCII characters
            // that hold a letter or digit.
            let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || !c.is_ascii();
            let expected: Vec<&str> = text
                .split(|c: char| !word(c))
                .filter(|run| run.chars().any(char::is_alphanumeric))
                .collect();
            let found: Vec<&str> = identifiers(&text).collect();
            proptest::prop_assert_eq!(found, expected);
        }
    }
}
