//! `PromptBudget`'s default counter keeps the quick start's promise: the
//! request, counted by `tiktoken-rs` with the OpenAI cookbook's rules, plus
//! the output reserve never exceeds the window, on the texts where the
//! calibrated estimate undercounts most (Markdown tables, JSON, rare
//! characters).

use budget_prompt::chat::Message;
use budget_prompt::compact::{SummarizerError, SummaryRequest};
use budget_prompt::prompt::{PromptBudget, Turn};
use budget_runtime::Item;

use crate::chat_format::reference;

/// 200 documents of one kind, `i` varying the text.
fn documents(text: impl Fn(usize) -> String) -> Vec<Item> {
    (0..200)
        .map(|i| {
            Item::builder(text(i))
                .relevance(1.0 - i as f64 / 200.0)
                .build()
                .unwrap()
        })
        .collect()
}

fn kinds() -> Vec<(&'static str, Vec<Item>)> {
    vec![
        (
            "markdown tables",
            documents(|i| {
                let mut t = String::from("| id | name | qty | price |\n|---:|:---|---:|---:|\n");
                for r in 0..12 {
                    t.push_str(&format!(
                        "| {} | item-{} | {} | {}.{:02} |\n",
                        i * 12 + r,
                        r,
                        r * 7 % 13,
                        r * 31 % 97,
                        r * 17 % 100
                    ));
                }
                t
            }),
        ),
        (
            "json",
            documents(|i| {
                format!(
                    "{{\"id\":{i},\"tags\":[\"a{i}\",\"b\"],\"pos\":{{\"x\":{}.5,\"y\":-{}}},\"ok\":true,\"note\":null}}",
                    i * 3,
                    i % 17
                )
            }),
        ),
        (
            "rare characters",
            documents(|i| {
                (0..60)
                    .map(|k| char::from_u32(0x1F300 + ((i * 61 + k * 7) % 700) as u32).unwrap())
                    .collect()
            }),
        ),
        (
            "cjk",
            documents(|i| {
                format!(
                    "第{i}条：{}",
                    "令牌预算必须在窗口之内，永远不能溢出。".repeat(3)
                )
            }),
        ),
    ]
}

#[test]
fn the_default_counter_never_overflows_the_window() {
    let budget = PromptBudget::builder(16_384)
        .output_reserve(2_048)
        .build()
        .unwrap();
    let no_summary =
        |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok(String::new()) };
    let history = [Message::user("Summarize the documents.")];
    for (kind, docs) in kinds() {
        let turn = Turn::new("Answer from the documents.")
            .history(&history)
            .documents(&docs);
        let fitted = budget.fit(turn, &no_summary).unwrap();
        let counted = reference("gpt-4o", &fitted.messages);
        assert!(
            counted + 2_048 <= 16_384,
            "{kind}: {counted} tokens (tiktoken-rs) + 2048 > 16384; the budget counted {}",
            fitted.report.total_tokens
        );
        // and the window is used, not wasted: everything, or at least half of it
        assert!(
            fitted.report.documents_left_out.is_empty() || counted > 7_000,
            "{kind}: only {counted} tokens sent, {} documents left out",
            fitted.report.documents_left_out.len()
        );
    }
}
