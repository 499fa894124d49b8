use budget::budget;

const MARGIN: f64 = f64::NAN;
const TOOLS: i64 = -2;

// Even in expression position the budget is evaluated at compile time.
fn main() {
    let _margin = budget! { max_tokens: 1_000, target_tokens: 800, safety_margin: MARGIN };
    let _slots = budget! {
        max_tokens: 1_000,
        target_tokens: 800,
        reserved: { ToolOutput: TOOLS },
    };
}
