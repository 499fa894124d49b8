use budget::budget;
use budget::payload::TierBudget;

const TIERS: TierBudget = budget!(tiers {
    total: 100_000,
    summary_percent: -1.0,
    linked_percent: 11.0,
    raw_percent: 90.0,
});

fn main() {}
