//! `budget!(contract { .. })` with prompt files, read relative to this
//! crate's `CARGO_MANIFEST_DIR` (trybuild cases run from another directory).

use budget::budget;
use budget::model::ContractTerms;

/// `tests/fixtures/prompts/answer.txt` has 101 characters; `.txt` is
/// estimated as prose (4 characters per token): ceil(101 / 4) = 26 tokens.
const FROM_TXT: ContractTerms = budget!(contract {
    context_window: 16_384,
    prompt_file: "tests/fixtures/prompts/answer.txt",
    max_history: 2_000,
    max_context: 12_000,
    max_output: 1_024,
});

#[test]
fn txt_prompt_files_are_estimated_as_prose() {
    assert_eq!(FROM_TXT.fixed_prompt_tokens, 26);
    assert_eq!(FROM_TXT.safety_margin_tokens, 128);
    // 26 + 2000 + 12000 + 1024 + 128
    assert_eq!(FROM_TXT.total(), Some(15_178));
}

#[test]
fn other_prompt_files_are_estimated_as_markdown_unless_told() {
    // 36 characters. Markdown (3.75 per token): ceil(9.6) = 10.
    const MD: ContractTerms = budget!(contract {
        context_window: 1_000,
        prompt_file: "tests/fixtures/prompts/answer.md",
        max_history: 0,
        max_context: 0,
        max_output: 0,
    });
    assert_eq!(MD.fixed_prompt_tokens, 10);
    // As code (3.5 per token): ceil(10.29) = 11.
    const AS_CODE: ContractTerms = budget!(contract {
        context_window: 1_000,
        prompt_file: "tests/fixtures/prompts/answer.md",
        content_type: code,
        max_history: 0,
        max_context: 0,
        max_output: 0,
    });
    assert_eq!(AS_CODE.fixed_prompt_tokens, 11);
}

#[test]
fn the_macro_agrees_with_the_runtime_check() {
    // Exactly full: 26 + 0 + 100 + 0 + 0 = 126.
    let full = budget!(contract {
        context_window: 126,
        prompt_file: "tests/fixtures/prompts/answer.txt",
        max_history: 0,
        max_context: 100,
        max_output: 0,
        safety_margin: 0,
    });
    assert!(full.check().is_ok());
    let one_more = ContractTerms {
        max_context_tokens: 101,
        ..full
    };
    assert_eq!(
        one_more.check().unwrap_err().to_string(),
        "exceeds context_window 126 by 1 tokens: prompt 26 + history 0 + context 101 + output 0 + safety 0"
    );
}
