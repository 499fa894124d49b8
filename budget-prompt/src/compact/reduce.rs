//! Cheap reductions tried before any summarization: identical tool outputs
//! keep only their newest copy, and large old tool outputs become one-line
//! stubs. Both keep the tool message (and so its pairing with the call);
//! only its content is replaced, and every replacement is counted.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::ops::Range;

use crate::chat::{Message, Role};
use crate::compact::token_budget::TokenBudget;
use crate::compact::tool_pairs::ToolPairs;
use budget_runtime::estimate::count_chars;

/// Why a tool output's content is replaced (see [`Reduction`] for an example).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ReductionKind {
    /// Identical to a later tool output, kept at message index `kept`.
    Duplicate {
        /// Index of the newest copy, which stays.
        kept: usize,
    },
    /// Larger than `stub_tool_outputs_over_tokens`.
    Stub,
}

/// One planned replacement of a tool output's content.
///
/// ```
/// use budget::compact::{CompactionConfig, Compactor, PromptTokens, ReductionKind};
/// use budget::chat::{Message, ToolCall};
///
/// let out = "line\n".repeat(100);
/// let mut messages = vec![Message::system("s"), Message::user("u"), Message::assistant("a")];
/// for id in ["c1", "c2"] {
///     messages.push(Message::assistant_with_tool_calls("", vec![ToolCall::new(id, "cat", "{}")]));
///     messages.push(Message::tool_result(id, out.clone()));
/// }
/// messages.extend((0..30).map(|i| Message::user(format!("filler {i} {}", "x".repeat(400)))));
/// let compactor = Compactor::new(&CompactionConfig::default(), Some(8_000))?;
/// let plan = compactor.plan(&messages, PromptTokens::Estimate);
/// // the older copy (index 4) points at the newer one (index 6)
/// assert_eq!(plan.reductions()[0].index, 4);
/// assert_eq!(plan.reductions()[0].kind, ReductionKind::Duplicate { kept: 6 });
/// # Ok::<(), budget::compact::CompactionConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// Index of the tool message whose content is replaced.
    pub index: usize,
    /// Why.
    pub kind: ReductionKind,
    /// The one-line replacement content.
    pub replacement: String,
}

/// Reductions of the tool outputs in `range` (the compressible middle),
/// oldest first, each shorter than what it replaces, and the characters
/// they save. Hashes every tool output once.
pub(crate) fn plan_reductions(
    messages: &[Message],
    range: Range<usize>,
    pairs: &ToolPairs,
    budget: &TokenBudget,
    stub_over_tokens: u64,
) -> (Vec<Reduction>, u64) {
    if range.is_empty() {
        return (Vec::new(), 0);
    }
    // Newest first: a text seen before (later in the conversation) makes
    // this copy a duplicate of that newer one.
    let mut newest: HashMap<&str, usize> = HashMap::new();
    let mut duplicate_of = vec![None; range.len()];
    for i in (range.start..messages.len()).rev() {
        let m = &messages[i];
        if m.role != Role::Tool {
            continue;
        }
        match newest.entry(m.content.as_str()) {
            Entry::Occupied(kept) if i < range.end => {
                duplicate_of[i - range.start] = Some(*kept.get())
            }
            Entry::Occupied(_) => {}
            Entry::Vacant(slot) => {
                slot.insert(i);
            }
        }
    }
    let mut reductions = Vec::new();
    let mut saved = 0u64;
    for (i, kept) in range.zip(duplicate_of) {
        let m = &messages[i];
        if m.role != Role::Tool {
            continue;
        }
        let chars = count_chars(&m.content);
        let (kind, replacement) = match kept {
            Some(kept) => {
                let kept_id = messages[kept].tool_call_id.as_deref().unwrap_or("?");
                let text = format!(
                    "[duplicate tool output omitted: identical to the later result of call {kept_id}]"
                );
                (ReductionKind::Duplicate { kept }, text)
            }
            None => {
                let tokens = budget.tokens_for(chars, 0);
                if tokens <= stub_over_tokens {
                    continue;
                }
                let name = tool_name(messages, pairs, i).unwrap_or("a tool");
                let text = format!(
                    "[tool output omitted during compaction: about {tokens} tokens from {name}]"
                );
                (ReductionKind::Stub, text)
            }
        };
        let replacement_chars = count_chars(&replacement);
        if replacement_chars < chars {
            saved = saved.saturating_add(chars - replacement_chars);
            reductions.push(Reduction {
                index: i,
                kind,
                replacement,
            });
        }
    }
    (reductions, saved)
}

/// The name of the tool whose result is message `i`.
fn tool_name<'m>(messages: &'m [Message], pairs: &ToolPairs, i: usize) -> Option<&'m str> {
    let id = messages[i].tool_call_id.as_deref()?;
    let call_message = &messages[pairs.call_message_of(i)?];
    call_message
        .tool_calls
        .iter()
        .find(|call| call.id == id)
        .map(|call| call.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::ToolCall;
    use crate::compact::config::CompactionConfig;

    fn budget() -> TokenBudget {
        TokenBudget::new(&CompactionConfig::default(), Some(128_000)).unwrap()
    }

    fn call(id: &str, name: &str) -> Message {
        Message::assistant_with_tool_calls("", vec![ToolCall::new(id, name, "{}")])
    }

    #[test]
    fn duplicates_keep_the_newest_copy_even_in_the_tail() {
        let same = "x".repeat(400);
        let m = vec![
            call("a", "cat"),
            Message::tool_result("a", same.clone()),
            call("b", "cat"),
            Message::tool_result("b", same.clone()),
            call("c", "cat"),
            Message::tool_result("c", same),
        ];
        let pairs = ToolPairs::new(&m);
        // middle = 0..4: both older copies point at the newest kept copy (5)
        let (r, _) = plan_reductions(&m, 0..4, &pairs, &budget(), 500);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].index, 1);
        assert_eq!(r[0].kind, ReductionKind::Duplicate { kept: 5 });
        assert_eq!(r[1].kind, ReductionKind::Duplicate { kept: 5 });
        assert_eq!(
            r[0].replacement,
            "[duplicate tool output omitted: identical to the later result of call c]"
        );
    }

    #[test]
    fn large_outputs_become_stubs_naming_the_tool() {
        let m = vec![
            call("a", "read_file"),
            Message::tool_result("a", "y".repeat(4_000)), // 1000 tokens > 500
            call("b", "read_file"),
            Message::tool_result("b", "z".repeat(2_000)), // 500 tokens: not over
        ];
        let pairs = ToolPairs::new(&m);
        let (r, _) = plan_reductions(&m, 0..4, &pairs, &budget(), 500);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].index, 1);
        assert_eq!(r[0].kind, ReductionKind::Stub);
        assert_eq!(
            r[0].replacement,
            "[tool output omitted during compaction: about 1000 tokens from read_file]"
        );
    }

    #[test]
    fn short_duplicates_are_left_alone() {
        let m = vec![
            call("a", "ls"),
            Message::tool_result("a", "ok"),
            call("b", "ls"),
            Message::tool_result("b", "ok"),
        ];
        let pairs = ToolPairs::new(&m);
        assert!(
            plan_reductions(&m, 0..4, &pairs, &budget(), 500)
                .0
                .is_empty()
        );
    }
}
