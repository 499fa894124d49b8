//! Property tests of compaction: tool pairs stay intact, the latest user
//! message and the head survive, and the result is under the target
//! whenever the protected parts fit.

use budget_prompt::chat::{Message, Role, ToolCall};
use budget_prompt::compact::SummarizerError;
use budget_prompt::compact::{
    CompactionConfig, CompactionOutcome, Compactor, PromptTokens, SummaryRequest,
};
use proptest::prelude::*;

/// One indivisible piece of a generated conversation.
#[derive(Clone, Debug)]
enum Unit {
    User(usize),
    Assistant(usize),
    /// An assistant message with one call per entry, then the results in
    /// call order or reversed. An entry is (result size, duplicate pool
    /// slot: < 2 means the result text is shared with other results).
    Tools(Vec<(usize, u8)>, bool),
}

/// A unit whose texts have up to `max` characters (tool results 2.5×).
fn unit(max: usize) -> impl Strategy<Value = Unit> {
    prop_oneof![
        3 => (0..max).prop_map(Unit::User),
        3 => (0..max).prop_map(Unit::Assistant),
        4 => (prop::collection::vec((0..max * 5 / 2, 0..6u8), 1..4), any::<bool>())
            .prop_map(|(calls, reversed)| Unit::Tools(calls, reversed)),
    ]
}

/// A generated conversation and the indices where units start (its only
/// safe cut points), with `len` as the last entry.
#[derive(Clone, Debug)]
struct Conversation {
    messages: Vec<Message>,
    cuts: Vec<usize>,
}

fn conversation() -> impl Strategy<Value = Conversation> {
    prop::sample::select(vec![300usize, 900, 2_400])
        .prop_flat_map(|max| (0..3usize, prop::collection::vec(unit(max), 1..150)))
        .prop_map(|(systems, units)| {
            let mut messages = Vec::new();
            let mut cuts = Vec::new();
            for s in 0..systems {
                cuts.push(messages.len());
                messages.push(Message::system(format!("system {s}")));
            }
            let mut next_id = 0;
            for (u, unit) in units.into_iter().enumerate() {
                cuts.push(messages.len());
                match unit {
                    Unit::User(size) => {
                        messages.push(Message::user(format!("u{u} {}", "q".repeat(size))))
                    }
                    Unit::Assistant(size) => {
                        messages.push(Message::assistant(format!("a{u} {}", "r".repeat(size))));
                    }
                    Unit::Tools(calls, reversed) => {
                        let ids: Vec<String> = calls
                            .iter()
                            .map(|_| {
                                next_id += 1;
                                format!("call_{next_id}")
                            })
                            .collect();
                        messages.push(Message::assistant_with_tool_calls(
                            "",
                            ids.iter()
                                .map(|id| ToolCall::new(id, "tool", format!("{{\"unit\":{u}}}")))
                                .collect(),
                        ));
                        let mut results: Vec<Message> = ids
                            .iter()
                            .zip(&calls)
                            .map(|(id, &(size, slot))| {
                                let text = if slot < 2 {
                                    format!("shared {slot} {}", "s".repeat(size))
                                } else {
                                    format!("{id} {}", "o".repeat(size))
                                };
                                Message::tool_result(id, text)
                            })
                            .collect();
                        if reversed {
                            results.reverse();
                        }
                        messages.extend(results);
                    }
                }
            }
            cuts.push(messages.len());
            Conversation { messages, cuts }
        })
}

#[derive(Clone, Copy, Debug)]
enum Behaviour {
    Ok,
    Fails,
    Empty,
    Verbose,
}

fn summarize(behaviour: Behaviour, req: SummaryRequest<'_>) -> Result<String, SummarizerError> {
    match behaviour {
        Behaviour::Ok => Ok(format!(
            "{} then {} messages",
            req.previous_summary.unwrap_or("start"),
            req.messages.len()
        )),
        Behaviour::Fails => Err(SummarizerError::failed("offline")),
        Behaviour::Empty => Ok(String::new()),
        Behaviour::Verbose => Ok("blah ".repeat(100_000)),
    }
}

fn setup() -> impl Strategy<Value = (u64, usize, usize, Option<u64>, Behaviour)> {
    (
        prop::sample::select(vec![4_000u64, 6_000, 8_000, 10_000, 16_000, 24_000]),
        0..6usize,
        0..8usize,
        prop::option::of(1_500..40_000u64),
        prop::sample::select(vec![
            Behaviour::Ok,
            Behaviour::Fails,
            Behaviour::Empty,
            Behaviour::Verbose,
        ]),
    )
}

/// Every tool result sits in the block right after the message that issued
/// its call, and every call has exactly one result there.
fn check_pairs(messages: &[Message]) -> Result<(), TestCaseError> {
    let mut open: Vec<&str> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        if m.role == Role::Tool {
            let id = m.tool_call_id.as_deref().unwrap_or("");
            let at = open.iter().position(|o| *o == id);
            prop_assert!(at.is_some(), "result {id} at {i} lacks its call");
            open.remove(at.unwrap_or(0));
        } else {
            prop_assert!(open.is_empty(), "calls {open:?} lack results before {i}");
            open = m.tool_calls.iter().map(|c| c.id.as_str()).collect();
        }
    }
    prop_assert!(open.is_empty(), "calls {open:?} lack results at the end");
    Ok(())
}

