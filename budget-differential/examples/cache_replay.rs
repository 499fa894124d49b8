//! Replays real agent sessions and measures how much of each request a
//! provider's prompt cache could serve, for four ways of building the
//! requests: a stateless `PromptBudget::fit` with the context first (the
//! layout before `ContextPosition`), a stateless `fit` with today's
//! default layout, a `PromptSession`, and a naive loop (system, context,
//! the longest history suffix that fits).
//!
//! ```sh
//! cargo run --release -p budget-differential --example cache_replay -- \
//!     TRAJECTORIES.json TOOLS.json DOCUMENTS.json [SESSIONS]
//! ```
//!
//! * `TRAJECTORIES.json`: tau-bench's published trajectories
//!   (`historical_trajectories/gpt-4o-airline.json` of
//!   `sierra-research/tau-bench`): a list of `{"traj": [messages]}` in
//!   OpenAI's chat format, the first message the system prompt;
//! * `TOOLS.json`: the tools' definitions (`get_info()` of
//!   `tau_bench/envs/airline/tools`), in OpenAI's format;
//! * `DOCUMENTS.json`: an object whose values are the retrievable documents
//!   (`tau_bench/envs/retail/data/products.json`): all of them are
//!   retrieved anew at every user message, scored by the words they share
//!   with it.
//!
//! A model call is made before every assistant message of a trajectory,
//! with the messages before it as the history. Every request is counted
//! independently of the library: tiktoken-rs's `o200k_base` under the
//! OpenAI cookbook's rules (3 tokens per message, 3 for the reply priming,
//! the tool definitions as their JSON). Cached: the tool definitions when
//! unchanged, plus the leading messages identical to the previous request's
//! (OpenAI caches prefixes automatically; Anthropic up to a breakpoint).
//! Cost units: uncached + 0.1 × cached tokens.

use std::collections::HashSet;

use budget_prompt::chat::{Message, Role, ToolCall, ToolDefinition};
use budget_prompt::compact::{SummarizerError, SummaryRequest};
use budget_prompt::prompt::{ContextPosition, PromptBudget, Turn};
use budget_runtime::estimate::{Encoding, ExactCounter};
use budget_runtime::{ContextItem, Item};
use serde_json::Value;

/// The model's window, the reply's reserve and the context message's cap:
/// the same for every strategy. `REPLAY_WINDOW` and `REPLAY_CONTEXT`
/// override the window and the cap.
const RESERVE: u64 = 1_024;

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

type Error = Box<dyn std::error::Error>;

fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [trajectories, tools, documents, rest @ ..] = args.as_slice() else {
        return Err(
            "usage: cache_replay TRAJECTORIES.json TOOLS.json DOCUMENTS.json [SESSIONS]".into(),
        );
    };
    let sessions: usize = rest.first().map_or(Ok(200), |n| n.parse())?;
    let limits = Limits {
        window: setting("REPLAY_WINDOW", 16_384),
        context: setting("REPLAY_CONTEXT", 3_000),
    };
    let trajectories: Value = serde_json::from_str(&std::fs::read_to_string(trajectories)?)?;
    let tools: Vec<ToolDefinition> = serde_json::from_str(&std::fs::read_to_string(tools)?)?;
    let documents: Value = serde_json::from_str(&std::fs::read_to_string(documents)?)?;
    let pool: Vec<String> = documents
        .as_object()
        .ok_or("DOCUMENTS.json must be an object")?
        .values()
        .map(Value::to_string)
        .collect();
    let bpe = tiktoken_rs::o200k_base()?;
    let mut totals = [
        Totals::default(),
        Totals::default(),
        Totals::default(),
        Totals::default(),
    ];
    let names = [
        "fit, context first (before)",
        "fit, default layout",
        "PromptSession",
        "naive loop",
    ];
    let mut replayed = 0;
    for trajectory in trajectories
        .as_array()
        .ok_or("TRAJECTORIES.json must be a list")?
        .iter()
        .take(sessions)
    {
        let messages = messages(&trajectory["traj"])?;
        let Some((system, conversation)) = messages.split_first() else {
            continue;
        };
        replayed += 1;
        for (strategy, totals) in totals.iter_mut().enumerate() {
            replay(
                strategy,
                limits,
                &system.content,
                conversation,
                &tools,
                &pool,
                &bpe,
                totals,
            )?;
        }
    }
    println!(
        "{replayed} sessions; window {}, reserve {RESERVE}, context at most {} tokens",
        limits.window, limits.context
    );
    println!(
        "| requests built by | calls | input tokens | cached share | never sent before | cost units | vs naive | history messages kept (mean) | overflows | invalid | refused (does not fit) |"
    );
    println!("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    let naive_cost = totals[3].cost();
    for (name, t) in names.iter().zip(&totals) {
        println!(
            "| {name} | {} | {} | {:.1}% | {:.1}% | {:.0} | {:.2}x | {:.1} | {} | {} | {} |",
            t.calls,
            t.input,
            100.0 * t.cached as f64 / t.input.max(1) as f64,
            100.0 * t.fresh as f64 / t.input.max(1) as f64,
            t.cost(),
            t.cost() / naive_cost,
            t.history_messages as f64 / t.calls.max(1) as f64,
            t.overflows,
            t.invalid,
            t.refused,
        );
    }
    Ok(())
}

