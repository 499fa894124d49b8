//! The final repair pass: afterwards every tool result sits in the block of
//! results right after the assistant message that issued its call, and
//! every call has exactly one result there. One pass, O(n).

use crate::chat::{Message, Role};
use crate::compact::report::RepairReport;

/// Content of the result inserted for a call that had none.
pub(crate) const PLACEHOLDER_RESULT: &str =
    "[no result was recorded for this tool call before the conversation was compacted]";

/// `messages` with orphaned tool results removed (no open call of that id
/// in the preceding call message), a placeholder result appended to the
/// result block of every call that had none, and a call id repeated within
/// one message renamed (with the result that answers it). All are recorded
/// in `report`.
pub(crate) fn repair_tool_pairs(messages: Vec<Message>, report: &mut RepairReport) -> Vec<Message> {
    let mut out = Vec::with_capacity(messages.len());
    // (id as written, id as sent) of the last call message's calls still
    // waiting for a result, in call order.
    let mut open: Vec<(String, String)> = Vec::new();
    for mut m in messages {
        if m.role == Role::Tool {
            let answered = m
                .tool_call_id
                .as_deref()
                .and_then(|id| open.iter().position(|(written, _)| written == id));
            match answered {
                Some(at) => {
                    let (_, sent) = open.remove(at);
                    m.tool_call_id = Some(sent);
                    out.push(m);
                }
                None => report
                    .removed_orphan_results
                    .push(m.tool_call_id.unwrap_or_default()),
            }
            continue;
        }
        close_block(&mut out, &mut open, report);
        let mut seen: Vec<&str> = Vec::new();
        let ids: Vec<String> = m.tool_calls.iter().map(|call| call.id.clone()).collect();
        for (call, written) in m.tool_calls.iter_mut().zip(&ids) {
            let repeats = seen.iter().filter(|&&s| s == written).count();
            seen.push(written);
            if repeats > 0 {
                let renamed = unique_id(written, repeats + 1, &ids);
                report.renamed_duplicate_calls.push(written.clone());
                call.id.clone_from(&renamed);
            }
            open.push((written.clone(), call.id.clone()));
        }
        out.push(m);
    }
    close_block(&mut out, &mut open, report);
    if !report.is_empty() {
        tracing::warn!(
            removed = report.removed_orphan_results.len(),
            placeholders = report.placeholder_results.len(),
            renamed = report.renamed_duplicate_calls.len(),
            "repaired unpaired or duplicate tool calls and results"
        );
    }
    out
}

/// `<id>~<n>`, with more `~` until it is none of the message's ids.
fn unique_id(id: &str, n: usize, ids: &[String]) -> String {
    let mut candidate = format!("{id}~{n}");
    while ids.contains(&candidate) {
        candidate = format!("{id}~{candidate}");
    }
    candidate
}

/// Whether [`repair_tool_pairs`] would change `messages`: a tool result that
/// answers no open call (or has no id), a call left without its result, or
/// a call id repeated within one message. Reads without copying.
pub(crate) fn needs_repair(messages: &[Message]) -> bool {
    let mut open: Vec<&str> = Vec::new();
    for m in messages {
        if m.role == Role::Tool {
            let answered = m
                .tool_call_id
                .as_deref()
                .and_then(|id| open.iter().position(|o| *o == id));
            match answered {
                Some(at) => {
                    open.remove(at);
                }
                None => return true,
            }
            continue;
        }
        if !open.is_empty() {
            return true;
        }
        for call in &m.tool_calls {
            if open.contains(&call.id.as_str()) {
                return true;
            }
            open.push(call.id.as_str());
        }
    }
    !open.is_empty()
}

