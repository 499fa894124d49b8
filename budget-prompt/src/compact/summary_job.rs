//! [`SummaryJob`]: splits the middle into requests that fit the
//! summarizer's window and threads the summary from one request to the next.

use std::ops::Range;

use crate::chat::Message;
use crate::compact::SummarizerError;
use crate::compact::clip::clip_chars;
use crate::compact::fallback::fallback_summary;
use crate::compact::summarizer::SummaryRequest;
use crate::compact::token_budget::TokenBudget;
use budget_runtime::estimate::count_chars;

/// Counters of a summarization, for the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct JobStats {
    /// Summarizer calls made (failed ones included).
    pub(crate) calls: usize,
    /// Messages or previous summaries clipped to fit a request.
    pub(crate) clipped_for_summarizer: usize,
    /// Whether a summary was clipped to its bound.
    pub(crate) summary_clipped: bool,
}

/// The running state of the summarization of one middle.
#[derive(Debug)]
pub(crate) struct SummaryJob {
    messages: Vec<Message>,
    chunks: Vec<Range<usize>>,
    next: usize,
    summary: Option<String>,
    max_summary_chars: u64,
    calls: usize,
    clipped_for_summarizer: usize,
    summary_clipped: bool,
}

impl SummaryJob {
    /// A job over `messages` that extends `previous` (the summary of an
    /// earlier compaction). Every request holds at most `input_units`
    /// estimated tokens of messages plus a previous summary of at most
    /// `max_summary_chars` characters; larger messages are clipped.
    pub(crate) fn new(
        mut messages: Vec<Message>,
        previous: Option<&str>,
        budget: &TokenBudget,
        input_units: u64,
        max_summary_chars: u64,
    ) -> Self {
        let mut clipped_for_summarizer = 0;
        let summary = previous.map(|text| {
            let clipped = clip_chars(text, max_summary_chars);
            if clipped.len() != text.len() {
                clipped_for_summarizer += 1;
            }
            clipped.into_owned()
        });
        let max_message_chars = input_units
            .saturating_sub(budget.per_message_overhead_tokens())
            .saturating_mul(crate::compact::CHARS_PER_TOKEN);
        let mut chunks = Vec::new();
        let mut start = 0;
        let mut used = 0u64;
        for (i, message) in messages.iter_mut().enumerate() {
            if budget.message_tokens(message) > input_units {
                *message = clip_message(message, max_message_chars);
                clipped_for_summarizer += 1;
            }
            let units = budget.message_tokens(message);
            if i > start && used.saturating_add(units) > input_units {
                chunks.push(start..i);
                start = i;
                used = 0;
            }
            used = used.saturating_add(units);
        }
        if start < messages.len() {
            chunks.push(start..messages.len());
        }
        Self {
            messages,
            chunks,
            next: 0,
            summary,
            max_summary_chars,
            calls: 0,
            clipped_for_summarizer,
            summary_clipped: false,
        }
    }

    /// The counters so far.
    pub(crate) fn stats(&self) -> JobStats {
        JobStats {
            calls: self.calls,
            clipped_for_summarizer: self.clipped_for_summarizer,
            summary_clipped: self.summary_clipped,
        }
    }

    /// How many requests the job makes.
    pub(crate) fn chunks(&self) -> usize {
        self.chunks.len()
    }

    /// 0-based index of the next request.
    pub(crate) fn next_chunk(&self) -> usize {
        self.next
    }

    /// The next request, or `None` when every chunk is summarized.
    pub(crate) fn request(&self) -> Option<SummaryRequest<'_>> {
        let range = self.chunks.get(self.next)?.clone();
        let mut request = SummaryRequest::new(
            self.summary.as_deref(),
            &self.messages[range],
            self.max_summary_chars / crate::compact::CHARS_PER_TOKEN,
        );
        request.chunk = self.next;
        request.chunks = self.chunks.len();
        Some(request)
    }

    /// Records the summarizer's answer to the current request. An empty
    /// summary is an error; a long one is clipped.
    pub(crate) fn accept(
        &mut self,
        answer: Result<String, SummarizerError>,
    ) -> Result<(), SummarizerError> {
        self.calls += 1;
        let text = answer?;
        if text.trim().is_empty() {
            return Err(SummarizerError::Empty);
        }
        let clipped = clip_chars(&text, self.max_summary_chars);
        if clipped.len() != text.len() {
            self.summary_clipped = true;
        }
        self.summary = Some(clipped.into_owned());
        self.next += 1;
        Ok(())
    }

    /// The summary of all chunks (after every request was accepted).
    pub(crate) fn finish(self) -> String {
        self.summary.unwrap_or_default()
    }

    /// The local summary after a failure: the summary so far plus a digest
    /// of the chunks not yet summarized.
    pub(crate) fn fallback(self, error: &SummarizerError) -> String {
        let rest = self
            .chunks
            .get(self.next)
            .map_or(self.messages.len(), |range| range.start);
        fallback_summary(
            self.summary.as_deref(),
            &self.messages[rest..],
            &error.to_string(),
            self.max_summary_chars,
        )
    }
}

