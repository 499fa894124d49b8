//! Planning (and running) a compaction of 10 000 and 100 000 messages:
//! the per-message time should stay flat, showing linear scaling.
//!
//! Run: `cargo bench -p budget-runtime --bench compaction`

use std::hint::black_box;

use budget_prompt::chat::{Message, ToolCall};
use budget_prompt::compact::SummarizerError;
use budget_prompt::compact::{CompactionConfig, Compactor, PromptTokens, SummaryRequest};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

/// An agent transcript of `len` messages: rounds of user request, tool
/// call, tool result (every fifth one a repeat) and answer, 100 to 900
/// characters each.
fn transcript(len: usize) -> Vec<Message> {
    let mut messages = vec![Message::system("You are a coding agent.")];
    let mut round = 0usize;
    while messages.len() < len {
        let size = 100 + (round * 37) % 800;
        let id = format!("call_{round}");
        messages.push(Message::user(format!(
            "request {round} {}",
            "q".repeat(size)
        )));
        messages.push(Message::assistant_with_tool_calls(
            "",
            vec![ToolCall::new(
                &id,
                "read_file",
                format!("{{\"path\":\"src/f{}.rs\"}}", round % 50),
            )],
        ));
        let output = if round.is_multiple_of(5) {
            "same output ".repeat(size / 12)
        } else {
            format!("{round} {}", "o".repeat(size))
        };
        messages.push(Message::tool_result(&id, output));
        messages.push(Message::assistant(format!(
            "answer {round} {}",
            "a".repeat(size / 2)
        )));
        round += 1;
    }
    messages.truncate(len);
    messages
}

fn toy(req: SummaryRequest<'_>) -> Result<String, SummarizerError> {
    Ok(format!("{} messages", req.messages.len()))
}

fn compaction(c: &mut Criterion) {
    let compactor = Compactor::new(&CompactionConfig::default(), Some(128_000)).expect("valid");
    let mut group = c.benchmark_group("compaction");
    group.sample_size(20);
    for len in [10_000usize, 100_000] {
        let messages = transcript(len);
        group.throughput(Throughput::Elements(len as u64));
        group.bench_with_input(BenchmarkId::new("plan", len), &messages, |b, m| {
            b.iter(|| compactor.plan(black_box(m), PromptTokens::Estimate));
        });
        group.bench_with_input(BenchmarkId::new("compact", len), &messages, |b, m| {
            b.iter(|| compactor.compact(black_box(m), PromptTokens::Estimate, &toy));
        });
    }
    group.finish();
}

criterion_group!(benches, compaction);
criterion_main!(benches);
