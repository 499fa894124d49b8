use budget::budget;
use budget::model::ContractTerms;

const CONTRACT: ContractTerms = budget!(contract {
    context_window: 18_446_744_073_709_551_615,
    prompt_tokens: 0,
    max_history: 0,
    max_context: 18_446_744_073_709_551_615,
    max_output: 1,
    safety_margin: 0,
});

fn main() {}
