use budget::budget;
use budget::payload::TierBudget;

// SUMMARY gets 1% of 50 = floor(0.5) = 0 tokens.
const SMALL: TierBudget = budget!(tiers { total: 50, meta: 0 });

const NO_SUMMARY: TierBudget = budget!(tiers {
    total: 100_000,
    summary_percent: 0,
    linked_percent: 10,
    raw_percent: 90,
});

fn main() {}
