//! The fixed prompt of a model call: system prompt, user-part templates
//! rendered empty, and the chat format's per-message overhead.

use crate::estimate::Estimator;
use crate::model::ContentType;

/// Tokens a chat format adds around the text, in tokens.
///
/// Chat APIs wrap every message in a role marker and delimiters (3 tokens
/// per message in OpenAI's published counting rule for its chat models,
/// up to 4 for older formats) and prime the reply with about 3 more. The
/// defaults, 4 per message and 3 per request, round up so the contract stays
/// on the safe side; set exact figures for your provider with the fields.
///
/// ```
/// use budget_runtime::contract::FormatOverhead;
///
/// let o = FormatOverhead::default();
/// assert_eq!((o.per_message_tokens, o.per_request_tokens), (4, 3));
/// assert_eq!(o.for_messages(3), 15); // 3 * 4 + 3
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FormatOverhead {
    /// Tokens added for each message (role marker and delimiters).
    pub per_message_tokens: u64,
    /// Tokens added once per request (reply priming).
    pub per_request_tokens: u64,
}

impl Default for FormatOverhead {
    fn default() -> Self {
        Self {
            per_message_tokens: 4,
            per_request_tokens: 3,
        }
    }
}

impl FormatOverhead {
    /// The overhead of a request with `messages` messages, saturating.
    pub const fn for_messages(self, messages: u64) -> u64 {
        self.per_message_tokens
            .saturating_mul(messages)
            .saturating_add(self.per_request_tokens)
    }
}

/// Tokens of a call's fixed prompt: the system prompt (estimated as
/// `system_type`), each user part already rendered with empty values
/// (estimated as prose, one message each) and the format overhead for
/// `1 + user_parts.len()` messages. Saturates instead of overflowing.
///
/// ```
/// use budget_runtime::{ContentType, SeedEstimator};
/// use budget_runtime::contract::{FormatOverhead, fixed_prompt_tokens};
///
/// let tokens = fixed_prompt_tokens(
///     "You are a careful assistant.", // 28 chars of prose: ceil(28 / 4) = 7
///     ContentType::Prose,
///     &["Question: "],                // 10 chars: ceil(10 / 4) = 3
///     &SeedEstimator,
///     FormatOverhead::default(),      // 2 messages * 4 + 3 = 11
/// );
/// assert_eq!(tokens, 7 + 3 + 11);
/// ```
pub fn fixed_prompt_tokens(
    system_prompt: &str,
    system_type: ContentType,
    user_parts: &[&str],
    estimator: &dyn Estimator,
    overhead: FormatOverhead,
) -> u64 {
    let messages = u64::try_from(user_parts.len())
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    user_parts
        .iter()
        .map(|part| estimator.estimate(part, ContentType::Prose))
        .fold(
            estimator.estimate(system_prompt, system_type),
            u64::saturating_add,
        )
        .saturating_add(overhead.for_messages(messages))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::{SeedEstimator, TokenCounter};

    struct Words;
    impl TokenCounter for Words {
        fn count_tokens(&self, text: &str) -> u64 {
            text.split_whitespace().count() as u64
        }
    }

    #[test]
    fn uses_the_given_counter() {
        let o = FormatOverhead {
            per_message_tokens: 3,
            per_request_tokens: 3,
        };
        // 4 words + (1 + 1) words + 3 messages * 3 + 3
        assert_eq!(
            fixed_prompt_tokens(
                "one two three four",
                ContentType::Markdown,
                &["a", "b "],
                &Words,
                o
            ),
            4 + 2 + 12
        );
    }

    #[test]
    fn markdown_system_prompt_uses_markdown_ratio() {
        // 16 chars: markdown ceil(16 / 3.75) = 5, prose would be 4.
        let zero = FormatOverhead {
            per_message_tokens: 0,
            per_request_tokens: 0,
        };
        let text = "0123456789abcdef";
        assert_eq!(
            fixed_prompt_tokens(text, ContentType::Markdown, &[], &SeedEstimator, zero),
            5
        );
        assert_eq!(
            fixed_prompt_tokens(text, ContentType::Prose, &[], &SeedEstimator, zero),
            4
        );
    }

    #[test]
    fn empty_prompt_costs_only_overhead() {
        assert_eq!(
            fixed_prompt_tokens(
                "",
                ContentType::Prose,
                &[],
                &SeedEstimator,
                FormatOverhead::default()
            ),
            7
        );
    }
}
