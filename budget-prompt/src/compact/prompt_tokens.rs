//! [`PromptTokens`]: where the size of the conversation comes from, our
//! estimate or the provider's own count.

use crate::chat::Message;
use budget_runtime::estimate::ContentType;
use budget_runtime::estimate::Estimator;

/// The size of a conversation given to the [`Compactor`](crate::compact::Compactor).
///
/// With [`PromptTokens::Reported`] the provider's count decides whether to
/// compact and is the `tokens_before` of the report. Planning still needs
/// per-message sizes, so the threshold and target are converted into
/// estimate units by the ratio `estimate / reported`, and the size after
/// compaction is converted back (rounded up).
///
/// ```
/// use budget::compact::PromptTokens;
/// let usage = PromptTokens::Reported(91_250); // e.g. `usage.prompt_tokens` of the last response
/// assert_ne!(usage, PromptTokens::Estimate);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum PromptTokens {
    /// Use the estimate of [`Compactor::estimate_tokens`](crate::compact::Compactor::estimate_tokens).
    #[default]
    Estimate,
    /// Use this prompt token count, as reported by the provider.
    Reported(u64),
}

impl PromptTokens {
    /// The conversation counted with `counter` — typically an exact
    /// [`TokenCounter`](budget_runtime::estimate::TokenCounter) such as [`ExactCounter`](budget_runtime::estimate::ExactCounter) — as
    /// [`PromptTokens::Reported`]: the content, tool names and tool-call
    /// arguments of every message (read as prose), plus
    /// `per_message_overhead` tokens per message. Use it where no provider
    /// count is at hand; the compactor then plans in this count's units.
    ///
    /// ```
    /// use budget::estimate::TokenCounter;
    /// use budget::compact::PromptTokens;
    /// use budget::chat::{Message, ToolCall};
    ///
    /// /// A toy counter: one token per whitespace-separated word.
    /// struct Words;
    /// impl TokenCounter for Words {
    ///     fn count_tokens(&self, text: &str) -> u64 { text.split_whitespace().count() as u64 }
    /// }
    /// let messages = [
    ///     Message::user("list the files"),
    ///     Message::assistant_with_tool_calls("", vec![ToolCall::new("c1", "ls", "{ \"path\": \".\" }")]),
    ///     Message::tool_result("c1", "a.rs b.rs"),
    /// ];
    /// // 3 + (0 + 1 + 4) + 2 words, plus 3 × 4 overhead.
    /// assert_eq!(PromptTokens::counted(&messages, &Words, 4), PromptTokens::Reported(22));
    /// ```
    pub fn counted(
        messages: &[Message],
        counter: &dyn Estimator,
        per_message_overhead: u64,
    ) -> Self {
        let count = |text: &str| counter.estimate(text, ContentType::Prose);
        let total = messages.iter().fold(0u64, |sum, message| {
            let calls = message.tool_calls.iter().fold(0u64, |sum, call| {
                sum.saturating_add(count(&call.name))
                    .saturating_add(count(&call.arguments))
            });
            sum.saturating_add(count(&message.content))
                .saturating_add(calls)
                .saturating_add(per_message_overhead)
        });
        Self::Reported(total)
    }
}

/// Converts between provider tokens and estimate units: `reported` tokens
/// correspond to `estimated` estimate units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scale {
    reported: u64,
    estimated: u64,
}

impl Scale {
    /// The scale for a conversation estimated at `estimated` tokens.
    /// Identity for [`PromptTokens::Estimate`] and whenever either count is 0.
    pub(crate) fn new(tokens: PromptTokens, estimated: u64) -> Self {
        match tokens {
            PromptTokens::Reported(reported) if reported > 0 && estimated > 0 => Self {
                reported,
                estimated,
            },
            _ => Self {
                reported: 1,
                estimated: 1,
            },
        }
    }

    /// Provider tokens → estimate units, rounded down (conservative for targets).
    pub(crate) fn to_estimate(self, tokens: u64) -> u64 {
        let units = u128::from(tokens) * u128::from(self.estimated) / u128::from(self.reported);
        u64::try_from(units).unwrap_or(u64::MAX)
    }

    /// Estimate units → provider tokens, rounded up (conservative for sizes).
    pub(crate) fn to_tokens(self, units: u64) -> u64 {
        let tokens =
            (u128::from(units) * u128::from(self.reported)).div_ceil(u128::from(self.estimated));
        u64::try_from(tokens).unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_is_the_identity() {
        let s = Scale::new(PromptTokens::Estimate, 1234);
        assert_eq!((s.to_estimate(999), s.to_tokens(999)), (999, 999));
    }

    #[test]
    fn reported_counts_rescale_both_ways() {
        // the provider counts 1.5× our estimate
        let s = Scale::new(PromptTokens::Reported(150), 100);
        assert_eq!(s.to_estimate(64_000), 42_666); // 64000·100/150 = 42666.67 → down
        assert_eq!(s.to_tokens(101), 152); // 101·1.5 = 151.5 → up
    }

    #[test]
    fn zero_counts_fall_back_to_the_identity() {
        assert_eq!(Scale::new(PromptTokens::Reported(0), 10).to_tokens(7), 7);
        assert_eq!(Scale::new(PromptTokens::Reported(10), 0).to_tokens(7), 7);
    }

    #[test]
    fn extremes_saturate() {
        let s = Scale::new(PromptTokens::Reported(u64::MAX), 1);
        assert_eq!(s.to_tokens(u64::MAX), u64::MAX);
        assert_eq!(s.to_estimate(u64::MAX), 1);
    }
}
