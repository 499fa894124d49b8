//! [`Stage`] and [`StageClock`]: how long each stage of a pack took.

use std::time::{Duration, Instant};

/// One stage of [`pack`](crate::pack()) and the wall time it took, for
/// finding where a pack's time goes ([`Packed::stages`](crate::Packed::stages)).
/// A stage that ran more than once (a payload made again without a file
/// that held a secret) holds the sum.
///
/// ```
/// use budget_pack::{Budget, Counting, PackOptions, pack};
/// use budget_runtime::estimate::RatioEstimator;
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("lib.rs"), "pub fn tide() {}\n")?;
/// let packed = pack(&PackOptions::new([dir.path()]), &Counting::estimated("ratios", &RatioEstimator), &())?;
/// let names: Vec<&str> = packed.stages().iter().map(|stage| stage.name).collect();
/// assert_eq!(names.first(), Some(&"walk"));
/// assert!(names.contains(&"assemble"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stage {
    /// What it does: `walk`, `read` (reading, duplicates, secrets in
    /// paths), `git` (the `--diff` and `--log` sections), `names`
    /// (identifiers and definitions), `parse` (syntax trees of every source
    /// file, for the ranking's definitions, when there are at most 4 MiB of
    /// source), `rank` (with what is left of reading the git history, which
    /// starts with the walk, and every text's lines, estimated size and
    /// description measured beside it),
    /// `outlines`, `refits`, `items`, `select`, `secrets` (the texts the
    /// payload shows), `count` (exact counts of the best files), `assemble`
    /// or `report`.
    pub name: &'static str,
    /// Its wall time.
    pub took: Duration,
}

/// Times the stages of one pack, one after the other.
#[derive(Debug)]
pub(crate) struct StageClock {
    last: Instant,
    stages: Vec<Stage>,
}

impl StageClock {
    /// A clock started now.
    pub(crate) fn start() -> Self {
        Self {
            last: Instant::now(),
            stages: Vec::new(),
        }
    }

    /// Ends stage `name` now: the time since the last stage ended is added
    /// to it.
    pub(crate) fn lap(&mut self, name: &'static str) {
        let now = Instant::now();
        let took = now - self.last;
        self.last = now;
        match self.stages.iter_mut().find(|stage| stage.name == name) {
            Some(stage) => stage.took += took,
            None => self.stages.push(Stage { name, took }),
        }
    }

    /// The stages, in the order they first ended.
    pub(crate) fn stages(self) -> Vec<Stage> {
        self.stages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stage_run_twice_holds_the_sum_in_its_first_place() {
        let mut clock = StageClock::start();
        std::thread::sleep(Duration::from_millis(2));
        clock.lap("walk");
        clock.lap("select");
        std::thread::sleep(Duration::from_millis(2));
        clock.lap("walk");
        let stages = clock.stages();
        let names: Vec<&str> = stages.iter().map(|stage| stage.name).collect();
        assert_eq!(names, ["walk", "select"]);
        assert!(
            stages[0].took >= Duration::from_millis(4),
            "{:?}",
            stages[0]
        );
    }
}
