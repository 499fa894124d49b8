//! `PromptBudget`: the counted request never exceeds the window minus the
//! reserve under the exact counter, and history keeps its tool pairs.

use std::collections::HashSet;

use budget_prompt::chat::{ChatFormat, ToolDefinition, ToolParameter};
use budget_prompt::chat::{Message, Role, ToolCall};
use budget_prompt::compact::SummarizerError;
use budget_prompt::compact::SummaryRequest;
use budget_prompt::prompt::{DEFAULT_DOCUMENTS_HEADER, PromptBudget, PromptError, Turn};
use budget_runtime::estimate::{Encoding, ExactCounter};
use budget_runtime::model::ContractTerms;
use budget_runtime::{ContextItem, Item};
use proptest::prelude::*;

fn counter() -> ExactCounter {
    ExactCounter::new(Encoding::O200kBase).unwrap()
}

fn summarize(request: SummaryRequest<'_>) -> Result<String, SummarizerError> {
    Ok(format!(
        "{} earlier messages about files.",
        request.messages.len()
    ))
}

fn tools() -> Vec<ToolDefinition> {
    vec![
        ToolDefinition::new("read_file", "Read a file of the repository.")
            .parameter(
                ToolParameter::new("path", "string", "Path from the repository root").required(),
            )
            .expect("one parameter"),
        ToolDefinition::new("run", "Run a shell command.")
            .parameter(
                ToolParameter::new("mode", "string", "How to run it").with_enum(["fast", "full"]),
            )
            .expect("one parameter"),
    ]
}

/// A history of `turns` rounds: user, a call of one or two tools, the
/// results, an answer; texts of `size` words, some in Chinese.
fn history(turns: usize, size: usize) -> Vec<Message> {
    let mut out = Vec::new();
    for i in 0..turns {
        let words = if i % 3 == 0 {
            "文件读取失败 "
        } else {
            "the build output "
        };
        out.push(Message::user(format!(
            "request {i}: {}",
            words.repeat(size)
        )));
        let ids: Vec<String> = (0..1 + i % 2).map(|k| format!("call_{i}_{k}")).collect();
        out.push(Message::assistant_with_tool_calls(
            "",
            ids.iter()
                .map(|id| ToolCall::new(id, "read_file", format!("{{\"path\":\"src/{id}.rs\"}}")))
                .collect(),
        ));
        for id in &ids {
            out.push(Message::tool_result(
                id,
                format!("fn {id}() {{}}\n").repeat(size),
            ));
        }
        out.push(Message::assistant(format!(
            "answer {i}: {}",
            words.repeat(size / 2)
        )));
    }
    out
}

fn documents(count: usize, size: usize) -> Vec<Item> {
    (0..count)
        .map(|i| {
            Item::builder(format!(
                "doc {i}: {}",
                "retrieved passage ".repeat(size + i % 7)
            ))
            .relevance(((i * 37) % 100) as f64 / 100.0)
            .build()
            .unwrap()
        })
        .collect()
}

