use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 1_000,
    target_tokens: 800,
    max_tokens: 2_000,
};

fn main() {}
