use budget::{ContextBudget, budget};

// Kinds compare case-insensitively, as at run time.
const BUDGET: ContextBudget = budget! {
    max_tokens: 1_000,
    target_tokens: 800,
    reserved: { ToolOutput: 2, Memory: 1, tooloutput: 3 },
};

fn main() {}
