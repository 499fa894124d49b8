//! Compacts a realistic 300-message coding-agent transcript (with tool
//! calls) using a toy extractive summarizer, and prints the numbers.
//!
//! Run: `cargo run --example compact_transcript`
//!
//! The transcript is generated deterministically (a fixed-seed xorshift,
//! no network): a user asks for changes every 10 to 25 messages; the agent
//! lists directories, greps, reads files, edits them and runs the tests,
//! sometimes in parallel calls; test runs often print identical output.

use budget::chat::{Message, Role, ToolCall};
use budget::compact::SummarizerError;
use budget::compact::{CompactionConfig, Compactor, PromptTokens, SummaryRequest};

/// xorshift64*: deterministic pseudo-random numbers from a fixed seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const FILES: &[&str] = &[
    "src/lib.rs",
    "src/parser.rs",
    "src/lexer.rs",
    "src/eval.rs",
    "src/error.rs",
    "src/config.rs",
    "tests/integration.rs",
    "Cargo.toml",
];
const REQUESTS: &[&str] = &[
    "The parser panics on an empty input; make it return an error instead.",
    "Add support for hexadecimal literals like 0x1F in the lexer.",
    "Rename `EvalError::Bad` to something descriptive and update the callers.",
    "The integration tests are flaky on CI, can you find out why?",
    "Add a `--strict` option to the config that rejects unknown keys.",
    "Please document the public API of eval.rs.",
    "Speed up tokenization; it allocates a String per token.",
];

