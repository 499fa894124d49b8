//! Hybrid payload assembly at scale: 10,000 and 100,000 items, in rank and
//! in arrival order. Run with `cargo bench -p budget-runtime --bench payload`.
//! Going from 10,000 to 100,000 items should cost a little over 10×
//! (O(n log n)), not 100×.

use std::hint::black_box;

use budget_runtime::payload::{OfferOrder, PayloadAssembler, TierBudget};
use budget_runtime::{Item, estimate::ContentType};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// `n` items with deterministic pseudo-random sizes (20–2,000 tokens) and
/// relevance, each with a link and a description.
fn items(n: usize) -> Vec<Item> {
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    (0..n)
        .map(|i| {
            let tokens = 20 + next() % 1_981;
            let relevance = (next() % 10_000) as f64 / 10_000.0;
            Item::builder(format!("fn item_{i}() -> u64 {{ {i} }}\n"))
                .tokens(tokens)
                .content_type(ContentType::Code)
                .relevance(relevance)
                .link(format!("src/module_{}/file_{i}.rs", i % 97))
                .description(format!("Item number {i}"))
                .build()
                .expect("non-empty content")
        })
        .collect()
}

fn assemble(c: &mut Criterion) {
    let budget = TierBudget::with_total(100_000).expect("valid budget");
    let mut group = c.benchmark_group("payload_assemble");
    group.sample_size(10);
    for n in [10_000usize, 100_000] {
        let items = items(n);
        group.throughput(Throughput::Elements(n as u64));
        for (name, order) in [("rank", OfferOrder::Rank), ("arrival", OfferOrder::Arrival)] {
            let assembler = PayloadAssembler::new(budget).order(order);
            group.bench_with_input(BenchmarkId::new(name, n), &items, |b, items| {
                b.iter(|| {
                    let payload = assembler.assemble_items(black_box(items)).expect("fits");
                    black_box(payload.rendered_tokens())
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, assemble);
criterion_main!(benches);
