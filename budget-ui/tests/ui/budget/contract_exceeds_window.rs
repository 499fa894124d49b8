use budget::budget;
use budget::model::ContractTerms;

// 1040 + 2000 + 13000 + 1024 + 128 = 17192 = 16384 + 808
const CONTRACT: ContractTerms = budget!(contract {
    context_window: 16_384,
    prompt_tokens: 1_040,
    max_history: 2_000,
    max_context: 13_000,
    max_output: 1_024,
});

fn main() {}
