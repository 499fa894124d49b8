//! [`ChatTemplate`]: the chat templates of open-model families, as the
//! [`ChatFormat`] they cost under a given tokenizer.

use std::fmt;

use crate::chat::ChatFormat;
use budget_runtime::estimate::{ContentType, Estimator};

/// How a model family frames a conversation: the tokens around each message
/// and before the reply, as its published chat template renders them.
/// [`format`](Self::format) counts the template's text with the family's
/// tokenizer (special tokens such as `<|im_start|>` count one each), giving
/// the [`ChatFormat`] every entry point counts requests with.
///
/// | template | each message | before the reply |
/// |---|---|---|
/// | `openai` | the cookbook's 3 (+ role) | 3 |
/// | `chatml` (Qwen, Phi) | `<\|im_start\|>`role`\n` … `<\|im_end\|>\n` | `<\|im_start\|>assistant\n` |
/// | `llama3` | `<\|start_header_id\|>`role`<\|end_header_id\|>\n\n` … `<\|eot_id\|>` | BOS, the assistant header, and the knowledge-date lines Llama 3.1's template adds to the system prompt |
/// | `llama4` | `<\|header_start\|>`role`<\|header_end\|>\n\n` … `<\|eot\|>` | BOS and the assistant header |
/// | `mistral` | `[INST]` … `[/INST]` (assistant: … `</s>`; system: `[SYSTEM_PROMPT]` …) | BOS |
/// | `gemma` | `<start_of_turn>`role`\n` … `<end_of_turn>\n` | BOS, `<start_of_turn>model\n` |
/// | `deepseek` | `<｜User｜>` / `<｜Assistant｜>` … `<｜end▁of▁sentence｜>` | BOS, `<｜Assistant｜>` |
/// | `estimate` (Anthropic, Gemini) | [`ChatFormat::approximate`] | |
///
/// Tool definitions of the open templates are counted as their JSON plus
/// [`OPEN_TOOLS_PREAMBLE`] tokens for the instructions the templates write
/// around them; tool calls as [`ChatFormat::approximate`] counts them.
///
/// ```
/// use budget::chat::ChatTemplate;
/// use budget::estimate::{ContentType, Estimator};
///
/// /// One token per character: "\n\n" is two.
/// struct Chars;
/// impl Estimator for Chars {
///     fn estimate(&self, text: &str, _: ContentType) -> u64 { text.chars().count() as u64 }
/// }
/// let llama3 = ChatTemplate::Llama3.format(&Chars);
/// assert_eq!(llama3.per_message, 3 + 2); // three special tokens and "\n\n"
/// assert_eq!("chatml".parse::<ChatTemplate>(), Ok(ChatTemplate::ChatMl));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ChatTemplate {
    /// OpenAI's chat format ([`ChatFormat::openai`] for `o200k_base`).
    OpenAi,
    /// ChatML: Qwen 2 to 3, Phi-4.
    ChatMl,
    /// Llama 3.0 to 3.3.
    Llama3,
    /// Llama 4.
    Llama4,
    /// Mistral's instruct format (v7 and later, special-token control words).
    Mistral,
    /// Gemma 2 and 3.
    Gemma,
    /// DeepSeek V3 and R1.
    DeepSeek,
    /// No public template or tokenizer (Anthropic, Gemini):
    /// [`ChatFormat::approximate`].
    Estimate,
}

/// Tokens an open template's tool instructions take, once when tools are
/// offered (Qwen's "# Tools … <tools></tools> … <tool_call>" block is about
/// 110 tokens; Llama 3.1's "Given the following functions …" about 50).
pub const OPEN_TOOLS_PREAMBLE: u64 = 150;

/// Llama 3.1's template writes these lines at the head of the system
/// prompt (the date varies; this one is the longest form's length).
const LLAMA31_SYSTEM_HEAD: &str =
    "Cutting Knowledge Date: December 2023\nToday Date: 26 Sep 2024\n\n";

impl ChatTemplate {
    /// Every template.
    pub const ALL: [Self; 8] = [
        Self::OpenAi,
        Self::ChatMl,
        Self::Llama3,
        Self::Llama4,
        Self::Mistral,
        Self::Gemma,
        Self::DeepSeek,
        Self::Estimate,
    ];

    /// The template's name (`chatml`, `llama3`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Self::OpenAi => "openai",
            Self::ChatMl => "chatml",
            Self::Llama3 => "llama3",
            Self::Llama4 => "llama4",
            Self::Mistral => "mistral",
            Self::Gemma => "gemma",
            Self::DeepSeek => "deepseek",
            Self::Estimate => "estimate",
        }
    }

    /// The [`ChatFormat`] of this template with its text counted by
    /// `counter` (the family's tokenizer, for exact framing counts).
    pub fn format(self, counter: &dyn Estimator) -> ChatFormat {
        let text = |t: &str| counter.estimate(t, ContentType::Code);
        let open = |per_message: u64, role_text: bool, reply_priming: u64| ChatFormat {
            per_message,
            role_text,
            reply_priming,
            tools_preamble: OPEN_TOOLS_PREAMBLE,
            ..ChatFormat::approximate()
        };
        match self {
            Self::OpenAi => ChatFormat::openai(budget_runtime::estimate::Encoding::O200kBase),
            Self::ChatMl => open(2 + 2 * text("\n"), true, 1 + text("assistant") + text("\n")),
            Self::Llama3 => open(
                3 + text("\n\n"),
                true,
                1 + 2 + text("assistant") + text("\n\n") + text(LLAMA31_SYSTEM_HEAD),
            ),
            Self::Llama4 => open(
                3 + text("\n\n"),
                true,
                1 + 2 + text("assistant") + text("\n\n"),
            ),
            Self::Mistral => open(2, false, 1),
            Self::Gemma => open(2 + 2 * text("\n"), true, 1 + 1 + text("model") + text("\n")),
            Self::DeepSeek => open(2, false, 2),
            Self::Estimate => ChatFormat::approximate(),
        }
    }
}

impl fmt::Display for ChatTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for ChatTemplate {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| {
                let names: Vec<_> = Self::ALL.iter().map(|t| t.name()).collect();
                format!(
                    "unknown chat template {s:?}: expected one of {}",
                    names.join(", ")
                )
            })
    }
}
