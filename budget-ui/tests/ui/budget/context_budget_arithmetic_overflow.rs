use budget::{ContextBudget, budget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 18_446_744_073_709_551_615 * 2 / 2,
    target_tokens: 800,
};

const TOO_LARGE: ContextBudget = budget! {
    max_tokens: 18_446_744_073_709_551_616,
    target_tokens: 800,
};

fn main() {}
