use std::cell::{Cell, RefCell};

use super::*;
use crate::chat::{Role, ToolCall};
use crate::compact::summarizer::SummaryRequest;

/// System prompt, then `rounds` × (user, call, result, answer); each
/// text about `size` tokens.
fn transcript(rounds: usize, size: usize) -> Vec<Message> {
    let text = |tag: &str, i: usize| format!("{tag} {i} {}", "word ".repeat(size * 4 / 5));
    let mut m = vec![Message::system("You are a coding agent.")];
    for i in 0..rounds {
        let id = format!("call_{i}");
        m.push(Message::user(text("request", i)));
        m.push(Message::assistant_with_tool_calls(
            "",
            vec![ToolCall::new(
                &id,
                "read_file",
                format!("{{\"path\":\"src/f{i}.rs\"}}"),
            )],
        ));
        m.push(Message::tool_result(&id, text("contents", i)));
        m.push(Message::assistant(text("answer", i)));
    }
    m
}

fn compactor(window: u64, edit: impl FnOnce(&mut CompactionConfig)) -> Compactor {
    let mut config = CompactionConfig::default();
    edit(&mut config);
    Compactor::new(&config, Some(window)).expect("valid config")
}

fn ok_summarizer(req: SummaryRequest<'_>) -> Result<String, SummarizerError> {
    Ok(format!(
        "{}|{} msgs",
        req.previous_summary.unwrap_or("-"),
        req.messages.len()
    ))
}

fn failing(_: SummaryRequest<'_>) -> Result<String, SummarizerError> {
    Err(SummarizerError::failed("model unavailable"))
}

#[test]
fn below_the_threshold_nothing_changes() {
    let m = transcript(3, 50);
    let out = compactor(8_000, |_| {})
        .compact(&m, PromptTokens::Estimate, &failing)
        .unwrap();
    assert!(matches!(out.messages, Cow::Borrowed(_)));
    assert_eq!(out.report.outcome, CompactionOutcome::NotNeeded);
    assert_eq!(out.report.tokens_after, out.report.tokens_before);
}

#[test]
fn a_conversation_returned_repaired_reports_its_repaired_size() {
    let mut m = transcript(3, 50);
    // The last call's result is missing: the repair answers it.
    m.truncate(m.len() - 2);
    let compactor = compactor(8_000, |_| {});
    let out = compactor
        .compact(&m, PromptTokens::Estimate, &failing)
        .unwrap();
    assert_eq!(out.report.outcome, CompactionOutcome::NotNeeded);
    assert!(!out.report.repairs.is_empty());
    assert_eq!(
        out.report.tokens_after,
        compactor.estimate_tokens(&out.messages)
    );
    assert_ne!(out.report.tokens_after, out.report.tokens_before);
}

#[test]
fn the_middle_becomes_one_reference_only_summary() {
    let m = transcript(40, 100); // ~ 161 messages × ~104 tokens
    // a summarizer window large enough for the whole middle at once
    let c = compactor(8_000, |config| {
        config.compression.summarizer_window_tokens = Some(100_000);
    });
    let plan = c.plan(&m, PromptTokens::Estimate);
    assert!(plan.needed());
    let out = c
        .compact(&m, PromptTokens::Estimate, &ok_summarizer)
        .unwrap();
    let r = &out.report;
    assert_eq!(r.summary, SummarySource::Summarizer);
    assert_eq!(r.outcome, CompactionOutcome::ReachedTarget);
    assert!(r.tokens_after <= 1_600, "{}", r.tokens_after);
    assert_eq!(r.head_messages, plan.head().len());
    assert_eq!(r.tail_messages, plan.tail().len());
    assert_eq!(r.summarized_messages, plan.middle().len());
    assert_eq!(r.messages_after, r.head_messages + 1 + r.tail_messages);
    // head and tail verbatim, the summary in between
    let h = r.head_messages;
    assert_eq!(out.messages[..h], m[..h]);
    assert_eq!(out.messages[h + 1..], m[m.len() - r.tail_messages..]);
    let summary = &out.messages[h];
    assert!(summary.reference_only);
    assert_eq!(summary.role, plan.summary_role());
    assert_eq!(
        summary.content,
        format!("{SUMMARY_HEADER}-|{} msgs", plan.middle().len())
    );
    assert!(r.repairs.is_empty());
}

