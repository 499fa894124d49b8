//! [`OnDemandCounts`]: exact token counts of a fixed list of texts, counted
//! only as far as a question needs and remembered between questions.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::estimate::TokenCounter;

/// What is known of one text's exact count.
#[derive(Clone, Copy, Debug, Default)]
struct Known {
    /// The text's length in bytes when it was last counted: a different
    /// length means another text at this position, whose count is unknown.
    bytes: usize,
    /// The exact count, once counted in full.
    exact: Option<u64>,
    /// A count the exact one is known to reach (0 when nothing is known).
    at_least: u64,
}

/// How much counting an [`OnDemandCounts`] has done, in texts.
///
/// ```
/// use budget::estimate::CountingWork;
/// let work = CountingWork { exact: 3, at_least: 10, untouched: 4_987 };
/// assert_eq!(work.texts(), 5_000);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountingWork {
    /// Texts whose exact count is known (counted in full, or up to a limit
    /// they turned out to be within).
    pub exact: usize,
    /// Texts counted only up to a limit they exceed: their count is known
    /// to be larger than that limit, and nothing more.
    pub at_least: usize,
    /// Texts never counted.
    pub untouched: usize,
}

impl CountingWork {
    /// All texts: `exact + at_least + untouched`.
    ///
    /// ```
    /// # use budget::estimate::CountingWork;
    /// assert_eq!(CountingWork::default().texts(), 0);
    /// ```
    pub fn texts(&self) -> usize {
        self.exact + self.at_least + self.untouched
    }
}

/// Exact token counts of the texts at positions `0..len` (for example the
/// candidates of a payload), each counted only as far as a question needs
/// and remembered: "is text `i` at most `limit` tokens?" counts text `i` up
/// to `limit` ([`TokenCounter::count_tokens_up_to`]) and remembers either
/// its exact count or that it exceeds `limit`; a later question the
/// remembered facts answer costs nothing.
///
/// [`PayloadAssembler::exact_counts`](crate::payload::PayloadAssembler::exact_counts)
/// uses it to place items by their exact counts while counting exactly
/// only the items a tier has room for.
///
/// Contract: position `i` always holds the same text. A text of another
/// length at a position is counted afresh (a cheap guard against a
/// different list, not a proof of the same one). Answers never depend on
/// what is remembered, only the work does. It is `Sync`: several threads
/// may ask at once.
///
/// ```
/// use budget::estimate::OnDemandCounts;
/// use budget::estimate::TokenCounter;
///
/// /// A toy exact counter: one token per word.
/// struct Words;
/// impl TokenCounter for Words {
///     fn count_tokens(&self, t: &str) -> u64 { t.split_whitespace().count() as u64 }
/// }
/// let texts = ["one two three four five", "six"];
/// let counts = OnDemandCounts::new(&Words, texts.len());
/// assert_eq!(counts.up_to(0, texts[0], 2), None); // counted up to 2 words
/// assert_eq!(counts.at_least(0), 3);
/// assert_eq!(counts.up_to(0, texts[0], 1), None); // remembered: no counting
/// assert_eq!(counts.exact(1, texts[1]), 1);
/// assert_eq!(counts.known_exact(0), None);
/// let work = counts.work();
/// assert_eq!((work.exact, work.at_least, work.untouched), (1, 1, 0));
/// ```
pub struct OnDemandCounts<'c> {
    counter: &'c dyn TokenCounter,
    known: Mutex<Vec<Known>>,
}

impl std::fmt::Debug for OnDemandCounts<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnDemandCounts")
            .field("work", &self.work())
            .finish_non_exhaustive()
    }
}

impl<'c> OnDemandCounts<'c> {
    /// Counts for `len` texts with `counter`, nothing counted yet.
    ///
    /// ```
    /// use budget::estimate::OnDemandCounts;
    /// use budget::estimate::TokenCounter;
    /// struct Bytes;
    /// impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// assert_eq!(OnDemandCounts::new(&Bytes, 7).work().untouched, 7);
    /// ```
    pub fn new(counter: &'c dyn TokenCounter, len: usize) -> Self {
        Self {
            counter,
            known: Mutex::new(vec![Known::default(); len]),
        }
    }