/// Ends a result block: a placeholder result for every call still open.
fn close_block(
    out: &mut Vec<Message>,
    open: &mut Vec<(String, String)>,
    report: &mut RepairReport,
) {
    for (_, id) in open.drain(..) {
        out.push(Message::tool_result(id.clone(), PLACEHOLDER_RESULT));
        report.placeholder_results.push(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One message calling `a` twice: the second call and the result that
    /// answers it are renamed `a~2`; a chat API rejects a repeated id.
    #[test]
    fn a_call_id_repeated_in_one_message_is_renamed_with_its_result() {
        let m = vec![
            Message::calling(&["a", "a", "b"]),
            Message::tool_result("a", "first"),
            Message::tool_result("b", "bee"),
            Message::tool_result("a", "second"),
        ];
        assert!(needs_repair(&m));
        let mut report = RepairReport::default();
        let out = repair_tool_pairs(m, &mut report);
        assert_eq!(report.renamed_duplicate_calls, ["a"]);
        let calls: Vec<&str> = out[0].tool_calls.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(calls, ["a", "a~2", "b"]);
        let results: Vec<(&str, &str)> = out[1..]
            .iter()
            .map(|r| (r.tool_call_id.as_deref().unwrap(), r.content.as_str()))
            .collect();
        assert_eq!(results, [("a", "first"), ("b", "bee"), ("a~2", "second")]);
        assert!(!needs_repair(&out));
        // A repeat without its result gets a placeholder under its new id.
        let mut report = RepairReport::default();
        let out = repair_tool_pairs(
            vec![
                Message::calling(&["x", "x"]),
                Message::tool_result("x", "1"),
            ],
            &mut report,
        );
        assert_eq!(report.placeholder_results, ["x~2"]);
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn valid_conversations_are_unchanged() {
        let m = vec![
            Message::user("q"),
            Message::calling(&["a", "b"]),
            Message::tool_result("b", "2"),
            Message::tool_result("a", "1"),
            Message::assistant("done"),
        ];
        let mut report = RepairReport::default();
        assert_eq!(repair_tool_pairs(m.clone(), &mut report), m);
        assert!(report.is_empty());
    }

    #[test]
    fn orphan_results_are_removed_and_reported() {
        let m = vec![
            Message::tool_result("ghost", "x"),
            Message::calling(&["a"]),
            Message::tool_result("a", "1"),
            Message::tool_result("a", "again"),
            Message::assistant("between"),
            Message::tool_result("late", "y"),
            Message::calling(&["late"]),
            Message::tool_result("late", "ok"),
        ];
        let mut report = RepairReport::default();
        let out = repair_tool_pairs(m, &mut report);
        assert_eq!(report.removed_orphan_results, ["ghost", "a", "late"]);
        assert!(report.placeholder_results.is_empty());
        let contents: Vec<&str> = out.iter().map(|m| m.content.as_str()).collect();
        assert_eq!(contents, ["", "1", "between", "", "ok"]);
    }

    #[test]
    fn calls_without_results_get_a_placeholder_at_the_end_of_their_block() {
        let m = vec![
            Message::calling(&["a", "b"]),
            Message::tool_result("a", "1"),
            Message::assistant("next"),
            Message::calling(&["c"]),
        ];
        let mut report = RepairReport::default();
        let out = repair_tool_pairs(m, &mut report);
        assert_eq!(report.placeholder_results, ["b", "c"]);
        assert_eq!(out.len(), 6);
        assert_eq!(out[2].tool_call_id.as_deref(), Some("b"));
        assert_eq!(out[2].content, PLACEHOLDER_RESULT);
        assert_eq!(out[3].content, "next");
        assert_eq!(out[5].tool_call_id.as_deref(), Some("c"));
    }

    #[test]
    fn a_result_after_an_intervening_message_is_an_orphan() {
        let m = vec![
            Message::calling(&["a"]),
            Message::user("interrupt"),
            Message::tool_result("a", "1"),
        ];
        let mut report = RepairReport::default();
        let out = repair_tool_pairs(m, &mut report);
        assert_eq!(report.placeholder_results, ["a"]);
        assert_eq!(report.removed_orphan_results, ["a"]);
        assert_eq!(out.len(), 3);
        assert_eq!(out[1].role, Role::Tool);
        assert_eq!(out[2].content, "interrupt");
    }
}
