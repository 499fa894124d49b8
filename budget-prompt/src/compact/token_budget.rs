//! [`TokenBudget`]: when a conversation must be compacted and how small it
//! must become, following the threshold logic of the token-budget rules.

use crate::chat::Message;
use crate::compact::CompactionConfigError;
use crate::compact::config::CompactionConfig;
use budget_runtime::estimate::ContentType;
use budget_runtime::estimate::ratio_estimate;

/// Characters per token of the compaction estimate: `ceil(chars / 4)`.
///
/// ```
/// use budget::compact::{CHARS_PER_TOKEN, DEFAULT_CONTEXT_WINDOW, MAX_WINDOW_FRACTION, MINIMUM_CONTEXT_LENGTH};
/// assert_eq!((CHARS_PER_TOKEN, DEFAULT_CONTEXT_WINDOW, MINIMUM_CONTEXT_LENGTH), (4, 128_000, 64_000));
/// assert_eq!(MAX_WINDOW_FRACTION, 0.85);
/// ```
pub const CHARS_PER_TOKEN: u64 = 4;
/// Window assumed when neither the config nor the model names one (tokens).
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;
/// Floor of the compaction threshold (tokens): a large-window conversation
/// is never compacted below this, whatever the ratio says.
pub const MINIMUM_CONTEXT_LENGTH: u64 = 64_000;
/// The threshold never exceeds this fraction of the window, so compaction
/// fires before the window fills at any window size.
pub const MAX_WINDOW_FRACTION: f64 = 0.85;
/// Anti-thrash: the target must lie at least this fraction of the window
/// below the threshold, so one compaction buys room for several turns.
pub const MIN_THRESHOLD_TARGET_GAP: f64 = 0.10;

/// `trunc(available × ratio)`, the integer truncation of the token-budget rules. NaN
/// gives 0 and out-of-range products saturate.
const fn fraction_of(available: u64, ratio: f64) -> u64 {
    budget_rules::convert::saturating_u64_from_f64(available as f64 * ratio)
}

/// The compaction threshold of the token-budget rules, in tokens:
/// `min(max(trunc(available × ratio), MINIMUM_CONTEXT_LENGTH), trunc(available × MAX_WINDOW_FRACTION))`.
///
/// ```
/// use budget::compact::compaction_threshold;
/// assert_eq!(compaction_threshold(8_000, 0.5), 6_800); // the 85 % cap
/// assert_eq!(compaction_threshold(128_000, 0.5), 64_000); // the floor
/// assert_eq!(compaction_threshold(1_000_000, 0.5), 500_000); // the ratio
/// ```
pub const fn compaction_threshold(available_tokens: u64, threshold_ratio: f64) -> u64 {
    let by_ratio = fraction_of(available_tokens, threshold_ratio);
    let floored = if by_ratio > MINIMUM_CONTEXT_LENGTH {
        by_ratio
    } else {
        MINIMUM_CONTEXT_LENGTH
    };
    let ceiling = fraction_of(available_tokens, MAX_WINDOW_FRACTION);
    if floored < ceiling { floored } else { ceiling }
}

/// The compaction target of the token-budget rules, in tokens: `trunc(available × target_ratio)`.
///
/// ```
/// use budget::compact::compaction_target;
/// assert_eq!(compaction_target(128_000, 0.2), 25_600);
/// ```
pub const fn compaction_target(available_tokens: u64, target_ratio: f64) -> u64 {
    fraction_of(available_tokens, target_ratio)
}

/// Thresholds of one conversation's window, validated, all in tokens.
///
/// * `available_tokens`: `context.max_tokens` if set, else the model's
///   window, else [`DEFAULT_CONTEXT_WINDOW`].
/// * `compaction_threshold`: see [`compaction_threshold`].
/// * `compaction_target`: see [`compaction_target`]; at least
///   [`MIN_THRESHOLD_TARGET_GAP`] of the window below the threshold.
/// * Estimates: `ceil(chars / 4)` over every message's
///   [`char_count`](Message::char_count), plus
///   `per_message_overhead_tokens` per message (0 gives the token-budget rules' formula).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TokenBudget {
    available: u64,
    threshold: u64,
    target: u64,
    enabled: bool,
    per_message_overhead: u64,
}

