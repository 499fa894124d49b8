use budget::budget;
use budget::payload::TierBudget;

const TIERS: TierBudget = budget!(tiers {
    meta: 300,
    raw: 90.0,
    meta: 200,
    headroom_percent: 1_000u64,
});

fn main() {}
