//! Error statistics of an estimator against exact counts, shared by the
//! `estimate_accuracy` tool and `budget-runtime`'s accuracy tests (which
//! include this file with `#[path]`). Errors are relative, in percent: positive means the estimate
//! is above the exact count.
#![allow(dead_code)]

/// Summary of the relative errors of one estimator on a set of texts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ErrorStats {
    /// Number of texts.
    pub count: usize,
    /// Mean error, percent.
    pub mean: f64,
    /// Mean absolute error, percent.
    pub mean_abs: f64,
    /// 5th percentile error (nearest rank), percent.
    pub p5: f64,
    /// 95th percentile error (nearest rank), percent.
    pub p95: f64,
    /// Smallest (most negative) error, percent.
    pub min: f64,
    /// Largest error, percent.
    pub max: f64,
    /// Share of texts underestimated at all, percent.
    pub under: f64,
    /// Share of texts underestimated by more than 10%, percent.
    pub under_10: f64,
}

/// The relative error of `estimate` against `exact`, in percent.
pub fn error_percent(estimate: u64, exact: u64) -> f64 {
    (estimate as f64 - exact as f64) / exact as f64 * 100.0
}

impl ErrorStats {
    /// Statistics of `(estimate, exact)` pairs; `None` when there are none
    /// or an exact count is zero.
    pub fn of(pairs: impl IntoIterator<Item = (u64, u64)>) -> Option<Self> {
        let mut errors: Vec<f64> = Vec::new();
        for (estimate, exact) in pairs {
            if exact == 0 {
                return None;
            }
            errors.push(error_percent(estimate, exact));
        }
        if errors.is_empty() {
            return None;
        }
        errors.sort_by(f64::total_cmp);
        let n = errors.len();
        let rank = |p: f64| errors[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
        Some(Self {
            count: n,
            mean: errors.iter().sum::<f64>() / n as f64,
            mean_abs: errors.iter().map(|e| e.abs()).sum::<f64>() / n as f64,
            p5: rank(0.05),
            p95: rank(0.95),
            min: errors[0],
            max: errors[n - 1],
            under: errors.iter().filter(|&&e| e < 0.0).count() as f64 * 100.0 / n as f64,
            under_10: errors.iter().filter(|&&e| e < -10.0).count() as f64 * 100.0 / n as f64,
        })
    }
}
