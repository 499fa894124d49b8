use budget::budget;
use budget::payload::TierBudget;

const TOTAL: u64 = 100_000;
const RAW: f64 = 80.0;
const HEADROOM: f64 = 100.0;

// Operands the macro cannot see are checked during constant evaluation.
const SHARES: TierBudget = budget!(tiers { total: TOTAL, raw_percent: RAW });

const ALL_HEADROOM: TierBudget = budget!(tiers { total: TOTAL, headroom_percent: HEADROOM });

fn main() {}
