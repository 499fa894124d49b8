//! Throughput of the estimators on the token corpus, in bytes per second:
//! the fixed ratios, the calibrated estimator (best guess, margin, the
//! non-Latin-safe default, the upper bound) and (feature `exact`) the
//! exact counter side by side with `tiktoken-rs`.
//!
//! ```text
//! cargo bench -p budget-differential --bench estimate
//! cargo bench -p budget-differential --bench estimate --features exact
//! ```
//!
//! Every iteration estimates every corpus file once, each with its own
//! content type (the corpus vendored in `tests/data/corpus`, or
//! `$BUDGET_CORPUS_DIR`; a missing corpus is a panic).

#[path = "../../tools/src/corpus.rs"]
mod corpus;

use std::hint::black_box;
use std::time::Duration;

use budget_runtime::{
    Estimator,
    estimate::{
        CalibratedEstimator, Encoding, EstimateMode, NON_LATIN_SAFE_ESTIMATOR, RatioEstimator,
    },
};
use corpus::Sample;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn estimate_all(estimator: &dyn Estimator, files: &[Sample]) -> u64 {
    files
        .iter()
        .map(|f| estimator.estimate(black_box(&f.text), f.content_type))
        .sum()
}

fn throughput(c: &mut Criterion) {
    let files = corpus::load_corpus().unwrap_or_else(|e| panic!("corpus: {e}"));
    let bytes: u64 = files.iter().map(|f| f.text.len() as u64).sum();

    let mut fast = c.benchmark_group("estimate_corpus");
    fast.throughput(Throughput::Bytes(bytes));
    fast.bench_function("ratios", |b| {
        b.iter(|| estimate_all(&RatioEstimator, &files))
    });
    for encoding in Encoding::ALL {
        let calibrated = CalibratedEstimator::new(encoding);
        fast.bench_function(format!("calibrated/{encoding}"), |b| {
            b.iter(|| estimate_all(&calibrated, &files))
        });
    }
    let margin = CalibratedEstimator::new(Encoding::O200kBase).with_mode(EstimateMode::Margin);
    fast.bench_function("margin/o200k_base", |b| {
        b.iter(|| estimate_all(&margin, &files))
    });
    fast.bench_function("default_non_latin_safe/o200k_base", |b| {
        b.iter(|| estimate_all(&NON_LATIN_SAFE_ESTIMATOR, &files))
    });
    let upper_bound = CalibratedEstimator::upper_bound(Encoding::O200kBase);
    fast.bench_function("upper_bound/o200k_base", |b| {
        b.iter(|| estimate_all(&upper_bound, &files))
    });
    fast.finish();

    // Per-call overhead on short texts: the first line-sized piece (up to
    // 120 bytes) of every corpus file, as in a chat message or a log line.
    let short: Vec<Sample> = files
        .iter()
        .map(|f| {
            let end = (0..=f.text.len().min(120))
                .rev()
                .find(|&i| f.text.is_char_boundary(i))
                .unwrap_or(0);
            Sample {
                text: f.text[..end].to_owned(),
                ..f.clone()
            }
        })
        .collect();
    let mut small = c.benchmark_group("estimate_short_texts");
    small.throughput(Throughput::Elements(short.len() as u64));
    small.bench_function("ratios", |b| {
        b.iter(|| estimate_all(&RatioEstimator, &short))
    });
    let calibrated = CalibratedEstimator::new(Encoding::O200kBase);
    small.bench_function("calibrated/o200k_base", |b| {
        b.iter(|| estimate_all(&calibrated, &short))
    });
    small.finish();

    {
        use budget_runtime::estimate::{ExactCounter, TokenCounter};
        let mut exact = c.benchmark_group("count_corpus_exact");
        exact
            .throughput(Throughput::Bytes(bytes))
            .sample_size(10)
            .measurement_time(Duration::from_secs(10));
        for encoding in Encoding::ALL {
            let ours = ExactCounter::new(encoding).expect("vocabulary compiled in");
            exact.bench_function(format!("ours/{encoding}"), |b| {
                b.iter(|| estimate_all(&ours, &files))
            });
            let reference = match encoding {
                Encoding::O200kBase => tiktoken_rs::o200k_base(),
                _ => tiktoken_rs::cl100k_base(),
            }
            .expect("vocabulary loads");
            exact.bench_function(format!("tiktoken-rs/{encoding}"), |b| {
                b.iter(|| {
                    files
                        .iter()
                        .map(|f| reference.encode_ordinary(black_box(&f.text)).len())
                        .sum::<usize>()
                })
            });
            // "Does it fit in 1,000 tokens?" for every file.
            exact.bench_function(format!("ours_up_to_1000/{encoding}"), |b| {
                b.iter(|| {
                    files
                        .iter()
                        .filter(|f| ours.count_tokens_up_to(black_box(&f.text), 1_000).is_some())
                        .count()
                })
            });
        }
        exact.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().measurement_time(Duration::from_secs(5));
    targets = throughput
}
criterion_main!(benches);
