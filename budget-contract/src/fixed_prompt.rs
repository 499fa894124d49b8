//! The fixed prompt of a model call: what every call of the step costs
//! before any history, context or output.

use budget_runtime::estimate::ContentType;
use budget_runtime::estimate::Estimator;

/// Tokens added to each step's fixed prompt for the chat format (role
/// markers, `[INST]` wrappers, separators): 64, the reference
/// implementation's conservative figure. Set another with
/// [`Checker::format_overhead`](crate::Checker::format_overhead).
pub const DEFAULT_FORMAT_OVERHEAD_TOKENS: u64 = 64;

/// The text a step always sends: the system prompt, a blank line, then the
/// user-part templates rendered empty, concatenated in order.
///
/// ```
/// use budget::contract::fixed_prompt_text;
///
/// let parts = ["### User:\n\n\n".to_owned()];
/// assert_eq!(fixed_prompt_text("Be brief.", &parts), "Be brief.\n\n### User:\n\n\n");
/// ```
pub fn fixed_prompt_text(system_prompt: &str, rendered_parts: &[String]) -> String {
    let mut text = String::with_capacity(
        system_prompt.len() + 2 + rendered_parts.iter().map(String::len).sum::<usize>(),
    );
    text.push_str(system_prompt);
    text.push_str("\n\n");
    rendered_parts.iter().for_each(|p| text.push_str(p));
    text
}

/// Tokens of a step's fixed prompt: `text` counted as prose by `estimator`
/// (an exact counter ignores the content type) plus `format_overhead_tokens`,
/// saturating.
///
/// ```
/// use budget::estimate::RatioEstimator;
/// use budget::contract::fixed_prompt_tokens;
///
/// // 40 characters of prose: ceil(40 / 4) = 10, plus 64.
/// assert_eq!(fixed_prompt_tokens(&"x".repeat(40), &RatioEstimator, 64), 74);
/// ```
pub fn fixed_prompt_tokens(
    text: &str,
    estimator: &dyn Estimator,
    format_overhead_tokens: u64,
) -> u64 {
    estimator
        .estimate(text, ContentType::Prose)
        .saturating_add(format_overhead_tokens)
}
