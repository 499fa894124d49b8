//! The conversation model compaction works on: [`Message`], [`Role`] and
//! [`ToolCall`].

use budget_runtime::estimate::count_chars;

/// Who wrote a [`Message`].
///
/// ```
/// use budget::chat::Role;
/// assert_eq!(Role::Tool.as_str(), "tool");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Role {
    /// Instructions from the application (system prompt).
    System,
    /// The human (or the application speaking for them).
    User,
    /// The model.
    Assistant,
    /// The result of a tool call; refers to the call by its id.
    Tool,
}

impl Role {
    /// The lowercase name used by chat APIs: `system`, `user`, `assistant`, `tool`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::System => "system",
            Self::User => "user",
            Self::Assistant => "assistant",
            Self::Tool => "tool",
        }
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A tool invocation requested by an assistant message. Its result is a
/// later [`Role::Tool`] message whose `tool_call_id` equals `id`.
///
/// ```
/// use budget::chat::ToolCall;
/// let call = ToolCall::new("call_1", "read_file", r#"{"path":"src/lib.rs"}"#);
/// assert_eq!(call.name, "read_file");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(from = "wire::WireToolCall", into = "wire::WireToolCall")
)]
pub struct ToolCall {
    /// The id tool results refer to.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The arguments, as the model wrote them (usually JSON text).
    pub arguments: String,
}

impl ToolCall {
    /// A call of tool `name` with `arguments`, identified by `id`.
    pub fn new(
        id: impl Into<String>,
        name: impl Into<String>,
        arguments: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            name: name.into(),
            arguments: arguments.into(),
        }
    }
}

/// First line of every summary message: marks it as reference material.
///
/// ```
/// assert!(budget::chat::SUMMARY_HEADER.starts_with("[Summary"));
/// ```
pub const SUMMARY_HEADER: &str = "[Summary of the earlier conversation, compacted to save context. \
Reference only: it records what happened, it gives no new instructions.]\n";

/// One message of a conversation.
///
/// With the `serde` feature it reads and writes OpenAI's chat wire format:
/// `{"role", "content", "name", "tool_calls": [{"id", "type": "function",
/// "function": {"name", "arguments"}}], "tool_call_id"}`. Content may be
/// read as a string, `null` (empty) or a list of text parts (joined); a part
/// of another type (an image, audio) and an unknown field are errors, so no
/// part of a request is lost silently. An assistant message with tool calls
/// and no text is written with `"content": null`.
///
/// * `tool_calls` is used by [`Role::Assistant`] messages that invoke tools.
/// * `tool_call_id` is set on [`Role::Tool`] messages: the id of the call
///   they answer.
/// * `reference_only` marks a summary produced by compaction: background
///   for the model, not a new instruction. The next compaction passes it to
///   the summarizer as the previous summary.
///
/// ```
/// use budget::chat::{Message, Role, ToolCall};
///
/// let call = Message::assistant_with_tool_calls("", vec![ToolCall::new("c1", "ls", "{}")]);
/// let result = Message::tool_result("c1", "Cargo.toml\nsrc/");
/// assert_eq!(result.role, Role::Tool);
/// assert_eq!(result.tool_call_id.as_deref(), Some("c1"));
/// assert_eq!(call.tool_calls[0].id, "c1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// Its text.
    pub content: String,
    /// Tool calls requested by an assistant message (empty otherwise).
    pub tool_calls: Vec<ToolCall>,
    /// The author's name, for APIs that distinguish participants of one
    /// role (OpenAI's `name` field); counted by the chat format.
    pub name: Option<String>,
    /// For a tool result: the id of the call it answers.
    pub tool_call_id: Option<String>,
    /// True for a compaction summary: reference material, not an
    /// instruction. Not part of the wire format: a message read from JSON
    /// is reference-only when its content starts with [`SUMMARY_HEADER`],
    /// as every summary the compactor writes does.
    pub reference_only: bool,
}

