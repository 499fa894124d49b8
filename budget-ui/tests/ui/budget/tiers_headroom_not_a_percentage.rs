use budget::budget;
use budget::payload::TierBudget;

// The headroom must stay below 100: at 100 no tier could hold anything.
const ALL: TierBudget = budget!(tiers { total: 100_000, headroom_percent: 100.0 });

const NEGATIVE: TierBudget = budget!(tiers { total: 100_000, headroom_percent: -5 });

fn main() {}
