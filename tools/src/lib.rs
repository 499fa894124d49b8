//! Maintenance tools of the workspace, one binary each (`src/bin/`): the
//! calibrated estimator's fit (`fit_estimator`, which CI runs with
//! `--check`), its accuracy table (`estimate_accuracy`) and the scorers'
//! speed (`scorer_speed`). This library holds what they share: the
//! vendored corpus and error statistics (also included with `#[path]` by
//! `budget-runtime`'s tests and `budget-differential`'s benchmarks).

pub mod accuracy;
pub mod corpus;
