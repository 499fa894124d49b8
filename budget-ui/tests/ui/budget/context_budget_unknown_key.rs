use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 1_000,
    target_token: 800,
    target_tokens: 800,
};

fn main() {}