impl Message {
    /// A message of `role` with `content` and nothing else.
    ///
    /// ```
    /// use budget::chat::{Message, Role};
    /// assert_eq!(Message::new(Role::User, "hi"), Message::user("hi"));
    /// ```
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Self {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            name: None,
            tool_call_id: None,
            reference_only: false,
        }
    }

    /// A system message.
    pub fn system(content: impl Into<String>) -> Self {
        Self::new(Role::System, content)
    }

    /// A user message.
    pub fn user(content: impl Into<String>) -> Self {
        Self::new(Role::User, content)
    }

    /// An assistant message without tool calls.
    pub fn assistant(content: impl Into<String>) -> Self {
        Self::new(Role::Assistant, content)
    }

    /// An assistant message that requests `tool_calls`.
    pub fn assistant_with_tool_calls(
        content: impl Into<String>,
        tool_calls: Vec<ToolCall>,
    ) -> Self {
        Self {
            tool_calls,
            ..Self::new(Role::Assistant, content)
        }
    }

    /// The result of the tool call `call_id`.
    pub fn tool_result(call_id: impl Into<String>, content: impl Into<String>) -> Self {
        Self {
            tool_call_id: Some(call_id.into()),
            ..Self::new(Role::Tool, content)
        }
    }

    /// This message with the author name `name`.
    ///
    /// ```
    /// use budget::chat::Message;
    /// let m = Message::system("New synergies.").with_name("example_user");
    /// assert_eq!(m.name.as_deref(), Some("example_user"));
    /// ```
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// This message marked (or unmarked) as reference-only.
    ///
    /// ```
    /// use budget::chat::Message;
    /// assert!(Message::user("summary").with_reference_only(true).reference_only);
    /// ```
    #[must_use]
    pub fn with_reference_only(mut self, reference_only: bool) -> Self {
        self.reference_only = reference_only;
        self
    }

    /// Test helper: an assistant message calling tool `t` once per id.
    #[cfg(test)]
    pub(crate) fn calling(ids: &[&str]) -> Self {
        Self::assistant_with_tool_calls(
            "",
            ids.iter().map(|id| ToolCall::new(*id, "t", "{}")).collect(),
        )
    }

    /// Characters (Unicode scalar values) the message puts in front of the
    /// model: its content plus, for every tool call, the tool name and the
    /// arguments. Ids and role markers are covered by the per-message
    /// overhead of a [`Compactor`](crate::compact::Compactor).
    ///
    /// ```
    /// use budget::chat::{Message, ToolCall};
    /// let m = Message::assistant_with_tool_calls("ok", vec![ToolCall::new("id", "ls", "{}")]);
    /// assert_eq!(m.char_count(), 2 + 2 + 2);
    /// ```
    pub fn char_count(&self) -> u64 {
        self.tool_calls
            .iter()
            .fold(count_chars(&self.content), |sum, call| {
                sum.saturating_add(count_chars(&call.name))
                    .saturating_add(count_chars(&call.arguments))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_count_covers_content_names_and_arguments() {
        let m = Message::assistant_with_tool_calls(
            "héllo",
            vec![
                ToolCall::new("a", "read", "{\"p\":1}"),
                ToolCall::new("b", "ls", ""),
            ],
        );
        // 5 + (4 + 7) + (2 + 0)
        assert_eq!(m.char_count(), 18);
        assert_eq!(Message::tool_result("a", "xyz").char_count(), 3);
    }

    #[test]
    fn constructors_set_roles_and_ids() {
        assert_eq!(Message::system("s").role, Role::System);
        assert_eq!(Message::assistant("a").role, Role::Assistant);
        let r = Message::tool_result("id9", "out");
        assert_eq!(
            (r.role, r.tool_call_id.as_deref()),
            (Role::Tool, Some("id9"))
        );
        assert!(!r.reference_only);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_uses_lowercase_roles_and_omits_empty_fields() {
        let json = serde_json_like(&Message::user("hi"));
        assert_eq!(
            json,
            r#"role = "user"
content = "hi"
"#
        );
    }

    #[cfg(feature = "serde")]
    fn serde_json_like(m: &Message) -> String {
        toml::to_string(m).expect("message serializes")
    }
}

#[cfg(feature = "serde")]
mod wire {
    //! OpenAI's chat wire format of messages and tool calls.

    use serde::{Deserialize, Serialize};

    use super::{Message, Role, SUMMARY_HEADER, ToolCall};
    use crate::chat::wire::FunctionType;

    /// A tool call as a request writes it.
    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub(super) struct WireToolCall {
        id: String,
        #[serde(rename = "type")]
        kind: FunctionType,
        function: WireFunctionCall,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct WireFunctionCall {
        name: String,
        arguments: String,
    }

    impl From<WireToolCall> for ToolCall {
        fn from(call: WireToolCall) -> Self {
            Self::new(call.id, call.function.name, call.function.arguments)
        }
    }

    impl From<ToolCall> for WireToolCall {
        fn from(call: ToolCall) -> Self {
            Self {
                id: call.id,
                kind: FunctionType::Function,
                function: WireFunctionCall {
                    name: call.name,
                    arguments: call.arguments,
                },
            }
        }
    }

    /// A message as a request writes it.
    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct WireMessage {
        role: Role,
        #[serde(default)]
        content: Option<Content>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_call_id: Option<String>,
    }

    /// Message content: a string or a list of parts.
    #[derive(Serialize, Deserialize)]
    #[serde(untagged)]
    enum Content {
        Text(String),
        Parts(Vec<Part>),
    }

    /// One content part; only text parts are read.
    #[derive(Serialize, Deserialize)]
    struct Part {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        text: Option<String>,
    }

    impl Serialize for Message {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let no_text = self.content.is_empty() && !self.tool_calls.is_empty();
            WireMessage {
                role: self.role,
                content: (!no_text).then(|| Content::Text(self.content.clone())),
                name: self.name.clone(),
                tool_calls: self.tool_calls.clone(),
                tool_call_id: self.tool_call_id.clone(),
            }
            .serialize(serializer)
        }
    }

    impl<'de> Deserialize<'de> for Message {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let wire = WireMessage::deserialize(deserializer)?;
            let content = match wire.content {
                None => String::new(),
                Some(Content::Text(text)) => text,
                Some(Content::Parts(parts)) => {
                    let mut text = String::new();
                    for part in parts {
                        match (part.kind.as_str(), part.text) {
                            ("text", Some(part)) => text.push_str(&part),
                            (kind, _) => {
                                return Err(serde::de::Error::custom(format_args!(
                                    "a {} message has a content part of type `{kind}`: only text parts can be counted",
                                    wire.role
                                )));
                            }
                        }
                    }
                    text
                }
            };
            Ok(Self {
                role: wire.role,
                reference_only: content.starts_with(SUMMARY_HEADER),
                content,
                tool_calls: wire.tool_calls,
                name: wire.name,
                tool_call_id: wire.tool_call_id,
            })
        }
    }
}
