//! [`ModelRegistry`]: model profiles by name, the built-in ones first.
//!
//! The built-in table below is the registry file: each model's values with
//! the provider documentation or model card they come from, cross-checked
//! against LiteLLM's model registry (`model_prices_and_context_window.json`,
//! as shipped in litellm 1.110.2; `scripts/references.sh` installs it and
//! the `registry_matches_litellm` test compares).
//!
//! Estimate margins (factors over `o200k_base` while a model's own tokenizer
//! file is not found) are the worst ratio of the real tokenizer's count to
//! `o200k_base`'s over the project's multilingual sample and corpus, plus
//! about 5% (`cargo run --release -p budget-differential --example
//! family_error` prints the measurement). Anthropic and Gemini publish no
//! tokenizer for their current models: their margins are not measured.
//! Gemini counts with Gemma 3's public SentencePiece model.

use crate::chat::ChatTemplate;
use crate::profile::{ModelProfile, ProfileError, TokenizerSpec};
use budget_runtime::estimate::{Encoding, ShippedVocabulary, SplitPattern};

/// Measured: Llama 3's tokenizer against `o200k_base`, worst 2.56 (Hebrew).
const LLAMA3_MARGIN: f64 = 2.7;
/// Measured: Llama 4, worst 1.21 (Hebrew).
const LLAMA4_MARGIN: f64 = 1.3;
/// Measured: Qwen, worst 3.01 (Hindi).
const QWEN_MARGIN: f64 = 3.2;
/// Measured: Mistral tekken, worst 1.50 (emoji).
const TEKKEN_MARGIN: f64 = 1.6;
/// Measured: DeepSeek V3, worst 1.80 (Hindi).
const DEEPSEEK_MARGIN: f64 = 1.9;
/// Gemma's 262k SentencePiece vocabulary (no tokenizer file checked here):
/// not measured, the largest measured margin of a 150k+ vocabulary.
const GEMMA_MARGIN: f64 = 1.9;
/// Phi-4's `cl100k_base`-derived vocabulary: not measured, Llama 3's margin
/// (also `cl100k_base`-derived).
const PHI_MARGIN: f64 = 2.7;
/// A tokenizer not measured here and not known to be one of the above
/// (DeepSeek V4, Mistral Large 3): the largest measured margin, Qwen's.
const UNMEASURED_MARGIN: f64 = 3.2;
/// Anthropic publishes no tokenizer for current Claude models (count
/// exactly with Anthropic's token-counting endpoint). Claude's tokenizer
/// from Claude 3 to Opus 4.6: not measured here.
const ANTHROPIC_MARGIN: f64 = 1.5;
/// Claude Opus 4.7's updated tokenizer: Anthropic's migration guide says
/// "roughly 1.0 to 1.35x as many tokens" as Opus 4.6, and independent runs
/// of Anthropic's counting endpoint measured up to 1.47x on real English
/// text and code (`docs/models.md` cites them): the earlier margin times
/// 1.47, rounded up.
const CLAUDE_OPUS_4_7_MARGIN: f64 = 2.3;
/// Gemini counts with Gemma 3's public SentencePiece model (Google's GenAI
/// SDK counts locally with it); this margin applies only while that
/// vocabulary is not compiled in: not measured.
const GEMINI_MARGIN: f64 = 1.3;

const OPENAI_MODELS: &str = "https://platform.openai.com/docs/models";
const ANTHROPIC_MODELS: &str = "https://docs.anthropic.com/en/docs/about-claude/models/overview";
const GEMINI_MODELS: &str = "https://ai.google.dev/gemini-api/docs/models";

/// A row of the built-in table.
struct Row {
    name: &'static str,
    aliases: &'static [&'static str],
    provider: &'static str,
    window: u64,
    output: u64,
    tokenizer: Tok,
    template: ChatTemplate,
    source: &'static str,
}

/// The tokenizer column of the table.
enum Tok {
    OpenAi(Encoding),
    /// Hugging Face repository, files by preference, rank-file pattern,
    /// margin, vocabulary that can be compiled in.
    Hf(
        &'static str,
        &'static [&'static str],
        Option<SplitPattern>,
        f64,
        Option<ShippedVocabulary>,
    ),
    Estimate(f64),
}

