use budget::{ContextBudget, budget};

const ABOVE: ContextBudget = budget! {
    max_tokens: 1_000,
    target_tokens: 800,
    safety_margin: 100.5,
};

const BELOW: ContextBudget = budget! {
    max_tokens: 1_000,
    target_tokens: 800,
    safety_margin: -0.5,
};

fn main() {}
