//! [`ExactCounter`]: exact token counts under an OpenAI [`Encoding`], with
//! the vocabularies compiled in (features `o200k` and `cl100k`).
//!
//! The backend is `bpe-openai`, GitHub's linear-time byte-pair encoder: it
//! reproduces every count of the corpus's `tokens.tsv`, agrees with
//! `tiktoken-rs` on random text of every Unicode plane (tested), and counts
//! 1.3× (`o200k_base`) to 2.7× (`cl100k_base`) as fast in the last run
//! (`benches/estimate.rs`, group `count_corpus_exact`, runs both side by
//! side). `tiktoken-rs` remains a dev-dependency only, as
//! the differential reference.

use std::fmt;

use crate::estimate::{Encoding, TokenCounter};

#[cfg(any(feature = "o200k", feature = "cl100k"))]
type Tokenizer = bpe_openai::Tokenizer;
/// No vocabulary is compiled in: no value of this type exists.
#[cfg(not(any(feature = "o200k", feature = "cl100k")))]
enum Tokenizer {}

/// The compiled-in tokenizer of `encoding`, built on first use (once per
/// process, shared by every thread), or the feature that would compile it in.
fn tokenizer(encoding: Encoding) -> Result<&'static Tokenizer, TokenizerError> {
    match encoding {
        #[cfg(feature = "o200k")]
        Encoding::O200kBase => Ok(bpe_openai::o200k_base()),
        #[cfg(feature = "cl100k")]
        Encoding::Cl100kBase => Ok(bpe_openai::cl100k_base()),
        #[allow(unreachable_patterns)] // every encoding compiled in
        other => Err(TokenizerError::NotCompiled {
            encoding: other,
            feature: feature_of(other),
        }),
    }
}

/// The cargo feature that compiles in the vocabulary of `encoding`.
const fn feature_of(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::O200kBase => "o200k",
        Encoding::Cl100kBase => "cl100k",
    }
}

/// Counts tokens exactly under an OpenAI [`Encoding`], as tiktoken's
/// ordinary encoding does: special-token text such as `<|endoftext|>` is
/// counted as plain text, never as one special token.
///
/// The vocabularies are compiled into the binary (feature `o200k` for
/// `o200k_base`, `cl100k` for `cl100k_base`, `exact` for both); nothing is
/// downloaded. Each tokenizer is built once per process, on first use, and
/// shared across threads; a counter is a cheap `Copy` handle to it, so it is
/// constructed in one place and passed around as a [`TokenCounter`].
///
/// Every [`TokenCounter`] is an [`Estimator`](crate::Estimator), so an exact
/// counter goes wherever a `&dyn Estimator` is taken (the content type is
/// ignored):
///
/// ```
/// use budget::{Estimator, estimate::{ContentType, Encoding, ExactCounter, TokenCounter}};
///
/// # #[cfg(feature = "o200k")] {
/// let exact = ExactCounter::new(Encoding::O200kBase)?;
/// assert_eq!(exact.count_tokens("hello world"), 2);
/// // "Does it fit in 1 token?" stops as soon as the answer is no.
/// assert_eq!(exact.count_tokens_up_to("hello world", 1), None);
/// let estimator: &dyn Estimator = &exact;
/// assert_eq!(estimator.estimate("hello world", ContentType::Prose), 2);
/// # }
/// # Ok::<(), budget::estimate::TokenizerError>(())
/// ```
#[derive(Clone, Copy)]
pub struct ExactCounter {
    encoding: Encoding,
    tokenizer: &'static Tokenizer,
}

impl ExactCounter {
    /// A counter for `encoding`, building its tokenizer on first use (about
    /// 0.1–0.3 s).
    ///
    /// # Errors
    /// [`TokenizerError::NotCompiled`] if the vocabulary of `encoding` was
    /// not compiled in (its cargo feature, named in the error, is off).
    ///
    /// ```
    /// use budget::{estimate::{Encoding, ExactCounter, TokenCounter}};
    /// # #[cfg(feature = "cl100k")] {
    /// let cl100k = ExactCounter::new(Encoding::Cl100kBase)?;
    /// assert_eq!(cl100k.encoding(), Encoding::Cl100kBase);
    /// assert_eq!(cl100k.count_tokens(""), 0);
    /// # }
    /// # Ok::<(), budget::estimate::TokenizerError>(())
    /// ```
    pub fn new(encoding: Encoding) -> Result<Self, TokenizerError> {
        Ok(Self {
            encoding,
            tokenizer: tokenizer(encoding)?,
        })
    }

