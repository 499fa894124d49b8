use budget::budget;
use budget::model::ContractTerms;

const CONTRACT: ContractTerms = budget!(contract {
    context_window: 16_384,
    prompt_file: "prompts/does-not-exist.txt",
    max_history: 2_000,
    max_context: 12_000,
    max_output: 1_024,
});

fn main() {}
