//! [`ChatFormat`]: what a chat request costs beyond the text of its
//! messages: per-message framing, names, reply priming, tool calls and tool
//! definitions.

use crate::chat::{Message, ToolDefinition};
use budget_runtime::estimate::ContentType;
use budget_runtime::estimate::{Encoding, Estimator};

/// Tokens a chat format adds for tool (function) definitions, per the OpenAI
/// cookbook ("How to count tokens with tiktoken", section 7).
///
/// For each tool: `function_start` + tokens of `"{name}:{description}"`
/// (one trailing period dropped); if it has parameters, `properties_start`,
/// then per parameter `property` + tokens of `"{name}:{type}:{description}"`
/// and, for an enum, `enum_item` + the value's tokens per value minus
/// `enum_discount` once. After the last tool, `tools_end`. No tools cost 0.
///
/// ```
/// use budget::estimate::Encoding;
/// use budget::chat::ToolsFormat;
/// let gpt4o = ToolsFormat::openai(Encoding::O200kBase);
/// assert_eq!((gpt4o.function_start, gpt4o.tools_end), (7, 12));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ToolsFormat {
    /// Per tool, before its name and description.
    pub function_start: u64,
    /// Per tool with at least one parameter.
    pub properties_start: u64,
    /// Per parameter.
    pub property: u64,
    /// Subtracted once per parameter with an enum.
    pub enum_discount: u64,
    /// Per enum value.
    pub enum_item: u64,
    /// Once, after the last tool.
    pub tools_end: u64,
}

impl ToolsFormat {
    /// The cookbook's constants: `gpt-4o`/`gpt-4o-mini` (`o200k_base`)
    /// start each function at 7 tokens, `gpt-4`/`gpt-3.5-turbo`
    /// (`cl100k_base`) at 10; both use 3 per parameter block, 3 per
    /// parameter, −3 per enum, 3 per enum value and 12 at the end.
    pub const fn openai(encoding: Encoding) -> Self {
        // Encodings newer than `o200k_base` keep its framing.
        let function_start = match encoding {
            Encoding::Cl100kBase => 10,
            _ => 7,
        };
        Self {
            function_start,
            properties_start: 3,
            property: 3,
            enum_discount: 3,
            enum_item: 3,
            tools_end: 12,
        }
    }
}

/// How a provider frames a chat request, in tokens: the counted total of a
/// request is the sum of its messages' text under a counter plus this
/// framing.
///
/// Per message: `per_message` + tokens of the role + tokens of the content
/// + (`per_name` + tokens of the name, if named) + per tool call
///   (`per_tool_call` + tokens of the tool name + tokens of the arguments)
/// + (`per_name` + tokens of the call id, for a tool result: counted like a
///   name, as `tiktoken-rs` does). Once per request: `reply_priming`, plus the
///   [`ToolsFormat`] cost of the tool definitions.
///
/// * [`ChatFormat::openai`]: the OpenAI cookbook's published rules (3 per
///   message, 1 per name, 3 for priming `<|start|>assistant<|message|>`) and
///   its tool-definition constants; 1 per tool call as `tiktoken-rs`
///   counts. With the exact counter of the same encoding, a request without
///   tools counts exactly what `tiktoken-rs`'s `num_tokens_from_messages`
///   returns.
/// * [`ChatFormat::approximate`]: for formats without a public tokenizer
///   (Anthropic, Gemini, local chat templates): the OpenAI framing with one
///   more token per message and per tool call, and each tool definition
///   counted as its full text (name, description, each parameter's name,
///   type, description and values) plus 12 tokens. An approximation meant
///   to err high: pair it with an estimator that does not undercount
///   (`NON_LATIN_SAFE_ESTIMATOR`, or `CalibratedEstimator::upper_bound` for a
///   guaranteed bound) and keep a margin.
///
/// ```
/// use budget::{Estimator, estimate::{ContentType, Encoding}};
/// use budget::chat::Message;
/// use budget::chat::ChatFormat;
///
/// /// One token per whitespace-separated word.
/// struct Words;
/// impl Estimator for Words {
///     fn estimate(&self, text: &str, _: ContentType) -> u64 { text.split_whitespace().count() as u64 }
/// }
/// let format = ChatFormat::openai(Encoding::O200kBase);
/// let messages = [Message::system("be brief"), Message::user("hi there").with_name("ann")];
/// // (3 + 1 + 2) + (3 + 1 + 2 + 1 + 1) + 3 priming
/// assert_eq!(format.request_tokens(&messages, &[], &Words), 17);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ChatFormat {
    /// Framing tokens of every message.
    pub per_message: u64,
    /// Whether the role's name is written as text in each message (OpenAI,
    /// ChatML, Llama, Gemma) and counted, or marked by special tokens
    /// already in `per_message` (Mistral, DeepSeek).
    pub role_text: bool,
    /// Extra tokens when a message has a name (or a tool result a call id).
    pub per_name: u64,
    /// Extra tokens per tool call of an assistant message.
    pub per_tool_call: u64,
    /// Tokens priming the reply, once per request.
    pub reply_priming: u64,
    /// The cost of tool definitions, or `None` to count each definition as
    /// the JSON a chat template writes (`{"type": "function", "function":
    /// {…}}`, indented) plus `tools_preamble` (the approximation).
    pub tools: Option<ToolsFormat>,
    /// With `tools: None`: tokens once when any tool is offered, for the
    /// instructions a template writes around the definitions.
    pub tools_preamble: u64,
}

/// Tokens added per tool definition list by [`ChatFormat::approximate`].
const APPROXIMATE_TOOLS_END: u64 = 12;

