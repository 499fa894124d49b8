//! [`guaranteed_upper_bound`]: a token count that no text exceeds under
//! `o200k_base` or `cl100k_base`.
//!
//! # Why it holds, and why nothing tighter does without the vocabulary
//!
//! Both encodings are byte-level BPE behind a pretokenizer: the text is cut
//! into pieces (words with one leading space or symbol, runs of up to three
//! digits, punctuation runs, whitespace), and each piece is encoded on its
//! own, starting from single bytes and merging adjacent pairs that form a
//! token. Every token covers at least one byte, so a text costs at most its
//! UTF-8 length.
//!
//! Tighter rules that read only character classes fail on some input,
//! checked in `tests/upper_bound.rs`:
//! - not every pair of ASCII letters is a token (`bq` costs 2 under
//!   `o200k_base`), so a run of letters can cost one token per letter;
//! - 1,000 Hangul jamo (3,000 bytes) cost 2,985 tokens: more than 99% of
//!   the bytes, so no per-character rate for them below 3 bytes holds;
//! - `"the the the…"` and `"xqz xqz xqz…"` have the same
//!   the calibrated estimator's character classes and cost 1 and more
//!   than 2 tokens per word: a bound that reads only the features and holds
//!   for both is at least 2× the exact count of common English words.
//!
//! So a guaranteed bound within +20% of exact on ordinary prose and code is
//! impossible for any estimator that does not consult the vocabulary. The
//! bound is for guarantees and for deciding what must be counted exactly
//! ([`OnDemandCounts`](crate::estimate::OnDemandCounts)), not for filling a
//! window: it is 4–5× the exact count of English prose, 3–4× for code.

/// A count of `o200k_base` or `cl100k_base` tokens that `text` never
/// exceeds: its length in UTF-8 bytes (see the module documentation for
/// why, and why no cheaper rule is tighter on every input).
///
/// ```
/// use budget::estimate::guaranteed_upper_bound;
///
/// assert_eq!(guaranteed_upper_bound("hello"), 5); // exact: 1
/// assert_eq!(guaranteed_upper_bound("日本"), 6); // exact: 1 or 2
/// assert_eq!(guaranteed_upper_bound(""), 0);
/// ```
pub fn guaranteed_upper_bound(text: &str) -> u64 {
    u64::try_from(text.len()).unwrap_or(u64::MAX)
}