fn tokens(compactor: &Compactor, messages: &[Message]) -> u64 {
    compactor.estimate_tokens(messages)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn compaction_keeps_pairs_head_latest_user_and_target(
        conv in conversation(),
        (window, first_n, min_tail, summarizer_window, behaviour) in setup(),
    ) {
        let mut config = CompactionConfig::default();
        config.compression.protect_first_n = first_n;
        config.compression.min_tail_messages = min_tail;
        config.compression.summarizer_window_tokens = summarizer_window;
        let Ok(compactor) = Compactor::new(&config, Some(window)) else {
            // a summarizer window too small for two summaries is rejected
            return Ok(());
        };
        let budget = &compactor;
        let m = &conv.messages;
        let summarizer = |req: SummaryRequest<'_>| summarize(behaviour, req);
        let out = compactor.compact(m, PromptTokens::Estimate, &summarizer).unwrap();
        let report = &out.report;
        let result = &out.messages[..];

        if !budget.needs_compaction(m) {
            prop_assert_eq!(report.outcome, CompactionOutcome::NotNeeded);
            prop_assert_eq!(result, &m[..]);
            return Ok(());
        }

        // 1. no result without its call, no call without its result
        check_pairs(result)?;
        prop_assert!(report.repairs.is_empty(), "valid input needed repairs: {:?}", report.repairs);

        // 2. the latest user message survives verbatim
        let latest_user = m.iter().rposition(|x| x.role == Role::User);
        let kept_user = result.iter().rposition(|x| x.role == Role::User && !x.reference_only);
        prop_assert_eq!(latest_user.map(|i| &m[i]), kept_user.map(|i| &result[i]));

        // 3. the head survives
        let systems = m.iter().take_while(|x| x.role == Role::System).count();
        let k = first_n.min(m.len()).max(systems);
        prop_assert_eq!(&result[..k], &m[..k]);

        // 4. under the target whenever the protected parts fit: the head
        // (to the first cut at or after k), the summary bound, and the
        // forced tail (from the last cut at or before min(len - min_tail,
        // latest user)) plus the three units before it, which the summary's
        // role alternation may add.
        let cut_after = |p: usize| *conv.cuts.iter().find(|&&c| c >= p).unwrap();
        let cut_before = |p: usize| *conv.cuts.iter().rev().find(|&&c| c <= p).unwrap();
        let h = cut_after(k);
        let mut forced = cut_before(m.len().saturating_sub(min_tail)).max(h);
        if let Some(u) = latest_user.filter(|&u| u >= h) {
            forced = forced.min(cut_before(u).max(h));
        }
        let at = conv.cuts.iter().position(|&c| c == forced).unwrap();
        let grown = conv.cuts[at.saturating_sub(3)].max(h);
        let target = budget.target();
        let summary_bound = config.compression.max_summary_tokens.min(target / 4);
        let protected = tokens(budget, &m[..h]) + summary_bound + tokens(budget, &m[grown..]);
        let after = tokens(budget, result);
        prop_assert_eq!(report.tokens_after, after);
        if protected <= target {
            prop_assert!(after <= target, "after {} > target {} (protected {})", after, target, protected);
            prop_assert_eq!(report.outcome, CompactionOutcome::ReachedTarget);
        }
        prop_assert_eq!(report.outcome.is_ineffective(), after > budget.threshold());
        prop_assert_eq!(report.messages_after, result.len());
    }

    #[test]
    fn any_input_compacts_without_panicking_and_comes_out_paired(
        raw in prop::collection::vec(
            (0..4u8, 0..5u8, 0..3u8, 0..4_000usize, any::<bool>()),
            0..120,
        ),
    ) {
        // arbitrary roles, call ids from a tiny pool (duplicates, orphans,
        // results before calls) and stray reference-only messages
        let m: Vec<Message> = raw
            .iter()
            .map(|&(role, id, calls, size, reference)| {
                let text = "z".repeat(size);
                let message = match role {
                    0 => Message::system(text),
                    1 => Message::user(text),
                    2 => Message::assistant_with_tool_calls(
                        text,
                        (0..calls).map(|c| ToolCall::new(format!("id{}", (id + c) % 5), "t", "{}")).collect(),
                    ),
                    _ => Message::tool_result(format!("id{id}"), text),
                };
                message.with_reference_only(reference && role == 1)
            })
            .collect();
        let compactor = Compactor::new(&CompactionConfig::default(), Some(8_000)).unwrap();
        let summarizer = |req: SummaryRequest<'_>| summarize(Behaviour::Ok, req);
        let out = compactor.compact(&m, PromptTokens::Estimate, &summarizer).unwrap();
        if out.report.outcome != CompactionOutcome::NotNeeded {
            check_pairs(&out.messages)?;
            prop_assert_eq!(out.report.tokens_after, compactor.estimate_tokens(&out.messages));
        }
    }
}
