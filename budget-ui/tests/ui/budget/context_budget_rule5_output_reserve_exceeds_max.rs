use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 8_000,
    target_tokens: 4_000,
    output_reserve: 8 * 1_024,
};

fn main() {}
