use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 1_000,
    target_tokens: 800,
    reserved: { ToolOutput: 2, Memory: -1 },
};

fn main() {}
