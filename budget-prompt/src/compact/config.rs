//! [`CompactionConfig`]: when and how a conversation is compacted, shaped
//! like the `context` and `compression` sections of an agent's config file.

/// What the compactor does when the [`Summarizer`](crate::compact::Summarizer)
/// fails (returns an error or an empty summary).
///
/// ```
/// use budget::compact::FailurePolicy;
/// assert_eq!(FailurePolicy::default(), FailurePolicy::Fallback);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum FailurePolicy {
    /// Replace the middle with a deterministic local summary of bounded size
    /// and record the error in the report.
    #[default]
    Fallback,
    /// Return [`CompactionError::Summarizer`](crate::compact::CompactionError::Summarizer);
    /// the caller's conversation is left unchanged.
    Abort,
}

/// The `context` section: the window the conversation must fit.
///
/// ```
/// use budget::compact::ContextSettings;
/// assert_eq!(ContextSettings::default().max_tokens, None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct ContextSettings {
    /// Override of the model's context window, in tokens. When `None`, the
    /// model's window is used, else
    /// [`DEFAULT_CONTEXT_WINDOW`](crate::compact::DEFAULT_CONTEXT_WINDOW).
    pub max_tokens: Option<u64>,
}

/// The `compression` section: thresholds and the shape of a compaction.
///
/// Defaults: enabled, `threshold` 0.50, `target_ratio` 0.20,
/// `protect_first_n` 3, `min_tail_messages` 4, tail sized to fill the
/// target, `max_summary_tokens` 12 000, 4 tokens of overhead per message,
/// tool outputs over 500 tokens stubbed, summarizer window = the model's
/// window, [`FailurePolicy::Fallback`].
///
/// ```
/// use budget::compact::CompressionSettings;
/// let s = CompressionSettings::default();
/// assert_eq!((s.threshold, s.target_ratio, s.protect_first_n), (0.50, 0.20, 3));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct CompressionSettings {
    /// When false, [`needs_compaction`](crate::compact::Compactor::needs_compaction)
    /// is always false.
    pub enabled: bool,
    /// Fraction of the window (0 < r ≤ 1) above which compaction fires,
    /// before the 64K floor and the 85 % cap are applied.
    pub threshold: f64,
    /// Fraction of the window (0 < r < 1) a compaction aims to get under.
    pub target_ratio: f64,
    /// Messages at the start kept verbatim (leading system messages are
    /// always kept, even beyond this count).
    pub protect_first_n: usize,
    /// Messages at the end kept verbatim whatever their size.
    pub min_tail_messages: usize,
    /// Token size of the protected tail. `None`: whatever the target leaves
    /// after the head and the summary.
    pub tail_tokens: Option<u64>,
    /// Upper bound of the summary, in tokens; the effective bound is also at
    /// most a quarter of the target.
    pub max_summary_tokens: u64,
    /// Tokens added per message for role markers and ids.
    pub per_message_overhead_tokens: u64,
    /// Tool outputs outside the protected tail larger than this (tokens)
    /// become one-line stubs before any summarization.
    pub stub_tool_outputs_over_tokens: u64,
    /// Context window of the summarizer's model, in tokens (input it may
    /// receive plus the summary it writes). `None`: the main window.
    pub summarizer_window_tokens: Option<u64>,
    /// What to do when the summarizer fails.
    pub on_summarizer_error: FailurePolicy,
}

impl Default for CompressionSettings {
    fn default() -> Self {
        Self {
            enabled: true,
            threshold: 0.50,
            target_ratio: 0.20,
            protect_first_n: 3,
            min_tail_messages: 4,
            tail_tokens: None,
            max_summary_tokens: 12_000,
            per_message_overhead_tokens: 4,
            stub_tool_outputs_over_tokens: 500,
            summarizer_window_tokens: None,
            on_summarizer_error: FailurePolicy::Fallback,
        }
    }
}

/// Configuration of compaction: the `context` and `compression` sections.
///
/// With the `serde` feature it deserializes from a config file; missing
/// keys take their defaults and unknown keys are ignored, so the sections
/// can live inside a larger application config. Values are checked when a
/// [`Compactor`](crate::compact::Compactor) is built from it.
///
/// ```
/// use budget::compact::{CompactionConfig, FailurePolicy};
///
/// let mut config = CompactionConfig::default();
/// config.context.max_tokens = Some(32_000);
/// config.compression.on_summarizer_error = FailurePolicy::Abort;
/// assert!(config.compression.enabled);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct CompactionConfig {
    /// The `context` section.
    pub context: ContextSettings,
    /// The `compression` section.
    pub compression: CompressionSettings,
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn reads_the_hermes_keys_from_toml() {
        let config: CompactionConfig = toml::from_str(
            r#"
            [context]
            max_tokens = 32000
            engine = "compressor"   # unknown keys of the host config are ignored

            [compression]
            enabled = false
            threshold = 0.6
            target_ratio = 0.25
            on_summarizer_error = "abort"
            "#,
        )
        .expect("valid config");
        assert_eq!(config.context.max_tokens, Some(32_000));
        assert!(!config.compression.enabled);
        assert_eq!(config.compression.threshold, 0.6);
        assert_eq!(config.compression.target_ratio, 0.25);
        assert_eq!(config.compression.on_summarizer_error, FailurePolicy::Abort);
        // untouched keys keep their defaults
        assert_eq!(config.compression.protect_first_n, 3);
        assert_eq!(config.compression.max_summary_tokens, 12_000);
    }

    #[test]
    fn empty_document_is_the_default() {
        let config: CompactionConfig = toml::from_str("").expect("empty config");
        assert_eq!(config, CompactionConfig::default());
    }

    #[test]
    fn negative_window_is_a_parse_error() {
        let err = toml::from_str::<CompactionConfig>("[context]\nmax_tokens = -5\n");
        assert!(err.is_err());
    }
}
