//! The deterministic local summary used when the summarizer fails: a
//! mechanical digest of the messages, bounded in characters.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::chat::{Message, Role};
use crate::compact::clip::clip_chars;
use budget_runtime::estimate::count_chars;

/// Characters kept of each listed message (its first line).
const LINE_CHARS: u64 = 200;
/// Characters kept of the summarizer's error.
const ERROR_CHARS: u64 = 200;

/// A digest of `messages` of at most `max_chars` characters: counts by role,
/// tools used, the earlier summary (at most half the budget), then the
/// first line of each user and assistant message, oldest first, as far as
/// the budget allows. The same input always gives the same text.
pub(crate) fn fallback_summary(
    previous: Option<&str>,
    messages: &[Message],
    error: &str,
    max_chars: u64,
) -> String {
    let mut by_role = [0usize; 4];
    let mut tools: BTreeMap<&str, usize> = BTreeMap::new();
    for m in messages {
        by_role[m.role as usize] += 1;
        for call in &m.tool_calls {
            *tools.entry(call.name.as_str()).or_default() += 1;
        }
    }
    let mut text = String::new();
    let _ = write!(
        text,
        "The summarizer failed ({}); this is a mechanical digest of {} earlier messages \
         ({} user, {} assistant, {} tool results",
        clip_chars(error, ERROR_CHARS),
        messages.len(),
        by_role[Role::User as usize],
        by_role[Role::Assistant as usize],
        by_role[Role::Tool as usize],
    );
    if !tools.is_empty() {
        text.push_str("; tools used:");
        for (i, (name, count)) in tools.iter().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            let _ = write!(text, "{sep}{name} ×{count}");
        }
    }
    text.push_str(").\n");
    if let Some(previous) = previous {
        text.push_str("Earlier summary: ");
        text.push_str(&clip_chars(previous, max_chars / 2));
        text.push('\n');
    }
    let listed: Vec<&Message> = messages
        .iter()
        .filter(|m| matches!(m.role, Role::User | Role::Assistant) && !m.content.trim().is_empty())
        .collect();
    if !listed.is_empty() {
        text.push_str("Messages, oldest first:\n");
    }
    let mut used = count_chars(&text);
    for (shown, m) in listed.iter().enumerate() {
        let first_line = m.content.trim().lines().next().unwrap_or("");
        let line = format!("- {}: {}\n", m.role, clip_chars(first_line, LINE_CHARS));
        let more = format!("- … and {} more\n", listed.len() - shown);
        let line_chars = count_chars(&line);
        if used + line_chars + count_chars(&more) > max_chars {
            text.push_str(&more);
            break;
        }
        used += line_chars;
        text.push_str(&line);
    }
    clip_chars(text.trim_end(), max_chars).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::ToolCall;

    fn sample() -> Vec<Message> {
        vec![
            Message::user("Fix the failing test\nin detail"),
            Message::assistant_with_tool_calls(
                "Looking.",
                vec![
                    ToolCall::new("1", "grep", "{}"),
                    ToolCall::new("2", "read", "{}"),
                ],
            ),
            Message::tool_result("1", "out"),
            Message::tool_result("2", "out"),
            Message::assistant("Fixed the off-by-one."),
        ]
    }

    #[test]
    fn the_digest_is_exact_and_deterministic() {
        let text = fallback_summary(Some("Set up the repo."), &sample(), "timeout", 10_000);
        assert_eq!(
            text,
            "The summarizer failed (timeout); this is a mechanical digest of 5 earlier messages \
             (1 user, 2 assistant, 2 tool results; tools used: grep ×1, read ×1).\n\
             Earlier summary: Set up the repo.\n\
             Messages, oldest first:\n\
             - user: Fix the failing test\n\
             - assistant: Looking.\n\
             - assistant: Fixed the off-by-one."
        );
        assert_eq!(
            text,
            fallback_summary(Some("Set up the repo."), &sample(), "timeout", 10_000)
        );
    }

    #[test]
    fn the_digest_respects_its_bound() {
        let many: Vec<Message> = (0..1_000)
            .map(|i| Message::user(format!("request {i}")))
            .collect();
        for max in [0u64, 10, 150, 400, 2_000] {
            let text = fallback_summary(Some(&"p".repeat(5_000)), &many, "boom", max);
            assert!(count_chars(&text) <= max, "{} > {max}", count_chars(&text));
        }
        let text = fallback_summary(None, &many, "boom", 2_000);
        assert!(text.contains("- user: request 0\n"));
        assert!(text.contains("more"));
    }
}
