//! A progress bar on stderr, drawn only when stderr is a terminal and only
//! once the work has taken more than a moment.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use budget_pack::Progress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long work runs before the bar appears.
const DELAY: Duration = Duration::from_millis(400);

/// Progress of a walk and the counting after it, as a bar on stderr.
#[derive(Debug)]
pub struct ProgressBarOnStderr {
    /// `None` when stderr is not a terminal: nothing is ever drawn.
    bar: Option<ProgressBar>,
    started: Instant,
    shown: AtomicBool,
}

impl ProgressBarOnStderr {
    /// A progress display that draws on stderr if it is a terminal.
    pub fn on_stderr() -> Self {
        Self::new(std::io::stderr().is_terminal())
    }

    /// A progress display, drawn only when `enabled`.
    pub fn new(enabled: bool) -> Self {
        let bar = enabled.then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} {pos} files")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_message("found");
            bar
        });
        Self {
            bar,
            started: Instant::now(),
            shown: AtomicBool::new(false),
        }
    }

    /// The bar, made visible once [`DELAY`] has passed.
    fn visible(&self) -> Option<&ProgressBar> {
        let bar = self.bar.as_ref()?;
        if !self.shown.load(Ordering::Relaxed)
            && self.started.elapsed() >= DELAY
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        Some(bar)
    }
}

impl Progress for ProgressBarOnStderr {
    /// The walk has found `files` inputs so far.
    fn found(&self, files: usize) {
        if let Some(bar) = self.visible() {
            bar.set_position(u64::try_from(files).unwrap_or(u64::MAX));
        }
    }

    /// Counting starts: `files` to read.
    fn start_counting(&self, files: usize) {
        if let Some(bar) = &self.bar {
            bar.set_length(u64::try_from(files).unwrap_or(u64::MAX));
            bar.set_position(0);
            bar.set_style(
                ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} files ({eta})")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.set_message("counting");
        }
    }

    /// One more file counted.
    fn counted_one(&self) {
        if let Some(bar) = self.visible() {
            bar.inc(1);
        }
    }

    /// Removes the bar.
    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
