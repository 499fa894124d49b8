use budget::{ContextBudget, budget};

// Every problem is reported in one compilation, each on its own span.
const BUDGET: ContextBudget = budget! {
    max_tokens: 1_000,
    target_tokens: 800,
    output_reserve: 18_446_744_073_709_551_615 + 1,
    safty_margin: 10.0,
    reserved: { Memory: 1 / 0 },
    max_tokens: 2_000,
};

fn main() {}
