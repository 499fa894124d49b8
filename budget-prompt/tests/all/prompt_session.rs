//! `PromptSession`: over random agent sessions, every request fits the
//! window, is a valid chat (tool pairs, the newest user message), and
//! repeats exactly the prefix of the previous request that its report
//! claims; once the history has had to shrink, most requests only append.

use budget_prompt::chat::{Message, Role, ToolCall};
use budget_prompt::compact::{SummarizerError, SummaryRequest};
use budget_prompt::prompt::{ContextPosition, PromptBudget, Turn};
use budget_runtime::estimate::{Encoding, ExactCounter};
use budget_runtime::{ContextItem, Item};
use proptest::prelude::*;

use crate::prompt_budget::tool_pairs_valid;

fn summarize(request: SummaryRequest<'_>) -> Result<String, SummarizerError> {
    Ok(format!(
        "{} earlier messages about the harbour.",
        request.messages.len()
    ))
}

/// What happens next in a session.
#[derive(Clone, Debug)]
enum Event {
    /// A user message of this many words; documents are retrieved anew.
    User(usize),
    /// The model calls a tool, whose result has this many words.
    Tool(usize),
    /// The model answers in this many words.
    Answer(usize),
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        (1usize..60).prop_map(Event::User),
        (1usize..400).prop_map(Event::Tool),
        (1usize..80).prop_map(Event::Answer),
    ]
}

fn documents(turn: usize) -> Vec<Item> {
    (0..12)
        .map(|i| {
            Item::builder(format!("note {turn}.{i}: {}", "tide table ".repeat(20 + i)))
                .relevance(((i * 7 + turn) % 10) as f64 / 10.0)
                .build()
                .unwrap()
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn sessions_fit_stay_valid_and_report_their_shared_prefix(
        events in proptest::collection::vec(event(), 1..40),
        window in 2_000u64..6_000,
        position in prop_oneof![Just(ContextPosition::BeforeLatestUser), Just(ContextPosition::AfterSystem)],
    ) {
        let budget = PromptBudget::builder(window)
            .output_reserve(window / 8)
            .counter(ExactCounter::new(Encoding::O200kBase).unwrap())
            .context_position(position)
            .build()
            .unwrap();
        let mut session = budget.session();
        let mut history: Vec<Message> = vec![Message::user("Hello.")];
        let mut docs = documents(0);
        let mut previous: Option<Vec<Message>> = None;
        for (step, event) in events.iter().enumerate() {
            match event {
                Event::User(words) => {
                    history.push(Message::user(format!("question {step}: {}", "when ".repeat(*words))));
                    docs = documents(step);
                }
                Event::Tool(words) => {
                    let id = format!("call_{step}");
                    history.push(Message::assistant_with_tool_calls("", vec![ToolCall::new(&id, "tides", "{}")]));
                    history.push(Message::tool_result(&id, "high water ".repeat(*words)));
                }
                Event::Answer(words) => {
                    history.push(Message::assistant(format!("answer {step}: {}", "soon ".repeat(*words))));
                    continue; // a model call produced it; the next event calls again
                }
            }
            let fitted = match session.fit(Turn::new("You know the tides.").history(&history).documents(&docs), &summarize) {
                Ok(fitted) => fitted,
                // A single message larger than the window: a typed error, no
                // request; the previous request is still the one to repeat.
                Err(_) => continue,
            };
            let report = &fitted.report;
            prop_assert!(report.total_tokens + window / 8 <= window, "{report:?}");
            prop_assert!(tool_pairs_valid(&fitted.messages), "{:?}", fitted.messages);
            let newest_user = history.iter().rposition(|m| m.role == Role::User).unwrap();
            prop_assert!(fitted.messages.contains(&history[newest_user]));
            // The documents keep their relevance order among themselves
            // only through the pipeline; here: each sent one is a document.
            for document in &fitted.documents {
                prop_assert!(docs.iter().any(|d| d.content() == document.content()));
            }
            let claimed = report.stable_prefix.unwrap().messages;
            match &previous {
                Some(before) => {
                    prop_assert_eq!(&fitted.messages[..claimed], &before[..claimed]);
                    if claimed < fitted.messages.len() && claimed < before.len() {
                        prop_assert_ne!(&fitted.messages[claimed], &before[claimed]);
                    }
                }
                None => prop_assert_eq!(claimed, 0),
            }
            previous = Some(fitted.messages.clone());
        }
    }
}

/// A long tool-using session in a small window: after the history first
/// has to shrink, most requests repeat all of the previous one up to the
/// context message, where a stateless `fit` rewrites the history's start
/// at every call.
#[test]
fn once_shrunk_the_history_only_grows_until_it_must_shrink_again() {
    let budget = PromptBudget::builder(4_096)
        .output_reserve(512)
        .counter(ExactCounter::new(Encoding::O200kBase).unwrap())
        .build()
        .unwrap();
    let mut session = budget.session();
    let mut history = Vec::new();
    let mut shared_session = Vec::new();
    let mut shared_stateless = Vec::new();
    let mut before: Option<Vec<Message>> = None;
    for step in 0..60 {
        if step % 4 == 0 {
            history.push(Message::user(format!(
                "question {step}: {}",
                "when ".repeat(30)
            )));
        } else {
            let id = format!("call_{step}");
            history.push(Message::assistant_with_tool_calls(
                "",
                vec![ToolCall::new(&id, "tides", "{}")],
            ));
            history.push(Message::tool_result(&id, "high water ".repeat(120)));
        }
        let docs = documents(step / 4);
        let turn = || {
            Turn::new("You know the tides.")
                .history(&history)
                .documents(&docs)
        };
        let fitted = session.fit(turn(), &summarize).unwrap();
        shared_session.push(fitted.report.stable_prefix.unwrap().messages);
        let stateless = budget.fit(turn(), &summarize).unwrap();
        if let Some(before) = &before {
            shared_stateless.push(
                stateless
                    .messages
                    .iter()
                    .zip(before)
                    .take_while(|(a, b)| a == b)
                    .count(),
            );
        }
        before = Some(stateless.messages);
    }
    // Past the warm-up, count requests that share more than the system prompt.
    let long = |shared: &[usize]| shared.iter().skip(20).filter(|&&n| n > 1).count();
    assert!(long(&shared_session) >= 30, "{shared_session:?}");
    assert!(
        long(&shared_session) > long(&shared_stateless),
        "{shared_session:?} vs {shared_stateless:?}"
    );
}
