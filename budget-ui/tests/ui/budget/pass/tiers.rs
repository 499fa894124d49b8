use budget::budget;
use budget::payload::TierBudget;
use budget::model::Tier;

// The token-budget rules' defaults: META 300, SUMMARY 1%, LINKED 9%, RAW 90%, headroom 10%.
const SEED: TierBudget = budget!(tiers { total: 100_000 });
// RAW: floor(100000 × 0.90) = 90000 nominal, floor(90000 × 0.9) = 81000 effective.
const _: () = assert!(SEED.nominal(Tier::Raw) == 90_000);
const _: () = assert!(SEED.effective(Tier::Raw) == 81_000);

const TOTAL: u64 = 32 * 1024;
const RAW: f64 = 70.0;

const CUSTOM: TierBudget = budget!(tiers {
    total: TOTAL,
    meta: 200 + 56,
    summary_percent: 5,
    linked_percent: 25.0,
    raw_percent: RAW,
    headroom_percent: 0.0,
});

fn main() {
    assert_eq!(SEED.meta(), 300);
    assert_eq!(SEED.headroom_percent(), 10.0);
    assert_eq!(SEED.nominal(Tier::Linked), 9_000);
    assert_eq!(SEED.effective(Tier::Linked), 8_100);
    assert_eq!(SEED.nominal(Tier::Summary), 1_000);
    assert_eq!(SEED.effective(Tier::Summary), 900);
    assert_eq!(SEED, TierBudget::with_total(100_000).unwrap());

    // 32768 tokens: SUMMARY floor(1638.4) = 1638, LINKED 8192, RAW floor(22937.6) = 22937;
    // no headroom, so effective = nominal.
    assert_eq!(CUSTOM.total(), 32_768);
    assert_eq!(CUSTOM.meta(), 256);
    assert_eq!(CUSTOM.effective(Tier::Summary), 1_638);
    assert_eq!(CUSTOM.effective(Tier::Linked), 8_192);
    assert_eq!(CUSTOM.effective(Tier::Raw), 22_937);

    let small = budget!(tiers { total: 1_000, meta: 100, headroom_percent: 50 });
    // SUMMARY 10 → 5, LINKED 90 → 45, RAW 900 → 450
    assert_eq!(small.effective(Tier::Summary), 5);
    assert_eq!(small.effective(Tier::Linked), 45);
    assert_eq!(small.effective(Tier::Raw), 450);
}
