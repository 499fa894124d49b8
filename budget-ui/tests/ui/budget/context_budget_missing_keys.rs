use budget::{ContextBudget, budget};

const NO_TARGET: ContextBudget = budget! { max_tokens: 1_000 };

const EMPTY: ContextBudget = budget! {};

fn main() {}
