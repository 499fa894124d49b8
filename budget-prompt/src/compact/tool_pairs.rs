//! [`ToolPairs`]: which message issued the call each tool result answers,
//! and where a conversation may be cut without separating a call from its
//! results. Built in one pass, O(n) in messages.

use std::collections::HashMap;

use crate::chat::{Message, Role};

/// Links between tool calls and tool results of one conversation.
#[derive(Debug)]
pub(crate) struct ToolPairs {
    /// For each message: if it is a tool result answering a call issued by
    /// an earlier assistant message, that message's index.
    call_message_of: Vec<Option<usize>>,
    /// `cut_ok[p]` (p in 0..=n): cutting between messages `p - 1` and `p`
    /// separates no call from any of its results.
    cut_ok: Vec<bool>,
}

impl ToolPairs {
    /// Links of `messages`. A result pairs with the latest earlier call of
    /// the same id; a result with no earlier call is an orphan.
    pub(crate) fn new(messages: &[Message]) -> Self {
        let n = messages.len();
        let mut issued: HashMap<&str, usize> = HashMap::new();
        let mut call_message_of = vec![None; n];
        for (i, message) in messages.iter().enumerate() {
            if message.role == Role::Tool
                && let Some(id) = message.tool_call_id.as_deref()
            {
                call_message_of[i] = issued.get(id).copied();
            }
            for call in &message.tool_calls {
                issued.insert(call.id.as_str(), i);
            }
        }
        // A cut at p is safe when every result at index >= p answers a call
        // at index >= p: the suffix minimum of call indices must be >= p.
        let mut cut_ok = vec![true; n + 1];
        let mut suffix_min = usize::MAX;
        for p in (0..n).rev() {
            if let Some(c) = call_message_of[p] {
                suffix_min = suffix_min.min(c);
            }
            cut_ok[p] = suffix_min >= p;
        }
        Self {
            call_message_of,
            cut_ok,
        }
    }

    /// The index of the message that issued the call result `i` answers.
    pub(crate) fn call_message_of(&self, i: usize) -> Option<usize> {
        self.call_message_of.get(i).copied().flatten()
    }

    /// Whether a cut before message `p` (`p == n`: after the last) keeps
    /// every call on the same side as its results.
    pub(crate) fn cut_ok(&self, p: usize) -> bool {
        self.cut_ok.get(p).copied().unwrap_or(false)
    }

    /// The smallest safe cut at or after `p` (at most `n`).
    pub(crate) fn cut_at_or_after(&self, p: usize) -> usize {
        let n = self.cut_ok.len() - 1;
        (p.min(n)..=n).find(|&q| self.cut_ok[q]).unwrap_or(n)
    }

    /// The largest safe cut at or before `p` (0 is always safe).
    pub(crate) fn cut_at_or_before(&self, p: usize) -> usize {
        let n = self.cut_ok.len() - 1;
        (0..=p.min(n)).rev().find(|&q| self.cut_ok[q]).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_never_fall_inside_a_call_group() {
        // 0 user, 1 call(a,b), 2 result a, 3 result b, 4 assistant
        let m = vec![
            Message::user("q"),
            Message::calling(&["a", "b"]),
            Message::tool_result("a", "1"),
            Message::tool_result("b", "2"),
            Message::assistant("done"),
        ];
        let pairs = ToolPairs::new(&m);
        let ok: Vec<bool> = (0..=5).map(|p| pairs.cut_ok(p)).collect();
        assert_eq!(ok, [true, true, false, false, true, true]);
        assert_eq!(pairs.call_message_of(3), Some(1));
        assert_eq!(pairs.cut_at_or_after(2), 4);
        assert_eq!(pairs.cut_at_or_before(3), 1);
    }

    #[test]
    fn results_before_their_call_are_orphans() {
        let m = vec![Message::tool_result("x", "early"), Message::calling(&["x"])];
        let pairs = ToolPairs::new(&m);
        assert_eq!(pairs.call_message_of(0), None);
        assert!((0..=2).all(|p| pairs.cut_ok(p)));
    }

    #[test]
    fn interleaved_groups_extend_the_unsafe_span() {
        // call a at 0, call b at 1, result a at 2, result b at 3
        let m = vec![
            Message::calling(&["a"]),
            Message::calling(&["b"]),
            Message::tool_result("a", ""),
            Message::tool_result("b", ""),
        ];
        let pairs = ToolPairs::new(&m);
        let ok: Vec<bool> = (0..=4).map(|p| pairs.cut_ok(p)).collect();
        assert_eq!(ok, [true, false, false, false, true]);
    }
}
