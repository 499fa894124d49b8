//! Conversions between our [`Message`]s and [`ToolDefinition`]s and the
//! chat request types of the `async-openai` crate (feature `async-openai`),
//! so an `async-openai` request can be counted, compacted and fitted
//! directly.
//!
//! ```
//! use async_openai::types::chat::{
//!     ChatCompletionRequestMessage, ChatCompletionRequestSystemMessage, ChatCompletionRequestUserMessage,
//!     CreateChatCompletionRequest,
//! };
//! use budget::compact::SummaryRequest;
//! use budget::integrations::async_openai::{Conversation, to_request_messages};
//! use budget::prompt::PromptBudget;
//! use budget::chat::ChatFormat;
//! use budget::{compact::SummarizerError, estimate::{Encoding, RatioEstimator}};
//!
//! let mut request = CreateChatCompletionRequest {
//!     model: "gpt-4o".into(),
//!     messages: vec![
//!         ChatCompletionRequestMessage::System(ChatCompletionRequestSystemMessage::from("Be brief.")),
//!         ChatCompletionRequestMessage::User(ChatCompletionRequestUserMessage::from("What is a borrow?")),
//!     ],
//!     ..Default::default()
//! };
//! let conversation = Conversation::from_request(&request)?;
//! // count it
//! let tokens = ChatFormat::openai(Encoding::O200kBase).request_tokens(&conversation.messages, &conversation.tools, &RatioEstimator);
//! assert!(tokens > 10);
//! // fit it and send what fits
//! let none = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok(String::new()) };
//! let fitted = PromptBudget::builder(8_192).build()?.fit(conversation.turn(), &none)?;
//! request.messages = to_request_messages(&fitted.messages)?;
//! assert_eq!(request.messages.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use ::async_openai::types::chat::{
    ChatCompletionMessageToolCall, ChatCompletionMessageToolCalls,
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestAssistantMessageContent,
    ChatCompletionRequestAssistantMessageContentPart, ChatCompletionRequestDeveloperMessageContent,
    ChatCompletionRequestDeveloperMessageContentPart, ChatCompletionRequestMessage,
    ChatCompletionRequestSystemMessage, ChatCompletionRequestSystemMessageContent,
    ChatCompletionRequestSystemMessageContentPart, ChatCompletionRequestToolMessage,
    ChatCompletionRequestToolMessageContent, ChatCompletionRequestToolMessageContentPart,
    ChatCompletionRequestUserMessage, ChatCompletionRequestUserMessageContent,
    ChatCompletionRequestUserMessageContentPart, ChatCompletionTool, ChatCompletionTools,
    CreateChatCompletionRequest, FunctionCall, FunctionObject,
};
use serde_json::Value;
use thiserror::Error;

use budget_prompt::chat::{Message, Role, ToolCall, ToolDefinition};
use budget_prompt::prompt::Turn;

/// A part of an `async-openai` request that has no counterpart here, so
/// converting it would lose what the model sees.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AsyncOpenAiError {
    /// A content part other than text (image, audio, file) in message
    /// `index`.
    #[error("message {index} ({role}) has {part} content; only text can be counted")]
    NonTextContent {
        /// Position of the message in the request.
        index: usize,
        /// Its role.
        role: &'static str,
        /// The kind of part.
        part: &'static str,
    },
    /// A field this crate does not model, in message `index`.
    #[error("message {index} ({role}) sets `{field}`, which cannot be converted")]
    UnsupportedField {
        /// Position of the message in the request.
        index: usize,
        /// Its role.
        role: &'static str,
        /// The field.
        field: &'static str,
    },
    /// A tool result (message `index`) without the id of the call it
    /// answers.
    #[error(
        "message {index} (tool) has no tool_call_id: a chat API rejects a tool result that answers no call"
    )]
    MissingToolCallId {
        /// Position of the message.
        index: usize,
    },
    /// A custom (non-function) tool, at position `index` of the tools.
    #[error("tool {index} is a custom tool; only function tools can be counted")]
    CustomTool {
        /// Position of the tool in the request.
        index: usize,
    },
}

