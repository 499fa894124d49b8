use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! { max_tokens: -1, target_tokens: 0 };

fn main() {}