    /// The counter.
    ///
    /// ```
    /// # use budget::estimate::OnDemandCounts;
    /// # use budget::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let counts = OnDemandCounts::new(&Bytes, 1);
    /// assert_eq!(counts.counter().count_tokens("abc"), 3);
    /// ```
    pub fn counter(&self) -> &'c dyn TokenCounter {
        self.counter
    }

    /// The exact count of `text` (at `position`) if it is at most `limit`
    /// tokens, else `None`; counts at most up to `limit`, and not at all
    /// when the remembered facts answer.
    ///
    /// ```
    /// # use budget::estimate::OnDemandCounts;
    /// # use budget::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let counts = OnDemandCounts::new(&Bytes, 1);
    /// assert_eq!(counts.up_to(0, "abcd", 3), None);
    /// assert_eq!(counts.up_to(0, "abcd", 4), Some(4));
    /// ```
    pub fn up_to(&self, position: usize, text: &str, limit: u64) -> Option<u64> {
        let known = self.known(position, text);
        if let Some(exact) = known.exact {
            return Some(exact).filter(|&n| n <= limit);
        }
        if known.at_least > limit {
            return None;
        }
        let counted = self.counter.count_tokens_up_to(text, limit);
        self.remember(position, text, |k| match counted {
            Some(n) => k.exact = Some(n),
            None => k.at_least = k.at_least.max(limit.saturating_add(1)),
        });
        counted
    }

    /// The exact count of `text` (at `position`), counted in full unless
    /// remembered.
    ///
    /// ```
    /// # use budget::estimate::OnDemandCounts;
    /// # use budget::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let counts = OnDemandCounts::new(&Bytes, 1);
    /// assert_eq!(counts.exact(0, "abcd"), 4);
    /// assert_eq!(counts.known_exact(0), Some(4));
    /// ```
    pub fn exact(&self, position: usize, text: &str) -> u64 {
        if let Some(exact) = self.known(position, text).exact {
            return exact;
        }
        let exact = self.counter.count_tokens(text);
        self.remember(position, text, |k| k.exact = Some(exact));
        exact
    }

    /// Counts `texts` (`(position, text)`) exactly and in full, spread over
    /// every core (`std::thread::available_parallelism`), and remembers the
    /// counts: for a caller that knows which texts will need their exact
    /// count (for example the best-ranked ones, which a payload carries in
    /// full or lists with their size), so that later questions are answered
    /// from memory instead of counted one after the other. Texts already
    /// known exactly are skipped.
    ///
    /// ```
    /// # use budget::estimate::OnDemandCounts;
    /// # use budget::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let counts = OnDemandCounts::new(&Bytes, 3);
    /// counts.prefetch(&[(0, "abc"), (2, "de")]);
    /// assert_eq!((counts.known_exact(0), counts.known_exact(1), counts.known_exact(2)), (Some(3), None, Some(2)));
    /// ```
    pub fn prefetch(&self, texts: &[(usize, &str)]) {
        let mut pending: Vec<(usize, &str)> = texts
            .iter()
            .copied()
            .filter(|&(position, text)| self.known(position, text).exact.is_none())
            .collect();
        // Largest first: a large text handed out last would be counted
        // alone while the other cores wait.
        pending.sort_by_key(|&(_, text)| std::cmp::Reverse(text.len()));
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(pending.len())
            .max(1);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let work = || {
            while let Some(&(position, text)) =
                pending.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
            {
                let exact = self.counter.count_tokens(text);
                self.remember(position, text, |k| k.exact = Some(exact));
            }
        };
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
    }

    /// Remembers `exact` as the exact count of `text` at `position`, as
    /// [`exact`](Self::exact) would after counting it: for a count this
    /// counter made elsewhere (for example ahead of time, on a core that
    /// was idle). Contract: `exact` is this counter's count of `text`;
    /// answers then stay what counting would give.
    ///
    /// ```
    /// # use budget::estimate::OnDemandCounts;
    /// # use budget::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let counts = OnDemandCounts::new(&Bytes, 1);
    /// counts.remember_exact(0, "abcd", 4);
    /// assert_eq!(counts.known_exact(0), Some(4));
    /// assert_eq!(counts.up_to(0, "abcd", 3), None);
    /// ```
    pub fn remember_exact(&self, position: usize, text: &str, exact: u64) {
        self.remember(position, text, |k| k.exact = Some(exact));
    }

    /// These counts for the same texts in another order and number:
    /// position `i` of the result knows what position `from[i]` knows here
    /// (nothing for `None`), so texts counted while one list was in hand
    /// are not counted again for the next.
    ///
    /// ```
    /// # use budget::estimate::OnDemandCounts;
    /// # use budget::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let counts = OnDemandCounts::new(&Bytes, 2);
    /// counts.exact(1, "abc");
    /// let moved = counts.reordered(&[None, Some(1), Some(0)]);
    /// assert_eq!((moved.known_exact(0), moved.known_exact(1), moved.known_exact(2)), (None, Some(3), None));
    /// ```
    pub fn reordered(&self, from: &[Option<usize>]) -> OnDemandCounts<'c> {
        let known = self.lock();
        let moved = from
            .iter()
            .map(|&position| {
                position
                    .and_then(|p| known.get(p))
                    .copied()
                    .unwrap_or_default()
            })
            .collect();
        OnDemandCounts {
            counter: self.counter,
            known: Mutex::new(moved),
        }
    }

    /// The exact count at `position`, if it has been counted.
    ///
    /// ```
    /// # use budget::estimate::OnDemandCounts;
    /// # use budget::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// assert_eq!(OnDemandCounts::new(&Bytes, 1).known_exact(0), None);
    /// ```
    pub fn known_exact(&self, position: usize) -> Option<u64> {
        self.lock().get(position).and_then(|k| k.exact)
    }

    /// A count the exact count at `position` is known to reach: the exact
    /// count when known, else one more than the largest limit it was found
    /// to exceed, else 0.
    ///
    /// ```
    /// # use budget::estimate::OnDemandCounts;
    /// # use budget::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let counts = OnDemandCounts::new(&Bytes, 1);
    /// assert_eq!(counts.at_least(0), 0);
    /// counts.up_to(0, "abcdef", 2);
    /// assert_eq!(counts.at_least(0), 3);
    /// ```
    pub fn at_least(&self, position: usize) -> u64 {
        self.lock()
            .get(position)
            .map_or(0, |k| k.exact.unwrap_or(k.at_least))
    }

    /// How many texts are known exactly, known only to exceed a limit, and
    /// never counted.
    ///
    /// ```
    /// # use budget::estimate::{CountingWork, OnDemandCounts};
    /// # use budget::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let counts = OnDemandCounts::new(&Bytes, 2);
    /// counts.exact(1, "ab");
    /// assert_eq!(counts.work(), CountingWork { exact: 1, at_least: 0, untouched: 1 });
    /// ```
    pub fn work(&self) -> CountingWork {
        let known = self.lock();
        let exact = known.iter().filter(|k| k.exact.is_some()).count();
        let at_least = known
            .iter()
            .filter(|k| k.exact.is_none() && k.at_least > 0)
            .count();
        CountingWork {
            exact,
            at_least,
            untouched: known.len() - exact - at_least,
        }
    }

    /// What is known at `position` for `text`: nothing if the position is
    /// out of range or last held a text of another length.
    fn known(&self, position: usize, text: &str) -> Known {
        self.lock()
            .get(position)
            .filter(|k| k.bytes == text.len())
            .copied()
            .unwrap_or_default()
    }

    /// Records what was learned of `text` at `position` (positions out of
    /// range are not remembered).
    fn remember(&self, position: usize, text: &str, learn: impl FnOnce(&mut Known)) {
        let mut known = self.lock();
        if let Some(k) = known.get_mut(position) {
            if k.bytes != text.len() {
                *k = Known {
                    bytes: text.len(),
                    ..Known::default()
                };
            }
            learn(k);
        }
    }

    /// The facts; a thread that panicked while holding them left them
    /// consistent (each update is one assignment), so poisoning is ignored.
    fn lock(&self) -> MutexGuard<'_, Vec<Known>> {
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// One token per byte, and how many bytes it has read.
    #[derive(Default)]
    struct Bytes {
        read: AtomicUsize,
    }
    impl TokenCounter for Bytes {
        fn count_tokens(&self, text: &str) -> u64 {
            self.read.fetch_add(text.len(), Ordering::Relaxed);
            text.len() as u64
        }
        fn count_tokens_up_to(&self, text: &str, limit: u64) -> Option<u64> {
            let limit = usize::try_from(limit).unwrap_or(usize::MAX);
            // Reads one byte past the limit to find out it is crossed.
            self.read
                .fetch_add(text.len().min(limit.saturating_add(1)), Ordering::Relaxed);
            (text.len() <= limit).then_some(text.len() as u64)
        }
    }

    #[test]
    fn remembered_facts_answer_without_counting() {
        let bytes = Bytes::default();
        let counts = OnDemandCounts::new(&bytes, 2);
        let text = "0123456789";
        assert_eq!(counts.up_to(0, text, 4), None);
        assert_eq!(bytes.read.load(Ordering::Relaxed), 5);
        assert_eq!(counts.up_to(0, text, 3), None); // 10 > 4 > 3: known
        assert_eq!(bytes.read.load(Ordering::Relaxed), 5);
        assert_eq!(counts.up_to(0, text, 20), Some(10)); // counted
        assert_eq!(bytes.read.load(Ordering::Relaxed), 15);
        assert_eq!(counts.exact(0, text), 10);
        assert_eq!(counts.up_to(0, text, 9), None);
        assert_eq!(bytes.read.load(Ordering::Relaxed), 15);
    }

    #[test]
    fn another_text_at_a_position_is_counted_afresh() {
        let bytes = Bytes::default();
        let counts = OnDemandCounts::new(&bytes, 1);
        assert_eq!(counts.exact(0, "abc"), 3);
        assert_eq!(counts.exact(0, "abcdef"), 6);
        assert_eq!(counts.known_exact(0), Some(6));
    }

    #[test]
    fn reordered_counts_answer_from_what_was_learned_before() {
        let bytes = Bytes::default();
        let counts = OnDemandCounts::new(&bytes, 3);
        assert_eq!(counts.exact(0, "abc"), 3);
        assert_eq!(counts.up_to(2, "0123456789", 4), None);
        let read = bytes.read.load(Ordering::Relaxed);
        let moved = counts.reordered(&[Some(2), None, Some(0), Some(7)]);
        // Known facts move without counting: an exact count, a bound.
        assert_eq!(moved.exact(2, "abc"), 3);
        assert_eq!(moved.up_to(0, "0123456789", 4), None);
        assert_eq!(bytes.read.load(Ordering::Relaxed), read);
        // Nothing is known where nothing came from, or for another text.
        assert_eq!(moved.known_exact(1), None);
        assert_eq!(moved.known_exact(3), None);
        assert_eq!(moved.up_to(0, "xy", 4), Some(2));
        assert_eq!(moved.work().texts(), 4);
    }

    #[test]
    fn positions_out_of_range_are_answered_but_not_remembered() {
        let bytes = Bytes::default();
        let counts = OnDemandCounts::new(&bytes, 0);
        assert_eq!(counts.exact(3, "abc"), 3);
        assert_eq!(counts.up_to(3, "abc", 2), None);
        assert_eq!(counts.known_exact(3), None);
        assert_eq!(counts.at_least(3), 0);
        assert_eq!(counts.work(), CountingWork::default());
    }

    #[test]
    fn a_limit_of_u64_max_does_not_overflow() {
        let bytes = Bytes::default();
        let counts = OnDemandCounts::new(&bytes, 1);
        assert_eq!(counts.up_to(0, "ab", u64::MAX), Some(2));
    }
}