#[test]
fn reductions_alone_can_reach_the_target_without_a_summary() {
    // 6 huge identical tool outputs, small everything else.
    let big = "x".repeat(8_000); // 2000 tokens each
    let mut m = vec![
        Message::system("s"),
        Message::user("go"),
        Message::assistant("ok"),
    ];
    for i in 0..7 {
        let id = format!("c{i}");
        m.push(Message::assistant_with_tool_calls(
            "",
            vec![ToolCall::new(&id, "cat", "{}")],
        ));
        m.push(Message::tool_result(&id, big.clone()));
    }
    m.push(Message::assistant("read them all"));
    m.push(Message::user("thanks"));
    m.push(Message::assistant("welcome"));
    let calls = Cell::new(0);
    let counting = |req: SummaryRequest<'_>| {
        calls.set(calls.get() + 1);
        ok_summarizer(req)
    };
    // threshold min(max(8000, 64000), 13600) = 13600 < 7 × 2004; target 3200
    let c = compactor(16_000, |_| {});
    let out = c.compact(&m, PromptTokens::Estimate, &counting).unwrap();
    assert_eq!(calls.get(), 0);
    let r = &out.report;
    assert_eq!(r.summary, SummarySource::None);
    assert_eq!(r.outcome, CompactionOutcome::ReachedTarget);
    // the newest copy stays; older ones point at it
    assert_eq!(r.deduplicated_tool_outputs, 6);
    assert_eq!(r.messages_after, m.len());
    let kept: Vec<_> = out.messages.iter().filter(|x| x.content == big).collect();
    assert_eq!(kept.len(), 1);
}

#[test]
fn fallback_policy_writes_a_bounded_local_summary() {
    let m = transcript(40, 100);
    let c = compactor(8_000, |_| {});
    let out = c.compact(&m, PromptTokens::Estimate, &failing).unwrap();
    let r = &out.report;
    assert_eq!(
        r.summary,
        SummarySource::Fallback {
            error: "the summarizer failed: model unavailable".into()
        }
    );
    assert_eq!(r.summarizer_calls, 1);
    let summary = &out.messages[r.head_messages];
    assert!(summary.reference_only);
    assert!(summary.content.contains("mechanical digest"));
    // the summary message fits its bound of 400 tokens
    assert!(c.budget().message_tokens(summary) <= 400);
    assert!(r.tokens_after <= 1_600);
}

#[test]
fn an_empty_summary_counts_as_a_failure() {
    let m = transcript(40, 100);
    let empty = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok(" \n".into()) };
    let out = compactor(8_000, |_| {})
        .compact(&m, PromptTokens::Estimate, &empty)
        .unwrap();
    assert!(matches!(out.report.summary, SummarySource::Fallback { .. }));
}

#[test]
fn abort_policy_returns_an_error_and_changes_nothing() {
    let m = transcript(40, 100);
    let c = compactor(8_000, |config| {
        config.compression.on_summarizer_error = FailurePolicy::Abort;
    });
    // fail on the second request: the summary of the first is not used
    let second_fails = |req: SummaryRequest<'_>| match req.chunk {
        0 => ok_summarizer(req),
        _ => failing(req),
    };
    let err = c
        .compact(&m, PromptTokens::Estimate, &second_fails)
        .unwrap_err();
    let CompactionError::Summarizer { chunk, chunks, .. } = &err;
    // 8K summarizer window: 8000 - 2 × 400 = 7200 tokens per request,
    // the ~146-message middle (~15 000 tokens) needs more than one
    assert_eq!(*chunk, 2);
    assert!(*chunks >= 2);
    assert_eq!(
        err.to_string(),
        format!(
            "summarization failed on request 2 of {chunks}; the failure policy is abort, so the conversation is unchanged"
        )
    );
    assert!(std::error::Error::source(&err).is_some());
}

