use budget::budget;
use budget::model::ContractTerms;

// Unknown, repeated and missing keys, all reported at once.
const KEYS: ContractTerms = budget!(contract {
    context_window: 16_384,
    prompt_tokens: 100,
    max_histroy: 2_000,
    max_context: 12_000,
    max_context: 11_000,
});

// The fixed prompt is given once, and `content_type` only applies to text.
const PROMPTS: ContractTerms = budget!(contract {
    context_window: 16_384,
    prompt: "You are terse.",
    prompt_tokens: 100,
    max_history: 0,
    max_context: 0,
    max_output: 0,
});

const CONTENT_TYPE: ContractTerms = budget!(contract {
    context_window: 16_384,
    prompt_tokens: 100,
    content_type: prose,
    max_history: 0,
    max_context: 0,
    max_output: 0,
});

const UNKNOWN_TYPE: ContractTerms = budget!(contract {
    context_window: 16_384,
    prompt: "You are terse.",
    content_type: html,
    max_history: 0,
    max_context: 0,
    max_output: 0,
});

const NO_PROMPT: ContractTerms = budget!(contract {
    context_window: 16_384,
    max_history: 0,
    max_context: 0,
    max_output: -1,
});

fn main() {}