/// Every tool result in `messages` answers a call of an earlier message.
fn no_orphans(messages: &[Message]) -> bool {
    let mut issued = HashSet::new();
    messages.iter().all(|m| {
        issued.extend(m.tool_calls.iter().map(|c| c.id.clone()));
        m.role != Role::Tool
            || m.tool_call_id
                .as_ref()
                .is_some_and(|id| issued.contains(id))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn total_never_exceeds_window_minus_reserve(
        window in 1_500u64..20_000,
        reserve_part in 0u64..4,
        share in 0.0f64..=1.0,
        turns in 0usize..25,
        size in 1usize..40,
        docs in 0usize..30,
    ) {
        let reserve = window * reserve_part / 10;
        let budget = PromptBudget::builder(window)
            .output_reserve(reserve)
            .history_share(share)
            .counter(counter())
            .build()
            .unwrap();
        let tools = tools();
        let history = history(turns, size);
        let docs = documents(docs, size);
        let turn = Turn::new("You are a coding agent.").tools(&tools).history(&history).documents(&docs);
        match budget.fit(turn, &summarize) {
            Ok(fitted) => {
                // recounted independently of the report
                let total = ChatFormat::openai(Encoding::O200kBase)
                    .request_tokens(&fitted.messages, &tools, &counter());
                prop_assert_eq!(total, fitted.report.total_tokens);
                prop_assert!(total + reserve <= window, "{} + {} > {}", total, reserve, window);
                prop_assert!(no_orphans(&fitted.messages));
                if let Some(newest) = history.iter().rev().find(|m| m.role == Role::User) {
                    prop_assert!(fitted.messages.contains(newest), "the newest user message is kept");
                }
                prop_assert_eq!(
                    fitted.report.documents_included.len() + fitted.report.documents_left_out.len(),
                    docs.len()
                );
            }
            Err(PromptError::DoesNotFit { required_tokens, available_tokens, .. }) => {
                prop_assert!(required_tokens > available_tokens);
                prop_assert_eq!(available_tokens, window - reserve);
            }
            Err(other) => prop_assert!(false, "unexpected error: {other}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// A budget built from a contract's terms sends requests within them:
    /// recounted independently, the request plus the reserve and the margin
    /// fits the window, the context message stays under its limit, and the
    /// report's terms pass the contract's own check.
    #[test]
    fn a_budget_from_contract_terms_keeps_them(
        window in 3_000u64..20_000,
        reserve_part in 0u64..3,
        margin in 0u64..500,
        history_part in 1u64..5,
        context_part in 1u64..5,
        turns in 0usize..20,
        size in 1usize..30,
        docs in 0usize..30,
    ) {
        let reserve = window * reserve_part / 10;
        let terms = ContractTerms {
            fixed_prompt_tokens: 0,
            max_history_tokens: window * history_part / 10,
            max_context_tokens: window * context_part / 10,
            max_output_tokens: reserve,
            safety_margin_tokens: margin,
            context_window: window,
        };
        let budget = PromptBudget::from_terms(&terms).counter(counter()).build().unwrap();
        let tools = tools();
        let history = history(turns, size);
        let docs = documents(docs, size);
        let turn = Turn::new("You are a coding agent.").tools(&tools).history(&history).documents(&docs);
        match budget.fit(turn, &summarize) {
            Ok(fitted) => {
                let format = ChatFormat::openai(Encoding::O200kBase);
                let total = format.request_tokens(&fitted.messages, &tools, &counter());
                prop_assert!(total + reserve + margin <= window, "{} + {} + {} > {}", total, reserve, margin, window);
                if let Some(context) = fitted
                    .messages
                    .iter()
                    .find(|m| m.content.starts_with(DEFAULT_DOCUMENTS_HEADER))
                {
                    let tokens = format.message_tokens(context, &counter());
                    prop_assert!(tokens <= terms.max_context_tokens, "context {} > {}", tokens, terms.max_context_tokens);
                }
                let used = fitted.report.terms();
                prop_assert_eq!(used.check(), Ok(()));
                prop_assert_eq!(used.max_output_tokens, reserve);
                prop_assert_eq!(used.safety_margin_tokens, margin);
                prop_assert!(used.max_context_tokens <= terms.max_context_tokens);
            }
            Err(PromptError::DoesNotFit { required_tokens, available_tokens, .. }) => {
                prop_assert!(required_tokens > available_tokens);
                prop_assert_eq!(available_tokens, window - reserve - margin);
            }
            Err(other) => prop_assert!(false, "unexpected error: {other}"),
        }
    }
}

#[test]
fn a_system_prompt_larger_than_the_window_is_a_typed_error_with_numbers() {
    let budget = PromptBudget::builder(1_000)
        .output_reserve(200)
        .counter(counter())
        .build()
        .unwrap();
    let system = format!("word{}", " word".repeat(1_999)); // 2 000 tokens in o200k_base
    let err = budget.fit(Turn::new(&system), &summarize).unwrap_err();
    let PromptError::DoesNotFit {
        system_tokens,
        available_tokens,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    // 2000 tokens of text; 3 framing + 1 role + 3 priming
    assert_eq!(*system_tokens, 2_007);
    assert_eq!(*available_tokens, 800);
    assert!(
        err.to_string()
            .contains("the 1000-token window minus the 200-token output reserve and the 0-token safety margin leaves 800"),
        "{err}"
    );
}

#[test]
fn a_long_agent_history_is_compacted_into_its_share() {
    let budget = PromptBudget::builder(16_384)
        .output_reserve(2_048)
        .counter(counter())
        .build()
        .unwrap();
    let tools = tools();
    let history = history(60, 30);
    let docs = documents(40, 40);
    let turn = Turn::new("You are a coding agent.")
        .tools(&tools)
        .history(&history)
        .documents(&docs);
    let fitted = budget.fit(turn, &summarize).unwrap();
    let report = &fitted.report;
    assert!(report.compaction.is_some(), "{report:?}");
    assert!(report.history_tokens <= report.history_budget_tokens);
    assert!(report.total_tokens + 2_048 <= 16_384);
    assert!(no_orphans(&fitted.messages));
    // the newest message survives compaction; retrieved items fill the rest
    assert_eq!(fitted.messages.last(), history.last());
    assert!(!fitted.documents.is_empty());
    assert!(fitted.documents.iter().all(|d| d.relevance().is_some()));
}

/// The default counter's promise: against exact `o200k_base` counts it
/// never undercounts non-Latin text by more than 10% (measured here on
/// sentences of eight scripts, each repeated to several sizes).
#[test]
fn the_default_counter_does_not_undercount_non_latin_text() {
    use budget_runtime::{
        Estimator,
        estimate::{CalibratedEstimator, ContentType, TokenCounter},
    };
    let default = CalibratedEstimator::upper_bound(Encoding::O200kBase);
    let exact = counter();
    let samples = [
        "东京的天气今天晴朗，气温二十度，适合出门散步。",
        "今日は良い天気ですね。散歩に行きましょうか。",
        "오늘 날씨가 정말 좋네요. 산책하러 갈까요?",
        "Сегодня хорошая погода, пойдём гулять в парк.",
        "الطقس جميل اليوم، هل نذهب في نزهة إلى الحديقة؟",
        "आज मौसम बहुत अच्छा है, चलो पार्क में टहलने चलते हैं।",
        "Σήμερα ο καιρός είναι ωραίος, πάμε βόλτα στο πάρκο;",
        "วันนี้อากาศดีมาก ไปเดินเล่นที่สวนกันไหม",
    ];
    for sample in samples {
        for repeat in [1, 5, 40] {
            let text = sample.repeat(repeat);
            let estimate = default.estimate(&text, ContentType::Prose);
            let truth = exact.count_tokens(&text);
            assert!(
                estimate * 10 >= truth * 9,
                "{sample:?} ×{repeat}: estimate {estimate} < 90% of {truth}"
            );
        }
    }
}

/// Whether a chat API would accept `messages`' tool exchanges: every tool
/// result answers a call of the assistant message right before its block,
/// and every call gets a result before the next non-tool message. Written
/// here from the API's rule, not with the library's repair code.
pub(crate) fn tool_pairs_valid(messages: &[Message]) -> bool {
    let mut waiting: Vec<&str> = Vec::new();
    for m in messages {
        if m.role == Role::Tool {
            match m
                .tool_call_id
                .as_deref()
                .and_then(|id| waiting.iter().position(|w| *w == id))
            {
                Some(at) => {
                    waiting.remove(at);
                }
                None => return false,
            }
        } else {
            if !waiting.is_empty() {
                return false;
            }
            waiting = m.tool_calls.iter().map(|c| c.id.as_str()).collect();
        }
    }
    waiting.is_empty()
}

/// A history that fits its share unchanged but breaks the tool-pair rule
/// is repaired, and the report says what was repaired: a result whose call
/// is missing, a call without its result, a result without an id.
#[test]
fn a_fitting_history_with_broken_tool_pairs_is_repaired() {
    let mut no_id = Message::tool_result("x", "lost");
    no_id.tool_call_id = None;
    let broken = [
        vec![
            Message::user("q"),
            Message::tool_result("ghost", "orphan result"),
            Message::assistant("a"),
        ],
        vec![
            Message::user("q"),
            Message::assistant_with_tool_calls("", vec![ToolCall::new("c1", "ls", "{}")]),
            Message::user("next"),
        ],
        vec![Message::user("q"), no_id, Message::assistant("a")],
    ];
    let prompt = PromptBudget::builder(100_000)
        .counter(counter())
        .build()
        .unwrap();
    for history in broken {
        assert!(!tool_pairs_valid(&history));
        let fitted = prompt
            .fit(Turn::new("be brief").history(&history), &summarize)
            .unwrap();
        assert!(tool_pairs_valid(&fitted.messages), "{:?}", fitted.messages);
        assert!(!fitted.report.tool_pairs_repaired.is_empty());
        assert!(fitted.messages.iter().any(|m| m.content == "q"));
    }
    // A valid history is left as it is.
    let valid = history(3, 5);
    let fitted = prompt
        .fit(Turn::new("be brief").history(&valid), &summarize)
        .unwrap();
    assert!(fitted.report.tool_pairs_repaired.is_empty());
    assert_eq!(&fitted.messages[1..], &valid[..]);
}

/// The newest user message is never trimmed away: when it cannot fit, the
/// turn does not fit (it used to come back as the system prompt alone).
#[test]
fn the_newest_user_message_is_never_trimmed() {
    let question = Message::user("why does the build fail? ".repeat(400));
    let history = [Message::user("hello"), Message::assistant("hi"), question];
    let prompt = PromptBudget::builder(1_000)
        .output_reserve(100)
        .counter(counter())
        .build()
        .unwrap();
    let result = prompt.fit(Turn::new("be brief").history(&history), &summarize);
    assert!(
        matches!(result, Err(PromptError::DoesNotFit { .. })),
        "{result:?}"
    );
    // With room for it, it is kept (and older messages go first).
    let prompt = PromptBudget::builder(4_000)
        .output_reserve(100)
        .counter(counter())
        .build()
        .unwrap();
    let fitted = prompt
        .fit(Turn::new("be brief").history(&history), &summarize)
        .unwrap();
    assert_eq!(fitted.messages.last(), history.last());
}

/// Compaction never summarizes the newest user message: in an agent's tool
/// loop the question is followed by many tool calls and results, and the
/// compactor's own tail (a few messages) can leave it in the middle (a
/// replay of tau-bench sessions through a `PromptSession` found 4 requests
/// of 2,454 without their question). Stateless and session fits alike.
#[test]
fn compaction_keeps_the_newest_user_message() {
    let prompt = PromptBudget::builder(8_000)
        .output_reserve(500)
        .max_history_tokens(2_500)
        .counter(counter())
        .build()
        .unwrap();
    let mut session = prompt.session();
    let mut history = vec![
        Message::user("earlier question ".repeat(300)),
        Message::assistant("earlier answer ".repeat(300)),
    ];
    let question = Message::user("which flights leave Boston tomorrow?");
    history.push(question.clone());
    let mut compacted = false;
    for i in 0..14 {
        let id = format!("call_{i}");
        history.push(Message::assistant_with_tool_calls(
            "",
            vec![ToolCall::new(&id, "search", "{}")],
        ));
        history.push(Message::tool_result(&id, "flight data ".repeat(60)));
        for fitted in [
            prompt.fit(Turn::new("be brief").history(&history), &summarize),
            session.fit(Turn::new("be brief").history(&history), &summarize),
        ] {
            // Past some point what follows the question alone does not fit.
            let Ok(fitted) = fitted else { continue };
            compacted |= fitted.report.compaction.is_some();
            assert!(fitted.messages.contains(&question), "{:?}", fitted.messages);
            assert!(tool_pairs_valid(&fitted.messages));
        }
    }
    assert!(
        compacted,
        "the history was never compacted: the test shows nothing"
    );
}