#[derive(Clone, Copy)]
struct Limits {
    window: u64,
    context: u64,
}

#[derive(Default)]
struct Totals {
    calls: u64,
    input: u64,
    cached: u64,
    history_messages: u64,
    overflows: u64,
    invalid: u64,
    refused: u64,
    fresh: u64,
}

impl Totals {
    fn cost(&self) -> f64 {
        (self.input - self.cached) as f64 + 0.1 * self.cached as f64
    }
}

/// One session replayed with `strategy` (0: stateless, context first; 1:
/// stateless, default; 2: session; 3: naive).
#[allow(clippy::too_many_arguments)]
fn replay(
    strategy: usize,
    limits: Limits,
    system: &str,
    conversation: &[Message],
    tools: &[ToolDefinition],
    pool: &[String],
    bpe: &tiktoken_rs::CoreBPE,
    totals: &mut Totals,
) -> Result<(), Error> {
    let counter = || ExactCounter::new(Encoding::O200kBase);
    let fixed = {
        let format = budget_prompt::chat::ChatFormat::openai(Encoding::O200kBase);
        let c = counter()?;
        format.message_tokens(&Message::system(system), &c)
            + format.reply_priming
            + format.tools_tokens(tools, &c)
    };
    let Limits { window, context } = limits;
    let history_limit = (window - RESERVE)
        .saturating_sub(fixed)
        .saturating_sub(context);
    let budget = PromptBudget::builder(window)
        .output_reserve(RESERVE)
        .counter(counter()?)
        .history_share(1.0)
        .max_history_tokens(history_limit)
        .max_context_tokens(context)
        .context_position(if strategy == 0 {
            ContextPosition::AfterSystem
        } else {
            ContextPosition::BeforeLatestUser
        })
        .build()?;
    let mut session = budget.session();
    let summarize = |r: SummaryRequest<'_>| -> Result<String, SummarizerError> {
        // A deterministic stand-in for a model's summary: the user's
        // requests so far, in one line each (bounded).
        let lines: Vec<String> = r
            .messages
            .iter()
            .filter(|m| m.role == Role::User)
            .map(|m| m.content.chars().take(120).collect())
            .collect();
        Ok(lines.join("\n"))
    };
    let mut previous: Option<(Vec<Value>, u64)> = None;
    let mut docs: Vec<Item> = Vec::new();
    for (at, message) in conversation.iter().enumerate() {
        if message.role == Role::User {
            docs = retrieve(pool, &message.content)?;
        }
        if message.role != Role::Assistant || at == 0 {
            continue;
        }
        let history = &conversation[..at];
        let turn = Turn::new(system)
            .tools(tools)
            .history(history)
            .documents(&docs);
        let fitted = match strategy {
            0 | 1 => budget.fit(turn, &summarize).map(|f| f.messages),
            2 => session.fit(turn, &summarize).map(|f| f.messages),
            _ => Ok(naive(limits, system, history, &docs, tools, bpe)),
        };
        // What cannot fit (one tool result larger than the window) is a
        // typed error, and no request.
        let Ok(sent) = fitted else {
            totals.refused += 1;
            continue;
        };
        let wire: Vec<Value> = sent.iter().map(wire).collect();
        let costs: Vec<u64> = wire.iter().map(|m| message_tokens(bpe, m)).collect();
        let tools_tokens = cookbook_tools_tokens(bpe, tools);
        let total = costs.iter().sum::<u64>() + 3 + tools_tokens;
        let cached = match &previous {
            Some((before, before_tools)) => {
                let same = wire.iter().zip(before).take_while(|(a, b)| a == b).count();
                costs[..same].iter().sum::<u64>()
                    + if *before_tools == tools_tokens {
                        tools_tokens
                    } else {
                        0
                    }
            }
            None => 0,
        };
        // Messages no request has carried before: no layout can serve them
        // from a cache.
        let fresh: u64 = wire
            .iter()
            .zip(&costs)
            .filter(|(m, _)| {
                !previous
                    .as_ref()
                    .is_some_and(|(before, _)| before.contains(m))
            })
            .map(|(_, cost)| cost)
            .sum();
        totals.calls += 1;
        totals.input += total;
        totals.cached += cached;
        totals.fresh += fresh;
        totals.history_messages += sent.iter().filter(|m| history.contains(m)).count() as u64;
        totals.overflows += u64::from(total + RESERVE > window);
        let newest_user = history.iter().rposition(|m| m.role == Role::User);
        totals.invalid += u64::from(
            !tool_pairs_valid(&sent) || newest_user.is_some_and(|u| !sent.contains(&history[u])),
        );
        previous = Some((wire, tools_tokens));
    }
    Ok(())
}

