//! [`CountsAhead`]: exact counts of the files the payload is likely to
//! list, made on a spare core while the outlines are made, so that the
//! count stage finds them done. Each is a count the exact counter would
//! make anyway: the count stage takes it instead of counting, and nothing
//! else sees it, so what a pack prints never depends on how far the
//! counting ahead got.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

use budget_runtime::estimate::{ContentType, Estimator, RatioEstimator, TokenCounter};
use budget_runtime::model::Tier;
use budget_runtime::payload::TierBudget;

/// The largest text counted ahead, in bytes: counting stops only between
/// texts, and a larger one would hold up the stage that waits for it.
const MAX_AHEAD_BYTES: usize = 512 * 1024;

/// Exact counts made ahead of time, by index in `scan.files`.
#[derive(Debug)]
pub(crate) struct CountsAhead {
    counts: Vec<OnceLock<u64>>,
}

impl CountsAhead {
    /// No counts, for `files` files.
    pub(crate) fn none(files: usize) -> Self {
        Self {
            counts: (0..files).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The exact count of file `file`'s text, if it was counted ahead.
    pub(crate) fn get(&self, file: usize) -> Option<u64> {
        self.counts.get(file).and_then(|count| count.get().copied())
    }

    /// Runs `work` while another thread counts `texts` (`(file, text)`)
    /// with `counter`, in the order given, until `work` returns; the
    /// counts made by then come back with its result. With one core,
    /// nothing is counted ahead.
    pub(crate) fn while_doing<R>(
        files: usize,
        counter: Option<&dyn TokenCounter>,
        texts: &[(usize, &str)],
        work: impl FnOnce() -> R,
    ) -> (R, Self) {
        let ahead = Self::none(files);
        // With one core there is no idle one to count on.
        let spare = std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
        let Some(counter) = counter.filter(|_| spare && !texts.is_empty()) else {
            return (work(), ahead);
        };
        let stop = AtomicBool::new(false);
        let done = std::thread::scope(|scope| {
            scope.spawn(|| {
                lowest_priority();
                for &(file, text) in texts {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if text.len() <= MAX_AHEAD_BYTES
                        && let Some(slot) = ahead.counts.get(file)
                    {
                        slot.get_or_init(|| counter.count_tokens(text));
                    }
                }
            });
            let done = work();
            stop.store(true, Ordering::Relaxed);
            done
        });
        (done, ahead)
    }
}

/// Gives the calling thread the lowest priority, so that it runs only on
/// a core no other thread of the pack wants; elsewhere than on Linux,
/// where the priority is the whole process's, nothing.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    if let Err(error) = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19) {
        tracing::debug!(%error, "counting ahead at the usual priority");
    }
}

/// One file as [`likely_listed`] weighs it.
pub(crate) struct Listed<'a> {
    /// Its label.
    pub link: &'a str,
    /// Its number of lines.
    pub lines: u64,
    /// Its one-line description.
    pub description: &'a str,
    /// Its tokens (under an exact counter, its upper bound).
    pub tokens: u64,
}

/// Of `ranked` (`(position, file)`, best first), the positions of the
/// best-ranked files, which the payload is likely to carry or list: as
/// many as have LINKED lines (estimated with the fixed ratios) that fill
/// the LINKED tier's limit at `budget`, and a fortieth more.
pub(crate) fn likely_listed<'a>(
    ranked: impl IntoIterator<Item = (usize, Listed<'a>)>,
    budget: u64,
) -> Vec<usize> {
    let linked = TierBudget::with_total(budget).map_or(0, |b| b.effective(Tier::Linked));
    // A file counted here and not shown costs a count on every core; one
    // shown and not counted here, a count on one core as the assembler
    // gets to it. A fortieth more was the fastest measured (docs/cli.md):
    // a tenth counted many files that end in SUMMARY, none left more to
    // the assembler.
    let wanted = linked.saturating_add(linked / 40);
    let mut lines: u64 = 0;
    let mut best = Vec::new();
    for (position, file) in ranked {
        if lines > wanted {
            break;
        }
        let line = format!(
            "- `{}` (lines 1-{}): {}. {} tokens.",
            file.link, file.lines, file.description, file.tokens
        );
        lines = lines.saturating_add(RatioEstimator.estimate(&line, ContentType::Code));
        best.push(position);
    }
    best
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;
    use std::time::{Duration, Instant};

    use super::*;

    /// One token per byte, and how many texts it has counted.
    #[derive(Default)]
    struct Bytes {
        counted: AtomicUsize,
    }
    impl TokenCounter for Bytes {
        fn count_tokens(&self, text: &str) -> u64 {
            self.counted.fetch_add(1, Ordering::SeqCst);
            text.len() as u64
        }
    }

    #[test]
    fn counts_made_ahead_are_the_counters_own() {
        let long = "x".repeat(MAX_AHEAD_BYTES + 1);
        let texts = [(2, "tide"), (1, long.as_str()), (0, "ebb and flow")];
        let counter = Bytes::default();
        let spare = std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
        // The work lasts until both short texts are counted (a count that
        // has begun is kept: the thread is joined).
        let (answer, ahead) = CountsAhead::while_doing(3, Some(&counter), &texts, || {
            let start = Instant::now();
            while spare
                && counter.counted.load(Ordering::SeqCst) < 2
                && start.elapsed() < Duration::from_secs(30)
            {
                std::thread::yield_now();
            }
            42
        });
        assert_eq!(answer, 42);
        let expected = if spare {
            (Some(12), None, Some(4))
        } else {
            (None, None, None)
        };
        assert_eq!((ahead.get(0), ahead.get(1), ahead.get(2)), expected);
        assert_eq!(ahead.get(3), None, "no such file");
        assert_eq!(
            counter.counted.load(Ordering::SeqCst),
            if spare { 2 } else { 0 },
            "the long text is passed over"
        );
        let (_, none) = CountsAhead::while_doing(3, None, &texts, || ());
        assert_eq!(none.get(2), None, "no counter: nothing counted");
    }

    #[test]
    fn the_likely_listed_fill_the_linked_limit_and_a_fortieth_more() {
        let file = || Listed {
            link: "src/tides.rs",
            lines: 120,
            description: "High and low water by the moon.",
            tokens: 3_000,
        };
        let line = "- `src/tides.rs` (lines 1-120): High and low water by the moon. 3000 tokens.";
        let each = RatioEstimator.estimate(line, ContentType::Code);
        // At 100,000 tokens LINKED holds 8,100; a fortieth more is 8,302.
        let likely = likely_listed((0..1_000).map(|position| (position, file())), 100_000);
        assert_eq!(likely.len() as u64, 8_302 / each + 1);
        assert_eq!(
            likely,
            (0..likely.len()).collect::<Vec<_>>(),
            "the best, in order"
        );
        assert!(likely_listed(std::iter::empty(), 100_000).is_empty());
    }
}
