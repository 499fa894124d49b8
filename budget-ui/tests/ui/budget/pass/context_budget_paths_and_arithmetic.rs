use budget::{ContextBudget, ContextKind, budget};

const WINDOW: u64 = 128 * 1024;
const ANSWER: u64 = 4_096;
const MARGIN: f64 = 5.0;
mod limits {
    pub const TOOLS: i64 = 3;
}

const BUDGET: ContextBudget = budget! {
    max_tokens: WINDOW,
    target_tokens: WINDOW - ANSWER,
    output_reserve: (ANSWER),
    safety_margin: MARGIN,
    reserved: { "tool output": limits::TOOLS, Memory: 2 * (3 + 1) - 10 / 3 },
};

const ARITHMETIC: ContextBudget = budget! {
    max_tokens: 128 * 1024,
    target_tokens: 100_000 - 4_096,
    output_reserve: 2 * 2_048,
    safety_margin: -(-2),
};

fn main() {
    assert_eq!(BUDGET.max_tokens(), 131_072);
    assert_eq!(BUDGET.target_tokens(), 126_976);
    assert_eq!(BUDGET.output_reserve(), 4_096);
    assert_eq!(BUDGET.estimation_safety_margin_percent(), 5.0);
    assert_eq!(BUDGET.reserved_for(&ContextKind::new("Tool Output").unwrap()), 3);
    assert_eq!(BUDGET.reserved_for(&ContextKind::MEMORY), 5); // 8 - 3

    assert_eq!(ARITHMETIC.max_tokens(), 131_072);
    assert_eq!(ARITHMETIC.target_tokens(), 95_904);
    assert_eq!(ARITHMETIC.output_reserve(), 4_096);
    assert_eq!(ARITHMETIC.estimation_safety_margin_percent(), 2.0);

    // In expression position, evaluated at compile time all the same.
    let window = budget! { max_tokens: WINDOW, target_tokens: WINDOW / 2 };
    assert_eq!(window.target_tokens(), 65_536);
    assert_eq!(window.effective(1_000).target_tokens, 64_536);
}