/// The pool's documents, each scored by the share of the user message's
/// words it contains.
fn retrieve(pool: &[String], query: &str) -> Result<Vec<Item>, Error> {
    let words: HashSet<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2)
        .map(str::to_lowercase)
        .collect();
    pool.iter()
        .map(|text| {
            let lower = text.to_lowercase();
            let hits = words.iter().filter(|w| lower.contains(w.as_str())).count();
            Item::builder(text.clone())
                .relevance(hits as f64 / words.len().max(1) as f64)
                .build()
                .map_err(Error::from)
        })
        .collect()
}

/// System, the best documents within the context cap, then the longest
/// history suffix that fits (starting at a user message or an assistant
/// message, so that no tool result loses its call).
fn naive(
    limits: Limits,
    system: &str,
    history: &[Message],
    docs: &[Item],
    tools: &[ToolDefinition],
    bpe: &tiktoken_rs::CoreBPE,
) -> Vec<Message> {
    let tokens = |m: &Message| message_tokens(bpe, &wire(m));
    let tools_tokens = cookbook_tools_tokens(bpe, tools);
    let system = Message::system(system);
    let mut ranked: Vec<&Item> = docs.iter().collect();
    ranked.sort_by(|a, b| {
        b.relevance()
            .unwrap_or(0.0)
            .total_cmp(&a.relevance().unwrap_or(0.0))
    });
    let mut context = String::from("Relevant documents:");
    for doc in ranked {
        let candidate = format!("{context}\n\n---\n\n{}", doc.content());
        if tokens(&Message::system(candidate.clone())) > limits.context {
            break;
        }
        context = candidate;
    }
    let context = Message::system(context);
    let mut room = (limits.window - RESERVE)
        .saturating_sub(tokens(&system) + tokens(&context) + 3 + tools_tokens);
    let mut start = history.len();
    while start > 0 {
        let cost = tokens(&history[start - 1]);
        if cost > room {
            break;
        }
        room -= cost;
        start -= 1;
    }
    // A tool result must follow its call: start after any orphaned results.
    while start < history.len() && history[start].role == Role::Tool {
        start += 1;
    }
    let mut out = vec![system, context];
    out.extend_from_slice(&history[start..]);
    out
}

