use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! { max_tokens: 1_000, target_tokens: -5 };

fn main() {}
