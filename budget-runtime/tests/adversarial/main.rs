//! The standing adversarial suite: hostile values for every public entry
//! point, checking the library's promises on each case:
//!
//! * no panic (every case runs under `catch_unwind`; a panic raised by a
//!   user callback must reach the caller unchanged and counts as expected);
//! * no overrun: selected tokens within the effective budget, payloads
//!   within their total, compaction never larger than its input;
//! * no silent loss: every input item accounted for (included + excluded =
//!   input; every assignment and message reported);
//! * typed errors whose messages carry the numbers of their fields.
//!
//! It prints one row per entry point: inputs tried, random cases, and the
//! counts of broken promises, and fails if any count is not 0. Random cases
//! per property: 256 by default (about 15 s of CPU in a debug build);
//! `BUDGET_SOAK=N` multiplies them by N for a longer soak run.
//!
//! ```text
//! cargo test -p budget-runtime --all-features --test adversarial
//! BUDGET_SOAK=50 cargo test -p budget-runtime --all-features --release --test adversarial
//! ```

mod checks;
mod compaction;
mod hostile;
mod ledger;
mod model;
mod payload;
mod pipeline;

use std::alloc::System;

/// Random cases per property without `BUDGET_SOAK`.
const CASES: u32 = 256;

/// Any allocation beyond this fails instead of exhausting the machine: a
/// runaway table becomes a typed error (or, if unchecked, a failed run).
const MEMORY_CAP: usize = 2 << 30;

#[global_allocator]
static ALLOCATOR: cap::Cap<System> = cap::Cap::new(System, MEMORY_CAP);

fn main() {
    let soak = match std::env::var("BUDGET_SOAK") {
        Ok(value) => value.trim().parse::<u32>().unwrap_or(1).max(1),
        Err(_) => 1,
    };
    // Expected panics (user callbacks) are caught and checked; keep their
    // messages out of the output. Unexpected ones are listed in the table.
    std::panic::set_hook(Box::new(|_| {}));
    let ledger = ledger::Ledger::new(CASES.saturating_mul(soak));
    model::run(&ledger);
    pipeline::run(&ledger);
    payload::run(&ledger);
    compaction::run(&ledger);
    let (table, ok) = ledger.report();
    let _ = std::panic::take_hook();
    println!(
        "adversarial suite, {} random cases per property (BUDGET_SOAK={soak})",
        ledger.cases
    );
    println!("{table}");
    if !ok {
        eprintln!("adversarial suite: a promise was broken (see above)");
        std::process::exit(1);
    }
}
