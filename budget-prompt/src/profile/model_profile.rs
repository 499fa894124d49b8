//! [`ModelProfile`]: what the library needs to know about one model.

use std::path::PathBuf;

use crate::chat::ChatTemplate;
use budget_runtime::estimate::{Encoding, ShippedVocabulary, SplitPattern};

/// Where a model's token counts come from.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TokenizerSpec {
    /// An OpenAI encoding compiled into the binary: exact.
    OpenAi(Encoding),
    /// The model's own tokenizer: exact once found. It is read from `path`
    /// if set, else is looked for as each of `files` (in order) of
    /// `hf_repo` in the local Hugging Face cache, then in Ollama's store,
    /// else is the `shipped` vocabulary if its data crate is compiled in.
    /// Until found, counts are `o200k_base` times `margin`, the worst ratio
    /// measured against the real tokenizer on the project's multilingual
    /// sample (an estimate that covers it).
    File {
        /// The model's repository on the Hugging Face hub (`org/name`).
        hf_repo: String,
        /// Tokenizer files of that repository, by preference.
        files: Vec<String>,
        /// A local path, set by the user; wins over the cache.
        path: Option<PathBuf>,
        /// The split pattern of a tiktoken rank file.
        pattern: Option<SplitPattern>,
        /// The model's vocabulary among those that can be compiled in.
        shipped: Option<ShippedVocabulary>,
        /// The estimate's factor over `o200k_base` while no file is found.
        margin: f64,
    },
    /// No public tokenizer (Anthropic, Gemini): `o200k_base` times
    /// `margin`, a documented estimate.
    Estimate {
        /// The factor over `o200k_base`.
        margin: f64,
    },
}

/// One model: its names, window, output limit, tokenizer and chat template,
/// and where those values come from.
///
/// ```
/// use budget::profile::ModelRegistry;
///
/// let registry = ModelRegistry::builtin();
/// let gpt4o = registry.get("gpt-4o").unwrap();
/// assert_eq!(gpt4o.context_window, 128_000);
/// assert_eq!(gpt4o.max_output_tokens, 16_384);
/// assert!(gpt4o.source.starts_with("https://"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ModelProfile {
    /// The model's name, as its provider's API spells it.
    pub name: String,
    /// Other names it is known by (dated snapshots, serving names).
    pub aliases: Vec<String>,
    /// Who makes it (`openai`, `anthropic`, `google`, `meta`, `qwen`,
    /// `mistral`, `deepseek`, `microsoft`).
    pub provider: String,
    /// The context window: input and output together, in tokens.
    pub context_window: u64,
    /// The most tokens one reply may have.
    pub max_output_tokens: u64,
    /// Where its token counts come from.
    pub tokenizer: TokenizerSpec,
    /// How it frames a conversation.
    pub template: ChatTemplate,
    /// The provider's documentation or model card the values come from.
    pub source: String,
}

impl ModelProfile {
    /// A profile of your own. Aliases and the source start empty.
    ///
    /// ```
    /// use budget::chat::ChatTemplate;
    /// use budget::profile::{ModelProfile, TokenizerSpec};
    ///
    /// let mine = ModelProfile::new("my-finetune", 32_768, 4_096, TokenizerSpec::Estimate { margin: 1.3 }, ChatTemplate::ChatMl);
    /// assert_eq!(mine.output_reserve(), 4_096);
    /// ```
    pub fn new(
        name: impl Into<String>,
        context_window: u64,
        max_output_tokens: u64,
        tokenizer: TokenizerSpec,
        template: ChatTemplate,
    ) -> Self {
        Self {
            name: name.into(),
            aliases: Vec::new(),
            provider: String::new(),
            context_window,
            max_output_tokens,
            tokenizer,
            template,
            source: String::new(),
        }
    }

    /// The output reserve to plan with: the maximum output, at most a
    /// quarter of the window (a reasoning model's 100,000 would otherwise
    /// take half of a 200,000 window). Ask for more with
    /// `PromptBudgetBuilder::output_reserve`.
    ///
    /// ```
    /// let registry = budget::profile::ModelRegistry::builtin();
    /// assert_eq!(registry.get("gpt-4o").unwrap().output_reserve(), 16_384);
    /// assert_eq!(registry.get("o3").unwrap().output_reserve(), 50_000);
    /// ```
    pub fn output_reserve(&self) -> u64 {
        self.max_output_tokens.min(self.context_window / 4)
    }

    /// The input budget: the window minus [`output_reserve`](Self::output_reserve).
    pub fn input_budget(&self) -> u64 {
        self.context_window - self.output_reserve()
    }

    /// A [`ContextBudget`](budget_runtime::ContextBudget) for this model: the window
    /// as the ceiling and the target, [`output_reserve`](Self::output_reserve)
    /// kept free.
    ///
    /// ```
    /// let registry = budget::profile::ModelRegistry::builtin();
    /// let budget = registry.get("gpt-4o").unwrap().context_budget();
    /// assert_eq!((budget.max_tokens(), budget.output_reserve()), (128_000, 16_384));
    /// ```
    pub fn context_budget(&self) -> budget_runtime::ContextBudget {
        budget_runtime::ContextBudget::new_const(self.context_window, self.context_window)
            .with_output_reserve(self.output_reserve())
    }

    /// Whether `name` is this model's name or one of its aliases (ASCII
    /// case-insensitive).
    pub fn answers_to(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
            || self.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    }
}