    /// The encoding this counter uses.
    ///
    /// ```
    /// use budget::{estimate::{Encoding, ExactCounter}};
    /// # #[cfg(feature = "o200k")]
    /// assert_eq!(ExactCounter::new(Encoding::O200kBase)?.encoding(), Encoding::O200kBase);
    /// # Ok::<(), budget::estimate::TokenizerError>(())
    /// ```
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }
}

/// Texts at least this long are counted in chunks on every core.
#[cfg(any(feature = "o200k", feature = "cl100k"))]
const PARALLEL_BYTES: usize = 256 * 1024;

/// Where `text` may be cut so that its pieces count to the whole's count:
/// right after a line feed followed by a character that is neither
/// whitespace nor `/`. No pretokenizer piece of `o200k_base` or
/// `cl100k_base` spans such a point (whitespace runs end at the line feed;
/// only a punctuation run's trailing `[\r\n/]*` of `o200k_base` reaches past
/// a line feed, and only into `/`). The first such point at or after each
/// multiple of `chunk_bytes`.
#[cfg(any(feature = "o200k", feature = "cl100k"))]
fn cut_points(text: &str, chunk_bytes: usize) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut cuts = Vec::new();
    let mut target = chunk_bytes.max(1);
    while target < bytes.len() {
        let Some(found) = bytes[target..].iter().position(|&b| b == b'\n') else {
            break;
        };
        let mut at = target + found + 1;
        while at < bytes.len() {
            let next = text[at..].chars().next().unwrap_or(' ');
            if !next.is_whitespace() && next != '/' {
                cuts.push(at);
                break;
            }
            match bytes[at..].iter().position(|&b| b == b'\n') {
                Some(offset) => at += offset + 1,
                None => at = bytes.len(),
            }
        }
        target = at.max(target) + chunk_bytes;
    }
    cuts
}

#[cfg(any(feature = "o200k", feature = "cl100k"))]
impl ExactCounter {
    /// The count of `text` as the sum of its chunks' counts, cut at
    /// [`cut_points`] about every `chunk_bytes`, counted on every core.
    fn count_in_chunks(&self, text: &str, chunk_bytes: usize) -> u64 {
        let mut starts = vec![0];
        starts.extend(cut_points(text, chunk_bytes));
        let chunks: Vec<&str> = starts
            .iter()
            .zip(starts.iter().skip(1).chain(std::iter::once(&text.len())))
            .map(|(&start, &end)| &text[start..end])
            .collect();
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(chunks.len())
            .max(1);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let work = || {
            let mut total: u64 = 0;
            while let Some(chunk) =
                chunks.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
            {
                let tokens = u64::try_from(self.tokenizer.count(chunk)).unwrap_or(u64::MAX);
                total = total.saturating_add(tokens);
            }
            total
        };
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
            let mine = work();
            helpers
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .fold(mine, u64::saturating_add)
        })
    }
}

#[cfg(any(feature = "o200k", feature = "cl100k"))]
impl TokenCounter for ExactCounter {
    /// Texts of 256 KiB or more are cut at line starts no pretokenizer
    /// piece spans and counted on every core; the count is the same.
    fn count_tokens(&self, text: &str) -> u64 {
        if text.len() >= PARALLEL_BYTES {
            return self.count_in_chunks(text, PARALLEL_BYTES / 4);
        }
        let tokens = self.tokenizer.count(text);
        u64::try_from(tokens).unwrap_or(u64::MAX)
    }

    /// Counts piece by piece (the encoding's pretokenizer splits the text
    /// into words, numbers, punctuation and whitespace, which are encoded
    /// independently) and stops at the first piece that crosses `limit`, so
    /// the cost is proportional to the prefix that fits, not to the text.
    fn count_tokens_up_to(&self, text: &str, limit: u64) -> Option<u64> {
        let mut total: u64 = 0;
        for piece in self.tokenizer.split(text) {
            let tokens = u64::try_from(self.tokenizer.bpe.count(piece.as_bytes())).ok()?;
            total = total.checked_add(tokens).filter(|&t| t <= limit)?;
        }
        Some(total)
    }
}

#[cfg(not(any(feature = "o200k", feature = "cl100k")))]
impl TokenCounter for ExactCounter {
    fn count_tokens(&self, _text: &str) -> u64 {
        match *self.tokenizer {}
    }
}

