use budget::budget;
use budget::payload::TierBudget;

const TIERS: TierBudget = budget!(tiers {
    total: 100_000,
    summary_percent: 1,
    linked_percent: 9,
    raw_percent: 80,
});

fn main() {}
