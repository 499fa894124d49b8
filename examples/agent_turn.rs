//! One agent turn under one budget: system prompt, tools, a history with a
//! tool call, and scored search hits, fitted into a 16K window.
//!
//! Run: `cargo run --example agent_turn`

use budget::chat::{Message, ToolCall};
use budget::chat::{ToolDefinition, ToolParameter};
use budget::compact::SummaryRequest;
use budget::prompt::{PromptBudget, Turn};
use budget::{ContextItem, compact::SummarizerError};

#[derive(ContextItem)]
struct Hit {
    #[context(content)]
    text: String,
    #[context(score)]
    similarity: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let budget = PromptBudget::builder(16_384)
        .output_reserve(2_048)
        .build()?;
    let tools = [ToolDefinition::new("search", "Search the docs")
        .parameter(ToolParameter::new("query", "string", "What to look for").required())?];
    let history = vec![
        Message::user("Why does `cargo build` fail with E0502?"),
        Message::assistant_with_tool_calls(
            "",
            vec![ToolCall::new("c1", "search", r#"{"query":"E0502"}"#)],
        ),
        Message::tool_result(
            "c1",
            "E0502: cannot borrow `v` as mutable because it is also borrowed as immutable",
        ),
    ];
    let hits: Vec<Hit> = (0..40)
        .map(|i| Hit {
            text: format!(
                "Borrowing note {i}: {}",
                "a shared borrow ends at its last use. ".repeat(60)
            ),
            similarity: 1.0 - f64::from(i) / 40.0,
        })
        .collect();
    // Called only when the history outgrows its share of the window.
    let summarize = |r: SummaryRequest<'_>| -> Result<String, SummarizerError> {
        Ok(format!("{} earlier messages", r.messages.len()))
    };

    let turn = Turn::new("You are a Rust expert.")
        .tools(&tools)
        .history(&history)
        .documents(&hits);
    let fitted = budget.fit(turn, &summarize)?;
    let report = &fitted.report;
    println!(
        "{} messages, {} tokens + 2048 reserved of 16384",
        fitted.messages.len(),
        report.total_tokens
    );
    println!(
        "{} hits included, {} left out",
        report.documents_included.len(),
        report.documents_left_out.len()
    );
    Ok(())
}
