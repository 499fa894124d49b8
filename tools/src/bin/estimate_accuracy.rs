//! Prints, per encoding and content type, how far the fixed ratios, the
//! calibrated estimator and its upper-bound mode are from the exact token
//! counts of the corpus (`tokens.tsv`) and of the multilingual samples, as a
//! Markdown table.
//!
//! ```text
//! cargo run --release -p budget-tools --bin estimate_accuracy
//! ```
//!
//! The last table is for ~1 KB chunks of the corpus files, counted exactly.
//!
//! `-- --worst N` also lists the N texts the upper-bound mode underestimates
//! most (or comes closest to underestimating), per encoding.
//!
//! Errors are `(estimate - exact) / exact` per file, in percent: positive is
//! an overestimate. p5/p95 are nearest-rank percentiles; "worst under" is
//! the lowest error; "under" and "under >10%" are the shares of texts
//! underestimated at all and by more than 10%.

use std::process::ExitCode;

use budget_runtime::{
    Estimator,
    estimate::{CalibratedEstimator, ContentType, Encoding, EstimateMode, RatioEstimator},
};
use budget_tools::accuracy::{self, ErrorStats};
use budget_tools::corpus;
use corpus::Sample;

/// The estimators compared, with their table labels.
fn estimators(encoding: Encoding) -> [(&'static str, Box<dyn Estimator>); 5] {
    let calibrated = CalibratedEstimator::new(encoding);
    [
        ("seed ratios", Box::new(RatioEstimator)),
        ("calibrated", Box::new(calibrated)),
        (
            "calibrated + margin",
            Box::new(calibrated.with_mode(EstimateMode::Margin)),
        ),
        (
            "non-Latin safe (default)",
            Box::new(calibrated.with_mode(EstimateMode::NonLatinSafe)),
        ),
        (
            "guaranteed upper bound",
            Box::new(CalibratedEstimator::upper_bound(encoding)),
        ),
    ]
}

/// One table row group: a label and its samples.
type Group<'a> = (String, Vec<&'a Sample>);

fn print_table(title: &str, groups: &[Group<'_>]) {
    println!("### {title}\n");
    println!(
        "| encoding | texts | estimator | n | mean | mean abs | p5 | p95 | worst under | under | under >10% |"
    );
    println!("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    for encoding in Encoding::ALL {
        for (label, samples) in groups {
            for (name, estimator) in estimators(encoding) {
                let stats = ErrorStats::of(samples.iter().map(|s| {
                    (
                        estimator.estimate(&s.text, s.content_type),
                        s.exact(encoding),
                    )
                }));
                let Some(s) = stats else { continue };
                println!(
                    "| {encoding} | {label} | {name} | {} | {:+.1}% | {:.1}% | {:+.1}% | {:+.1}% | {:+.1}% | {:.1}% | {:.1}% |",
                    s.count, s.mean, s.mean_abs, s.p5, s.p95, s.min, s.under, s.under_10
                );
            }
        }
    }
    println!();
}

fn by_content_type<'a>(samples: &'a [Sample]) -> Vec<Group<'a>> {
    ContentType::ALL
        .iter()
        .map(|&ct| {
            let of_type = samples.iter().filter(|s| s.content_type == ct).collect();
            (ct.to_string(), of_type)
        })
        .collect()
}

/// Splits each corpus file at line ends into chunks of at least
/// `min_bytes`, counting each chunk exactly.
fn chunks(corpus: &[Sample], min_bytes: usize) -> Result<Vec<Sample>, String> {
    use budget_runtime::estimate::{ExactCounter, TokenCounter};
    let o200k = ExactCounter::new(Encoding::O200kBase).map_err(|e| e.to_string())?;
    let cl100k = ExactCounter::new(Encoding::Cl100kBase).map_err(|e| e.to_string())?;
    let mut samples = Vec::new();
    for file in corpus {
        let text = file.text.as_str();
        let mut pieces = Vec::new();
        let mut start = 0;
        for (newline, _) in text.match_indices('\n') {
            if newline + 1 - start >= min_bytes {
                pieces.push(&text[start..=newline]);
                start = newline + 1;
            }
        }
        if start < text.len() {
            pieces.push(&text[start..]);
        }
        for piece in pieces {
            samples.push(Sample {
                name: file.name.clone(),
                content_type: file.content_type,
                text: piece.to_owned(),
                o200k_base: o200k.count_tokens(piece),
                cl100k_base: cl100k.count_tokens(piece),
                origin: corpus::Origin::Corpus,
            });
        }
    }
    Ok(samples)
}

