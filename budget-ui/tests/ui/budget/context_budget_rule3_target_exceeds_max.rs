use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 128_000,
    target_tokens: 130_000,
};

fn main() {}