impl TokenBudget {
    /// The budget for `config`, with `model_window` (tokens) as the model's
    /// context window when the config does not override it.
    ///
    /// # Errors
    /// A ratio that is NaN, infinite or outside its range, a window of 0
    /// tokens, or a target less than [`MIN_THRESHOLD_TARGET_GAP`] of the
    /// window below the threshold.
    pub(crate) fn new(
        config: &CompactionConfig,
        model_window: Option<u64>,
    ) -> Result<Self, CompactionConfigError> {
        let compression = &config.compression;
        let threshold_ratio = compression.threshold;
        if !(threshold_ratio.is_finite() && threshold_ratio > 0.0 && threshold_ratio <= 1.0) {
            return Err(CompactionConfigError::ThresholdOutOfRange {
                value: threshold_ratio,
            });
        }
        let target_ratio = compression.target_ratio;
        if !(target_ratio.is_finite() && target_ratio > 0.0 && target_ratio < 1.0) {
            return Err(CompactionConfigError::TargetRatioOutOfRange {
                value: target_ratio,
            });
        }
        let available = config
            .context
            .max_tokens
            .or(model_window)
            .unwrap_or(DEFAULT_CONTEXT_WINDOW);
        if available == 0 {
            return Err(CompactionConfigError::ZeroWindow);
        }
        let threshold = compaction_threshold(available, threshold_ratio);
        let target = compaction_target(available, target_ratio);
        let min_gap = fraction_of(available, MIN_THRESHOLD_TARGET_GAP);
        if target.saturating_add(min_gap) > threshold {
            return Err(CompactionConfigError::GapTooSmall {
                target_tokens: target,
                threshold_tokens: threshold,
                min_gap_tokens: min_gap,
                available_tokens: available,
            });
        }
        Ok(Self {
            available,
            threshold,
            target,
            enabled: compression.enabled,
            per_message_overhead: compression.per_message_overhead_tokens,
        })
    }

    /// The window compaction works against, in tokens.
    pub(crate) const fn available_tokens(&self) -> u64 {
        self.available
    }

    /// Compaction fires when the conversation is above this many tokens.
    pub(crate) const fn compaction_threshold(&self) -> u64 {
        self.threshold
    }

    /// A compaction aims to bring the conversation to at most this many tokens.
    pub(crate) const fn compaction_target(&self) -> u64 {
        self.target
    }

    /// Tokens counted per message on top of its characters.
    pub(crate) const fn per_message_overhead_tokens(&self) -> u64 {
        self.per_message_overhead
    }

    /// Tokens of `messages` messages holding `chars` characters in total:
    /// `ceil(chars / 4) + messages × overhead`.
    pub(crate) const fn tokens_for(&self, chars: u64, messages: u64) -> u64 {
        // `ratio_estimate` for prose is exactly ceil(chars / CHARS_PER_TOKEN).
        ratio_estimate(chars, ContentType::Prose)
            .saturating_add(messages.saturating_mul(self.per_message_overhead))
    }

    /// The estimated tokens of one message.
    pub(crate) fn message_tokens(&self, message: &Message) -> u64 {
        self.tokens_for(message.char_count(), 1)
    }

    /// The estimated tokens of a conversation: `ceil(total chars / 4)` plus
    /// the per-message overhead.
    pub(crate) fn estimate_tokens(&self, messages: &[Message]) -> u64 {
        let chars = messages
            .iter()
            .fold(0u64, |sum, m| sum.saturating_add(m.char_count()));
        self.tokens_for(chars, messages.len() as u64)
    }

    /// False when compaction is disabled, else whether the estimate of
    /// `messages` exceeds the threshold.
    pub(crate) fn needs_compaction(&self, messages: &[Message]) -> bool {
        self.needs_compaction_at(self.estimate_tokens(messages))
    }

