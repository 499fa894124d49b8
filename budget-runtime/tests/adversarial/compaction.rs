//! `Compactor::new` and `Compactor::compact`: hostile configurations,
//! conversations (broken tool pairs, huge messages, Unicode) and
//! summarizers that fail, panic, return nothing or far too much.

use std::borrow::Cow;
use std::panic::{AssertUnwindSafe, catch_unwind};

use budget::chat::{Message, Role, ToolCall};
use budget::compact::SummarizerError;
use budget::compact::{
    CompactionConfig, CompactionOutcome, Compactor, FailurePolicy, PromptTokens, SummaryRequest,
    SummarySource,
};
use proptest::prelude::*;

use crate::checks::{ensure, numbers_carried};
use crate::hostile;
use crate::ledger::{Broken, Ledger, Verdict, panic_message};

const USER_PANIC: &str = "user summarizer panicked on purpose";

#[derive(Clone, Copy, Debug)]
enum SummarizerSpec {
    Short,
    /// Exactly as long as the request allows.
    AtBound,
    /// Ten times longer than allowed.
    TooLong,
    Empty,
    Failing,
    Panicking,
}

fn summarize(spec: SummarizerSpec, request: SummaryRequest<'_>) -> Result<String, SummarizerError> {
    let bound = usize::try_from(request.max_summary_tokens.saturating_mul(4)).unwrap_or(usize::MAX);
    match spec {
        SummarizerSpec::Short => Ok(format!("{} messages", request.messages.len())),
        SummarizerSpec::AtBound => Ok("s".repeat(bound.min(1 << 22))),
        SummarizerSpec::TooLong => Ok("L".repeat(bound.saturating_mul(10).min(1 << 23))),
        SummarizerSpec::Empty => Ok("   ".into()),
        SummarizerSpec::Failing => Err(SummarizerError::failed("the model timed out after 30 s")),
        SummarizerSpec::Panicking => panic!("{USER_PANIC}"),
    }
}

#[derive(Clone, Debug)]
enum MessageSpec {
    System(String),
    User(String),
    Assistant(String),
    Call(String, String),
    /// One message calling two tools, whose ids may be equal.
    Calls(String, String),
    Result(String, String),
}

fn message() -> impl Strategy<Value = MessageSpec> {
    let id = prop::sample::select(&["call_1", "call_2", "", "call_1 "][..]).prop_map(str::to_owned);
    prop_oneof![
        1 => hostile::text().prop_map(MessageSpec::System),
        4 => hostile::text().prop_map(MessageSpec::User),
        4 => hostile::text().prop_map(MessageSpec::Assistant),
        2 => (id.clone(), hostile::text()).prop_map(|(id, args)| MessageSpec::Call(id, args)),
        1 => (id.clone(), id.clone()).prop_map(|(a, b)| MessageSpec::Calls(a, b)),
        2 => (id, hostile::text()).prop_map(|(id, out)| MessageSpec::Result(id, out)),
    ]
}

fn to_message(spec: &MessageSpec) -> Message {
    match spec {
        MessageSpec::System(t) => Message::system(t.clone()),
        MessageSpec::User(t) => Message::user(t.clone()),
        MessageSpec::Assistant(t) => Message::assistant(t.clone()),
        MessageSpec::Call(id, args) => Message::assistant_with_tool_calls(
            "",
            vec![ToolCall::new(id.clone(), "read", args.clone())],
        ),
        MessageSpec::Calls(a, b) => Message::assistant_with_tool_calls(
            "",
            vec![
                ToolCall::new(a.clone(), "read", "{}"),
                ToolCall::new(b.clone(), "read", "{}"),
            ],
        ),
        MessageSpec::Result(id, out) => Message::tool_result(id.clone(), out.clone()),
    }
}

/// Why a chat API would reject `messages`, if it would: a tool result that
/// answers no call of the assistant message right before its block, a call
/// left without its result, or a call id repeated within one message.
fn invalid_chat(messages: &[Message]) -> Option<String> {
    let mut open: Vec<&str> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        if m.role == Role::Tool {
            let id = m.tool_call_id.as_deref().unwrap_or("");
            match open.iter().position(|o| *o == id) {
                Some(at) => {
                    open.remove(at);
                }
                None => return Some(format!("message {i}: result {id:?} answers no open call")),
            }
            continue;
        }
        if !open.is_empty() {
            return Some(format!("message {i}: calls {open:?} have no result"));
        }
        for call in &m.tool_calls {
            if open.contains(&call.id.as_str()) {
                return Some(format!("message {i}: call id {:?} repeated", call.id));
            }
            open.push(&call.id);
        }
    }
    (!open.is_empty()).then(|| format!("calls {open:?} have no result at the end"))
}

