use budget::{ContextBudget, budget};

// Operands the macro cannot see are checked during constant evaluation,
// with a fixed message naming the rule, on the field that broke it.
const WINDOW: u64 = 8_000;
const TARGET: u64 = 9_000;
const RESERVE: u64 = 10_000;

const TARGET_TOO_LARGE: ContextBudget = budget! { max_tokens: WINDOW, target_tokens: TARGET };

const RESERVE_TOO_LARGE: ContextBudget = budget! {
    max_tokens: WINDOW,
    target_tokens: WINDOW / 2,
    output_reserve: RESERVE,
};

fn main() {}
