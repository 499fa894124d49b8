//! What the packer needs to know of each file's text beyond the text,
//! found once per text on every core ([`measure`]) or read from the
//! [`TextCache`](crate::text_cache::TextCache).

use std::sync::OnceLock;

use budget_runtime::estimate::{CalibratedEstimator, ContentType, Encoding, Estimator};

use crate::description::description;
use crate::text_cache::TextFacts;

/// Estimates a file's size for the cap on one file's share of RAW (a best
/// guess is enough to tell a quarter of RAW).
pub(crate) static CAP_ESTIMATOR: CalibratedEstimator =
    CalibratedEstimator::new(Encoding::O200kBase);

/// What the packer needs of a file's text beyond the text, found once for
/// every file on every core ([`measure`]), but the estimate, made when
/// first asked ([`FileFacts::estimate`]): most files never need one.
pub(crate) struct FileFacts {
    /// Its length in bytes.
    pub bytes: usize,
    /// Its lines ([`str::lines`]).
    pub lines: usize,
    /// Its tokens as code, estimated with [`CAP_ESTIMATOR`], once made.
    estimate: OnceLock<u64>,
    /// Its one-line [`description`].
    pub description: Option<String>,
}

impl FileFacts {
    /// The facts of `text`, which [`measure`] (or the cache) found to be
    /// `facts`.
    pub(crate) fn of(text: &str, facts: TextFacts) -> Self {
        Self {
            bytes: text.len(),
            lines: usize::try_from(facts.lines).unwrap_or(usize::MAX),
            estimate: facts.estimate.map_or_else(OnceLock::new, OnceLock::from),
            // A cache entry's range is checked against the text.
            description: facts
                .description
                .and_then(|(start, end)| text.get(start as usize..end as usize))
                .map(str::to_owned),
        }
    }

    /// The tokens of `text`, the text these are the facts of, as code,
    /// estimated with [`CAP_ESTIMATOR`] the first time they are asked for.
    /// Never more than the text's length in bytes.
    pub(crate) fn estimate(&self, text: &str) -> u64 {
        *self
            .estimate
            .get_or_init(|| CAP_ESTIMATOR.estimate(text, ContentType::Code))
    }

    /// The estimate, if it was made (or read from the cache).
    pub(crate) fn estimated(&self) -> Option<u64> {
        self.estimate.get().copied()
    }
}

/// The lines of `text` and where its [`description`] is: the passes over
/// a whole text [`FileFacts`] needs for every file, which a
/// [`TextCache`](crate::text_cache::TextCache) keeps (with the estimate,
/// once made).
pub(crate) fn measure(text: &str) -> TextFacts {
    let start = text.as_ptr() as usize;
    TextFacts {
        lines: line_count(text) as u64,
        estimate: None,
        // A slice of `text`; offsets past 4 GiB give no description.
        description: description(text).and_then(|found| {
            let from = u32::try_from(found.as_ptr() as usize - start).ok()?;
            Some((from, from.checked_add(u32::try_from(found.len()).ok()?)?))
        }),
    }
}

/// The number of lines [`str::lines`] yields, by counting line feeds.
fn line_count(text: &str) -> usize {
    // Blocks of 255 bytes: the compiler sums each one in byte-wide vector
    // lanes (at most 255, no overflow), many bytes per instruction.
    let feeds: usize = text
        .as_bytes()
        .chunks(255)
        .map(|block| {
            let in_block = block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'));
            usize::from(in_block)
        })
        .sum();
    feeds + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn line_count_counts_past_a_block() {
        let text = format!("{}x", "\n".repeat(1_000));
        assert_eq!(line_count(&text), 1_001);
        assert_eq!(line_count(&"ab\r\n".repeat(700)), 700);
    }

    proptest! {
        #[test]
        fn line_count_is_what_lines_yields(text in "(a|\r|\n|é| ){0,40}") {
            prop_assert_eq!(line_count(&text), text.lines().count());
        }

        /// What `on_demand` relies on to skip the estimates of small files.
        #[test]
        fn an_estimate_is_never_more_than_the_bytes(text in "(a|Z|7|\n| |\t|é|日本|🦀|_|;|[{]){0,60}") {
            let facts = FileFacts::of(&text, measure(&text));
            prop_assert!(facts.estimate(&text) <= text.len() as u64);
            prop_assert_eq!(facts.estimated(), Some(CAP_ESTIMATOR.estimate(&text, ContentType::Code)));
        }
    }
}
