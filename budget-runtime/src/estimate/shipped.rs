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
}

impl ShippedVocabulary {
    /// Every shipped vocabulary.
    pub const ALL: [Self; 4] = [Self::Gemma3, Self::Qwen, Self::DeepSeekV3, Self::Tekken];

    /// Its short name.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Gemma3 => "gemma3",
            Self::Qwen => "qwen",
            Self::DeepSeekV3 => "deepseek-v3",
            Self::Tekken => "tekken",
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
        }
    }

    /// Its file name and bytes, if compiled in.
    #[cfg_attr(not(feature = "bpe"), allow(dead_code))]
    #[cfg_attr(
        not(any(
            feature = "vocab-gemma3",
            feature = "vocab-qwen",
            feature = "vocab-deepseek",
            feature = "vocab-mistral"
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
            Self::Gemma3 | Self::DeepSeekV3 => None,
        }
    }
}

impl fmt::Display for ShippedVocabulary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