impl ChatFormat {
    /// The OpenAI chat format for models of `encoding` (see the type docs).
    ///
    /// ```
    /// use budget::estimate::Encoding;
    /// use budget::chat::ChatFormat;
    /// let f = ChatFormat::openai(Encoding::Cl100kBase);
    /// assert_eq!((f.per_message, f.per_name, f.reply_priming), (3, 1, 3));
    /// ```
    pub const fn openai(encoding: Encoding) -> Self {
        Self {
            per_message: 3,
            role_text: true,
            per_name: 1,
            per_tool_call: 1,
            reply_priming: 3,
            tools: Some(ToolsFormat::openai(encoding)),
            tools_preamble: 0,
        }
    }

    /// The documented approximation for formats without a public tokenizer
    /// (see the type docs).
    ///
    /// ```
    /// use budget::chat::ChatFormat;
    /// assert_eq!(ChatFormat::approximate().per_message, 4);
    /// ```
    pub const fn approximate() -> Self {
        Self {
            per_message: 4,
            role_text: true,
            per_name: 1,
            per_tool_call: 2,
            reply_priming: 3,
            tools: None,
            tools_preamble: APPROXIMATE_TOOLS_END,
        }
    }

    /// The tokens of one message under `counter`, framing included (reply
    /// priming excluded). Content is read as prose, names, ids and arguments
    /// as code.
    ///
    /// ```
    /// use budget::estimate::RatioEstimator;
    /// use budget::chat::Message;
    /// use budget::chat::ChatFormat;
    /// let format = ChatFormat::approximate();
    /// // 4 framing + "user" (4 chars / 3.5 as code → 2) + "hello" (5 / 4.0 as prose → 2)
    /// assert_eq!(format.message_tokens(&Message::user("hello"), &RatioEstimator), 8);
    /// ```
    pub fn message_tokens(&self, message: &Message, counter: &dyn Estimator) -> u64 {
        let code = |text: &str| counter.estimate(text, ContentType::Code);
        let role = if self.role_text {
            code(message.role.as_str())
        } else {
            0
        };
        let mut total = self
            .per_message
            .saturating_add(role)
            .saturating_add(counter.estimate(&message.content, ContentType::Prose));
        for label in message.name.iter().chain(&message.tool_call_id) {
            total = total
                .saturating_add(self.per_name)
                .saturating_add(code(label));
        }
        for call in &message.tool_calls {
            total = total
                .saturating_add(self.per_tool_call)
                .saturating_add(code(&call.name))
                .saturating_add(code(&call.arguments));
        }
        total
    }

    /// The tokens of the tool definitions `tools` under `counter` (0 for
    /// none).
    ///
    /// ```
    /// use budget::{Estimator, estimate::{ContentType, Encoding}};
    /// use budget::chat::{ChatFormat, ToolDefinition};
    /// struct Words;
    /// impl Estimator for Words {
    ///     fn estimate(&self, text: &str, _: ContentType) -> u64 { text.split_whitespace().count() as u64 }
    /// }
    /// let ls = ToolDefinition::new("ls", "List files.");
    /// // 7 + "ls:List files" (2 words) + 12
    /// assert_eq!(ChatFormat::openai(Encoding::O200kBase).tools_tokens(&[ls], &Words), 21);
    /// ```
    pub fn tools_tokens(&self, tools: &[ToolDefinition], counter: &dyn Estimator) -> u64 {
        if tools.is_empty() {
            return 0;
        }
        let count = |text: &str| counter.estimate(text, ContentType::Code);
        let Some(format) = self.tools else {
            return tools.iter().fold(self.tools_preamble, |sum, tool| {
                let json = serde_json::json!({
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.parameters,
                    },
                });
                let text = serde_json::to_string_pretty(&json).unwrap_or_default();
                sum.saturating_add(count(&text))
            });
        };
        let mut total = format.tools_end;
        for tool in tools {
            let description = strip_period(&tool.description);
            total = total
                .saturating_add(format.function_start)
                .saturating_add(count(&format!("{}:{description}", tool.name)));
            let mut properties = tool.properties().peekable();
            if properties.peek().is_none() {
                continue;
            }
            total = total.saturating_add(format.properties_start);
            for p in properties {
                total = total.saturating_add(format.property);
                if !p.enum_values.is_empty() {
                    for value in &p.enum_values {
                        total = total
                            .saturating_add(format.enum_item)
                            .saturating_add(count(value));
                    }
                    total = total.saturating_sub(format.enum_discount);
                }
                let line = format!("{}:{}:{}", p.name, p.kind, strip_period(&p.description));
                total = total.saturating_add(count(&line));
            }
        }
        total
    }

    /// The counted total of a request: every message, the reply priming and
    /// the tool definitions.
    ///
    /// ```
    /// use budget::estimate::RatioEstimator;
    /// use budget::chat::ChatFormat;
    /// assert_eq!(ChatFormat::approximate().request_tokens(&[], &[], &RatioEstimator), 3);
    /// ```
    pub fn request_tokens(
        &self,
        messages: &[Message],
        tools: &[ToolDefinition],
        counter: &dyn Estimator,
    ) -> u64 {
        messages
            .iter()
            .fold(self.reply_priming, |sum, m| {
                sum.saturating_add(self.message_tokens(m, counter))
            })
            .saturating_add(self.tools_tokens(tools, counter))
    }
}

/// `text` without one trailing period, as the cookbook counts descriptions.
fn strip_period(text: &str) -> &str {
    text.strip_suffix('.').unwrap_or(text)
}
