use budget::budget;
use budget::payload::TierBudget;

const GIVEN: TierBudget = budget!(tiers { total: 500, meta: 1_000 });

// The default META overhead is 300 tokens.
const DEFAULT_META: TierBudget = budget!(tiers { total: 200 });

fn main() {}
