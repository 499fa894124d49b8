use budget::budget;
use budget::model::ContractTerms;

const WINDOW: u64 = 8_192;
const CONTEXT: u64 = 8_000;

// The macro cannot see the constants: the inequality is checked during
// constant evaluation.
const CONTRACT: ContractTerms = budget!(contract {
    context_window: WINDOW,
    prompt_tokens: 100,
    max_history: 0,
    max_context: CONTEXT,
    max_output: 1_024,
});

fn main() {}