#[test]
fn the_summarizer_never_receives_more_than_its_window() {
    let m = transcript(40, 100);
    // window 2000, summary bound 400 → at most 1200 tokens of messages
    // plus a previous summary of at most 400 per request.
    let c = compactor(8_000, |config| {
        config.compression.summarizer_window_tokens = Some(2_000);
    });
    let budget = *c.budget();
    let seen = RefCell::new(Vec::new());
    let checking = |req: SummaryRequest<'_>| {
        let messages = budget.estimate_tokens(req.messages);
        let previous = req
            .previous_summary
            .map_or(0, |p| budget.tokens_for(count_chars(p), 0));
        seen.borrow_mut()
            .push((messages, previous, req.chunk, req.chunks));
        Ok(format!("summary after request {}", req.chunk))
    };
    let out = c.compact(&m, PromptTokens::Estimate, &checking).unwrap();
    let seen = seen.into_inner();
    assert!(seen.len() > 1, "{seen:?}");
    for (i, &(messages, previous, chunk, chunks)) in seen.iter().enumerate() {
        assert!(messages <= 1_200, "request {i}: {messages}");
        assert!(messages + previous + 400 <= 2_000);
        assert_eq!((chunk, chunks), (i, seen.len()));
    }
    assert_eq!(out.report.summarizer_calls, seen.len());
    let last = format!("summary after request {}", seen.len() - 1);
    assert!(
        out.messages[out.report.head_messages]
            .content
            .ends_with(&last)
    );
}

#[test]
fn a_second_compaction_extends_the_first_summary() {
    let c = compactor(8_000, |_| {});
    let mut m = transcript(40, 100);
    let first = c
        .compact(&m, PromptTokens::Estimate, &ok_summarizer)
        .unwrap()
        .messages
        .into_owned();
    let old_summary = first.iter().position(|x| x.reference_only).unwrap();
    m = first;
    m.extend(transcript(40, 100).into_iter().skip(1));
    let seen_previous = RefCell::new(None);
    let remember = |req: SummaryRequest<'_>| {
        if req.chunk == 0 {
            *seen_previous.borrow_mut() = req.previous_summary.map(str::to_owned);
        }
        ok_summarizer(req)
    };
    let out = c.compact(&m, PromptTokens::Estimate, &remember).unwrap();
    let previous = seen_previous.into_inner().expect("previous summary passed");
    assert_eq!(
        SUMMARY_HEADER.to_owned() + &previous,
        m[old_summary].content
    );
    assert_eq!(out.messages.iter().filter(|x| x.reference_only).count(), 1);
}

#[test]
fn reported_counts_trigger_and_scale_the_report() {
    let m = transcript(10, 30); // ~ 41 messages, far below 6800 estimated
    let c = compactor(8_000, |_| {});
    let estimated = c.budget().estimate_tokens(&m);
    assert!(!c.budget().needs_compaction(&m));
    let reported = 7_000;
    let out = c
        .compact(&m, PromptTokens::Reported(reported), &ok_summarizer)
        .unwrap();
    let r = &out.report;
    assert_eq!(r.tokens_before, 7_000);
    let after_estimate = c.budget().estimate_tokens(&out.messages);
    assert_eq!(
        r.tokens_after,
        (after_estimate * reported).div_ceil(estimated)
    );
    assert!(r.tokens_after <= 1_600, "{}", r.tokens_after);
}

#[test]
fn huge_protected_parts_are_reported_as_ineffective() {
    let m = transcript(40, 100);
    let c = compactor(8_000, |config| config.compression.min_tail_messages = 120);
    let out = c
        .compact(&m, PromptTokens::Estimate, &ok_summarizer)
        .unwrap();
    assert_eq!(out.report.outcome, CompactionOutcome::Ineffective);
    assert!(out.report.tokens_after > out.report.threshold_tokens);
}

#[test]
fn summary_roles_alternate_with_their_neighbours() {
    let m = transcript(40, 100);
    let out = compactor(8_000, |_| {})
        .compact(&m, PromptTokens::Estimate, &ok_summarizer)
        .unwrap();
    let h = out.report.head_messages;
    let (prev, summary, next) = (&out.messages[h - 1], &out.messages[h], &out.messages[h + 1]);
    assert_ne!(summary.role, prev.role);
    assert_ne!(summary.role, next.role);
    assert!(!out.report.role_conflict);
    assert_ne!(next.role, Role::Tool);
}

