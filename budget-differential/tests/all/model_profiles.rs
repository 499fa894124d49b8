//! `PromptBudget::for_profile` on open-model profiles with their real
//! tokenizer files: the agent quick-start turn is fitted, then the request
//! is rendered with the family's chat template (tools in the system prompt
//! as the templates' JSON) and counted by the reference implementation
//! (Python `tiktoken` with the model's ranks, pattern and special tokens).
//! The reference count plus the output reserve stays within the window, and
//! the library's count is never below the reference's.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use budget_prompt::chat::{Message, Role, ToolCall, ToolDefinition, ToolParameter};
use budget_prompt::compact::{SummarizerError, SummaryRequest};
use budget_prompt::profile::{ModelRegistry, TokenizerSpec};
use budget_prompt::prompt::{PromptBudget, Turn};
use budget_runtime::estimate::{ExactCounter, SplitPattern, TokenCounter};
use budget_runtime::{ContextItem, Item};

fn references() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/references")
}

/// The reference count of `text` with the special tokens `specials` as one
/// token each.
fn reference_count(ranks: &str, pattern: &SplitPattern, specials: &[&str], text: &str) -> u64 {
    let script = r#"
import base64, sys, json, unicodedata, tiktoken
ranks_path, pattern, nfc, specials = sys.argv[1], sys.argv[2], sys.argv[3] == "1", json.loads(sys.argv[4])
ranks = {base64.b64decode(t): int(r) for t, r in (l.split() for l in open(ranks_path, "rb") if l.strip())}
enc = tiktoken.Encoding("ref", pat_str=pattern, mergeable_ranks=ranks,
                        special_tokens={s: len(ranks) + i for i, s in enumerate(specials)})
text = sys.stdin.read()
if nfc:
    text = unicodedata.normalize("NFC", text)
print(len(enc.encode(text, allowed_special="all")))
"#;
    let mut child = Command::new(references().join("venv/bin/python"))
        .args([
            "-c",
            script,
            references().join("files").join(ranks).to_str().unwrap(),
            pattern.regex(),
            if pattern.nfc() { "1" } else { "0" },
            &serde_json::to_string(specials).unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the reference Python of scripts/references.sh");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "reference failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn tools() -> Vec<ToolDefinition> {
    vec![
        ToolDefinition::new("search", "Search the docs")
            .parameter(ToolParameter::new("query", "string", "What to look for").required())
            .expect("one parameter"),
    ]
}

fn tools_json(tools: &[ToolDefinition]) -> String {
    tools
        .iter()
        .map(|t| {
            serde_json::to_string_pretty(&serde_json::json!({"type": "function", "function": {
                "name": t.name, "description": t.description, "parameters": t.parameters}}))
            .unwrap()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The quick-start turn of the README, fitted for the model `name` with its
/// tokenizer file; returns the messages sent and the library's total.
fn fit(name: &str, file: &str, window: u64) -> (Vec<Message>, u64, u64) {
    let mut profile = ModelRegistry::builtin().get(name).unwrap().clone();
    profile.context_window = window; // as a server's configured context length
    let TokenizerSpec::File { path, .. } = &mut profile.tokenizer else {
        panic!("{name} names a tokenizer file");
    };
    *path = Some(references().join("files").join(file));
    let counter = profile.counter().unwrap();
    assert!(counter.exact.is_some(), "{}", counter.description);
    let budget = PromptBudget::for_profile(&profile)
        .unwrap()
        .build()
        .unwrap();
    let tools = tools();
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
    let hits: Vec<Item> = (0..40)
        .map(|i| {
            Item::builder(format!(
                "Note {i}: {}",
                "a shared borrow ends at its last use. ".repeat(60)
            ))
            .relevance(1.0 - f64::from(i) / 40.0)
            .build()
            .unwrap()
        })
        .collect();
    let summarize = |r: SummaryRequest<'_>| -> Result<String, SummarizerError> {
        Ok(format!("{} earlier messages", r.messages.len()))
    };
    let turn = Turn::new("You are a Rust expert.")
        .tools(&tools)
        .history(&history)
        .documents(&hits);
    let fitted = budget.fit(turn, &summarize).unwrap();
    assert!(
        !fitted.report.documents_left_out.is_empty(),
        "the window constrains the turn"
    );
    assert!(
        fitted
            .documents
            .iter()
            .all(|d| d.content().starts_with("Note"))
    );
    (
        fitted.messages,
        fitted.report.total_tokens,
        profile.output_reserve(),
    )
}

/// A message's text as the templates write it: content, and tool calls as
/// the JSON the model emits.
fn body(message: &Message) -> String {
    let mut text = message.content.clone();
    for call in &message.tool_calls {
        text.push_str(&format!(
            r#"{{"name": "{}", "parameters": {}}}"#,
            call.name, call.arguments
        ));
    }
    text
}

#[test]
fn llama3_profile_fits_the_quick_start_turn_by_the_reference_count() {
    const WINDOW: u64 = 8_192;
    let (messages, total, reserve) = fit("llama-3.1-8b-instruct", "llama3.tiktoken", WINDOW);
    // Llama 3.1's template: BOS, then per message a header, the body and
    // <|eot_id|>; the system prompt carries the knowledge-date lines and,
    // with tools, their JSON; tool results have the role `ipython`.
    let mut text = String::from("<|begin_of_text|>");
    for (i, m) in messages.iter().enumerate() {
        let role = match m.role {
            Role::Tool => "ipython",
            other => other.as_str(),
        };
        let mut content = body(m);
        if i == 0 {
            content = format!(
                "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n{content}\n\nGiven the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\n\n{}",
                tools_json(&tools())
            );
        }
        text.push_str(&format!(
            "<|start_header_id|>{role}<|end_header_id|>\n\n{content}<|eot_id|>"
        ));
    }
    text.push_str("<|start_header_id|>assistant<|end_header_id|>\n\n");
    let specials = [
        "<|begin_of_text|>",
        "<|start_header_id|>",
        "<|end_header_id|>",
        "<|eot_id|>",
    ];
    let reference = reference_count("llama3.tiktoken", &SplitPattern::LLAMA3, &specials, &text);
    assert_fits(reference, total, reserve, WINDOW);
}

#[test]
fn qwen_profile_fits_the_quick_start_turn_by_the_reference_count() {
    const WINDOW: u64 = 8_192;
    let (messages, total, reserve) = fit("qwen2.5-7b-instruct", "qwen.tiktoken", WINDOW);
    // ChatML as Qwen 2.5 writes it: tools in the system message between
    // <tools></tools>, tool results as user messages in <tool_response>.
    let mut text = String::new();
    for (i, m) in messages.iter().enumerate() {
        let (role, mut content) = match m.role {
            Role::Tool => (
                "user",
                format!("<tool_response>\n{}\n</tool_response>", m.content),
            ),
            other => (other.as_str(), body(m)),
        };
        if i == 0 {
            content = format!(
                "{content}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{}\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{{\"name\": <function-name>, \"arguments\": <args-json-object>}}\n</tool_call>",
                tools_json(&tools())
            );
        }
        text.push_str(&format!("<|im_start|>{role}\n{content}<|im_end|>\n"));
    }
    text.push_str("<|im_start|>assistant\n");
    let specials = ["<|im_start|>", "<|im_end|>"];
    let reference = reference_count("qwen.tiktoken", &SplitPattern::QWEN, &specials, &text);
    assert_fits(reference, total, reserve, WINDOW);
}

/// The reference count of what is sent plus the reserve fits the window;
/// the library never counted less than the reference, nor far more.
fn assert_fits(reference: u64, total: u64, reserve: u64, window: u64) {
    assert!(
        reference + reserve <= window,
        "reference {reference} + reserve {reserve} > {window}"
    );
    assert!(
        total >= reference,
        "counted {total} < reference {reference}"
    );
    assert!(
        total <= reference + 300,
        "counted {total}, reference {reference}"
    );
}

#[test]
fn template_framing_counts_match_the_reference() {
    // One message framed by each template, counted piecewise by the
    // library's ChatFormat, equals the reference count of the rendering.
    let llama = ExactCounter::from_file(&references().join("files/llama3.tiktoken"), None).unwrap();
    let format = budget_prompt::chat::ChatTemplate::Llama3.format(&llama);
    let message = Message::user("Hello there, how are you?");
    let text = "<|start_header_id|>user<|end_header_id|>\n\nHello there, how are you?<|eot_id|>";
    let specials = ["<|start_header_id|>", "<|end_header_id|>", "<|eot_id|>"];
    assert_eq!(
        format.message_tokens(&message, &llama),
        reference_count("llama3.tiktoken", &SplitPattern::LLAMA3, &specials, text)
    );
    assert_eq!(llama.count_tokens("\n\n"), 1);

    let qwen = ExactCounter::from_file(&references().join("files/qwen.tiktoken"), None).unwrap();
    let format = budget_prompt::chat::ChatTemplate::ChatMl.format(&qwen);
    let text = "<|im_start|>user\nHello there, how are you?<|im_end|>\n";
    assert_eq!(
        format.message_tokens(&message, &qwen),
        reference_count(
            "qwen.tiktoken",
            &SplitPattern::QWEN,
            &["<|im_start|>", "<|im_end|>"],
            text
        )
    );
    let priming = "<|im_start|>assistant\n";
    assert_eq!(
        format.reply_priming,
        reference_count(
            "qwen.tiktoken",
            &SplitPattern::QWEN,
            &["<|im_start|>"],
            priming
        )
    );
}

#[test]
fn mistral_requests_are_never_undercounted_against_mistral_common() {
    // mistral-common renders and tokenizes the request (its v3 tekken
    // template folds the system prompt into the last user message).
    let script = r#"
import sys
from mistral_common.tokens.tokenizers.mistral import MistralTokenizer
from mistral_common.protocol.instruct.messages import UserMessage, AssistantMessage, SystemMessage
from mistral_common.protocol.instruct.request import ChatCompletionRequest
tok = MistralTokenizer.from_file(sys.argv[1])
req = ChatCompletionRequest(messages=[SystemMessage(content=sys.argv[2]), UserMessage(content=sys.argv[3]),
                                      AssistantMessage(content=sys.argv[4]), UserMessage(content=sys.argv[5])])
print(len(tok.encode_chat_completion(req).tokens))
"#;
    let texts = [
        "You are a Rust expert.",
        "Why does `cargo build` fail with E0502?",
        "Because a shared borrow is still alive when you push.",
        "Как это исправить? 修复方法是什么？",
    ];
    let file = references().join("files/tekken_240911.json");
    let out = Command::new(references().join("venv/bin/python"))
        .args(["-c", script, file.to_str().unwrap()])
        .args(texts)
        .output()
        .expect("the reference Python of scripts/references.sh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reference: u64 = String::from_utf8(out.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap();

    let tekken = ExactCounter::from_file(&file, None).unwrap();
    let format = budget_prompt::chat::ChatTemplate::Mistral.format(&tekken);
    let messages = [
        Message::system(texts[0]),
        Message::user(texts[1]),
        Message::assistant(texts[2]),
        Message::user(texts[3]),
    ];
    let ours = format.request_tokens(&messages, &[], &tekken);
    assert!(ours >= reference, "ours {ours} < reference {reference}");
    assert!(ours <= reference + 8, "ours {ours}, reference {reference}");
}