/// Lists the `n` texts with the lowest error of the margin mode, per encoding.
fn print_worst(title: &str, samples: &[Sample], n: usize) {
    println!("### Lowest margins: {title}\n");
    println!("| encoding | text | exact | with margin | error | starts with |");
    println!("|---|---|--:|--:|--:|---|");
    for encoding in Encoding::ALL {
        let safe = CalibratedEstimator::new(encoding).with_mode(EstimateMode::Margin);
        let mut rows: Vec<(f64, &Sample, u64)> = samples
            .iter()
            .map(|s| {
                let estimate = safe.estimate(&s.text, s.content_type);
                (
                    accuracy::error_percent(estimate, s.exact(encoding)),
                    s,
                    estimate,
                )
            })
            .collect();
        rows.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (error, s, estimate) in rows.into_iter().take(n) {
            let start: String = s.text.chars().take(60).collect();
            println!(
                "| {encoding} | {} | {} | {estimate} | {error:+.1}% | `{}` |",
                s.name,
                s.exact(encoding),
                start.escape_debug()
            );
        }
    }
    println!();
}

/// Fills budgets of `limits` tokens with the chunks in a fixed shuffled
/// order, by estimate, and checks each filled budget against the exact sum:
/// how often it overruns and how full it really is.
fn print_budget_fill(chunks: &[Sample], limits: &[u64]) {
    println!("### Budgets filled with ~1 KB chunks by estimate, checked exactly\n");
    println!("| encoding | estimator | budget (tokens) | budgets | overrun | mean fill |");
    println!("|---|---|--:|--:|--:|--:|");
    // A fixed xorshift shuffle, so every run packs the same budgets.
    let mut order: Vec<usize> = (0..chunks.len()).collect();
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    for i in (1..order.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        order.swap(i, (seed % (i as u64 + 1)) as usize);
    }
    for encoding in Encoding::ALL {
        for (name, estimator) in estimators(encoding) {
            for &limit in limits {
                let (mut budgets, mut overruns, mut fill) = (0u64, 0u64, 0.0);
                let (mut estimated, mut exact) = (0u64, 0u64);
                for &i in &order {
                    let chunk = &chunks[i];
                    let e = estimator.estimate(&chunk.text, chunk.content_type);
                    if estimated + e > limit {
                        budgets += 1;
                        overruns += u64::from(exact > limit);
                        fill += exact as f64 / limit as f64;
                        (estimated, exact) = (0, 0);
                    }
                    if e <= limit {
                        estimated += e;
                        exact += chunk.exact(encoding);
                    }
                }
                println!(
                    "| {encoding} | {name} | {limit} | {budgets} | {:.1}% | {:.1}% |",
                    overruns as f64 * 100.0 / budgets.max(1) as f64,
                    fill * 100.0 / budgets.max(1) as f64
                );
            }
        }
    }
    println!();
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let worst = match args.iter().position(|a| a == "--worst") {
        Some(i) => args
            .get(i + 1)
            .and_then(|n| n.parse::<usize>().ok())
            .ok_or("--worst takes a count")?,
        None => 0,
    };
    let corpus = corpus::load_corpus()?;
    let multilingual = corpus::load_multilingual()?;
    let mut groups = by_content_type(&corpus);
    groups.push(("multilingual".to_owned(), multilingual.iter().collect()));
    print_table(
        "Corpus files (per content type) and multilingual samples",
        &groups,
    );
    if worst > 0 {
        let mut all = corpus.clone();
        all.extend(multilingual.iter().cloned());
        print_worst("corpus files and multilingual samples", &all, worst);
    }

    {
        let chunked = chunks(&corpus, 1024)?;
        print_table(
            "Corpus files cut into chunks of about 1 KB at line ends, counted exactly",
            &by_content_type(&chunked),
        );
        print_budget_fill(&chunked, &[1_000, 4_000, 16_000]);
        if worst > 0 {
            print_worst("1 KB chunks", &chunked, worst);
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