#[test]
fn small_windows_are_rejected_with_numbers() {
    // window 1000: target 200, summary bound 50 < 4 + ceil(139/4) + 32 = 71
    let err = Compactor::new(&CompactionConfig::default(), Some(1_000)).unwrap_err();
    assert_eq!(
        err,
        CompactionConfigError::SummaryBudgetTooSmall {
            summary_tokens: 50,
            required_tokens: 71
        }
    );
    let mut config = CompactionConfig::default();
    config.compression.summarizer_window_tokens = Some(1_000);
    // 128K: bound min(12000, 6400) = 6400; 1000 - 12800 → 0
    let err = Compactor::new(&config, None).unwrap_err();
    assert_eq!(
        err,
        CompactionConfigError::SummarizerWindowTooSmall {
            window_tokens: 1_000,
            summary_tokens: 6_400,
            input_tokens: 0,
            min_input_tokens: 256
        }
    );
}

#[cfg(feature = "async")]
#[test]
fn the_async_path_matches_the_sync_path() {
    struct Toy;
    impl crate::compact::AsyncSummarizer for Toy {
        async fn summarize(&self, request: SummaryRequest<'_>) -> Result<String, SummarizerError> {
            ok_summarizer(request)
        }
    }
    let m = transcript(40, 100);
    let c = compactor(8_000, |_| {});
    let sync = c
        .compact(&m, PromptTokens::Estimate, &ok_summarizer)
        .unwrap();
    let future = c.compact_async(&m, PromptTokens::Estimate, &Toy);
    let asynchronous = block_on(future).unwrap();
    assert_eq!(asynchronous.messages, sync.messages);
    assert_eq!(asynchronous.report, sync.report);
}

/// Polls a future that never waits to completion.
#[cfg(feature = "async")]
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    use std::sync::Arc;
    use std::task::{Context, Poll, Wake, Waker};
    struct Noop;
    impl Wake for Noop {
        fn wake(self: Arc<Self>) {}
    }
    let waker = Waker::from(Arc::new(Noop));
    let mut cx = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// Audit row: window 128K, a system prompt, three short Q/A pairs and
/// one 300,000-character user message; the summarizer writes as much as
/// it may. The conversation grew from 75,063 to 81,455 tokens and the
/// larger one was returned; then the input came back unchanged. A
/// summary cannot make it smaller, but leaving the short middle out
/// can: the result is smaller (still above the threshold: the huge
/// message is protected) and valid.
#[test]
fn never_returns_a_larger_conversation() {
    let mut messages = vec![Message::system("You are a helpful assistant.")];
    for i in 0..3 {
        messages.push(Message::user(format!("Short question {i}?")));
        messages.push(Message::assistant(format!("Short answer {i}.")));
    }
    messages.push(Message::user("x".repeat(300_000)));
    let verbose = |req: SummaryRequest<'_>| -> Result<String, SummarizerError> {
        let chars = usize::try_from(req.max_summary_tokens.saturating_mul(4)).unwrap();
        Ok("s".repeat(chars))
    };
    let compactor = Compactor::new(&CompactionConfig::default(), Some(128_000)).unwrap();
    let out = compactor
        .compact(&messages, PromptTokens::Estimate, &verbose)
        .unwrap();
    let report = &out.report;
    assert!(report.tokens_after < report.tokens_before, "{report:?}");
    assert_eq!(report.outcome, CompactionOutcome::Ineffective);
    // Six short messages are fewer tokens than the note: left out.
    assert_eq!(report.summary, SummarySource::None);
    assert!(report.summary_clipped);
    assert_eq!(out.messages.first(), messages.first());
    assert_eq!(out.messages.last(), messages.last());
    assert_eq!(
        compactor.estimate_tokens(&out.messages),
        report.tokens_after
    );
}

