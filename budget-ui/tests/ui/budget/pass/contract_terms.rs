use budget::budget;
use budget::model::ContractTerms;

const WINDOW: u64 = 16 * 1024;

// 1040 + 2000 + 12000 + 1024 + 128 (default margin) = 16192 <= 16384
const CONTRACT: ContractTerms = budget!(contract {
    context_window: WINDOW,
    prompt_tokens: 1_040,
    max_history: 2_000,
    max_context: 12_000,
    max_output: 1_024,
});
const _: () = assert!(CONTRACT.safety_margin_tokens == 128);
const _: () = assert!(matches!(CONTRACT.total(), Some(16_192)));

// A prompt written inline: 28 characters of markdown (the default content
// type, 3.75 characters per token): ceil(28 / 3.75) = ceil(7.47) = 8 tokens.
// Exactly full: 8 + 0 + 62 + 20 + 10 = 100.
const INLINE: ContractTerms = budget!(contract {
    context_window: 100,
    prompt: "You are a careful assistant.",
    max_history: 0,
    max_context: 50 + 12,
    max_output: 20,
    safety_margin: 10,
});

fn main() {
    assert_eq!(
        CONTRACT,
        ContractTerms {
            fixed_prompt_tokens: 1_040,
            max_history_tokens: 2_000,
            max_context_tokens: 12_000,
            max_output_tokens: 1_024,
            safety_margin_tokens: 128,
            context_window: 16_384,
        }
    );
    assert_eq!(INLINE.fixed_prompt_tokens, 8);
    assert_eq!(INLINE.total(), Some(100));
    assert!(INLINE.check().is_ok());

    // In expression position too.
    let prose = budget!(contract {
        context_window: WINDOW,
        prompt: "You are a careful assistant.", // 28 chars of prose: 7 tokens
        content_type: "prose",
        max_history: 0,
        max_context: 0,
        max_output: 0,
        safety_margin: 0,
    });
    assert_eq!(prose.fixed_prompt_tokens, 7);
}
