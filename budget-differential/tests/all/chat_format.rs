//! The chat format against the OpenAI cookbook's published numbers and
//! against `tiktoken-rs`'s `num_tokens_from_messages` (feature `tiktoken`).

use budget_prompt::chat::{ChatFormat, ToolDefinition, ToolParameter};
use budget_prompt::chat::{Message, ToolCall};
use budget_runtime::estimate::{Encoding, ExactCounter};
use proptest::prelude::*;

/// The cookbook's section 6 example conversation.
fn cookbook_messages() -> Vec<Message> {
    vec![
        Message::system(
            "You are a helpful, pattern-following assistant that translates corporate jargon into plain English.",
        ),
        Message::system("New synergies will help drive top-line growth.").with_name("example_user"),
        Message::system("Things working well together will increase revenue.")
            .with_name("example_assistant"),
        Message::system(
            "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
        )
        .with_name("example_user"),
        Message::system("Let's talk later when we're less busy about how to do better.")
            .with_name("example_assistant"),
        Message::user(
            "This late pivot means we don't have time to boil the ocean for the client deliverable.",
        ),
    ]
}

fn count(encoding: Encoding, messages: &[Message], tools: &[ToolDefinition]) -> u64 {
    let counter = ExactCounter::new(encoding).unwrap();
    ChatFormat::openai(encoding).request_tokens(messages, tools, &counter)
}

/// Section 6: 129 prompt tokens on gpt-3.5-turbo and gpt-4 (cl100k_base),
/// 124 on gpt-4o and gpt-4o-mini (o200k_base), as counted by the API.
#[test]
fn cookbook_messages_example() {
    let messages = cookbook_messages();
    assert_eq!(count(Encoding::Cl100kBase, &messages, &[]), 129);
    assert_eq!(count(Encoding::O200kBase, &messages, &[]), 124);
}

/// Section 7: the weather tool with a system and a user message: 105 prompt
/// tokens on gpt-3.5-turbo and gpt-4, 101 on gpt-4o and gpt-4o-mini.
#[test]
fn cookbook_tools_example() {
    let weather = ToolDefinition::new(
        "get_current_weather",
        "Get the current weather in a given location",
    )
    .parameter(
        ToolParameter::new(
            "location",
            "string",
            "The city and state, e.g. San Francisco, CA",
        )
        .required(),
    )
    .and_then(|tool| {
        tool.parameter(
            ToolParameter::new("unit", "string", "The unit of temperature to return")
                .with_enum(["celsius", "fahrenheit"]),
        )
    })
    .expect("distinct parameter names");
    let messages = [
        Message::system(
            "You are a helpful assistant that can answer to questions about the weather.",
        ),
        Message::user("What's the weather like in San Francisco?"),
    ];
    let tools = [weather];
    assert_eq!(count(Encoding::Cl100kBase, &messages, &tools), 105);
    assert_eq!(count(Encoding::O200kBase, &messages, &tools), 101);
}

/// The messages counted by `tiktoken-rs` with the OpenAI cookbook's rules.
pub(crate) fn reference(model: &str, messages: &[Message]) -> u64 {
    let converted: Vec<tiktoken_rs::ChatCompletionRequestMessage> = messages
        .iter()
        .map(|m| tiktoken_rs::ChatCompletionRequestMessage {
            role: m.role.as_str().to_owned(),
            content: Some(m.content.clone()),
            // tiktoken-rs counts a tool result's call id as its name
            name: m.name.clone().or_else(|| m.tool_call_id.clone()),
            function_call: None,
            tool_calls: m
                .tool_calls
                .iter()
                .map(|c| tiktoken_rs::FunctionCall {
                    name: c.name.clone(),
                    arguments: c.arguments.clone(),
                })
                .collect(),
            refusal: None,
        })
        .collect();
    tiktoken_rs::num_tokens_from_messages(model, &converted).unwrap() as u64
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 ,.!?']{0,60}",
        "[\\p{Han}\\p{Hiragana}\\p{Cyrillic} ]{0,30}",
        "\\{\"[a-z]{1,8}\": ?\"[a-z/._]{0,20}\"\\}",
    ]
}

fn message() -> impl Strategy<Value = Message> {
    (0u8..5, text(), text(), "[a-z_]{1,12}", "call_[a-z0-9]{4,8}").prop_map(
        |(shape, content, arguments, name, id)| match shape {
            0 => Message::system(content),
            1 => Message::user(content).with_name(name),
            2 => Message::assistant(content),
            3 => Message::assistant_with_tool_calls(
                content,
                vec![
                    ToolCall::new(id.clone(), name.clone(), arguments.clone()),
                    ToolCall::new(id, name, arguments),
                ],
            ),
            _ => Message::tool_result(id, content),
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Counting a request without tools with the exact counter equals
    /// `tiktoken_rs::num_tokens_from_messages` for gpt-4o (o200k_base) and
    /// gpt-4 (cl100k_base).
    #[test]
    fn request_count_equals_tiktoken_rs(messages in prop::collection::vec(message(), 0..12)) {
        prop_assert_eq!(count(Encoding::O200kBase, &messages, &[]), reference("gpt-4o", &messages));
        prop_assert_eq!(count(Encoding::Cl100kBase, &messages, &[]), reference("gpt-4", &messages));
    }
}

/// The cookbook's section 7 request, as `async-openai` would send it (its
/// JSON), converted and counted: 101 tokens on gpt-4o, as the API reported.
#[test]
fn cookbook_tools_example_through_async_openai() {
    use budget_integrations::async_openai::Conversation;
    let request: async_openai::types::chat::CreateChatCompletionRequest =
        serde_json::from_value(serde_json::json!({
            "model": "gpt-4o",
            "messages": [
                {"role": "system", "content": "You are a helpful assistant that can answer to questions about the weather."},
                {"role": "user", "content": "What's the weather like in San Francisco?"}
            ],
            "tools": [{
                "type": "function",
                "function": {
                    "name": "get_current_weather",
                    "description": "Get the current weather in a given location",
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"},
                            "unit": {"type": "string", "description": "The unit of temperature to return", "enum": ["celsius", "fahrenheit"]}
                        },
                        "required": ["location"]
                    }
                }
            }]
        }))
        .unwrap();
    let conversation = Conversation::from_request(&request).unwrap();
    assert_eq!(
        count(
            Encoding::O200kBase,
            &conversation.messages,
            &conversation.tools
        ),
        101
    );
}