#[derive(Clone, Debug)]
struct ConfigSpec {
    window: Option<u64>,
    threshold: f64,
    target_ratio: f64,
    protect_first_n: usize,
    min_tail_messages: usize,
    max_summary_tokens: u64,
    abort: bool,
    reported: Option<u64>,
}

fn config() -> impl Strategy<Value = ConfigSpec> {
    (
        prop::option::of(prop_oneof![3 => 1_000u64..200_000, 1 => any::<u64>(), 1 => 0u64..1_000]),
        prop_oneof![3 => 0.05f64..0.95, 1 => hostile::float()],
        prop_oneof![3 => 0.05f64..0.95, 1 => hostile::float()],
        0usize..6,
        0usize..8,
        prop_oneof![3 => 100u64..20_000, 1 => any::<u64>()],
        any::<bool>(),
        prop::option::of(prop_oneof![0u64..200_000, Just(u64::MAX)]),
    )
        .prop_map(
            |(
                window,
                threshold,
                target_ratio,
                protect_first_n,
                min_tail_messages,
                max_summary_tokens,
                abort,
                reported,
            )| {
                ConfigSpec {
                    window,
                    threshold,
                    target_ratio,
                    protect_first_n,
                    min_tail_messages,
                    max_summary_tokens,
                    abort,
                    reported,
                }
            },
        )
}

fn case(config: &ConfigSpec, messages: &[Message], summarizer: SummarizerSpec) -> Verdict {
    let mut settings = CompactionConfig::default();
    settings.context.max_tokens = config.window;
    settings.compression.threshold = config.threshold;
    settings.compression.target_ratio = config.target_ratio;
    settings.compression.protect_first_n = config.protect_first_n;
    settings.compression.min_tail_messages = config.min_tail_messages;
    settings.compression.max_summary_tokens = config.max_summary_tokens;
    settings.compression.on_summarizer_error = if config.abort {
        FailurePolicy::Abort
    } else {
        FailurePolicy::Fallback
    };
    let compactor = match Compactor::new(&settings, None) {
        Ok(c) => c,
        Err(e) => return numbers_carried(&e),
    };
    let tokens = match config.reported {
        Some(n) => PromptTokens::Reported(n),
        None => PromptTokens::Estimate,
    };
    let summarizer = |request: SummaryRequest<'_>| summarize(summarizer, request);
    let result = match catch_unwind(AssertUnwindSafe(|| {
        compactor.compact(messages, tokens, &summarizer)
    })) {
        Ok(result) => result,
        Err(payload) => {
            if panic_message(&*payload) == USER_PANIC {
                return Ok(());
            }
            std::panic::resume_unwind(payload);
        }
    };
    let out = match result {
        Ok(out) => out,
        Err(e) => {
            ensure(config.abort, || {
                Broken::BadError(format!("error under the fallback policy: {e}"))
            })?;
            return numbers_carried(&e);
        }
    };
    let report = &out.report;
    if let Some(why) = invalid_chat(&out.messages) {
        return Err(Broken::Loss(format!(
            "a chat API would reject the result: {why}"
        )));
    }
    // A call without its result is answered by a placeholder (a chat API
    // rejects it otherwise): the only growth allowed.
    let answered = !report.repairs.placeholder_results.is_empty();
    ensure(
        report.tokens_after <= report.tokens_before || answered,
        || {
            Broken::Overrun(format!(
                "grew from {} to {} tokens",
                report.tokens_before, report.tokens_after
            ))
        },
    )?;
    ensure(
        report.messages_before == messages.len() && report.messages_after == out.messages.len(),
        || {
            Broken::Loss(format!(
                "report says {} → {}, actual {} → {}",
                report.messages_before,
                report.messages_after,
                messages.len(),
                out.messages.len()
            ))
        },
    )?;
    if matches!(
        report.outcome,
        CompactionOutcome::NotNeeded | CompactionOutcome::NotSmaller { .. }
    ) {
        // Unchanged, or changed only by the repairs the report names (a
        // chat API rejects broken tool pairs, so they are repaired in every
        // path).
        ensure(
            matches!(out.messages, Cow::Borrowed(_)) || !report.repairs.is_empty(),
            || Broken::Loss("unchanged outcome but the messages changed".into()),
        )?;
    }
    // Every input message is kept (perhaps stubbed), summarized, or removed
    // by a repair the report names; the summary and placeholders are added.
    let summary = usize::from(report.summary != SummarySource::None);
    let expected = (messages.len() + summary + report.repairs.placeholder_results.len())
        .checked_sub(report.summarized_messages + report.repairs.removed_orphan_results.len());
    let changed = matches!(out.messages, Cow::Owned(_));
    ensure(!changed || expected == Some(out.messages.len()), || {
        Broken::Loss(format!(
            "{} messages in, {} out, {} summarized, summary {summary}, repairs {:?}",
            messages.len(),
            out.messages.len(),
            report.summarized_messages,
            report.repairs
        ))
    })
}