/// The messages and tools of an `async-openai` request, converted.
///
/// Developer messages become [`Role::System`] messages (the role OpenAI
/// treats them as); everything else keeps its role, name, tool calls and
/// call ids. Text content parts are joined with no separator.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Conversation {
    /// The messages, in order.
    pub messages: Vec<Message>,
    /// The function tools.
    pub tools: Vec<ToolDefinition>,
}

impl Conversation {
    /// The messages and tools of `request`.
    ///
    /// # Errors
    /// [`AsyncOpenAiError`] for content or fields that cannot be converted
    /// without loss (images, audio, files, refusals, function messages,
    /// custom tools).
    pub fn from_request(request: &CreateChatCompletionRequest) -> Result<Self, AsyncOpenAiError> {
        let messages = request
            .messages
            .iter()
            .enumerate()
            .map(|(index, m)| from_request_message(index, m))
            .collect::<Result<_, _>>()?;
        let tools = request
            .tools
            .iter()
            .flatten()
            .enumerate()
            .map(|(index, tool)| match tool {
                ChatCompletionTools::Function(f) => Ok(tool_definition(&f.function)),
                ChatCompletionTools::Custom(_) => Err(AsyncOpenAiError::CustomTool { index }),
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { messages, tools })
    }

    /// A [`Turn`] of this conversation: a leading system message (if any)
    /// as the system prompt, the rest as history, and the tools.
    pub fn turn(&self) -> Turn<'_> {
        let (system, history) = match self.messages.split_first() {
            Some((first, rest)) if first.role == Role::System && first.name.is_none() => {
                (first.content.as_str(), rest)
            }
            _ => ("", self.messages.as_slice()),
        };
        Turn::new(system).history(history).tools(&self.tools)
    }
}

/// `messages` as `async-openai` request messages: roles, text, names,
/// tool calls and call ids, nothing dropped.
///
/// # Errors
/// [`AsyncOpenAiError::UnsupportedField`] for a message that sets what its
/// role cannot carry in a request (a tool message's `name`, tool calls on
/// anything but an assistant message, a call id on anything but a tool
/// message), and [`AsyncOpenAiError::MissingToolCallId`] for a tool result
/// without the id of its call: `async-openai` would send it, and the API
/// reject it.
pub fn to_request_messages(
    messages: &[Message],
) -> Result<Vec<ChatCompletionRequestMessage>, AsyncOpenAiError> {
    messages
        .iter()
        .enumerate()
        .map(|(index, m)| request_message(index, m))
        .collect()
}

/// `tools` as `async-openai` function tools, each with its parameter schema
/// as given.
pub fn to_request_tools(tools: &[ToolDefinition]) -> Vec<ChatCompletionTools> {
    tools.iter().map(request_tool).collect()
}