/// The OpenAI cookbook's count of tool definitions for gpt-4o: 7 per
/// function and `name:description`, 3 where properties start, 3 per
/// property and `name:type:description`, enums 3 per value and the value,
/// less 3, and 12 at the end.
fn cookbook_tools_tokens(bpe: &tiktoken_rs::CoreBPE, tools: &[ToolDefinition]) -> u64 {
    if tools.is_empty() {
        return 0;
    }
    let count = |text: &str| bpe.encode_ordinary(text).len() as u64;
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    let mut total = 12;
    for tool in tools {
        let description = tool.description.trim_end_matches('.');
        total += 7 + count(&format!("{}:{description}", tool.name));
        let Some(properties) = tool.parameters["properties"]
            .as_object()
            .filter(|p| !p.is_empty())
        else {
            continue;
        };
        total += 3;
        for (name, schema) in properties {
            total += 3;
            if let Some(values) = schema["enum"].as_array() {
                total -= 3;
                for value in values {
                    total += 3 + count(&text(value));
                }
            }
            let description = text(&schema["description"]);
            let line = format!(
                "{name}:{}:{}",
                text(&schema["type"]),
                description.trim_end_matches('.')
            );
            total += count(&line);
        }
    }
    total
}

/// A message as OpenAI's wire format has it.
fn wire(m: &Message) -> Value {
    let mut v = serde_json::json!({ "role": m.role.as_str(), "content": m.content });
    if !m.tool_calls.is_empty() {
        v["tool_calls"] = m
            .tool_calls
            .iter()
            .map(|c| serde_json::json!({ "id": c.id, "type": "function", "function": { "name": c.name, "arguments": c.arguments } }))
            .collect();
    }
    if let Some(id) = &m.tool_call_id {
        v["tool_call_id"] = Value::from(id.as_str());
    }
    v
}

/// The cookbook's count of one message: 3, plus its role, content, and
/// each tool call's name and arguments.
fn message_tokens(bpe: &tiktoken_rs::CoreBPE, m: &Value) -> u64 {
    let text = |v: &Value| {
        v.as_str()
            .map_or(0, |s| bpe.encode_ordinary(s).len() as u64)
    };
    let calls: u64 = m["tool_calls"]
        .as_array()
        .map(|calls| {
            calls
                .iter()
                .map(|c| text(&c["function"]["name"]) + text(&c["function"]["arguments"]))
                .sum()
        })
        .unwrap_or(0);
    3 + text(&m["role"]) + text(&m["content"]) + calls
}

/// The trajectory's messages.
fn messages(traj: &Value) -> Result<Vec<Message>, Error> {
    traj.as_array()
        .ok_or("`traj` must be a list")?
        .iter()
        .map(|m| {
            let content = m["content"].as_str().unwrap_or("").to_owned();
            Ok(match m["role"].as_str() {
                Some("system") => Message::system(content),
                Some("user") => Message::user(content),
                Some("tool") => {
                    Message::tool_result(m["tool_call_id"].as_str().unwrap_or(""), content)
                }
                Some("assistant") => {
                    let calls: Vec<ToolCall> = m["tool_calls"]
                        .as_array()
                        .map(|calls| {
                            calls
                                .iter()
                                .map(|c| {
                                    ToolCall::new(
                                        c["id"].as_str().unwrap_or(""),
                                        c["function"]["name"].as_str().unwrap_or(""),
                                        c["function"]["arguments"].as_str().unwrap_or(""),
                                    )
                                })
                                .collect()
                        })
                        .unwrap_or_default();
                    if calls.is_empty() {
                        Message::assistant(content)
                    } else {
                        Message::assistant_with_tool_calls(content, calls)
                    }
                }
                other => return Err(format!("unknown role {other:?}").into()),
            })
        })
        .collect()
}

/// A chat API's tool-pair rule.
fn tool_pairs_valid(messages: &[Message]) -> bool {
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