pub fn run(ledger: &Ledger) {
    // Hand-made: the audit's conversation (window 128K, three short pairs,
    // one 300,000-character message, a summarizer at its bound).
    let mut audit = vec![Message::system("You are a helpful assistant.")];
    for i in 0..3 {
        audit.push(Message::user(format!("Short question {i}?")));
        audit.push(Message::assistant(format!("Short answer {i}.")));
    }
    audit.push(Message::user("x".repeat(300_000)));
    let window = ConfigSpec {
        window: Some(128_000),
        threshold: 0.5,
        target_ratio: 0.2,
        protect_first_n: 3,
        min_tail_messages: 4,
        max_summary_tokens: 12_000,
        abort: false,
        reported: None,
    };
    for summarizer in [
        SummarizerSpec::AtBound,
        SummarizerSpec::TooLong,
        SummarizerSpec::Empty,
        SummarizerSpec::Failing,
        SummarizerSpec::Panicking,
    ] {
        for abort in [false, true] {
            let config = ConfigSpec {
                abort,
                ..window.clone()
            };
            ledger.hand_made(
                "Compactor::compact",
                (config, summarizer),
                |(config, summarizer)| case(config, &audit, *summarizer),
            );
        }
    }
    let long: Vec<Message> = (0..400)
        .map(|i| Message::user(format!("{i} {}", "word ".repeat(60))))
        .collect();
    ledger.hand_made("Compactor::compact", window.clone(), |config| {
        case(config, &long, SummarizerSpec::Short)
    });
    ledger.hand_made("Compactor::compact", "empty conversation", |_| {
        case(&window, &[], SummarizerSpec::Short)
    });
    // A lone call without its result, compaction needed at once: nothing
    // is smaller, and the input comes back answered, reported at its size.
    let eager = ConfigSpec {
        window: None,
        threshold: 0.05,
        target_ratio: 0.05,
        protect_first_n: 0,
        min_tail_messages: 0,
        max_summary_tokens: 100,
        ..window.clone()
    };
    let lone_call = [Message::assistant_with_tool_calls(
        "",
        vec![ToolCall::new("call_1", "t", "")],
    )];
    ledger.hand_made("Compactor::compact", "a lone unanswered call", |_| {
        case(&eager, &lone_call, SummarizerSpec::Short)
    });
    // A huge head and a small middle: a summary at its bound is larger than
    // the middle (clipped to the room, as in Hermes), and with an orphan
    // result in the middle no compaction is smaller (returned repaired).
    let small_window = ConfigSpec {
        window: Some(8_000),
        protect_first_n: 1,
        min_tail_messages: 1,
        max_summary_tokens: 400,
        ..window.clone()
    };
    let mut big_head = vec![Message::system("word ".repeat(5_600))];
    big_head.extend((0..6).map(|i| Message::user(format!("note {i} {}", "word ".repeat(40)))));
    big_head.push(Message::user("And now?"));
    ledger.hand_made(
        "Compactor::compact",
        "summary larger than the middle",
        |_| case(&small_window, &big_head, SummarizerSpec::AtBound),
    );
    let mut orphan = vec![Message::system("word ".repeat(5_600))];
    orphan.extend([
        Message::user("hi"),
        Message::tool_result("lost", "?"),
        Message::user("And now?"),
    ]);
    ledger.hand_made("Compactor::compact", "not smaller, with an orphan", |_| {
        case(&small_window, &orphan, SummarizerSpec::Short)
    });
    let duplicate = vec![
        Message::user("read both"),
        Message::assistant_with_tool_calls(
            "",
            vec![
                ToolCall::new("c", "read", "{}"),
                ToolCall::new("c", "read", "{}"),
            ],
        ),
        Message::tool_result("c", "one"),
        Message::tool_result("c", "two"),
        Message::assistant("done"),
    ];
    ledger.hand_made(
        "Compactor::compact",
        "a call id repeated in one message",
        |_| case(&window, &duplicate, SummarizerSpec::Short),
    );

    ledger.random(
        "Compactor::compact",
        (
            config(),
            prop::collection::vec(message(), 0..60),
            prop::sample::select(
                &[
                    SummarizerSpec::Short,
                    SummarizerSpec::AtBound,
                    SummarizerSpec::TooLong,
                    SummarizerSpec::Empty,
                    SummarizerSpec::Failing,
                    SummarizerSpec::Panicking,
                ][..],
            ),
        ),
        |(config, specs, summarizer)| {
            let messages: Vec<Message> = specs.iter().map(to_message).collect();
            case(config, &messages, *summarizer)
        },
    );
}
