//! A 60-turn agent conversation with tool calls and 40 scored documents,
//! fitted turn by turn into a 16K window with a 2K output reserve. Prints,
//! per turn, the counted total and what was compacted or left out.
//!
//! Run: `cargo run --example agent_conversation`
//! (with `--features tiktoken`, counts are exact `o200k_base` counts).

use budget::chat::{Message, ToolCall};
use budget::chat::{ToolDefinition, ToolParameter};
use budget::compact::SummaryRequest;
use budget::prompt::{PromptBudget, Turn};
use budget::{ContextItem, compact::SummarizerError};

const WINDOW: u64 = 16_384;
const RESERVE: u64 = 2_048;

#[derive(ContextItem)]
#[context(kind = "Document")]
struct Doc {
    #[context(content)]
    text: String,
    #[context(score)]
    similarity: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let builder = PromptBudget::builder(WINDOW).output_reserve(RESERVE);
    #[cfg(feature = "exact")]
    let builder = builder.counter(budget::estimate::ExactCounter::new(
        budget::estimate::Encoding::O200kBase,
    )?);
    let budget = builder.build()?;
    let tools = [
        ToolDefinition::new("read_file", "Read a file of the repository.")
            .parameter(ToolParameter::new("path", "string", "Path from the root").required())?,
        ToolDefinition::new("run_tests", "Run the test suite.").parameter(
            ToolParameter::new("scope", "string", "Which tests").with_enum(["unit", "all"]),
        )?,
    ];
    let docs: Vec<Doc> = (0..40u16)
        .map(|i| Doc {
            text: format!(
                "Design note {i}: {}",
                "the cache key covers every input. ".repeat(usize::from(30 + i % 9))
            ),
            similarity: f64::from(i * 37 % 100) / 100.0,
        })
        .collect();
    let summarize = |r: SummaryRequest<'_>| -> Result<String, SummarizerError> {
        Ok(format!(
            "{} earlier messages: files were read and tests run.",
            r.messages.len()
        ))
    };

    let mut history: Vec<Message> = Vec::new();
    println!("turn  total  +reserve  history  docs in/out  compacted  trimmed");
    for turn_no in 1..=60 {
        history.push(Message::user(format!(
            "Step {turn_no}: check module {turn_no} and run its tests."
        )));
        let ids = [format!("read_{turn_no}"), format!("test_{turn_no}")];
        history.push(Message::assistant_with_tool_calls(
            "",
            vec![
                ToolCall::new(
                    &ids[0],
                    "read_file",
                    format!("{{\"path\":\"src/m{turn_no}.rs\"}}"),
                ),
                ToolCall::new(&ids[1], "run_tests", "{\"scope\":\"unit\"}"),
            ],
        ));
        history.push(Message::tool_result(
            &ids[0],
            format!("pub fn f{turn_no}() {{}}\n").repeat(40),
        ));
        history.push(Message::tool_result(
            &ids[1],
            format!("test m{turn_no}::works ... ok\n").repeat(15),
        ));
        history.push(Message::assistant(format!(
            "Module {turn_no} reads fine and its tests pass."
        )));

        let turn = Turn::new("You are a careful coding agent.")
            .tools(&tools)
            .history(&history)
            .documents(&docs);
        let fitted = budget.fit(turn, &summarize)?;
        let r = &fitted.report;
        assert!(r.total_tokens + RESERVE <= WINDOW);
        let compacted = r.compaction.as_ref().map_or(0, |c| c.summarized_messages);
        println!(
            "{turn_no:>4} {:>6} {:>9} {:>8} {:>6}/{:<5} {:>9} {:>8}",
            r.total_tokens,
            r.total_tokens + RESERVE,
            r.history_tokens,
            r.documents_included.len(),
            r.documents_left_out.len(),
            compacted,
            r.history_messages_trimmed,
        );
        history = fitted.history().to_vec(); // continue from what was sent
    }
    Ok(())
}
