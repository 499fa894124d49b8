//! History trimming: keep the newest messages that fit a token budget,
//! cutting only where no tool call is separated from its results.

use crate::chat::Message;
use crate::compact::tool_pairs::ToolPairs;

/// The start of the longest suffix of `items` whose summed `cost` fits
/// `max_tokens`, among the cut points `cut_ok` allows (`cut_ok(p)`: cutting
/// before item `p` is allowed; `p == items.len()` keeps nothing). Costs are
/// summed with overflow checks: a sum beyond `u64` does not fit.
pub(crate) fn fitting_suffix_start<T>(
    items: &[T],
    max_tokens: u64,
    mut cost: impl FnMut(&T) -> u64,
    cut_ok: impl Fn(usize) -> bool,
) -> usize {
    let mut used: u64 = 0;
    let mut start = items.len();
    for (index, item) in items.iter().enumerate().rev() {
        match used.checked_add(cost(item)) {
            Some(next) if next <= max_tokens => {
                used = next;
                if cut_ok(index) {
                    start = index;
                }
            }
            _ => break,
        }
    }
    start
}

/// The newest messages of `messages` (oldest first) whose summed `cost`
/// fits `max_tokens`: the oldest are dropped, and the cut never separates
/// an assistant message's tool calls from their results (it moves later
/// instead, keeping less). Always a suffix of `messages`. `cost` gives a
/// message's tokens under any counter, for example
/// `|m| format.message_tokens(m, &counter)` with a
/// [`ChatFormat`](crate::chat::ChatFormat).
///
/// ```
/// use budget::compact::trim_messages;
/// use budget::chat::{Message, ToolCall};
///
/// let history = [
///     Message::user("list the files"),
///     Message::assistant_with_tool_calls("", vec![ToolCall::new("c1", "ls", "{}")]),
///     Message::tool_result("c1", "a.rs b.rs"),
///     Message::assistant("two files"),
/// ];
/// // 10 tokens per message: 25 would fit the result and the answer, but
/// // not the result's call, so only the answer stays.
/// assert_eq!(trim_messages(&history, 25, |_| 10), &history[3..]);
/// assert_eq!(trim_messages(&history, 30, |_| 10), &history[1..]);
/// ```
pub fn trim_messages(
    messages: &[Message],
    max_tokens: u64,
    cost: impl FnMut(&Message) -> u64,
) -> &[Message] {
    let pairs = ToolPairs::new(messages);
    let start = fitting_suffix_start(messages, max_tokens, cost, |p| pairs.cut_ok(p));
    &messages[start..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::ToolCall;
    use proptest::prelude::*;

    fn conversation(shapes: &[u8]) -> Vec<Message> {
        let mut out = Vec::new();
        for (i, &shape) in shapes.iter().enumerate() {
            match shape % 3 {
                0 => out.push(Message::user(format!("q{i}"))),
                1 => out.push(Message::assistant(format!("a{i}"))),
                _ => {
                    let ids: Vec<String> = (0..=shape % 2).map(|k| format!("c{i}_{k}")).collect();
                    out.push(Message::assistant_with_tool_calls(
                        "",
                        ids.iter().map(|id| ToolCall::new(id, "t", "{}")).collect(),
                    ));
                    out.extend(ids.iter().map(|id| Message::tool_result(id, "r")));
                }
            }
        }
        out
    }

    proptest! {
        /// The kept suffix fits, has every result's call, and is the longest
        /// such suffix.
        #[test]
        fn never_orphans_a_result_and_keeps_the_most(
            shapes in prop::collection::vec(0u8..6, 0..20),
            costs in prop::collection::vec(0u64..50, 60),
            max in 0u64..400,
        ) {
            let messages = conversation(&shapes);
            let cost_of = |m: &Message| {
                let i = messages.iter().position(|x| std::ptr::eq(x, m)).unwrap();
                costs[i % costs.len()]
            };
            let kept = trim_messages(&messages, max, cost_of);
            let start = messages.len() - kept.len();
            prop_assert!(kept.iter().map(cost_of).sum::<u64>() <= max);
            let pairs = ToolPairs::new(&messages);
            prop_assert!(pairs.cut_ok(start));
            // no longer suffix with a safe cut fits
            for p in 0..start {
                let sum: u64 = messages[p..].iter().map(cost_of).sum();
                prop_assert!(!(pairs.cut_ok(p) && sum <= max), "cut {} also fits", p);
            }
        }
    }
}
