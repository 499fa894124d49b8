//! Fits the coefficients of the `CalibratedEstimator` and prints them as the
//! Rust source of `src/estimate/fitted.rs`.
//!
//! ```text
//! cargo run -p budget-tools --bin fit_estimator            # print
//! cargo run -p budget-tools --bin fit_estimator -- --write # update fitted.rs
//! cargo run -p budget-tools --bin fit_estimator -- --check # fail if stale
//! cargo run --release -p budget-tools --bin fit_estimator -- --holdout
//!     # two-fold cross-validation: fit on half the files of each content
//!     # type, measure the best guess on the other half, and swap
//! cargo run -p budget-tools --bin fit_estimator -- --recount
//!     # recount the exact tokens of tests/data/multilingual.toml first
//! ```
//!
//! The procedure, per encoding and content type (deterministic, std only):
//!
//! 1. **ASCII weights.** Weighted least squares of the relative error
//!    `(estimate - exact) / exact` over the corpus files of that content
//!    type, for the ten ASCII features (words, case changes, letters,
//!    long-word excess, digit groups, punctuation, punctuation runs and their
//!    excess, line breaks, space runs); the non-ASCII weights are held at zero.
//! 2. **Non-ASCII weights.** With the ASCII weights fixed, the remaining
//!    weights are fitted over the multilingual samples (all content types)
//!    and the corpus files of that type by asymmetric least squares
//!    (an expectile at 0.95: an underestimate weighs 19 times an
//!    overestimate), so that non-English text is not underestimated.
//! 3. Every weight is kept within `0 ..= max_tokens_per_occurrence` (a
//!    character of n bytes costs at most n tokens), solved by projected
//!    coordinate descent.
//! 4. Weights are rounded to four decimals. The **safety factor** of the
//!    upper-bound mode is the largest ratio exact / best guess over those
//!    same files and samples, plus `SAFETY_HEADROOM`, rounded up to 0.01.

use budget_tools::{accuracy, corpus};

use std::fmt::Write as _;
use std::process::ExitCode;

use budget_runtime::estimate::{Calibration, Coefficients, FEATURE_COUNT, Feature, TextFeatures};
use budget_runtime::{
    Estimator,
    estimate::{CalibratedEstimator, ContentType, Encoding, EstimateMode},
};
use corpus::{Origin, Sample};

/// The features fitted in stage 1, on the English corpus.
const ASCII_FEATURES: [Feature; 10] = [
    Feature::Words,
    Feature::CaseChanges,
    Feature::AsciiLetters,
    Feature::LongWordExcess,
    Feature::DigitGroups,
    Feature::AsciiPunctuation,
    Feature::PunctuationRuns,
    Feature::PunctuationRunExcess,
    Feature::LineBreakRuns,
    Feature::SpaceRuns,
];
/// The expectile of stage 2.
const EXPECTILE: f64 = 0.95;
/// Added to the worst observed ratio exact / best guess.
const SAFETY_HEADROOM: f64 = 0.03;

/// One observation: feature counts and the exact token count.
struct Row {
    x: [f64; FEATURE_COUNT],
    y: f64,
}

fn rows(samples: &[&Sample], encoding: Encoding) -> Vec<Row> {
    samples
        .iter()
        .map(|s| {
            let counts = TextFeatures::of(&s.text);
            Row {
                x: counts.counts().map(|n| n as f64),
                y: s.exact(encoding) as f64,
            }
        })
        .collect()
}

