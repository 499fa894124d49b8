//! A derived `ContextItem` against the same struct with a hand-written impl:
//! the token estimate of 1,000 items and a full pipeline run over them.
//! The two should cost the same. Besides criterion's times, the program
//! prints the derived/manual time ratio measured in alternating rounds, which
//! stays meaningful on a busy machine where separate runs drift apart.
//!
//! Run with `cargo bench --bench derive_vs_manual`.

use std::borrow::Cow;
use std::hint::black_box;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use budget::{
    ContextBudget, ContextItem, ContextKind, Estimator, Pipeline,
    estimate::{ContentType, RatioEstimator},
    model::Timestamp,
};
use criterion::{Criterion, criterion_group};

const ITEMS: usize = 1_000;

/// A retrieved chunk: title and body estimated at their own ratios (named:
/// the derive's default is the exact counter).
#[derive(ContextItem)]
#[context(kind = "Document", estimator = "ratios")]
struct DerivedChunk {
    #[context(content, content_type = "prose")]
    title: String,
    #[context(content, content_type = "code")]
    body: String,
    #[context(score)]
    similarity: f64,
    #[context(timestamp)]
    indexed_at: SystemTime,
    #[context(priority)]
    priority: Option<i64>,
}

/// The same struct, with the impl a careful user would write by hand.
struct ManualChunk {
    title: String,
    body: String,
    similarity: f64,
    indexed_at: SystemTime,
    priority: Option<i64>,
}

impl ContextItem for ManualChunk {
    fn content(&self) -> Cow<'_, str> {
        Cow::Owned([self.title.as_str(), self.body.as_str()].join("\n\n"))
    }
    fn tokens(&self) -> u64 {
        RatioEstimator.estimate(&self.title, ContentType::Prose)
            + 1
            + RatioEstimator.estimate(&self.body, ContentType::Code)
    }
    fn kind(&self) -> &ContextKind {
        static KIND: ContextKind = ContextKind::DOCUMENT;
        &KIND
    }
    fn timestamp(&self) -> Option<Timestamp> {
        Some(self.indexed_at.into())
    }
    fn priority(&self) -> Option<i64> {
        self.priority
    }
    fn relevance(&self) -> Option<f64> {
        Some(self.similarity).filter(|s| !s.is_nan())
    }
}

/// Deterministic texts of varied length, about one in eight characters
/// multi-byte.
fn text(seed: usize, len: usize) -> String {
    const WORDS: [&str; 8] = [
        "token ",
        "budget ",
        "käse ",
        "fn main() ",
        "契約 ",
        "slice ",
        "{ }; ",
        "→ ",
    ];
    let mut out = String::with_capacity(len * 2);
    let mut i = seed;
    while out.chars().count() < len {
        out.push_str(WORDS[i % WORDS.len()]);
        i = i.wrapping_mul(31).wrapping_add(7);
    }
    out
}

fn fields(i: usize) -> (String, String, f64, SystemTime, Option<i64>) {
    (
        text(i, 20 + i % 40),
        text(i + 1, 200 + (i * 37) % 1_800),
        (i % 100) as f64 / 100.0,
        UNIX_EPOCH + Duration::from_secs(1_700_000_000 + (i as u64 * 7_919) % 86_400),
        (!i.is_multiple_of(3)).then_some((i % 10) as i64),
    )
}

fn derived_items() -> Vec<DerivedChunk> {
    (0..ITEMS)
        .map(|i| {
            let (title, body, similarity, indexed_at, priority) = fields(i);
            DerivedChunk {
                title,
                body,
                similarity,
                indexed_at,
                priority,
            }
        })
        .collect()
}

fn manual_items() -> Vec<ManualChunk> {
    (0..ITEMS)
        .map(|i| {
            let (title, body, similarity, indexed_at, priority) = fields(i);
            ManualChunk {
                title,
                body,
                similarity,
                indexed_at,
                priority,
            }
        })
        .collect()
}

fn total_tokens<T: ContextItem>(items: &[T]) -> u64 {
    items.iter().map(ContextItem::tokens).sum()
}

fn bench(c: &mut Criterion) {
    let derived = derived_items();
    let manual = manual_items();
    assert_eq!(total_tokens(&derived), total_tokens(&manual));

    let mut estimate = c.benchmark_group("estimate_1000_items");
    estimate.bench_function("derived", |b| b.iter(|| total_tokens(black_box(&derived))));
    estimate.bench_function("manual", |b| b.iter(|| total_tokens(black_box(&manual))));
    estimate.finish();

    // A target of about a tenth of the total, so the slicer has work to do.
    let target = total_tokens(&derived) / 10;
    let budget = ContextBudget::new(target * 2, target).expect("valid budget");
    let pipeline = Pipeline::default();
    let mut run = c.benchmark_group("pipeline_1000_items");
    run.bench_function("derived", |b| {
        b.iter(|| {
            pipeline
                .run(black_box(&derived), &budget)
                .expect("runs")
                .tokens()
        })
    });
    run.bench_function("manual", |b| {
        b.iter(|| {
            pipeline
                .run(black_box(&manual), &budget)
                .expect("runs")
                .tokens()
        })
    });
    run.finish();
}

/// Median over `rounds` of time(derived) / time(manual), each round timing
/// both back to back (in alternating order) over `reps` calls.
fn interleaved_ratio(
    rounds: usize,
    reps: usize,
    mut derived: impl FnMut(),
    mut manual: impl FnMut(),
) -> f64 {
    let time = |f: &mut dyn FnMut()| {
        let start = Instant::now();
        for _ in 0..reps {
            f();
        }
        start.elapsed().as_secs_f64()
    };
    let mut ratios: Vec<f64> = (0..rounds)
        .map(|round| {
            if round % 2 == 0 {
                let d = time(&mut derived);
                d / time(&mut manual)
            } else {
                let m = time(&mut manual);
                time(&mut derived) / m
            }
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[rounds / 2]
}

fn ratios() {
    let derived = derived_items();
    let manual = manual_items();
    let target = total_tokens(&derived) / 10;
    let budget = ContextBudget::new(target * 2, target).expect("valid budget");
    let pipeline = Pipeline::default();
    let estimate = interleaved_ratio(
        401,
        20,
        || {
            black_box(total_tokens(black_box(&derived)));
        },
        || {
            black_box(total_tokens(black_box(&manual)));
        },
    );
    let run = interleaved_ratio(
        201,
        2,
        || {
            black_box(
                pipeline
                    .run(black_box(&derived), &budget)
                    .expect("runs")
                    .tokens(),
            );
        },
        || {
            black_box(
                pipeline
                    .run(black_box(&manual), &budget)
                    .expect("runs")
                    .tokens(),
            );
        },
    );
    println!("derived / manual time, median of alternating rounds:");
    println!("  estimate of {ITEMS} items: {estimate:.3}");
    println!("  pipeline run over {ITEMS} items: {run:.3}");
}

criterion_group!(benches, bench);

fn main() {
    benches();
    ratios();
    Criterion::default().configure_from_args().final_summary();
}
