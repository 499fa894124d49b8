use budget::{ContextBudget, budget};

const FLOAT: ContextBudget = budget! { max_tokens: 1_000.0, target_tokens: 800 };

const SUFFIX: ContextBudget = budget! { max_tokens: 1_000u32, target_tokens: 800 };

const STRING: ContextBudget = budget! { max_tokens: 1_000, target_tokens: 800, safety_margin: "10" };

const MAP: ContextBudget = budget! { max_tokens: { Memory: 1 }, target_tokens: 800 };

const NOT_A_MAP: ContextBudget = budget! { max_tokens: 1_000, target_tokens: 800, reserved: 2 };

fn main() {}