const O200K: Tok = Tok::OpenAi(Encoding::O200kBase);
const CL100K: Tok = Tok::OpenAi(Encoding::Cl100kBase);
const LLAMA3_FILES: &[&str] = &["original/tokenizer.model", "tokenizer.json"];
const HF_JSON: &[&str] = &["tokenizer.json"];
const TEKKEN_FILES: &[&str] = &["tekken.json", "tokenizer.json"];
/// Every Gemini model counts with Gemma 3's SentencePiece model (Google's
/// GenAI SDK counts locally with it).
const GEMMA3_FOR_GEMINI: Tok = Tok::Hf(
    "google/gemma-3-27b-it",
    &["tokenizer.model", "tokenizer.json"],
    None,
    GEMINI_MARGIN,
    Some(ShippedVocabulary::Gemma3),
);

#[rustfmt::skip]
const TABLE: &[Row] = &[
    // OpenAI: windows and output limits from each model's page.
    Row { name: "gpt-4o", aliases: &["gpt-4o-2024-11-20", "gpt-4o-2024-08-06", "chatgpt-4o-latest"], provider: "openai", window: 128_000, output: 16_384, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/gpt-4o" },
    Row { name: "gpt-4o-mini", aliases: &["gpt-4o-mini-2024-07-18"], provider: "openai", window: 128_000, output: 16_384, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/gpt-4o-mini" },
    Row { name: "gpt-4.1", aliases: &["gpt-4.1-2025-04-14"], provider: "openai", window: 1_047_576, output: 32_768, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/gpt-4.1" },
    Row { name: "gpt-4.1-mini", aliases: &[], provider: "openai", window: 1_047_576, output: 32_768, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/gpt-4.1-mini" },
    Row { name: "gpt-4.1-nano", aliases: &[], provider: "openai", window: 1_047_576, output: 32_768, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/gpt-4.1-nano" },
    // GPT-5: 400,000 in all, at most 272,000 of input and 128,000 of output.
    Row { name: "gpt-5", aliases: &["gpt-5-2025-08-07"], provider: "openai", window: 400_000, output: 128_000, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/gpt-5" },
    Row { name: "gpt-5-mini", aliases: &[], provider: "openai", window: 400_000, output: 128_000, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/gpt-5-mini" },
    Row { name: "gpt-5-nano", aliases: &[], provider: "openai", window: 400_000, output: 128_000, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/gpt-5-nano" },
    Row { name: "o3", aliases: &["o3-2025-04-16"], provider: "openai", window: 200_000, output: 100_000, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/o3" },
    Row { name: "o4-mini", aliases: &[], provider: "openai", window: 200_000, output: 100_000, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/o4-mini" },
    Row { name: "o3-mini", aliases: &[], provider: "openai", window: 200_000, output: 100_000, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/o3-mini" },
    Row { name: "o1", aliases: &[], provider: "openai", window: 200_000, output: 100_000, tokenizer: O200K, template: ChatTemplate::OpenAi, source: "https://platform.openai.com/docs/models/o1" },
    Row { name: "gpt-4-turbo", aliases: &[], provider: "openai", window: 128_000, output: 4_096, tokenizer: CL100K, template: ChatTemplate::OpenAi, source: OPENAI_MODELS },
    Row { name: "gpt-4", aliases: &["gpt-4-0613"], provider: "openai", window: 8_192, output: 8_192, tokenizer: CL100K, template: ChatTemplate::OpenAi, source: OPENAI_MODELS },
    Row { name: "gpt-3.5-turbo", aliases: &["gpt-3.5-turbo-0125"], provider: "openai", window: 16_385, output: 4_096, tokenizer: CL100K, template: ChatTemplate::OpenAi, source: OPENAI_MODELS },
    // Anthropic: the models overview's comparison table (standard window).
    Row { name: "claude-opus-4-7", aliases: &["claude-opus-4-7-20260416"], provider: "anthropic", window: 1_000_000, output: 128_000, tokenizer: Tok::Estimate(CLAUDE_OPUS_4_7_MARGIN), template: ChatTemplate::Estimate, source: ANTHROPIC_MODELS },
    Row { name: "claude-opus-4-6", aliases: &["claude-opus-4-6-20260205"], provider: "anthropic", window: 1_000_000, output: 128_000, tokenizer: Tok::Estimate(ANTHROPIC_MARGIN), template: ChatTemplate::Estimate, source: ANTHROPIC_MODELS },
    Row { name: "claude-sonnet-4-6", aliases: &[], provider: "anthropic", window: 1_000_000, output: 128_000, tokenizer: Tok::Estimate(ANTHROPIC_MARGIN), template: ChatTemplate::Estimate, source: ANTHROPIC_MODELS },
    Row { name: "claude-opus-4-5", aliases: &["claude-opus-4-5-20251101"], provider: "anthropic", window: 200_000, output: 64_000, tokenizer: Tok::Estimate(ANTHROPIC_MARGIN), template: ChatTemplate::Estimate, source: ANTHROPIC_MODELS },
    Row { name: "claude-sonnet-4-5", aliases: &["claude-sonnet-4-5-20250929"], provider: "anthropic", window: 200_000, output: 64_000, tokenizer: Tok::Estimate(ANTHROPIC_MARGIN), template: ChatTemplate::Estimate, source: ANTHROPIC_MODELS },
    Row { name: "claude-haiku-4-5", aliases: &["claude-haiku-4-5-20251001"], provider: "anthropic", window: 200_000, output: 64_000, tokenizer: Tok::Estimate(ANTHROPIC_MARGIN), template: ChatTemplate::Estimate, source: ANTHROPIC_MODELS },
    Row { name: "claude-opus-4-1", aliases: &["claude-opus-4-1-20250805"], provider: "anthropic", window: 200_000, output: 32_000, tokenizer: Tok::Estimate(ANTHROPIC_MARGIN), template: ChatTemplate::Estimate, source: ANTHROPIC_MODELS },
    Row { name: "claude-sonnet-4", aliases: &["claude-sonnet-4-20250514"], provider: "anthropic", window: 200_000, output: 64_000, tokenizer: Tok::Estimate(ANTHROPIC_MARGIN), template: ChatTemplate::Estimate, source: ANTHROPIC_MODELS },
    Row { name: "claude-3-5-haiku", aliases: &["claude-3-5-haiku-20241022", "claude-3-5-haiku-latest"], provider: "anthropic", window: 200_000, output: 8_192, tokenizer: Tok::Estimate(ANTHROPIC_MARGIN), template: ChatTemplate::Estimate, source: ANTHROPIC_MODELS },
    // Google.
    Row { name: "gemini-3.1-pro-preview", aliases: &["gemini-3-pro-preview"], provider: "google", window: 1_048_576, output: 65_536, tokenizer: GEMMA3_FOR_GEMINI, template: ChatTemplate::Estimate, source: GEMINI_MODELS },
    Row { name: "gemini-3.5-flash", aliases: &[], provider: "google", window: 1_048_576, output: 65_536, tokenizer: GEMMA3_FOR_GEMINI, template: ChatTemplate::Estimate, source: GEMINI_MODELS },
    Row { name: "gemini-3-flash-preview", aliases: &[], provider: "google", window: 1_048_576, output: 65_536, tokenizer: GEMMA3_FOR_GEMINI, template: ChatTemplate::Estimate, source: GEMINI_MODELS },
    Row { name: "gemini-2.5-pro", aliases: &[], provider: "google", window: 1_048_576, output: 65_536, tokenizer: GEMMA3_FOR_GEMINI, template: ChatTemplate::Estimate, source: GEMINI_MODELS },
    Row { name: "gemini-2.5-flash", aliases: &[], provider: "google", window: 1_048_576, output: 65_536, tokenizer: GEMMA3_FOR_GEMINI, template: ChatTemplate::Estimate, source: GEMINI_MODELS },
    Row { name: "gemini-2.5-flash-lite", aliases: &[], provider: "google", window: 1_048_576, output: 65_536, tokenizer: GEMMA3_FOR_GEMINI, template: ChatTemplate::Estimate, source: GEMINI_MODELS },
    Row { name: "gemini-2.0-flash", aliases: &[], provider: "google", window: 1_048_576, output: 8_192, tokenizer: GEMMA3_FOR_GEMINI, template: ChatTemplate::Estimate, source: GEMINI_MODELS },
    Row { name: "gemma-3-27b-it", aliases: &["gemma3:27b", "gemma-3-12b-it", "gemma3:12b", "gemma-3-4b-it", "gemma3:4b", "gemma3"], provider: "google", window: 131_072, output: 8_192, tokenizer: Tok::Hf("google/gemma-3-27b-it", HF_JSON, None, GEMMA_MARGIN, Some(ShippedVocabulary::Gemma3)), template: ChatTemplate::Gemma, source: "https://ai.google.dev/gemma/docs/core/model_card_3" },
    // Meta: 128K windows of the model cards; the maximum output is not
    // limited by the model: the servers' common default.
    Row { name: "llama-3.1-8b-instruct", aliases: &["meta-llama/Llama-3.1-8B-Instruct", "llama3.1:8b", "llama3.1"], provider: "meta", window: 131_072, output: 8_192, tokenizer: Tok::Hf("meta-llama/Llama-3.1-8B-Instruct", LLAMA3_FILES, Some(SplitPattern::LLAMA3), LLAMA3_MARGIN, Some(ShippedVocabulary::Llama3)), template: ChatTemplate::Llama3, source: "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct" },
    Row { name: "llama-3.1-70b-instruct", aliases: &["meta-llama/Llama-3.1-70B-Instruct", "llama3.1:70b"], provider: "meta", window: 131_072, output: 8_192, tokenizer: Tok::Hf("meta-llama/Llama-3.1-70B-Instruct", LLAMA3_FILES, Some(SplitPattern::LLAMA3), LLAMA3_MARGIN, Some(ShippedVocabulary::Llama3)), template: ChatTemplate::Llama3, source: "https://huggingface.co/meta-llama/Llama-3.1-70B-Instruct" },
    Row { name: "llama-3.2-3b-instruct", aliases: &["meta-llama/Llama-3.2-3B-Instruct", "llama3.2:3b", "llama3.2"], provider: "meta", window: 131_072, output: 8_192, tokenizer: Tok::Hf("meta-llama/Llama-3.2-3B-Instruct", LLAMA3_FILES, Some(SplitPattern::LLAMA3), LLAMA3_MARGIN, Some(ShippedVocabulary::Llama3)), template: ChatTemplate::Llama3, source: "https://huggingface.co/meta-llama/Llama-3.2-3B-Instruct" },
    Row { name: "llama-3.3-70b-instruct", aliases: &["meta-llama/Llama-3.3-70B-Instruct", "llama3.3:70b", "llama3.3"], provider: "meta", window: 131_072, output: 8_192, tokenizer: Tok::Hf("meta-llama/Llama-3.3-70B-Instruct", LLAMA3_FILES, Some(SplitPattern::LLAMA3), LLAMA3_MARGIN, Some(ShippedVocabulary::Llama3)), template: ChatTemplate::Llama3, source: "https://huggingface.co/meta-llama/Llama-3.3-70B-Instruct" },
    Row { name: "llama-4-scout-17b-16e-instruct", aliases: &["meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama4:scout"], provider: "meta", window: 10_000_000, output: 8_192, tokenizer: Tok::Hf("meta-llama/Llama-4-Scout-17B-16E-Instruct", HF_JSON, Some(SplitPattern::LLAMA4), LLAMA4_MARGIN, Some(ShippedVocabulary::Llama4)), template: ChatTemplate::Llama4, source: "https://huggingface.co/meta-llama/Llama-4-Scout-17B-16E-Instruct" },
    Row { name: "llama-4-maverick-17b-128e-instruct", aliases: &["meta-llama/Llama-4-Maverick-17B-128E-Instruct", "llama4:maverick"], provider: "meta", window: 1_000_000, output: 8_192, tokenizer: Tok::Hf("meta-llama/Llama-4-Maverick-17B-128E-Instruct", HF_JSON, Some(SplitPattern::LLAMA4), LLAMA4_MARGIN, Some(ShippedVocabulary::Llama4)), template: ChatTemplate::Llama4, source: "https://huggingface.co/meta-llama/Llama-4-Maverick-17B-128E-Instruct" },
    // Qwen: 32,768 native (131,072 with YaRN, which servers turn on by hand).
    Row { name: "qwen2.5-7b-instruct", aliases: &["Qwen/Qwen2.5-7B-Instruct", "qwen2.5:7b", "qwen2.5"], provider: "qwen", window: 32_768, output: 8_192, tokenizer: Tok::Hf("Qwen/Qwen2.5-7B-Instruct", HF_JSON, Some(SplitPattern::QWEN), QWEN_MARGIN, Some(ShippedVocabulary::Qwen)), template: ChatTemplate::ChatMl, source: "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct" },
    Row { name: "qwen2.5-72b-instruct", aliases: &["Qwen/Qwen2.5-72B-Instruct", "qwen2.5:72b"], provider: "qwen", window: 32_768, output: 8_192, tokenizer: Tok::Hf("Qwen/Qwen2.5-72B-Instruct", HF_JSON, Some(SplitPattern::QWEN), QWEN_MARGIN, Some(ShippedVocabulary::Qwen)), template: ChatTemplate::ChatMl, source: "https://huggingface.co/Qwen/Qwen2.5-72B-Instruct" },
    Row { name: "qwen2.5-coder-32b-instruct", aliases: &["Qwen/Qwen2.5-Coder-32B-Instruct", "qwen2.5-coder:32b", "qwen2.5-coder"], provider: "qwen", window: 32_768, output: 8_192, tokenizer: Tok::Hf("Qwen/Qwen2.5-Coder-32B-Instruct", HF_JSON, Some(SplitPattern::QWEN), QWEN_MARGIN, Some(ShippedVocabulary::Qwen)), template: ChatTemplate::ChatMl, source: "https://huggingface.co/Qwen/Qwen2.5-Coder-32B-Instruct" },
    Row { name: "qwen3-8b", aliases: &["Qwen/Qwen3-8B", "qwen3:8b", "qwen3"], provider: "qwen", window: 32_768, output: 8_192, tokenizer: Tok::Hf("Qwen/Qwen3-8B", HF_JSON, Some(SplitPattern::QWEN), QWEN_MARGIN, Some(ShippedVocabulary::Qwen)), template: ChatTemplate::ChatMl, source: "https://huggingface.co/Qwen/Qwen3-8B" },
    Row { name: "qwen3-32b", aliases: &["Qwen/Qwen3-32B", "qwen3:32b"], provider: "qwen", window: 32_768, output: 8_192, tokenizer: Tok::Hf("Qwen/Qwen3-32B", HF_JSON, Some(SplitPattern::QWEN), QWEN_MARGIN, Some(ShippedVocabulary::Qwen)), template: ChatTemplate::ChatMl, source: "https://huggingface.co/Qwen/Qwen3-32B" },
    Row { name: "qwen3-235b-a22b", aliases: &["Qwen/Qwen3-235B-A22B", "qwen3:235b"], provider: "qwen", window: 32_768, output: 8_192, tokenizer: Tok::Hf("Qwen/Qwen3-235B-A22B", HF_JSON, Some(SplitPattern::QWEN), QWEN_MARGIN, Some(ShippedVocabulary::Qwen)), template: ChatTemplate::ChatMl, source: "https://huggingface.co/Qwen/Qwen3-235B-A22B" },
    // Qwen3's 2507 updates, Coder and Next: Qwen3's tokenizer, 262,144
    // native context (the model cards).
    Row { name: "qwen3-235b-a22b-instruct-2507", aliases: &["Qwen/Qwen3-235B-A22B-Instruct-2507"], provider: "qwen", window: 262_144, output: 8_192, tokenizer: Tok::Hf("Qwen/Qwen3-235B-A22B-Instruct-2507", HF_JSON, Some(SplitPattern::QWEN), QWEN_MARGIN, Some(ShippedVocabulary::Qwen)), template: ChatTemplate::ChatMl, source: "https://huggingface.co/Qwen/Qwen3-235B-A22B-Instruct-2507" },
    Row { name: "qwen3-coder-480b-a35b-instruct", aliases: &["Qwen/Qwen3-Coder-480B-A35B-Instruct", "qwen3-coder:480b", "qwen3-coder"], provider: "qwen", window: 262_144, output: 8_192, tokenizer: Tok::Hf("Qwen/Qwen3-Coder-480B-A35B-Instruct", HF_JSON, Some(SplitPattern::QWEN), QWEN_MARGIN, Some(ShippedVocabulary::Qwen)), template: ChatTemplate::ChatMl, source: "https://huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct" },
    Row { name: "qwen3-next-80b-a3b-instruct", aliases: &["Qwen/Qwen3-Next-80B-A3B-Instruct", "qwen3-next:80b", "qwen3-next"], provider: "qwen", window: 262_144, output: 8_192, tokenizer: Tok::Hf("Qwen/Qwen3-Next-80B-A3B-Instruct", HF_JSON, Some(SplitPattern::QWEN), QWEN_MARGIN, Some(ShippedVocabulary::Qwen)), template: ChatTemplate::ChatMl, source: "https://huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct" },
    // Mistral: tekken models. Nemo's "128k" is read as 128,000 (the API's
    // figure, the smaller reading).
    Row { name: "mistral-nemo-instruct-2407", aliases: &["mistralai/Mistral-Nemo-Instruct-2407", "open-mistral-nemo", "mistral-nemo"], provider: "mistral", window: 128_000, output: 8_192, tokenizer: Tok::Hf("mistralai/Mistral-Nemo-Instruct-2407", TEKKEN_FILES, None, TEKKEN_MARGIN, Some(ShippedVocabulary::Tekken)), template: ChatTemplate::Mistral, source: "https://huggingface.co/mistralai/Mistral-Nemo-Instruct-2407" },
    Row { name: "mistral-small-3.2-24b-instruct-2506", aliases: &["mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral-small3.2"], provider: "mistral", window: 131_072, output: 8_192, tokenizer: Tok::Hf("mistralai/Mistral-Small-3.2-24B-Instruct-2506", TEKKEN_FILES, None, TEKKEN_MARGIN, Some(ShippedVocabulary::Tekken)), template: ChatTemplate::Mistral, source: "https://huggingface.co/mistralai/Mistral-Small-3.2-24B-Instruct-2506" },
    // DeepSeek: the API's 128K window; output 8K (chat) and 64K (reasoner).
    Row { name: "deepseek-chat", aliases: &["deepseek-v3", "deepseek-ai/DeepSeek-V3"], provider: "deepseek", window: 131_072, output: 8_192, tokenizer: Tok::Hf("deepseek-ai/DeepSeek-V3", HF_JSON, None, DEEPSEEK_MARGIN, Some(ShippedVocabulary::DeepSeekV3)), template: ChatTemplate::DeepSeek, source: "https://api-docs.deepseek.com/quick_start/pricing" },
    Row { name: "deepseek-reasoner", aliases: &["deepseek-r1", "deepseek-ai/DeepSeek-R1"], provider: "deepseek", window: 131_072, output: 65_536, tokenizer: Tok::Hf("deepseek-ai/DeepSeek-R1", HF_JSON, None, DEEPSEEK_MARGIN, Some(ShippedVocabulary::DeepSeekV3)), template: ChatTemplate::DeepSeek, source: "https://api-docs.deepseek.com/quick_start/pricing" },
    // DeepSeek V4: the API's 1M window and 384K output. Their tokenizer
    // files are read when found; until then the unmeasured margin.
    Row { name: "deepseek-v4-pro", aliases: &["deepseek-ai/DeepSeek-V4-Pro"], provider: "deepseek", window: 1_000_000, output: 393_216, tokenizer: Tok::Hf("deepseek-ai/DeepSeek-V4-Pro", HF_JSON, None, UNMEASURED_MARGIN, None), template: ChatTemplate::Estimate, source: "https://api-docs.deepseek.com/quick_start/pricing" },
    Row { name: "deepseek-v4-flash", aliases: &["deepseek-ai/DeepSeek-V4-Flash"], provider: "deepseek", window: 1_000_000, output: 393_216, tokenizer: Tok::Hf("deepseek-ai/DeepSeek-V4-Flash", HF_JSON, None, UNMEASURED_MARGIN, None), template: ChatTemplate::Estimate, source: "https://api-docs.deepseek.com/quick_start/pricing" },
    // Mistral Large 3 (25.12): the API's 256K window, output up to the
    // window. Its tokenizer files are read when found.
    Row { name: "mistral-large-2512", aliases: &["mistral-large-3", "mistralai/Mistral-Large-3-675B-Instruct-2512"], provider: "mistral", window: 262_144, output: 262_144, tokenizer: Tok::Hf("mistralai/Mistral-Large-3-675B-Instruct-2512", TEKKEN_FILES, None, UNMEASURED_MARGIN, None), template: ChatTemplate::Estimate, source: "https://docs.mistral.ai/models/mistral-large-3-25-12" },
    // Microsoft.
    Row { name: "phi-4", aliases: &["microsoft/phi-4", "phi4"], provider: "microsoft", window: 16_384, output: 4_096, tokenizer: Tok::Hf("microsoft/phi-4", HF_JSON, None, PHI_MARGIN, None), template: ChatTemplate::ChatMl, source: "https://huggingface.co/microsoft/phi-4" },
];

/// Model profiles by name or alias: the built-in ones, and yours.
///
/// ```
/// use budget::profile::ModelRegistry;
///
/// let registry = ModelRegistry::builtin();
/// assert_eq!(registry.get("Qwen/Qwen2.5-7B-Instruct").unwrap().name, "qwen2.5-7b-instruct");
/// assert_eq!(registry.get("llama3.1").unwrap().context_window, 131_072);
/// assert!(registry.get("gpt-9").is_none());
/// assert_eq!(registry.suggest("gpt-4-o"), Some("gpt-4o"));
/// ```
#[derive(Clone, Debug)]
pub struct ModelRegistry {
    profiles: Vec<ModelProfile>,
}

/// How a model name is spelled once its organization, `:latest`, an
/// `-instruct` or `-it` ending, separators and case are set aside.
fn spelling(name: &str) -> String {
    let name = name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase();
    let name = name
        .strip_suffix(":latest")
        .unwrap_or(&name)
        .replace([':', '_', ' '], "-");
    let name = ["-instruct", "-it"]
        .iter()
        .find_map(|end| name.strip_suffix(end))
        .unwrap_or(&name);
    name.replace('-', "")
}

impl ModelRegistry {
    /// The built-in profiles (OpenAI, Anthropic, Google, Meta, Qwen,
    /// Mistral, DeepSeek, Microsoft).
    pub fn builtin() -> Self {
        Self {
            profiles: TABLE.iter().map(Row::profile).collect(),
        }
    }

    /// The profile named or aliased `name`, or an error with the closest
    /// known name.
    ///
    /// ```
    /// let registry = budget::profile::ModelRegistry::builtin();
    /// let err = registry.lookup("gpt-4oo").unwrap_err();
    /// assert_eq!(err.to_string(), r#"unknown model "gpt-4oo" (did you mean "gpt-4o"?)"#);
    /// ```
    ///
    /// # Errors
    /// [`ProfileError::UnknownModel`].
    pub fn lookup(&self, name: &str) -> Result<&ModelProfile, ProfileError> {
        self.get(name).ok_or_else(|| ProfileError::UnknownModel {
            name: name.to_owned(),
            suggestion: self.suggest(name).map(str::to_owned),
        })
    }

    /// An empty registry.
    pub fn empty() -> Self {
        Self {
            profiles: Vec::new(),
        }
    }

    /// The profile named or aliased `name` (ASCII case-insensitive); a
    /// profile you added wins over a built-in one of the same name. Failing
    /// that, the profile a name or alias of which is spelled the same way
    /// once the organization (`meta-llama/`), `:latest`, an `-instruct` or
    /// `-it` ending and the separators `-`, `_`, `:` are set aside: the
    /// names people type for one model (`llama-3.1-8b`, `llama3.1:8b`,
    /// `meta-llama/Llama-3.1-8B-Instruct`) find one profile.
    ///
    /// ```
    /// let registry = budget::profile::ModelRegistry::builtin();
    /// let name = |n: &str| registry.get(n).map(|p| p.name.as_str());
    /// assert_eq!(name("llama-3.1-8b"), Some("llama-3.1-8b-instruct"));
    /// assert_eq!(name("Llama3.1:8B"), Some("llama-3.1-8b-instruct"));
    /// assert_eq!(name("meta-llama/Llama-3.1-8B-Instruct"), Some("llama-3.1-8b-instruct"));
    /// assert_eq!(name("llama3.1:latest"), Some("llama-3.1-8b-instruct"));
    /// ```
    pub fn get(&self, name: &str) -> Option<&ModelProfile> {
        if let Some(found) = self.profiles.iter().rev().find(|p| p.answers_to(name)) {
            return Some(found);
        }
        let wanted = spelling(name);
        self.profiles.iter().rev().find(|p| {
            std::iter::once(&p.name)
                .chain(&p.aliases)
                .any(|known| spelling(known) == wanted)
        })
    }

    /// Adds `profile`, replacing any profile of the same name.
    ///
    /// ```
    /// use budget::chat::ChatTemplate;
    /// use budget::profile::{ModelProfile, ModelRegistry, TokenizerSpec};
    ///
    /// let mut registry = ModelRegistry::builtin();
    /// let mut gpt4o = registry.get("gpt-4o").unwrap().clone();
    /// gpt4o.context_window = 64_000; // a deployment with a smaller window
    /// registry.insert(gpt4o);
    /// assert_eq!(registry.get("gpt-4o").unwrap().context_window, 64_000);
    /// ```
    pub fn insert(&mut self, profile: ModelProfile) {
        self.profiles
            .retain(|p| !p.name.eq_ignore_ascii_case(&profile.name));
        self.profiles.push(profile);
    }

    /// Every profile, built-in first.
    pub fn profiles(&self) -> &[ModelProfile] {
        &self.profiles
    }

    /// The name or alias closest to `name` ([`budget_rules::closest`]), for
    /// "did you mean" messages.
    pub fn suggest(&self, name: &str) -> Option<&str> {
        budget_rules::closest(
            name,
            self.profiles
                .iter()
                .flat_map(|p| std::iter::once(&p.name).chain(&p.aliases))
                .map(String::as_str),
        )
    }
}

impl Row {
    fn profile(&self) -> ModelProfile {
        let tokenizer = match &self.tokenizer {
            Tok::OpenAi(encoding) => TokenizerSpec::OpenAi(*encoding),
            Tok::Hf(repo, files, pattern, margin, shipped) => TokenizerSpec::File {
                hf_repo: (*repo).to_owned(),
                files: files.iter().map(|f| (*f).to_owned()).collect(),
                path: None,
                pattern: pattern.clone(),
                shipped: *shipped,
                margin: *margin,
            },
            Tok::Estimate(margin) => TokenizerSpec::Estimate { margin: *margin },
        };
        ModelProfile {
            name: self.name.to_owned(),
            aliases: self.aliases.iter().map(|a| (*a).to_owned()).collect(),
            provider: self.provider.to_owned(),
            context_window: self.window,
            max_output_tokens: self.output,
            tokenizer,
            template: self.template,
            source: self.source.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let registry = ModelRegistry::builtin();
        let mut seen = std::collections::HashSet::new();
        for p in registry.profiles() {
            for name in std::iter::once(&p.name).chain(&p.aliases) {
                assert!(seen.insert(name.to_ascii_lowercase()), "{name} twice");
            }
            assert!(p.max_output_tokens <= p.context_window, "{}", p.name);
            assert!(p.source.starts_with("https://"), "{}", p.name);
        }
        assert!(registry.profiles().len() >= 40);
    }

    #[test]
    fn claude_opus_4_7_counts_with_its_tokenizer_generation() {
        let registry = ModelRegistry::builtin();
        let margin = |name: &str| match registry.get(name).map(|p| &p.tokenizer) {
            Some(TokenizerSpec::Estimate { margin }) => *margin,
            other => panic!("{name}: {other:?}"),
        };
        // The updated tokenizer takes up to 1.47x the tokens of Opus 4.6's.
        assert!(margin("claude-opus-4-7") >= margin("claude-opus-4-6") * 1.47);
        assert_eq!(margin("claude-sonnet-4-6"), margin("claude-opus-4-6"));
    }
}
