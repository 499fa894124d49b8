//! A deterministic synthetic workload, built identically for this crate and
//! for the `cupel` crate so both can be compared on the same input.
//!
//! Items: tokens 10–2,000, four kinds, timestamps over ~4 months, priorities
//! 0–99, every 25th item a byte-identical duplicate of an earlier one, and one
//! pinned system prompt. Budget: max 200,000 / target 128,000 / reserve 4,096.

use budget_runtime::{ContextBudget, ContextKind, Item, model::Timestamp};

/// One generated item, independent of either library.
pub struct Spec {
    /// The item's text (every 25th a copy of an earlier one).
    pub content: String,
    /// Its token count, 10–2,000.
    pub tokens: u64,
    /// One of four well-known kinds.
    pub kind: &'static str,
    /// Its timestamp, in seconds since the Unix epoch.
    pub unix_seconds: i64,
    /// Its priority, 0–99.
    pub priority: i64,
    /// Whether it is pinned (the first item only).
    pub pinned: bool,
}

const KINDS: [&str; 4] = ["Message", "Document", "ToolOutput", "Memory"];
const BASE_SECONDS: i64 = 1_700_000_000;

/// SplitMix64: a tiny deterministic generator (no external crate needed).
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// `n` item specs from `seed`.
pub fn specs(n: usize, seed: u64) -> Vec<Spec> {
    let mut rng = SplitMix::new(seed);
    let mut specs: Vec<Spec> = Vec::with_capacity(n);
    for i in 0..n {
        let content = if i > 0 && i % 25 == 0 {
            specs[rng.below(i as u64) as usize].content.clone()
        } else {
            format!("item {i}: {:016x}", rng.next_u64())
        };
        specs.push(Spec {
            content,
            tokens: 10 + rng.below(1_991),
            kind: KINDS[rng.below(4) as usize],
            unix_seconds: BASE_SECONDS + rng.below(10_000_000) as i64,
            priority: rng.below(100) as i64,
            pinned: i == 0,
        });
    }
    specs
}

/// The workload's budget for this crate.
pub fn budget() -> ContextBudget {
    ContextBudget::builder(200_000, 128_000)
        .output_reserve(4_096)
        .build()
        .expect("the workload budget is valid")
}

/// The specs as this crate's items.
pub fn items(specs: &[Spec]) -> Vec<Item> {
    specs
        .iter()
        .map(|s| {
            Item::builder(s.content.clone())
                .tokens(s.tokens)
                .kind(ContextKind::new(s.kind).expect("known kind"))
                .timestamp(Timestamp::from_unix_seconds(s.unix_seconds))
                .priority(s.priority)
                .pinned(s.pinned)
                .build()
                .expect("content is non-empty")
        })
        .collect()
}

/// The workload's budget for cupel.
pub fn cupel_budget() -> cupel::ContextBudget {
    cupel::ContextBudget::new(200_000, 128_000, 4_096, Default::default(), 0.0)
        .expect("the workload budget is valid")
}

/// The specs as cupel's items.
pub fn cupel_items(specs: &[Spec]) -> Vec<cupel::ContextItem> {
    specs
        .iter()
        .map(|s| {
            cupel::ContextItemBuilder::new(
                s.content.clone(),
                i64::try_from(s.tokens).expect("small"),
            )
            .kind(cupel::ContextKind::new(s.kind).expect("known kind"))
            .timestamp(chrono::DateTime::from_timestamp(s.unix_seconds, 0).expect("in range"))
            .priority(s.priority)
            .pinned(s.pinned)
            .build()
            .expect("content is non-empty")
        })
        .collect()
}

/// A cupel pipeline with `scorer` and `slicer`, the chronological placer and
/// deduplication on (the configuration both sides are compared in).
pub fn cupel_pipeline(
    scorer: Box<dyn cupel::Scorer>,
    slicer: Box<dyn cupel::Slicer>,
) -> cupel::Pipeline {
    cupel::Pipeline::builder()
        .scorer(scorer)
        .slicer(slicer)
        .placer(Box::new(cupel::ChronologicalPlacer))
        .deduplication(true)
        .build()
        .expect("valid cupel pipeline")
}
