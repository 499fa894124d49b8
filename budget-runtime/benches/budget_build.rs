//! Validating a budget with many reserved-slot kinds: the builder's check
//! (a hash set over the kinds) side by side with the pairwise check that
//! `const` code uses, which the builder used before (the audit's 20,000
//! kinds took 0.9 s).
//!
//! ```text
//! cargo bench -p budget-runtime --bench budget_build
//! ```

use std::hint::black_box;
use std::time::Duration;

use budget_runtime::{ContextBudget, ContextKind, model::ReservedSlot};
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

fn reserved_slots(c: &mut Criterion) {
    let kinds = 20_000;
    let slots: Vec<ReservedSlot> = (0..kinds)
        .map(|i| ReservedSlot::new(ContextKind::new(format!("kind{i}")).unwrap(), 1))
        .collect();
    let builder = slots
        .iter()
        .fold(ContextBudget::builder(1_000, 1_000), |b, slot| {
            b.reserved_slot(slot.kind.clone(), slot.min_items)
        });

    let mut group = c.benchmark_group("reserved_slots_20000");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    group.bench_function("builder_build_hash_set", |b| {
        b.iter_batched(
            || builder.clone(),
            |builder| black_box(builder.build()).is_ok(),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("const_broken_rule_pairwise", |b| {
        b.iter(|| ContextBudget::broken_rule(1_000, 1_000, 0, 0.0, black_box(&slots)))
    });
    group.finish();
}

criterion_group!(benches, reserved_slots);
criterion_main!(benches);
