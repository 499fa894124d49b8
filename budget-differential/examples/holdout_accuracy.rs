//! Every estimator against exact `o200k_base` on the multilingual holdout
//! `scripts/references.sh` assembles from real text none of them was fitted
//! on (`target/references/holdout/<group>/*.txt`: prose in eight languages
//! from the Sphinx and Django translations, code in five languages, JSON).
//! Prints, per group and estimator, the mean error (bias), the worst file
//! and how many files are under by more than 15%.
//!
//! `cargo run --release -p budget-differential --example holdout_accuracy`

use std::path::PathBuf;

use budget_runtime::Estimator;
use budget_runtime::estimate::{
    CalibratedEstimator, ContentType, DefaultCounter, Encoding, ExactCounter,
    NON_LATIN_SAFE_ESTIMATOR, RatioEstimator, TokenCounter,
};

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/references/holdout");
    let exact = ExactCounter::new(Encoding::O200kBase).expect("o200k compiled in");
    let best_guess = CalibratedEstimator::new(Encoding::O200kBase);
    let upper = CalibratedEstimator::upper_bound(Encoding::O200kBase);
    let estimators: [(&str, &dyn Estimator); 5] = [
        ("DefaultCounter (the default)", &DefaultCounter),
        ("calibrated, best guess", &best_guess),
        ("calibrated, non-Latin safe", &NON_LATIN_SAFE_ESTIMATOR),
        ("upper bound (UTF-8 length)", &upper),
        ("fixed ratios", &RatioEstimator),
    ];
    let mut groups: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}: run scripts/references.sh first", root.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    groups.sort();
    println!("| text | files | estimator | bias (mean) | worst file | under by >15% |");
    println!("|---|--:|---|--:|--:|--:|");
    for group in &groups {
        let name = group.file_name().unwrap().to_string_lossy().into_owned();
        let content_type = match name.as_str() {
            "python" | "javascript" | "css" | "html" | "rust" => ContentType::Code,
            _ => ContentType::Prose,
        };
        let mut files: Vec<PathBuf> = std::fs::read_dir(group)
            .expect("group")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        let texts: Vec<(String, u64)> = files
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(f).expect("UTF-8");
                let tokens = exact.count_tokens(&text);
                (text, tokens)
            })
            .collect();
        for (label, estimator) in estimators {
            let errors: Vec<f64> = texts
                .iter()
                .map(|(text, tokens)| {
                    estimator.estimate(text, content_type) as f64 / *tokens as f64 - 1.0
                })
                .collect();
            let mean = errors.iter().sum::<f64>() / errors.len() as f64;
            let worst = errors
                .iter()
                .copied()
                .fold(0.0, |w: f64, e| if e.abs() > w.abs() { e } else { w });
            let under = errors.iter().filter(|&&e| e < -0.15).count();
            println!(
                "| {name} | {} | {label} | {:+.1}% | {:+.1}% | {under} |",
                texts.len(),
                mean * 100.0,
                worst * 100.0
            );
        }
    }
}