impl fmt::Debug for ExactCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExactCounter")
            .field("encoding", &self.encoding)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, feature = "o200k", feature = "cl100k"))]
mod tests {
    use super::*;
    use crate::{Estimator, estimate::ContentType};

    fn both() -> [ExactCounter; 2] {
        Encoding::ALL.map(|e| ExactCounter::new(e).unwrap())
    }

    #[test]
    fn known_small_counts() {
        // Counts checked by hand against the token boundaries of each encoding.
        let [o200k, cl100k] = both();
        for (text, o, c) in [
            ("", 0, 0),
            ("hello world", 2, 2),
            ("Hello, world!", 4, 4), // Hello , ␣world !
        ] {
            assert_eq!(o200k.count_tokens(text), o, "o200k_base {text:?}");
            assert_eq!(cl100k.count_tokens(text), c, "cl100k_base {text:?}");
        }
        // Special-token text is ordinary text: several tokens, not one.
        assert!(o200k.count_tokens("<|endoftext|>") > 1);
        assert!(cl100k.count_tokens("<|endoftext|>") > 1);
    }

    #[test]
    fn counting_up_to_a_limit_stops_at_the_limit() {
        let [o200k, _] = both();
        // "Hello, world!" is 4 tokens: Hello | , | ␣world | !
        assert_eq!(o200k.count_tokens_up_to("Hello, world!", 4), Some(4));
        assert_eq!(o200k.count_tokens_up_to("Hello, world!", 100), Some(4));
        assert_eq!(o200k.count_tokens_up_to("Hello, world!", 3), None);
        assert_eq!(o200k.count_tokens_up_to("Hello, world!", 0), None);
        assert_eq!(o200k.count_tokens_up_to("", 0), Some(0));
    }

    /// Cut at line starts into chunks of a few bytes, every text counts as
    /// a whole, in both encodings: newlines before `/`, spaces, tabs,
    /// punctuation runs, CRLF, digits, CJK and emoji. (It fails when a cut
    /// is allowed before `/`.)
    #[test]
    fn chunked_counts_equal_whole_counts() {
        use proptest::prelude::*;
        let counters = both();
        let piece = prop::sample::select(vec![
            "\n",
            "\n\n",
            "\r\n",
            "/",
            "//",
            ";",
            " ",
            "\t",
            "fn",
            "Main",
            "x1",
            "123456",
            "。",
            "日本語",
            "🦀",
            "'s",
            "  ",
            "-->",
            "\u{a0}",
            "é",
            "\n/",
            "*/\n",
        ]);
        let texts = prop::collection::vec(piece, 0..120).prop_map(|p| p.concat());
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(512));
        runner
            .run(&(texts, 1usize..40), |(text, chunk)| {
                for counter in &counters {
                    prop_assert_eq!(
                        counter.count_in_chunks(&text, chunk),
                        u64::try_from(counter.tokenizer.count(&text)).unwrap(),
                        "{:?}",
                        text
                    );
                }
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn cut_points_follow_a_line_feed_before_a_word() {
        assert_eq!(cut_points("ab\ncd\n ef\n/gh\nij", 1), [3, 14]);
        assert!(cut_points("no newline at all", 2).is_empty());
    }

    #[test]
    fn counter_is_an_estimator_that_ignores_content_type() {
        let [exact, _] = both();
        let as_dyn: &dyn Estimator = &exact;
        for ct in ContentType::ALL {
            assert_eq!(
                as_dyn.estimate("fn main() {}", ct),
                exact.count_tokens("fn main() {}")
            );
        }
    }

    #[test]
    fn tokenizers_are_shared_across_threads() {
        let a = ExactCounter::new(Encoding::Cl100kBase).unwrap();
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| s.spawn(|| ExactCounter::new(Encoding::Cl100kBase).unwrap()))
                .collect();
            for h in handles {
                let b = h.join().unwrap();
                assert!(std::ptr::eq(a.tokenizer, b.tokenizer), "one per process");
            }
        });
    }
}

/// An exact tokenizer could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TokenizerError {
    /// The vocabulary of `encoding` is not compiled in.
    #[error("the {encoding} vocabulary is not compiled in: enable the cargo feature `{feature}`")]
    NotCompiled {
        /// The encoding asked for.
        encoding: crate::estimate::Encoding,
        /// The cargo feature of `budget-runtime` that compiles it in.
        feature: &'static str,
    },
}