/// Message `index` as an `async-openai` request message.
fn request_message(
    index: usize,
    m: &Message,
) -> Result<ChatCompletionRequestMessage, AsyncOpenAiError> {
    use ChatCompletionRequestMessage as M;
    let unsupported = |field: &'static str| AsyncOpenAiError::UnsupportedField {
        index,
        role: m.role.as_str(),
        field,
    };
    if m.role != Role::Assistant && !m.tool_calls.is_empty() {
        return Err(unsupported("tool_calls"));
    }
    if m.role != Role::Tool && m.tool_call_id.is_some() {
        return Err(unsupported("tool_call_id"));
    }
    let text = m.content.clone();
    Ok(match m.role {
        Role::System => M::System(ChatCompletionRequestSystemMessage {
            content: ChatCompletionRequestSystemMessageContent::Text(text),
            name: m.name.clone(),
        }),
        Role::User => M::User(ChatCompletionRequestUserMessage {
            content: ChatCompletionRequestUserMessageContent::Text(text),
            name: m.name.clone(),
        }),
        Role::Assistant => {
            let tool_calls: Vec<ChatCompletionMessageToolCalls> = m
                .tool_calls
                .iter()
                .map(|call| {
                    ChatCompletionMessageToolCalls::Function(ChatCompletionMessageToolCall {
                        id: call.id.clone(),
                        function: FunctionCall {
                            name: call.name.clone(),
                            arguments: call.arguments.clone(),
                        },
                    })
                })
                .collect();
            M::Assistant(ChatCompletionRequestAssistantMessage {
                content: (!text.is_empty() || tool_calls.is_empty())
                    .then_some(ChatCompletionRequestAssistantMessageContent::Text(text)),
                name: m.name.clone(),
                tool_calls: (!tool_calls.is_empty()).then_some(tool_calls),
                ..Default::default()
            })
        }
        Role::Tool => {
            if m.name.is_some() {
                return Err(unsupported("name"));
            }
            let tool_call_id = m
                .tool_call_id
                .clone()
                .ok_or(AsyncOpenAiError::MissingToolCallId { index })?;
            M::Tool(ChatCompletionRequestToolMessage {
                content: ChatCompletionRequestToolMessageContent::Text(text),
                tool_call_id,
            })
        }
        // A role this conversion does not know yet.
        _ => return Err(unsupported("role")),
    })
}

/// A tool definition as an `async-openai` function tool.
fn request_tool(tool: &ToolDefinition) -> ChatCompletionTools {
    ChatCompletionTools::Function(ChatCompletionTool {
        function: FunctionObject {
            name: tool.name.clone(),
            description: (!tool.description.is_empty()).then(|| tool.description.clone()),
            parameters: (!tool.parameters.is_null()).then(|| tool.parameters.clone()),
            strict: tool.strict,
        },
    })
}

/// A function tool's definition, its parameter schema kept whole.
fn tool_definition(function: &FunctionObject) -> ToolDefinition {
    let mut tool = ToolDefinition::new(
        function.name.clone(),
        function.description.clone().unwrap_or_default(),
    )
    .with_parameters(function.parameters.clone().unwrap_or(Value::Null));
    tool.strict = function.strict;
    tool
}

