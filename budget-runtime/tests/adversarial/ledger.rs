//! The ledger: runs every case under `catch_unwind` and counts, per entry
//! point, the inputs tried and the promises broken.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// A broken promise found by one case.
#[derive(Debug)]
pub enum Broken {
    /// More tokens than the budget allows.
    Overrun(String),
    /// An input not accounted for in the output or its report.
    Loss(String),
    /// An error without the numbers behind it, or of the wrong kind.
    BadError(String),
}

/// What a case returns: `Ok` when every promise held.
pub type Verdict = Result<(), Broken>;

/// Counts for one entry point.
#[derive(Default)]
struct Row {
    hand_made: u64,
    random: u64,
    panics: u64,
    overruns: u64,
    losses: u64,
    bad_errors: u64,
    first_failures: Vec<String>,
}

impl Row {
    fn record(&mut self, outcome: Result<Verdict, String>, input: &dyn Fn() -> String) -> bool {
        let failure = match outcome {
            Ok(Ok(())) => return true,
            Ok(Err(Broken::Overrun(what))) => {
                self.overruns += 1;
                format!("overrun: {what}")
            }
            Ok(Err(Broken::Loss(what))) => {
                self.losses += 1;
                format!("silent loss: {what}")
            }
            Ok(Err(Broken::BadError(what))) => {
                self.bad_errors += 1;
                format!("bad error: {what}")
            }
            Err(message) => {
                self.panics += 1;
                format!("panic: {message}")
            }
        };
        if self.first_failures.len() < 3 {
            let mut shown = input();
            if shown.len() > 600 {
                let mut cut = 600;
                while !shown.is_char_boundary(cut) {
                    cut -= 1;
                }
                shown.truncate(cut);
                shown.push('…');
            }
            self.first_failures
                .push(format!("{failure}\n    input: {shown}"));
        }
        false
    }

    fn failed(&self) -> bool {
        self.panics + self.overruns + self.losses + self.bad_errors > 0
    }
}

/// Per-entry-point counts, in the order entry points were first used.
#[derive(Default)]
pub struct Ledger {
    rows: RefCell<BTreeMap<(usize, &'static str), Row>>,
    order: RefCell<Vec<&'static str>>,
    /// Random cases per property (scaled by `BUDGET_SOAK`).
    pub cases: u32,
}

/// The panic message of a caught panic payload.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(non-string panic payload)".to_owned()
    }
}

impl Ledger {
    /// A ledger running `cases` random cases per property.
    pub fn new(cases: u32) -> Self {
        Self {
            cases,
            ..Self::default()
        }
    }

    fn with_row<R>(&self, entry: &'static str, f: impl FnOnce(&mut Row) -> R) -> R {
        let mut order = self.order.borrow_mut();
        let position = match order.iter().position(|e| *e == entry) {
            Some(p) => p,
            None => {
                order.push(entry);
                order.len() - 1
            }
        };
        drop(order);
        let mut rows = self.rows.borrow_mut();
        f(rows.entry((position, entry)).or_default())
    }

    /// Runs one hand-made input against `entry`.
    pub fn hand_made<I: std::fmt::Debug>(
        &self,
        entry: &'static str,
        input: I,
        case: impl FnOnce(&I) -> Verdict,
    ) {
        let outcome =
            catch_unwind(AssertUnwindSafe(|| case(&input))).map_err(|p| panic_message(&*p));
        self.with_row(entry, |row| {
            row.hand_made += 1;
            row.record(outcome, &|| format!("{input:?}"));
        });
    }

    /// Runs `self.cases` random inputs from `strategy` against `entry`,
    /// shrinking the first failure to a minimal input.
    pub fn random<S>(&self, entry: &'static str, strategy: S, case: impl Fn(&S::Value) -> Verdict)
    where
        S: Strategy,
        S::Value: std::fmt::Debug,
    {
        let config = Config {
            cases: self.cases,
            failure_persistence: None,
            max_shrink_iters: 2_000,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        let tried = RefCell::new(0u64);
        let result = runner.run(&strategy, |input| {
            *tried.borrow_mut() += 1;
            let outcome =
                catch_unwind(AssertUnwindSafe(|| case(&input))).map_err(|p| panic_message(&*p));
            match outcome {
                Ok(Ok(())) => Ok(()),
                Ok(Err(broken)) => Err(TestCaseError::fail(format!("{broken:?}"))),
                Err(message) => Err(TestCaseError::fail(format!("panic: {message}"))),
            }
        });
        self.with_row(entry, |row| {
            row.random += *tried.borrow();
            if let Err(failure) = result {
                // Re-run the minimal input once to classify it.
                let minimal = match &failure {
                    proptest::test_runner::TestError::Fail(_, value) => Some(value),
                    proptest::test_runner::TestError::Abort(_) => None,
                };
                match minimal {
                    Some(value) => {
                        let outcome = catch_unwind(AssertUnwindSafe(|| case(value)))
                            .map_err(|p| panic_message(&*p));
                        if row.record(outcome, &|| format!("{value:?}")) {
                            row.bad_errors += 1;
                            row.first_failures.push(format!("flaky failure: {failure}"));
                        }
                    }
                    None => {
                        row.bad_errors += 1;
                        row.first_failures.push(format!("aborted: {failure}"));
                    }
                }
            }
        });
    }

    /// The table (Markdown) and whether every promise held.
    pub fn report(&self) -> (String, bool) {
        let rows = self.rows.borrow();
        let mut table = String::from(
            "| entry point | hand-made inputs | random cases | panics | overruns | silent losses | errors without numbers |\n|---|---:|---:|---:|---:|---:|---:|\n",
        );
        let mut details = String::new();
        let mut ok = true;
        let mut totals = Row::default();
        for ((_, entry), row) in rows.iter() {
            let _ = writeln!(
                table,
                "| {entry} | {} | {} | {} | {} | {} | {} |",
                row.hand_made, row.random, row.panics, row.overruns, row.losses, row.bad_errors
            );
            totals.hand_made += row.hand_made;
            totals.random += row.random;
            totals.panics += row.panics;
            totals.overruns += row.overruns;
            totals.losses += row.losses;
            totals.bad_errors += row.bad_errors;
            if row.failed() {
                ok = false;
                for failure in &row.first_failures {
                    let _ = writeln!(details, "{entry}: {failure}");
                }
            }
        }
        let _ = writeln!(
            table,
            "| **total** | {} | {} | {} | {} | {} | {} |",
            totals.hand_made,
            totals.random,
            totals.panics,
            totals.overruns,
            totals.losses,
            totals.bad_errors
        );
        table.push_str(&details);
        (table, ok)
    }
}
