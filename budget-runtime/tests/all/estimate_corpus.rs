//! Accuracy of the estimators against the exact counts of the token corpus
//! (vendored in `tests/data/corpus`, or `$BUDGET_CORPUS_DIR`; a missing
//! corpus fails the tests) and of the multilingual samples in
//! `tests/data/multilingual.toml`.

use crate::accuracy;
use crate::corpus;

use accuracy::{ErrorStats, error_percent};
use budget_runtime::{
    Estimator,
    estimate::{CalibratedEstimator, ContentType, Encoding},
};
use corpus::Sample;

fn stats(estimator: &dyn Estimator, samples: &[&Sample], encoding: Encoding) -> ErrorStats {
    ErrorStats::of(samples.iter().map(|s| {
        (
            estimator.estimate(&s.text, s.content_type),
            s.exact(encoding),
        )
    }))
    .expect("non-empty samples with non-zero counts")
}

#[test]
fn calibrated_meets_the_targets_per_content_type() {
    let corpus = corpus::load_corpus().unwrap();
    assert_eq!(corpus.len(), 160, "tokens.tsv rows");
    for encoding in Encoding::ALL {
        let estimator = CalibratedEstimator::new(encoding);
        for ct in ContentType::ALL {
            let files: Vec<&Sample> = corpus.iter().filter(|s| s.content_type == ct).collect();
            assert_eq!(files.len(), 40, "{ct} files");
            let s = stats(&estimator, &files, encoding);
            assert!(
                s.mean_abs < 5.0,
                "{encoding} {ct}: mean absolute error {:.2}%",
                s.mean_abs
            );
            assert!(
                s.min >= -10.0,
                "{encoding} {ct}: a file is underestimated by {:.2}%",
                -s.min
            );
        }
    }
}

#[test]
fn upper_bound_is_at_least_exact_on_every_corpus_file() {
    let corpus = corpus::load_corpus().unwrap();
    for encoding in Encoding::ALL {
        let safe = CalibratedEstimator::upper_bound(encoding);
        for file in &corpus {
            let estimate = safe.estimate(&file.text, file.content_type);
            let exact = file.exact(encoding);
            assert!(
                estimate >= exact,
                "{encoding} {}: {estimate} < {exact}",
                file.name
            );
        }
    }
}

#[test]
fn multilingual_samples_have_recorded_counts() {
    let samples = corpus::load_multilingual().unwrap();
    assert!(samples.len() >= 30);
    for s in &samples {
        // A token covers at least one byte, and no sample is trivially short.
        assert!(
            s.o200k_base > 50 && s.o200k_base <= s.text.len() as u64,
            "{}",
            s.name
        );
        assert!(
            s.cl100k_base > 50 && s.cl100k_base <= s.text.len() as u64,
            "{}",
            s.name
        );
    }
}

#[test]
fn non_english_text_is_not_underestimated() {
    let samples = corpus::load_multilingual().unwrap();
    for encoding in Encoding::ALL {
        let best = CalibratedEstimator::new(encoding);
        let safe = CalibratedEstimator::upper_bound(encoding);
        for s in &samples {
            let exact = s.exact(encoding);
            let guess = best.estimate(&s.text, s.content_type);
            assert!(
                error_percent(guess, exact) >= -10.0,
                "{encoding} {}: best guess {guess} for {exact} exact tokens",
                s.name
            );
            let bound = safe.estimate(&s.text, s.content_type);
            assert!(
                bound >= exact,
                "{encoding} {}: upper bound {bound} < {exact}",
                s.name
            );
        }
        let all: Vec<&Sample> = samples.iter().collect();
        let s = stats(&best, &all, encoding);
        assert!(
            s.mean >= 0.0,
            "{encoding}: multilingual mean error {:.2}%",
            s.mean
        );
    }
}

#[test]
fn fixed_ratios_undercount_non_english_text() {
    // The reason the calibrated estimator exists: 1 token per 4 characters
    // is far too few for Chinese (exact o200k_base count recorded: 107).
    let samples = corpus::load_multilingual().unwrap();
    let zh = samples.iter().find(|s| s.name == "zh-prose").unwrap();
    assert_eq!(zh.o200k_base, 107);
    let seed = budget_runtime::estimate::RatioEstimator.estimate(&zh.text, ContentType::Prose);
    assert!(seed < 50, "seed estimate {seed}");
    let calibrated =
        CalibratedEstimator::new(Encoding::O200kBase).estimate(&zh.text, ContentType::Prose);
    assert!(calibrated >= 107, "calibrated estimate {calibrated}");
}

#[cfg(feature = "exact")]
mod exact {
    use super::*;
    use budget_runtime::estimate::{ExactCounter, TokenCounter};

    #[test]
    fn exact_counter_reproduces_tokens_tsv() {
        let corpus = corpus::load_corpus().unwrap();
        for encoding in Encoding::ALL {
            let counter = ExactCounter::new(encoding).unwrap();
            for file in &corpus {
                assert_eq!(
                    counter.count_tokens(&file.text),
                    file.exact(encoding),
                    "{encoding} {}",
                    file.name
                );
            }
        }
    }

    #[test]
    fn multilingual_counts_are_exact() {
        for encoding in Encoding::ALL {
            let counter = ExactCounter::new(encoding).unwrap();
            for s in corpus::load_multilingual().unwrap() {
                assert_eq!(
                    counter.count_tokens(&s.text),
                    s.exact(encoding),
                    "{encoding} {}",
                    s.name
                );
            }
        }
    }
}