/// Message `index` of a request, converted.
fn from_request_message(
    index: usize,
    message: &ChatCompletionRequestMessage,
) -> Result<Message, AsyncOpenAiError> {
    use ChatCompletionRequestMessage as M;
    let non_text = |role: &'static str, part: &'static str| AsyncOpenAiError::NonTextContent {
        index,
        role,
        part,
    };
    let unsupported = |role: &'static str, field: &'static str| {
        AsyncOpenAiError::UnsupportedField { index, role, field }
    };
    let named = |m: Message, name: &Option<String>| match name {
        Some(name) => m.with_name(name.clone()),
        None => m,
    };
    Ok(match message {
        M::Developer(m) => {
            let text = match &m.content {
                ChatCompletionRequestDeveloperMessageContent::Text(t) => t.clone(),
                ChatCompletionRequestDeveloperMessageContent::Array(parts) => parts
                    .iter()
                    .map(
                        |ChatCompletionRequestDeveloperMessageContentPart::Text(p)| p.text.as_str(),
                    )
                    .collect(),
            };
            named(Message::system(text), &m.name)
        }
        M::System(m) => {
            let text = match &m.content {
                ChatCompletionRequestSystemMessageContent::Text(t) => t.clone(),
                ChatCompletionRequestSystemMessageContent::Array(parts) => parts
                    .iter()
                    .map(|ChatCompletionRequestSystemMessageContentPart::Text(p)| p.text.as_str())
                    .collect(),
            };
            named(Message::system(text), &m.name)
        }
        M::User(m) => {
            let text = match &m.content {
                ChatCompletionRequestUserMessageContent::Text(t) => t.clone(),
                ChatCompletionRequestUserMessageContent::Array(parts) => {
                    let mut text = String::new();
                    for part in parts {
                        match part {
                            ChatCompletionRequestUserMessageContentPart::Text(p) => {
                                text.push_str(&p.text);
                            }
                            ChatCompletionRequestUserMessageContentPart::ImageUrl(_) => {
                                return Err(non_text("user", "image"));
                            }
                            ChatCompletionRequestUserMessageContentPart::InputAudio(_) => {
                                return Err(non_text("user", "audio"));
                            }
                            ChatCompletionRequestUserMessageContentPart::File(_) => {
                                return Err(non_text("user", "file"));
                            }
                        }
                    }
                    text
                }
            };
            named(Message::user(text), &m.name)
        }
        M::Assistant(m) => {
            if m.refusal.is_some() {
                return Err(unsupported("assistant", "refusal"));
            }
            if m.audio.is_some() {
                return Err(unsupported("assistant", "audio"));
            }
            if uses_function_call(m) {
                return Err(unsupported("assistant", "function_call"));
            }
            let text = match &m.content {
                None => String::new(),
                Some(ChatCompletionRequestAssistantMessageContent::Text(t)) => t.clone(),
                Some(ChatCompletionRequestAssistantMessageContent::Array(parts)) => {
                    let mut text = String::new();
                    for part in parts {
                        match part {
                            ChatCompletionRequestAssistantMessageContentPart::Text(p) => {
                                text.push_str(&p.text);
                            }
                            ChatCompletionRequestAssistantMessageContentPart::Refusal(_) => {
                                return Err(unsupported("assistant", "refusal"));
                            }
                        }
                    }
                    text
                }
            };
            let mut calls = Vec::new();
            for call in m.tool_calls.iter().flatten() {
                match call {
                    ChatCompletionMessageToolCalls::Function(f) => calls.push(ToolCall::new(
                        f.id.clone(),
                        f.function.name.clone(),
                        f.function.arguments.clone(),
                    )),
                    ChatCompletionMessageToolCalls::Custom(_) => {
                        return Err(unsupported("assistant", "custom tool call"));
                    }
                }
            }
            named(Message::assistant_with_tool_calls(text, calls), &m.name)
        }
        M::Tool(m) => {
            let text = match &m.content {
                ChatCompletionRequestToolMessageContent::Text(t) => t.clone(),
                ChatCompletionRequestToolMessageContent::Array(parts) => parts
                    .iter()
                    .map(|ChatCompletionRequestToolMessageContentPart::Text(p)| p.text.as_str())
                    .collect(),
            };
            Message::tool_result(m.tool_call_id.clone(), text)
        }
        M::Function(_) => return Err(unsupported("function", "role function")),
    })
}

