use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 1_000,
    target_tokens: 800,
    output_reserve: -3,
};

fn main() {}
