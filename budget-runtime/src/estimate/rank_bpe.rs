//! [`RankBpe`]: tiktoken's byte-pair encoding over a vocabulary read from a
//! file, counted without building token lists.
//!
//! The algorithm is tiktoken's: split the text with the pattern (its ASCII
//! stretches by a hand-written scan where the pattern is OpenAI's, as
//! Llama 3's and 4's are: [`AsciiSplit`](crate::estimate::ascii_split::AsciiSplit)),
//! then merge each piece ([`bpe_merge`](crate::estimate::bpe_merge)). It works
//! for every rank file, including those (Llama 3) whose added tokens are
//! not reachable by their own merges.

use std::ops::ControlFlow;

use unicode_normalization::UnicodeNormalization;

use crate::estimate::ascii_split::{AsciiPattern, try_for_each_piece};
use crate::estimate::bpe_merge::piece_tokens;
use crate::estimate::split_regex::Splitter;
use crate::estimate::{SplitPattern, TokenizerError};

/// A byte-pair tokenizer from a rank vocabulary and a split pattern.
pub(crate) struct RankBpe {
    ranks: foldhash::HashMap<Vec<u8>, u32>,
    splitter: Splitter,
    /// How ASCII text is split, where a hand-written scan follows the
    /// pattern (Llama 3's and 4's, OpenAI's).
    ascii: Option<AsciiPattern>,
    nfc: bool,
}

impl RankBpe {
    /// A tokenizer of `tokens` (rank order) split by `pattern`.
    pub(crate) fn new(
        tokens: Vec<Vec<u8>>,
        pattern: &SplitPattern,
    ) -> Result<Self, TokenizerError> {
        let mut ranks =
            foldhash::HashMap::with_capacity_and_hasher(tokens.len(), Default::default());
        for (rank, token) in tokens.into_iter().enumerate() {
            ranks.insert(token, u32::try_from(rank).unwrap_or(u32::MAX));
        }
        Ok(Self {
            ranks,
            splitter: Splitter::new(pattern)?,
            ascii: AsciiPattern::of(pattern),
            nfc: pattern.nfc(),
        })
    }

    /// The number of tokens of `text`.
    pub(crate) fn count(&self, text: &str) -> u64 {
        self.count_up_to(text, u64::MAX).unwrap_or(u64::MAX)
    }

    /// The number of tokens of `text` if at most `limit`, stopping at the
    /// first piece that crosses it.
    pub(crate) fn count_up_to(&self, text: &str, limit: u64) -> Option<u64> {
        let normalized: String;
        let text = if self.nfc && !text.is_ascii() {
            normalized = text.nfc().collect();
            normalized.as_str()
        } else {
            text
        };
        let mut total: u64 = 0;
        let mut add = |piece: &str| match total
            .checked_add(piece_tokens(&self.ranks, piece.as_bytes()))
            .filter(|&t| t <= limit)
        {
            Some(sum) => {
                total = sum;
                ControlFlow::Continue(())
            }
            None => ControlFlow::Break(()),
        };
        let within = match self.ascii {
            Some(ascii) => try_for_each_piece(text, ascii, || &self.splitter, &mut add),
            None => self.splitter.split(text).try_for_each(&mut add),
        };
        within.is_continue().then_some(total)
    }
}

impl std::fmt::Debug for RankBpe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RankBpe")
            .field("ranks", &self.ranks.len())
            .field("nfc", &self.nfc)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_and(merges: &[&str]) -> Vec<Vec<u8>> {
        let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        tokens.extend(merges.iter().map(|m| m.as_bytes().to_vec()));
        tokens
    }

    #[test]
    fn limits_stop_counting() {
        let bpe = RankBpe::new(bytes_and(&[]), &SplitPattern::CL100K).unwrap();
        assert_eq!(bpe.count_up_to("abc def", 7), Some(7));
        assert_eq!(bpe.count_up_to("abc def", 6), None);
    }

    proptest::proptest! {
        /// Llama 3's and 4's patterns are OpenAI's: their ASCII is split by
        /// the scan, and counts are the pattern's alone.
        #[test]
        fn the_ascii_scan_counts_as_the_pattern(
            text in "([a-zA-Z0-9 /'.;:(){}\t\r\n_-]|'s|'LL| don't|HTTPServer|é|日本|\u{a0}){0,60}",
            limit in 0u64..80,
        ) {
            // Merges across where one pattern cuts and the other does not
            // (`n'`, `PS`), so that a wrong split counts differently.
            let merges = ["in", "th", " t", "the", " the", "er", "'s", "//", "  ", "\n\n", "n'", "PS"];
            for pattern in [SplitPattern::LLAMA3, SplitPattern::LLAMA4] {
                let scanned = RankBpe::new(bytes_and(&merges), &pattern).unwrap();
                proptest::prop_assert!(scanned.ascii.is_some());
                let mut plain = RankBpe::new(bytes_and(&merges), &pattern).unwrap();
                plain.ascii = None;
                proptest::prop_assert_eq!(scanned.count(&text), plain.count(&text));
                proptest::prop_assert_eq!(
                    scanned.count_up_to(&text, limit),
                    plain.count_up_to(&text, limit)
                );
            }
        }
    }

    /// Other patterns have no scan.
    #[test]
    fn only_openais_patterns_are_scanned() {
        for pattern in [SplitPattern::QWEN, SplitPattern::TEKKEN] {
            let bpe = RankBpe::new(bytes_and(&[]), &pattern).unwrap();
            assert!(bpe.ascii.is_none(), "{}", pattern.name());
        }
    }
}