    /// False when compaction is disabled, else whether `prompt_tokens`
    /// (for example the prompt token count a provider reported for the
    /// last request) exceeds the threshold.
    pub(crate) const fn needs_compaction_at(&self, prompt_tokens: u64) -> bool {
        self.enabled && prompt_tokens > self.threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The assertions of the examples `TokenBudget` had while it was public.
    #[test]
    fn former_public_examples() {
        let budget = TokenBudget::new(&CompactionConfig::default(), Some(8_000)).unwrap();
        assert_eq!(budget.compaction_threshold(), 6_800);
        assert_eq!(budget.compaction_target(), 1_600);
        let long = vec![Message::user("x".repeat(30_000))]; // 7 500 + 4 tokens
        assert!(budget.needs_compaction(&long));

        let budget = TokenBudget::new(&CompactionConfig::default(), None).unwrap();
        assert_eq!(budget.tokens_for(401, 2), 101 + 2 * 4);

        let mut config = CompactionConfig::default();
        config.compression.per_message_overhead_tokens = 0; // the token-budget rules' formula
        let budget = TokenBudget::new(&config, None).unwrap();
        assert_eq!(
            budget.estimate_tokens(&[Message::user("a".repeat(400))]),
            100
        );

        let budget = TokenBudget::new(&CompactionConfig::default(), Some(128_000)).unwrap();
        assert!(!budget.needs_compaction_at(64_000));
        assert!(budget.needs_compaction_at(64_001));
    }

    fn budget(window: u64) -> TokenBudget {
        TokenBudget::new(&CompactionConfig::default(), Some(window)).expect("valid defaults")
    }

    fn budget_for(config: &mut CompactionConfig, window: Option<u64>) -> TokenBudget {
        config.compression.per_message_overhead_tokens = 0;
        TokenBudget::new(config, window).expect("valid config")
    }

    #[test]
    fn an_8k_window_compacts_at_6800() {
        // min(max(trunc(8000·0.5)=4000, 64000), trunc(8000·0.85)=6800) = 6800
        let b = budget(8_000);
        assert_eq!(b.compaction_threshold(), 6_800);
        assert_eq!(b.compaction_target(), 1_600); // 8000·0.2
        // 8192: trunc(8192·0.85 = 6963.2) = 6963
        assert_eq!(budget(8_192).compaction_threshold(), 6_963);
    }

    #[test]
    fn a_64k_window_compacts_below_64k() {
        // min(max(32000, 64000), 54400) = 54400
        let b = budget(64_000);
        assert_eq!(b.compaction_threshold(), 54_400);
        assert!(b.compaction_threshold() < 64_000);
        assert_eq!(b.compaction_target(), 12_800);
    }

    #[test]
    fn large_windows_compact_at_the_floor_or_the_ratio() {
        // 128K: max(64000, 64000) = 64000 < 108800 → the floor (= the ratio here)
        assert_eq!(budget(128_000).compaction_threshold(), 64_000);
        // 100K: max(50000, 64000) = 64000 < 85000 → the floor
        assert_eq!(budget(100_000).compaction_threshold(), 64_000);
        // 200K: max(100000, 64000) = 100000 < 170000 → the ratio
        assert_eq!(budget(200_000).compaction_threshold(), 100_000);
        // 1M: 500000
        assert_eq!(budget(1_000_000).compaction_threshold(), 500_000);
        assert_eq!(budget(128_000).compaction_target(), 25_600);
    }

    #[test]
    fn available_tokens_prefers_the_override_then_the_model_then_the_default() {
        let mut config = CompactionConfig::default();
        assert_eq!(
            TokenBudget::new(&config, None).unwrap().available_tokens(),
            128_000
        );
        assert_eq!(
            TokenBudget::new(&config, Some(32_000))
                .unwrap()
                .available_tokens(),
            32_000
        );
        config.context.max_tokens = Some(16_000);
        assert_eq!(
            TokenBudget::new(&config, Some(32_000))
                .unwrap()
                .available_tokens(),
            16_000
        );
    }

    #[test]
    fn estimate_is_ceil_of_chars_over_four() {
        let b = budget_for(&mut CompactionConfig::default(), None);
        assert_eq!(b.estimate_tokens(&[Message::user("a".repeat(400))]), 100);
        assert_eq!(b.estimate_tokens(&[Message::user("a".repeat(401))]), 101);
        // summed over messages before rounding: 3 + 3 chars = 6 → 2
        assert_eq!(
            b.estimate_tokens(&[Message::user("abc"), Message::assistant("def")]),
            2
        );
        assert_eq!(b.estimate_tokens(&[]), 0);
    }

    #[test]
    fn estimate_counts_tool_arguments_and_overhead() {
        let b = budget(128_000); // overhead 4
        let m = Message::assistant_with_tool_calls(
            "abcd",
            vec![crate::chat::ToolCall::new("id", "grep", "{\"q\":\"x\"}")],
        );
        // chars 4 + 4 + 9 = 17 → 5 tokens, + 4 overhead
        assert_eq!(b.estimate_tokens(&[m]), 9);
    }

    #[test]
    fn needs_compaction_is_strictly_above_the_threshold() {
        let b = budget_for(&mut CompactionConfig::default(), Some(128_000));
        // the token-budget rules' examples: 300 000 chars = 75 000 tokens > 64 000
        assert!(b.needs_compaction(&[Message::user("x".repeat(300_000))]));
        assert!(!b.needs_compaction(&[Message::user("short message")]));
        // exactly at the threshold is not above it: 256 000 chars = 64 000
        assert!(!b.needs_compaction(&[Message::user("x".repeat(256_000))]));
        assert!(b.needs_compaction(&[Message::user("x".repeat(256_001))]));
    }

    #[test]
    fn the_ratio_governs_large_windows() {
        let b = budget_for(&mut CompactionConfig::default(), Some(1_000_000));
        assert!(b.needs_compaction(&[Message::user("x".repeat(2_400_000))]));
        // 125 000 tokens: above the floor, below the ratio
        assert!(!b.needs_compaction(&[Message::user("x".repeat(500_000))]));
    }

    #[test]
    fn disabled_never_needs_compaction() {
        let mut config = CompactionConfig::default();
        config.compression.enabled = false;
        let b = budget_for(&mut config, Some(8_000));
        assert!(!b.needs_compaction(&[Message::user("x".repeat(1_000_000))]));
        assert!(!b.needs_compaction_at(u64::MAX));
    }

    #[test]
    fn bad_ratios_are_typed_errors() {
        for value in [f64::NAN, f64::INFINITY, 0.0, -0.5, 1.5] {
            let mut config = CompactionConfig::default();
            config.compression.threshold = value;
            assert!(matches!(
                TokenBudget::new(&config, None),
                Err(CompactionConfigError::ThresholdOutOfRange { .. })
            ));
            let mut config = CompactionConfig::default();
            config.compression.target_ratio = value;
            assert!(matches!(
                TokenBudget::new(&config, None),
                Err(CompactionConfigError::TargetRatioOutOfRange { .. })
            ));
        }
        let mut config = CompactionConfig::default();
        config.compression.target_ratio = 1.0;
        assert!(TokenBudget::new(&config, None).is_err());
    }

    #[test]
    fn zero_window_is_rejected() {
        assert_eq!(
            TokenBudget::new(&CompactionConfig::default(), Some(0)),
            Err(CompactionConfigError::ZeroWindow)
        );
    }

    #[test]
    fn the_threshold_target_gap_is_enforced() {
        let mut config = CompactionConfig::default();
        config.compression.target_ratio = 0.45; // 57 600 vs threshold 64 000
        let err = TokenBudget::new(&config, Some(128_000)).unwrap_err();
        assert_eq!(
            err,
            CompactionConfigError::GapTooSmall {
                target_tokens: 57_600,
                threshold_tokens: 64_000,
                min_gap_tokens: 12_800,
                available_tokens: 128_000,
            }
        );
        assert_eq!(
            err.to_string(),
            "compaction target 57600 tokens must be at least 12800 tokens below the threshold of 64000 tokens (window 128000 tokens)"
        );
        // 0.40 → 51 200 + 12 800 = 64 000: exactly the gap, accepted
        config.compression.target_ratio = 0.40;
        assert!(TokenBudget::new(&config, Some(128_000)).is_ok());
    }

    #[test]
    fn huge_windows_saturate_instead_of_overflowing() {
        let b = budget(u64::MAX);
        assert!(b.compaction_threshold() >= b.compaction_target());
        assert_eq!(b.tokens_for(u64::MAX, u64::MAX), u64::MAX);
    }
}