fn dot(w: &[f64; FEATURE_COUNT], x: &[f64; FEATURE_COUNT]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// Minimises `Σ r_i ((w·x_i - y_i) / y_i)^2` over the weights in `free`,
/// the others held at their values in `w`, each free weight within
/// `0 ..= cap`, by projected coordinate descent. `r_i` are the row weights.
fn weighted_least_squares(
    rows: &[Row],
    row_weights: &[f64],
    free: &[bool],
    w: &mut [f64; FEATURE_COUNT],
) {
    // Normal equations of the free part: A w = b.
    let mut a = [[0.0; FEATURE_COUNT]; FEATURE_COUNT];
    let mut b = [0.0; FEATURE_COUNT];
    for (row, r) in rows.iter().zip(row_weights) {
        let fixed: f64 = (0..FEATURE_COUNT)
            .filter(|&j| !free[j])
            .map(|j| w[j] * row.x[j])
            .sum();
        let target = row.y - fixed;
        let scale = r / (row.y * row.y);
        for i in (0..FEATURE_COUNT).filter(|&i| free[i]) {
            b[i] += scale * row.x[i] * target;
            for j in (0..FEATURE_COUNT).filter(|&j| free[j]) {
                a[i][j] += scale * row.x[i] * row.x[j];
            }
        }
    }
    for _sweep in 0..20_000 {
        let mut largest_change: f64 = 0.0;
        for i in (0..FEATURE_COUNT).filter(|&i| free[i] && a[i][i] > 0.0) {
            let rest: f64 = (0..FEATURE_COUNT)
                .filter(|&j| j != i && free[j])
                .map(|j| a[i][j] * w[j])
                .sum();
            let cap = Feature::ALL[i]
                .max_tokens_per_occurrence()
                .unwrap_or(f64::INFINITY);
            let next = ((b[i] - rest) / a[i][i]).clamp(0.0, cap);
            largest_change = largest_change.max((next - w[i]).abs());
            w[i] = next;
        }
        if largest_change < 1e-13 {
            break;
        }
    }
}

/// Asymmetric least squares: rows the fit underestimates get weight `tau`,
/// the others `1 - tau`, refitted until the weights settle.
fn expectile_fit(rows: &[Row], tau: f64, free: &[bool], w: &mut [f64; FEATURE_COUNT]) {
    let mut row_weights = vec![0.5; rows.len()];
    for _round in 0..50 {
        weighted_least_squares(rows, &row_weights, free, w);
        let next: Vec<f64> = rows
            .iter()
            .map(|row| {
                if dot(w, &row.x) < row.y {
                    tau
                } else {
                    1.0 - tau
                }
            })
            .collect();
        if next == row_weights {
            break;
        }
        row_weights = next;
    }
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Fits the coefficients of one content type under one encoding.
fn fit(
    corpus: &[&Sample],
    multilingual: &[&Sample],
    encoding: Encoding,
    content_type: ContentType,
) -> Coefficients {
    let mut w = [0.0; FEATURE_COUNT];
    let ascii: Vec<bool> = Feature::ALL
        .iter()
        .map(|f| ASCII_FEATURES.contains(f))
        .collect();
    let corpus_rows = rows(corpus, encoding);
    weighted_least_squares(&corpus_rows, &vec![1.0; corpus_rows.len()], &ascii, &mut w);

    let non_ascii: Vec<bool> = ascii.iter().map(|a| !a).collect();
    let mut both: Vec<&Sample> = multilingual.to_vec();
    both.extend_from_slice(corpus);
    expectile_fit(&rows(&both, encoding), EXPECTILE, &non_ascii, &mut w);

    let weights = w.map(round4);
    let mut coefficients = Coefficients {
        weights,
        safety_factor: 1.0,
    };
    let best = single(coefficients, EstimateMode::BestGuess);
    let worst_ratio = both
        .iter()
        .map(|s| s.exact(encoding) as f64 / best.estimate(&s.text, content_type) as f64)
        .fold(1.0_f64, f64::max);
    coefficients.safety_factor = ((worst_ratio + SAFETY_HEADROOM) * 100.0).ceil() / 100.0;
    coefficients
}

/// An estimator that uses `coefficients` for every content type.
fn single(coefficients: Coefficients, mode: EstimateMode) -> CalibratedEstimator {
    let calibration = Calibration {
        code: coefficients,
        prose: coefficients,
        yaml: coefficients,
        markdown: coefficients,
    };
    CalibratedEstimator::with_calibration(calibration, mode).expect("fitted weights are valid")
}

fn const_name(encoding: Encoding) -> String {
    encoding.name().to_uppercase()
}

/// The Rust source of `src/estimate/fitted.rs`.
fn render(fitted: &[(Encoding, Calibration, usize, usize)]) -> String {
    let mut out = String::new();
    out.push_str(
        "//! The built-in calibrations. Generated by `tools/src/bin/fit_estimator.rs` from the\n\
         //! token corpus and `tests/data/multilingual.toml`; do not edit by hand.\n\
         \n\
         use crate::estimate::{Calibration, Coefficients};\n\
         \n\
         #[rustfmt::skip] // generated layout: one weight per line, named\n\
         #[allow(clippy::approx_constant)] // fitted weights, some near π/3 or e by chance\n\
         impl Calibration {\n",
    );
    for (encoding, calibration, files, samples) in fitted {
        let _ = writeln!(
            out,
            "    /// Fitted for `{encoding}` on {files} corpus files and {samples} multilingual samples."
        );
        let _ = writeln!(
            out,
            "    pub const {}: Self = Self {{",
            const_name(*encoding)
        );
        for ct in ContentType::ALL {
            let c = calibration.for_content_type(ct);
            let _ = writeln!(out, "        {ct}: Coefficients {{");
            out.push_str("            weights: [\n");
            for feature in Feature::ALL {
                let _ = writeln!(
                    out,
                    "                {:?}, // {feature}",
                    c.weights[feature.index()]
                );
            }
            out.push_str("            ],\n");
            let _ = writeln!(out, "            safety_factor: {:?},", c.safety_factor);
            out.push_str("        },\n");
        }
        out.push_str("    };\n");
    }
    out.push_str("}\n");
    out
}

fn recount() -> Result<(), String> {
    use budget_runtime::estimate::{ExactCounter, TokenCounter};
    let path = corpus::multilingual_path();
    let samples = corpus::load_multilingual()?;
    let o200k = ExactCounter::new(Encoding::O200kBase).map_err(|e| e.to_string())?;
    let cl100k = ExactCounter::new(Encoding::Cl100kBase).map_err(|e| e.to_string())?;
    let source = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let mut index = None::<usize>;
    let mut out = String::new();
    for line in source.lines() {
        if line == "[[sample]]" {
            index = Some(index.map_or(0, |i| i + 1));
        }
        let sample = index.and_then(|i| samples.get(i));
        match sample {
            Some(s) if line.starts_with("o200k_base = ") => {
                let _ = writeln!(out, "o200k_base = {}", o200k.count_tokens(&s.text));
            }
            Some(s) if line.starts_with("cl100k_base = ") => {
                let _ = writeln!(out, "cl100k_base = {}", cl100k.count_tokens(&s.text));
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    std::fs::write(&path, out).map_err(|e| e.to_string())?;
    eprintln!("recounted {} samples in {}", samples.len(), path.display());
    Ok(())
}

fn run() -> Result<bool, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--recount") {
        recount()?;
    }
    let corpus = corpus::load_corpus()?;
    let multilingual = corpus::load_multilingual()?;
    if multilingual.iter().any(|s| s.o200k_base == 0) {
        return Err("multilingual.toml has zero counts: run with -- --recount".to_owned());
    }
    let ml: Vec<&Sample> = multilingual.iter().collect();
    if args.iter().any(|a| a == "--holdout") {
        print_holdout(&corpus, &ml);
        return Ok(true);
    }
    let mut fitted = Vec::new();
    for encoding in Encoding::ALL {
        let mut per_type = Vec::new();
        for ct in ContentType::ALL {
            let files: Vec<&Sample> = corpus
                .iter()
                .filter(|s| s.content_type == ct && s.origin == Origin::Corpus)
                .collect();
            per_type.push(fit(&files, &ml, encoding, ct));
        }
        let [code, prose, yaml, markdown] = per_type[..] else {
            unreachable!("four content types");
        };
        let calibration = Calibration {
            code,
            prose,
            yaml,
            markdown,
        };
        fitted.push((encoding, calibration, corpus.len(), ml.len()));
    }
    let source = render(&fitted);
    let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../budget-runtime/src/estimate/fitted.rs");
    if args.iter().any(|a| a == "--check") {
        let current = std::fs::read_to_string(&target).map_err(|e| e.to_string())?;
        if current != source {
            eprintln!("{} is stale: run the fit with --write", target.display());
            return Ok(false);
        }
        eprintln!("{} matches a fresh fit", target.display());
    } else if args.iter().any(|a| a == "--write") {
        std::fs::write(&target, &source).map_err(|e| e.to_string())?;
        eprintln!("wrote {}", target.display());
    } else {
        print!("{source}");
    }
    Ok(true)
}

/// Two-fold cross-validation per encoding and content type: the files are
/// split by position (even, odd) within their content type; each half is
/// estimated with coefficients fitted on the other half (and the
/// multilingual samples). Prints a Markdown table of the errors.
fn print_holdout(corpus: &[Sample], multilingual: &[&Sample]) {
    println!(
        "| encoding | content type | files | mean | mean abs | p95 abs | worst under | under >10% |"
    );
    println!("|---|---|--:|--:|--:|--:|--:|--:|");
    for encoding in Encoding::ALL {
        for ct in ContentType::ALL {
            let files: Vec<&Sample> = corpus.iter().filter(|s| s.content_type == ct).collect();
            let half = |parity: usize| -> Vec<&Sample> {
                files
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % 2 == parity)
                    .map(|(_, s)| *s)
                    .collect()
            };
            let mut pairs = Vec::new();
            for parity in 0..2 {
                let coefficients = fit(&half(parity), multilingual, encoding, ct);
                let estimator = single(coefficients, EstimateMode::BestGuess);
                pairs.extend(
                    half(1 - parity)
                        .iter()
                        .map(|s| (estimator.estimate(&s.text, ct), s.exact(encoding))),
                );
            }
            let mut abs: Vec<f64> = pairs
                .iter()
                .map(|&(e, x)| accuracy::error_percent(e, x).abs())
                .collect();
            abs.sort_by(f64::total_cmp);
            let p95 = abs[(abs.len() * 95).div_ceil(100) - 1];
            let stats = accuracy::ErrorStats::of(pairs).expect("files with tokens");
            println!(
                "| {encoding} | {ct} | {} | {:+.1}% | {:.1}% | {p95:.1}% | {:+.1}% | {:.0}% |",
                stats.count, stats.mean, stats.mean_abs, stats.min, stats.under_10
            );
        }
    }
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
