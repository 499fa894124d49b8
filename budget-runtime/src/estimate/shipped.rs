//! [`ShippedVocabulary`]: the open models' vocabularies that can be
//! compiled in, each from its own data crate behind a cargo feature.

use std::fmt;

/// A vocabulary of open models that can be compiled in (a data crate per
/// vocabulary, each behind the cargo feature [`feature`](Self::feature)
/// names), so that a model is counted exactly with no file to find.
///
/// ```
/// use budget::estimate::ShippedVocabulary;
///
/// assert_eq!(ShippedVocabulary::Gemma3.feature(), "vocab-gemma3");
/// assert_eq!(ShippedVocabulary::Gemma3.to_string(), "gemma3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ShippedVocabulary {
    /// Gemma 3's SentencePiece model (262,144 pieces), which every Gemini
    /// model also counts with; Apache-2.0.
    Gemma3,
    /// Qwen's rank file (151,643 ranks; Qwen 2.5 and 3); Apache-2.0.
    Qwen,
    /// DeepSeek V3's `tokenizer.json` (V3, R1); MIT.
    DeepSeekV3,
    /// Mistral's tekken (`tekken_240911`: NeMo, Small 3.x); Apache-2.0.
    Tekken,
    /// Llama 3's rank file (128,000 ranks; Llama 3 to 3.3); Meta Llama 3
    /// Community License.
    Llama3,
    /// Llama 4's rank file (200,000 ranks; Scout, Maverick); Llama 4
    /// Community License.
    Llama4,
}

impl ShippedVocabulary {
    /// Every shipped vocabulary.
    pub const ALL: [Self; 6] = [
        Self::Gemma3,
        Self::Qwen,
        Self::DeepSeekV3,
        Self::Tekken,
        Self::Llama3,
        Self::Llama4,
    ];

    /// Its short name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Gemma3 => "gemma3",
            Self::Qwen => "qwen",
            Self::DeepSeekV3 => "deepseek-v3",
            Self::Tekken => "tekken",
            Self::Llama3 => "llama3",
            Self::Llama4 => "llama4",
        }
    }

    /// The cargo feature of `budget-runtime` (and of `context-budget`)
    /// that compiles it in.
    pub const fn feature(self) -> &'static str {
        match self {
            Self::Gemma3 => "vocab-gemma3",
            Self::Qwen => "vocab-qwen",
            Self::DeepSeekV3 => "vocab-deepseek",
            Self::Tekken => "vocab-mistral",
            Self::Llama3 => "vocab-llama3",
            Self::Llama4 => "vocab-llama4",
        }
    }

    /// Its file name and bytes, if compiled in.
    #[cfg_attr(not(feature = "bpe"), allow(dead_code))]
    #[cfg_attr(
        not(any(
            feature = "vocab-gemma3",
            feature = "vocab-qwen",
            feature = "vocab-deepseek",
            feature = "vocab-mistral",
            feature = "vocab-llama3",
            feature = "vocab-llama4"
        )),
        allow(clippy::unused_self)
    )]
    pub(crate) fn data(self) -> Option<(&'static str, &'static [u8])> {
        match self {
            #[cfg(feature = "vocab-gemma3")]
            Self::Gemma3 => Some((budget_vocab_gemma3::NAME, budget_vocab_gemma3::BYTES)),
            #[cfg(feature = "vocab-qwen")]
            Self::Qwen => Some((budget_vocab_qwen::NAME, budget_vocab_qwen::BYTES)),
            #[cfg(feature = "vocab-deepseek")]
            Self::DeepSeekV3 => Some((budget_vocab_deepseek::NAME, budget_vocab_deepseek::BYTES)),
            #[cfg(feature = "vocab-mistral")]
            Self::Tekken => Some((budget_vocab_mistral::NAME, budget_vocab_mistral::BYTES)),
            #[cfg(feature = "vocab-llama3")]
            Self::Llama3 => Some((budget_vocab_llama3::NAME, budget_vocab_llama3::BYTES)),
            #[cfg(feature = "vocab-llama4")]
            Self::Llama4 => Some((budget_vocab_llama4::NAME, budget_vocab_llama4::BYTES)),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// The split pattern its rank file needs, if it is one.
    #[cfg_attr(not(feature = "bpe"), allow(dead_code))]
    pub(crate) fn pattern(self) -> Option<crate::estimate::SplitPattern> {
        match self {
            Self::Qwen => Some(crate::estimate::SplitPattern::QWEN),
            Self::Tekken => Some(crate::estimate::SplitPattern::TEKKEN),
            Self::Llama3 => Some(crate::estimate::SplitPattern::LLAMA3),
            Self::Llama4 => Some(crate::estimate::SplitPattern::LLAMA4),
            Self::Gemma3 | Self::DeepSeekV3 => None,
        }
    }
}

impl fmt::Display for ShippedVocabulary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
