use budget::budget;
use budget::model::ContractTerms;

// The prompt is 44 characters of prose: ceil(44 / 4) = 11 tokens, so
// 11 + 0 + 50 + 20 + 20 = 101 = 100 + 1.
const CONTRACT: ContractTerms = budget!(contract {
    context_window: 100,
    prompt: "Answer from the context only. Be concise ok.",
    content_type: prose,
    max_history: 0,
    max_context: 50,
    max_output: 20,
    safety_margin: 20,
});

fn main() {}
