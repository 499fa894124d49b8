use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 1_000,
    target_tokens: 1_000 / (2 - 2),
};

fn main() {}