/// A fake Rust source file of about `lines` lines.
fn source_file(path: &str, lines: u64, rng: &mut Rng) -> String {
    let mut text = format!("// {path}\nuse crate::error::Error;\n\n");
    for i in 0..lines {
        let line = match rng.below(5) {
            0 => format!("pub fn step_{i}(input: &str) -> Result<usize, Error> {{"),
            1 => format!(
                "    let value_{i} = input.len().checked_mul({}).ok_or(Error::Overflow)?;",
                rng.below(97)
            ),
            2 => "    }".to_owned(),
            3 => format!("    // handles case {i} of the grammar"),
            _ => format!("    Ok(value_{})", i.saturating_sub(1)),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}

fn transcript(seed: u64, len: usize) -> Vec<Message> {
    let mut rng = Rng(seed);
    let mut messages = vec![Message::system(
        "You are a careful coding agent working in a Rust repository. Use the tools \
         to inspect files before editing them, keep changes minimal, run the tests after \
         every edit and report what you changed. "
            .repeat(4),
    )];
    let mut call = 0;
    let mut until_user = 0;
    let failing_tests = "running 42 tests\n".to_owned()
        + &"test parser::tests::case ... ok\n".repeat(38)
        + "test parser::tests::empty_input ... FAILED\n\nfailures:\n  thread panicked at src/parser.rs:88:14: index out of bounds\n\ntest result: FAILED. 41 passed; 1 failed\n";
    // leave room for the closing turn built below
    while messages.len() + 8 < len {
        if until_user == 0 {
            messages.push(Message::user(rng.pick(REQUESTS)));
            until_user = 10 + rng.below(16);
            continue;
        }
        until_user -= 1;
        // an assistant turn: one or two tool calls, or a short report
        if rng.below(6) == 0 {
            messages.push(Message::assistant(format!(
                "Done: I updated {} and the tests pass. {}",
                rng.pick(FILES),
                "The change keeps the public API unchanged. ".repeat(1 + rng.below(4) as usize)
            )));
            continue;
        }
        let parallel = 1 + rng.below(2);
        let mut calls = Vec::new();
        let mut results = Vec::new();
        for _ in 0..parallel {
            call += 1;
            let id = format!("call_{call:03}");
            let file = rng.pick(FILES);
            let (name, args, output) = match rng.below(5) {
                0 => ("list_dir", r#"{"path":"src"}"#.to_owned(), FILES.join("\n")),
                1 => (
                    "grep",
                    format!(r#"{{"pattern":"Error::","path":"{file}"}}"#),
                    (0..rng.below(30) + 3)
                        .map(|l| format!("{file}:{}: return Err(Error::Parse);", l * 7 + 1))
                        .collect::<Vec<_>>()
                        .join("\n"),
                ),
                2 => {
                    let lines = 80 + rng.below(320);
                    (
                        "read_file",
                        format!(r#"{{"path":"{file}"}}"#),
                        source_file(file, lines, &mut rng),
                    )
                }
                3 => (
                    "edit_file",
                    format!(r#"{{"path":"{file}","old":"unwrap()","new":"ok_or(Error::Empty)?"}}"#),
                    format!("Edited {file}: 1 replacement."),
                ),
                _ => (
                    "run_tests",
                    r#"{"cmd":"cargo test"}"#.to_owned(),
                    failing_tests.clone(),
                ),
            };
            calls.push(ToolCall::new(&id, name, args));
            results.push(Message::tool_result(&id, output));
        }
        messages.push(Message::assistant_with_tool_calls("", calls));
        messages.extend(results);
    }
    // close with whole turns so the conversation has exactly `len`
    // messages and ends on a user question after a finished assistant turn
    let mut left = len - 1 - messages.len();
    while left > 0 {
        match left {
            1 => messages.push(Message::assistant("Done: the tests pass now.")),
            2 => messages.push(Message::user("Is the lexer covered by tests too?")),
            _ => {
                call += 1;
                let id = format!("call_{call:03}");
                messages.push(Message::assistant_with_tool_calls(
                    "",
                    vec![ToolCall::new(&id, "run_tests", r#"{"cmd":"cargo test"}"#)],
                ));
                messages.push(Message::tool_result(
                    &id,
                    "test result: ok. 42 passed; 0 failed",
                ));
            }
        }
        left = len - 1 - messages.len();
    }
    messages.push(Message::user(
        "Thanks. Last thing: summarize what you changed today.",
    ));
    messages
}

/// A toy extractive summarizer: keeps the previous summary, the user's
/// requests and the files the agent touched, within the size it is given.
fn toy_summarizer(req: SummaryRequest<'_>) -> Result<String, SummarizerError> {
    let mut text = String::new();
    if let Some(previous) = req.previous_summary {
        text.push_str(previous);
        text.push('\n');
    }
    for m in req.messages {
        match m.role {
            Role::User => text.push_str(&format!("- User asked: {}\n", m.content)),
            Role::Assistant => {
                for call in &m.tool_calls {
                    if call.name == "edit_file" {
                        text.push_str(&format!("- Agent edited with {}\n", call.arguments));
                    }
                }
            }
            _ => {}
        }
    }
    let max_chars = req.max_summary_tokens as usize * 4;
    Ok(text.chars().take(max_chars).collect())
}

fn describe(m: &Message) -> String {
    let text: String = m
        .content
        .chars()
        .take(60)
        .collect::<String>()
        .replace('\n', " ");
    match (m.role, m.tool_calls.first(), &m.tool_call_id) {
        (_, Some(call), _) => format!(
            "{:9} calls {} ({} call(s))",
            m.role,
            call.name,
            m.tool_calls.len()
        ),
        (Role::Tool, _, Some(id)) => format!("{:9} result of {id}: {text}…", m.role),
        _ => format!("{:9} {text}…", m.role),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let messages = transcript(0x5eed_2024, 300);
    let mut config = CompactionConfig::default();
    // the summarizer runs on a smaller model with a 32K window
    config.compression.summarizer_window_tokens = Some(32_000);
    let compactor = Compactor::new(&config, Some(128_000))?;

    let tool_calls: usize = messages.iter().map(|m| m.tool_calls.len()).sum();
    println!(
        "transcript: {} messages, {tool_calls} tool calls",
        messages.len()
    );
    println!(
        "window {} tokens: compaction above {} tokens, target {} tokens",
        compactor.window(),
        compactor.threshold(),
        compactor.target()
    );
    let plan = compactor.plan(&messages, PromptTokens::Estimate);
    println!(
        "estimate before: {} tokens -> needs compaction: {}",
        plan.tokens_before(),
        plan.needed()
    );
    println!(
        "plan: head {:?}, middle {:?}, tail {:?} (verbatim {:?}), summary as {}, {} reductions",
        plan.head(),
        plan.middle(),
        plan.tail(),
        plan.verbatim_tail(),
        plan.summary_role(),
        plan.reductions().len()
    );

    let out = compactor.compact(&messages, PromptTokens::Estimate, &toy_summarizer)?;
    let r = &out.report;
    println!(
        "\nafter: {} tokens in {} messages ({:?}); before: {} tokens in {} messages",
        r.tokens_after, r.messages_after, r.outcome, r.tokens_before, r.messages_before
    );
    println!(
        "kept verbatim: {} head + {} tail messages; summarized {} messages in {} summarizer call(s)",
        r.head_messages, r.tail_messages, r.summarized_messages, r.summarizer_calls
    );
    println!(
        "cheap reductions: {} duplicate tool outputs, {} large tool outputs stubbed; repairs: {:?}",
        r.deduplicated_tool_outputs, r.stubbed_tool_outputs, r.repairs
    );

    println!("\nthe compacted conversation:");
    for (i, m) in out.messages.iter().enumerate() {
        let marker = if m.reference_only {
            " [reference-only summary]"
        } else {
            ""
        };
        if i < r.head_messages + 1 || i + 6 >= out.messages.len() {
            println!("  {i:3} {}{marker}", describe(m));
        } else if i == r.head_messages + 1 {
            println!(
                "  ... {} more tail messages ...",
                out.messages.len() - r.head_messages - 7
            );
        }
    }
    if let Some(summary) = out.messages.iter().find(|m| m.reference_only) {
        println!(
            "\nthe summary ({} tokens):",
            compactor.estimate_tokens(std::slice::from_ref(summary))
        );
        for line in summary.content.lines().take(12) {
            println!("  | {line}");
        }
    }

    // The same compaction when the summarizer is down: a bounded local digest.
    let down = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> {
        Err(SummarizerError::failed("503 Service Unavailable"))
    };
    let fallback = compactor.compact(&messages, PromptTokens::Estimate, &down)?;
    println!(
        "\nwith the summarizer down: {} tokens after ({:?}), summary source {:?}",
        fallback.report.tokens_after, fallback.report.outcome, fallback.report.summary
    );
    Ok(())
}