/// Whether the deprecated `function_call` field is set.
#[expect(deprecated, reason = "a set legacy field must be refused, not dropped")]
fn uses_function_call(message: &ChatCompletionRequestAssistantMessage) -> bool {
    message.function_call.is_some()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use budget_prompt::chat::ToolParameter;

    fn weather() -> ToolDefinition {
        ToolDefinition::new("get_current_weather", "Get the current weather")
            .parameter(ToolParameter::new("location", "string", "The city").required())
            .and_then(|tool| {
                tool.parameter(
                    ToolParameter::new("unit", "string", "The unit")
                        .with_enum(["celsius", "fahrenheit"]),
                )
            })
            .expect("distinct parameter names")
    }

    #[test]
    fn messages_round_trip_with_names_calls_and_ids() {
        let messages = vec![
            Message::system("s").with_name("rules"),
            Message::user("u").with_name("ann"),
            Message::assistant_with_tool_calls(
                "",
                vec![
                    ToolCall::new("c1", "ls", "{}"),
                    ToolCall::new("c2", "cat", "{\"p\":1}"),
                ],
            ),
            Message::tool_result("c1", "a b"),
            Message::tool_result("c2", "x"),
            Message::assistant("done"),
        ];
        let request = CreateChatCompletionRequest {
            messages: to_request_messages(&messages).unwrap(),
            tools: Some(to_request_tools(&[weather()])),
            ..Default::default()
        };
        let back = Conversation::from_request(&request).unwrap();
        assert_eq!(back.messages, messages);
        assert_eq!(back.tools, [weather()]);
    }

    #[test]
    fn the_tool_schema_is_a_json_object_schema() {
        let ChatCompletionTools::Function(tool) = request_tool(&weather()) else {
            panic!("a function tool")
        };
        assert_eq!(
            tool.function.parameters.unwrap(),
            json!({
                "type": "object",
                "properties": {
                    "location": {"type": "string", "description": "The city"},
                    "unit": {"type": "string", "description": "The unit", "enum": ["celsius", "fahrenheit"]},
                },
                "required": ["location"],
            })
        );
    }

    #[test]
    fn images_and_refusals_are_errors_not_silent_losses() {
        let image: ChatCompletionRequestMessage = serde_json::from_value(json!({
            "role": "user",
            "content": [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": {"url": "https://x/y.png"}}],
        }))
        .unwrap();
        let refusal: ChatCompletionRequestMessage = serde_json::from_value(json!({
            "role": "assistant", "refusal": "no",
        }))
        .unwrap();
        let request = CreateChatCompletionRequest {
            messages: vec![request_message(0, &Message::user("hi")).unwrap(), image],
            ..Default::default()
        };
        assert_eq!(
            Conversation::from_request(&request)
                .unwrap_err()
                .to_string(),
            "message 1 (user) has image content; only text can be counted"
        );
        let request = CreateChatCompletionRequest {
            messages: vec![refusal],
            ..Default::default()
        };
        assert_eq!(
            Conversation::from_request(&request),
            Err(AsyncOpenAiError::UnsupportedField {
                index: 0,
                role: "assistant",
                field: "refusal"
            })
        );
    }

    #[test]
    fn the_leading_system_message_is_the_turns_system_prompt() {
        let conversation = Conversation {
            messages: vec![Message::system("be brief"), Message::user("hi")],
            tools: vec![weather()],
        };
        let turn = conversation.turn();
        assert_eq!(turn.system, "be brief");
        assert_eq!(turn.history, [Message::user("hi")]);
        assert_eq!(turn.tools.len(), 1);
    }

    /// What a request cannot carry is refused with the message and field,
    /// never sent altered (a tool message's name dropped, a missing call id
    /// sent as "").
    #[test]
    fn messages_a_request_cannot_carry_are_errors() {
        let mut with_calls = Message::system("s");
        with_calls.tool_calls.push(ToolCall::new("c", "f", "{}"));
        let mut user_with_id = Message::user("u");
        user_with_id.tool_call_id = Some("c".into());
        let mut no_id = Message::tool_result("c", "r");
        no_id.tool_call_id = None;
        let cases = [
            (
                Message::tool_result("c", "r").with_name("ls"),
                "message 1 (tool) sets `name`, which cannot be converted",
            ),
            (
                with_calls,
                "message 1 (system) sets `tool_calls`, which cannot be converted",
            ),
            (
                user_with_id,
                "message 1 (user) sets `tool_call_id`, which cannot be converted",
            ),
            (
                no_id,
                "message 1 (tool) has no tool_call_id: a chat API rejects a tool result that answers no call",
            ),
        ];
        for (message, expected) in cases {
            let error = to_request_messages(&[Message::user("first"), message]).unwrap_err();
            assert_eq!(error.to_string(), expected);
        }
    }

    /// Nested schemas (array `items`, `$defs`) and `strict` reach the
    /// request as given.
    #[test]
    fn nested_tool_schemas_survive_the_round_trip() {
        let mut edit = ToolDefinition::new("edit", "Apply edits.").with_parameters(json!({
            "type": "object",
            "properties": {"edits": {"type": "array", "items": {"$ref": "#/$defs/edit"}}},
            "$defs": {"edit": {"type": "object", "properties": {"line": {"type": "integer"}}}},
        }));
        edit.strict = Some(true);
        let request = CreateChatCompletionRequest {
            tools: Some(to_request_tools(std::slice::from_ref(&edit))),
            ..Default::default()
        };
        assert_eq!(Conversation::from_request(&request).unwrap().tools, [edit]);
    }
}