/// `message` shortened to at most `max_chars` characters: tool calls share
/// half the budget (names at most 64 characters), the content the rest.
fn clip_message(message: &Message, max_chars: u64) -> Message {
    let mut clipped = message.clone();
    if !clipped.tool_calls.is_empty() {
        let per_call = max_chars / 2 / clipped.tool_calls.len() as u64;
        for call in &mut clipped.tool_calls {
            call.name = clip_chars(&call.name, per_call.min(64)).into_owned();
            let left = per_call.saturating_sub(count_chars(&call.name));
            call.arguments = clip_chars(&call.arguments, left).into_owned();
        }
    }
    let calls_chars = clipped
        .char_count()
        .saturating_sub(count_chars(&clipped.content));
    clipped.content =
        clip_chars(&clipped.content, max_chars.saturating_sub(calls_chars)).into_owned();
    clipped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::ToolCall;
    use crate::compact::config::CompactionConfig;

    fn budget() -> TokenBudget {
        TokenBudget::new(&CompactionConfig::default(), Some(128_000)).unwrap()
    }

    #[test]
    fn chunks_respect_the_input_bound() {
        // each message: 100 tokens + 4 overhead = 104; bound 300 → 2 per chunk
        let m = vec![Message::user("abcd".repeat(100)); 5];
        let job = SummaryJob::new(m, None, &budget(), 300, 400);
        assert_eq!(job.chunks, [0..2, 2..4, 4..5]);
        assert_eq!(job.clipped_for_summarizer, 0);
    }

    #[test]
    fn oversized_messages_are_clipped_to_the_bound() {
        let big = Message::assistant_with_tool_calls(
            "c".repeat(10_000),
            vec![ToolCall::new("1", "write_file", "a".repeat(10_000))],
        );
        let job = SummaryJob::new(vec![big], None, &budget(), 300, 400);
        assert_eq!(job.clipped_for_summarizer, 1);
        // (300 - 4) · 4 = 1184 characters at most
        assert!(job.messages[0].char_count() <= 1_184);
        assert!(budget().message_tokens(&job.messages[0]) <= 300);
        assert_eq!(job.messages[0].tool_calls[0].name, "write_file");
    }

    #[test]
    fn summaries_thread_through_the_chunks() {
        let m = vec![Message::user("abcd".repeat(100)); 3];
        let mut job = SummaryJob::new(m, Some("old"), &budget(), 220, 400);
        let mut seen = Vec::new();
        while let Some(req) = job.request() {
            seen.push((
                req.previous_summary.map(str::to_owned),
                req.messages.len(),
                req.chunk,
                req.chunks,
            ));
            let next = format!("s{}", req.chunk);
            job.accept(Ok(next)).unwrap();
        }
        assert_eq!(
            seen,
            [
                (Some("old".to_owned()), 2, 0, 2),
                (Some("s0".to_owned()), 1, 1, 2)
            ]
        );
        assert_eq!(job.calls, 2);
        assert_eq!(job.finish(), "s1");
    }

    #[test]
    fn empty_and_long_summaries_are_handled() {
        let m = vec![Message::user("x")];
        let mut job = SummaryJob::new(m, None, &budget(), 220, 10);
        assert!(matches!(
            job.accept(Ok("  ".into())),
            Err(SummarizerError::Empty)
        ));
        job.accept(Ok("y".repeat(50))).unwrap();
        assert!(job.summary_clipped);
        assert_eq!(count_chars(job.summary.as_deref().unwrap()), 10);
    }

    #[test]
    fn fallback_keeps_the_summary_so_far_and_digests_the_rest() {
        let m = vec![Message::user("first"), Message::user("second")];
        let mut job = SummaryJob::new(m, None, &budget(), 6, 1_000);
        assert_eq!(job.chunks(), 2);
        job.accept(Ok("covered first".into())).unwrap();
        let text = job.fallback(&SummarizerError::failed("rate limited"));
        assert!(text.contains("Earlier summary: covered first"));
        assert!(text.contains("- user: second"));
        assert!(!text.contains("- user: first"));
    }
}
