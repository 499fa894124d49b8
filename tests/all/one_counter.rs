//! One counter everywhere: the same text gets the same number through every
//! entry point that counts by default (`Item::build`, the derive, the
//! payload assembler, `PromptBudget`, the contract checker), and that number
//! is the exact `o200k_base` count (`tiktoken-rs` as the reference is in
//! `budget-differential`; here `ExactCounter`, itself checked against it).
#![cfg(feature = "o200k")]

use budget::estimate::{ContentType, DefaultCounter, Encoding, ExactCounter, TokenCounter};
use budget::payload::{PayloadAssembler, TierBudget};
use budget::prompt::PromptBudget;
use budget::{ContextItem, Estimator, Item};

#[derive(ContextItem)]
#[context(content_type = "prose")]
struct Note {
    #[context(content)]
    text: String,
}

/// English, Russian, Chinese, Japanese, Korean, Arabic, Hindi, German, code
/// and JSON.
const TEXTS: &[&str] = &[
    "The cache key covers every input, so a rebuild is never stale.",
    "Ключ кэша охватывает все входные данные.",
    "缓存键涵盖所有输入，因此重建永远不会过时。",
    "キャッシュキーはすべての入力を含みます。",
    "캐시 키는 모든 입력을 포함합니다.",
    "مفتاح ذاكرة التخزين المؤقت يغطي كل المدخلات.",
    "कैश कुंजी हर इनपुट को कवर करती है।",
    "Der Cache-Schlüssel umfasst alle Eingaben.",
    "fn main() { println!(\"{}\", 1 + 2); }",
    r#"{"key": [1, 2, 3], "nested": {"ok": true}}"#,
];

#[test]
fn every_entry_point_counts_a_text_the_same() {
    let exact = ExactCounter::new(Encoding::O200kBase).unwrap();
    let prompt = PromptBudget::builder(100_000).build().unwrap();
    for text in TEXTS {
        let expected = exact.count_tokens(text);
        assert_eq!(
            DefaultCounter.estimate(text, ContentType::Prose),
            expected,
            "{text}"
        );
        let item = Item::builder(*text).build().unwrap();
        assert_eq!(item.tokens(), expected, "Item::build {text}");
        let note = Note {
            text: (*text).to_owned(),
        };
        assert_eq!(note.tokens(), expected, "derive {text}");
        assert_eq!(
            prompt.counter().estimate(text, ContentType::Markdown),
            expected,
            "PromptBudget {text}"
        );
        // The payload assembler counts its rendered text with the default.
        let payload = PayloadAssembler::new(TierBudget::with_total(10_000).unwrap())
            .assemble_items(std::slice::from_ref(&note))
            .unwrap();
        assert_eq!(
            payload.rendered_tokens(),
            exact.count_tokens(payload.text()),
            "PayloadAssembler {text}"
        );
    }
}

#[cfg(feature = "contract")]
#[test]
fn the_contract_checker_counts_with_the_same_counter() {
    use budget::contract::{Checker, ModelConfig, PipelineConfig, PromptStore};
    let dir = std::env::temp_dir().join(format!("budget-one-counter-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let system = "Ответь одним абзацем. 用一段话回答。";
    std::fs::write(dir.join("answer.txt"), system).unwrap();
    let model = ModelConfig::new(8_192, Some(1_024)).unwrap();
    let prompts = PromptStore::new(&dir);
    let pipeline = PipelineConfig::from_yaml_str(
        "YAMLpipeline:\n  name: p\n  settings:\n    max_context_tokens: 2000\n    max_history_tokens: 0\n  steps:\n    - id: answer\n      action: call_model\n      prompt_key: answer\n      user_parts:\n        q:\n          source: user_question\n          template: \"Q: {}\"\n",
        dir.join("p.yaml"),
    )
    .unwrap();
    let report = Checker::new(&model, &prompts).check(&pipeline).unwrap();
    let exact = ExactCounter::new(Encoding::O200kBase).unwrap();
    // The fixed prompt as the contract renders it, plus its 64-token format
    // overhead (the Budget Contract's own figure).
    let fixed = exact.count_tokens(&format!("{system}\n\nQ: "));
    assert_eq!(report.steps[0].terms.fixed_prompt_tokens, fixed + 64);
    std::fs::remove_dir_all(&dir).unwrap();
}
