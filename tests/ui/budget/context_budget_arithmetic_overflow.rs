use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 9_223_372_036_854_775_807 * 2 / 2,
    target_tokens: 800,
};

const TOO_LARGE: ContextBudget = budget! {
    max_tokens: 9_223_372_036_854_775_808,
    target_tokens: 800,
};

fn main() {}
