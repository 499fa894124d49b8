//! Times every scorer over 10,000 and 100,000 synthetic items and prints the
//! figures. Run with `cargo run --release -p budget-tools --bin scorer_speed`;
//! an argument keeps only the scorers whose name contains it.

use std::time::{Duration, Instant};

use budget_runtime::scorer::{
    CompositeScorer, DecayCurve, DecayScorer, FrequencyScorer, KindScorer, MetadataKeyScorer,
    MetadataTrustScorer, PriorityScorer, RecencyScorer, ReflexiveScorer, ScaledScorer, TagScorer,
};
use budget_runtime::{ContextItem, ContextKind, Item, model::Timestamp, scorer::Scorer};

/// A small deterministic generator (xorshift), so runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn items(count: usize) -> Vec<Item> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let kinds = [
        ContextKind::MESSAGE,
        ContextKind::DOCUMENT,
        ContextKind::TOOL_OUTPUT,
        ContextKind::MEMORY,
    ];
    (0..count)
        .map(|i| {
            let tags: Vec<String> = (0..rng.below(5))
                .map(|_| format!("tag{}", rng.below(50)))
                .collect();
            Item::builder(format!("item {i}"))
                .tokens(10 + rng.below(1_991))
                .kind(kinds[rng.below(4) as usize].clone())
                .timestamp(Timestamp::from_unix_seconds(
                    1_700_000_000 + rng.below(10_000_000) as i64,
                ))
                .priority(rng.below(100) as i64)
                .relevance_hint(rng.below(1_000) as f64 / 1_000.0)
                .tags(tags)
                .metadata("cupel:trust", format!("0.{}", rng.below(100)))
                .build()
                .expect("content is not empty")
        })
        .collect()
}

/// The fastest of five runs (the least disturbed by other load).
fn time(scorer: &dyn Scorer, views: &[&dyn ContextItem]) -> Duration {
    let mut scores = vec![0.0; views.len()];
    (0..5)
        .map(|_| {
            let start = Instant::now();
            scorer.score_all(views, &mut scores);
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let now = Timestamp::from_unix_seconds(1_710_000_000);
    let day = Duration::from_secs(86_400);
    let scorers: Vec<(&str, Box<dyn Scorer>)> = vec![
        ("recency", Box::new(RecencyScorer::new())),
        ("priority", Box::new(PriorityScorer::new())),
        ("kind", Box::new(KindScorer::new())),
        (
            "tag",
            Box::new(TagScorer::new([
                ("tag1", 1.0),
                ("tag2", 2.0),
                ("tag3", 3.0),
            ])?),
        ),
        ("frequency", Box::new(FrequencyScorer::new())),
        ("reflexive", Box::new(ReflexiveScorer::new())),
        (
            "composite(recency 3, priority 1)",
            Box::new(
                CompositeScorer::builder()
                    .child(RecencyScorer::new(), 3.0)
                    .child(PriorityScorer::new(), 1.0)
                    .build()?,
            ),
        ),
        (
            "scaled(reflexive)",
            Box::new(ScaledScorer::new(ReflexiveScorer::new())),
        ),
        ("metadata_trust", Box::new(MetadataTrustScorer::new(0.5)?)),
        (
            "metadata_key",
            Box::new(MetadataKeyScorer::new("cupel:trust", "0.5", 1.5)?),
        ),
        (
            "decay(exponential)",
            Box::new(DecayScorer::new(now, DecayCurve::exponential(day)?)),
        ),
    ];
    let filter = std::env::args().nth(1).unwrap_or_default();
    for count in [10_000, 100_000] {
        let items = items(count);
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        println!("{count} items:");
        for (name, scorer) in scorers.iter().filter(|(name, _)| name.contains(&filter)) {
            let elapsed = time(scorer.as_ref(), &views);
            println!("  {name:<34} {:>9.3} ms", elapsed.as_secs_f64() * 1e3);
        }
    }
    Ok(())
}