/// Hermes' `test_protects_first_and_last`: ten short alternating
/// messages reported at 90,000 tokens of a 100,000-token window,
/// protecting 2 first and 2 last, come back as the first 2, a summary
/// or note, and the last 2. The reported count is about 3,000 times the
/// estimate, which scaled a summary's header past the original: the
/// input used to come back as `NotSmaller`.
#[test]
fn protects_first_and_last_whatever_the_reported_count() {
    let messages: Vec<Message> = (0..10)
        .map(|i| {
            if i % 2 == 0 {
                Message::user(format!("msg {i}"))
            } else {
                Message::assistant(format!("msg {i}"))
            }
        })
        .collect();
    let c = compactor(100_000, |config| {
        config.compression.protect_first_n = 2;
        config.compression.min_tail_messages = 2;
    });
    let out = c
        .compact(&messages, PromptTokens::Reported(90_000), &ok_summarizer)
        .unwrap();
    let r = &out.report;
    assert!(
        !matches!(r.outcome, CompactionOutcome::NotSmaller { .. }),
        "{r:?}"
    );
    assert!(r.tokens_after < r.tokens_before, "{r:?}");
    // The first 2, the note, then the last 2 (the planner keeps one
    // more so that roles alternate after the note).
    let n = out.messages.len();
    assert!(n < messages.len(), "{:?}", out.messages);
    assert_eq!(out.messages[..2], messages[..2]);
    assert_eq!(out.messages[n - 2..], messages[8..]);
    assert!(out.messages[2].reference_only);
    assert_eq!(r.summary, SummarySource::Note);
    // Roles still alternate.
    assert!(
        out.messages.windows(2).all(|w| w[0].role != w[1].role),
        "{:?}",
        out.messages
    );
}

/// A huge head, a small middle, a short tail: a summary at its bound is
/// larger than the middle it replaces.
fn big_head(middle: &[Message]) -> Vec<Message> {
    let mut m = vec![Message::system("word ".repeat(5_600))]; // 7,000 tokens
    m.extend_from_slice(middle);
    m.push(Message::user("And now?"));
    m
}

/// Hermes: a summary that would not make the conversation smaller is
/// clipped to the room there is (or replaced by a static note), so the
/// result is smaller; before, the input came back unchanged.
#[test]
fn a_summary_that_does_not_help_is_clipped_to_the_room() {
    let middle: Vec<Message> = (0..6)
        .map(|i| Message::user(format!("note {i} {}", "word ".repeat(40))))
        .collect();
    let m = big_head(&middle);
    let c = compactor(8_000, |config| {
        config.compression.protect_first_n = 1;
        config.compression.min_tail_messages = 1;
    });
    let long =
        |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok("summary ".repeat(5_000)) };
    let out = c.compact(&m, PromptTokens::Estimate, &long).unwrap();
    let r = &out.report;
    assert!(
        !matches!(r.outcome, CompactionOutcome::NotSmaller { .. }),
        "{r:?}"
    );
    assert!(r.tokens_after < r.tokens_before, "{r:?}");
    assert_eq!(r.summary, SummarySource::Summarizer);
    assert!(r.summary_clipped);
    assert_eq!(out.messages[0], m[0]);
    assert_eq!(out.messages.last(), m.last());
    assert_eq!(c.estimate_tokens(&out.messages), r.tokens_after);
}

/// When no summary makes the conversation smaller, the middle is left
/// out, and tool pairs are still repaired: a tool result without its
/// call never leaves the compactor.
#[test]
fn a_middle_left_out_still_repairs_tool_pairs() {
    let m = big_head(&[Message::user("hi"), Message::tool_result("lost", "?")]);
    let c = compactor(8_000, |config| {
        config.compression.protect_first_n = 1;
        config.compression.min_tail_messages = 1;
    });
    let out = c
        .compact(&m, PromptTokens::Estimate, &ok_summarizer)
        .unwrap();
    let r = &out.report;
    assert!(r.tokens_after < r.tokens_before, "{r:?}");
    assert_eq!(r.summary, SummarySource::None);
    assert_eq!(r.repairs.removed_orphan_results, ["lost"]);
    assert!(
        out.messages.iter().all(|x| x.role != Role::Tool),
        "{:?}",
        out.messages
    );
    assert_eq!(out.messages.first(), m.first());
    assert_eq!(out.messages.last(), m.last());
}
