use budget::{ContextBudget, ContextKind, budget, model::EffectiveBudget};

const BUDGET: ContextBudget = budget! {
    max_tokens: 128_000,
    target_tokens: 100_000,
    output_reserve: 4_096,
    safety_margin: 10.0,
    reserved: { ToolOutput: 2_000, Memory: 500 },
};

// The effective budget of a budget known at compile time is a constant too.
const BUDGET_REF: &ContextBudget = &BUDGET;
// max: 128000 - 4096 = 123904 → floor(123904 × 0.9) = floor(111513.6) = 111513
// target: 100000 → floor(90000.0) = 90000
const EFFECTIVE: EffectiveBudget = BUDGET_REF.effective(0);
const _: () = assert!(EFFECTIVE.max_tokens == 111_513);
const _: () = assert!(EFFECTIVE.target_tokens == 90_000);

// Optional keys default: reserve 0, margin 0.0, no slots; trailing comma optional.
static MINIMAL: ContextBudget = budget! { max_tokens: 10, target_tokens: 10 };
const _: () = assert!(MINIMAL.effective(0).max_tokens == 10);

fn main() {
    assert_eq!(BUDGET.max_tokens(), 128_000);
    assert_eq!(BUDGET.target_tokens(), 100_000);
    assert_eq!(BUDGET.output_reserve(), 4_096);
    assert_eq!(BUDGET.estimation_safety_margin_percent(), 10.0);
    assert_eq!(BUDGET.reserved_for(&ContextKind::TOOL_OUTPUT), 2_000);
    assert_eq!(BUDGET.reserved_for(&ContextKind::MEMORY), 500);
    assert_eq!(BUDGET.reserved_slots().len(), 2);
    assert_eq!(
        EFFECTIVE,
        EffectiveBudget { max_tokens: 111_513, target_tokens: 90_000 }
    );
    assert_eq!(MINIMAL.output_reserve(), 0);
    assert!(MINIMAL.reserved_slots().is_empty());

    // The same values through the runtime builder give an equal budget.
    let runtime = ContextBudget::builder(128_000, 100_000)
        .output_reserve(4_096)
        .safety_margin_percent(10.0)
        .reserved_slot(ContextKind::TOOL_OUTPUT, 2_000)
        .reserved_slot(ContextKind::MEMORY, 500)
        .build()
        .unwrap();
    assert_eq!(BUDGET, runtime);
}
