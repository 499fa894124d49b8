//! Every error variant that wraps another error returns it from `source()`:
//! the chain of each is walked to its end and compared with messages
//! written out here.

use std::error::Error;

use budget::compact::{CompactionError, SummarizerError};
use budget::prompt::PromptError;
use budget_runtime::model::ContextBudgetError;
use budget_runtime::pipeline::PipelineError;
use budget_runtime::slicer::SlicerError;

/// The messages of `error` and of every error in its `source()` chain.
fn chain(error: &dyn Error) -> Vec<String> {
    let mut messages = vec![error.to_string()];
    let mut next = error.source();
    while let Some(cause) = next {
        messages.push(cause.to_string());
        next = cause.source();
    }
    messages
}

fn refused() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "connection refused")
}

#[test]
fn summarizer_failure_returns_its_cause() {
    let error = SummarizerError::failed(refused());
    assert_eq!(
        chain(&error),
        [
            "the summarizer failed: connection refused",
            "connection refused"
        ]
    );
    // A message given as text is a cause too.
    let error = SummarizerError::failed("HTTP 429");
    assert_eq!(
        chain(&error),
        ["the summarizer failed: HTTP 429", "HTTP 429"]
    );
    assert!(SummarizerError::Empty.source().is_none());
}

fn abort_on_refusal() -> CompactionError {
    CompactionError::Summarizer {
        chunk: 2,
        chunks: 3,
        source: SummarizerError::failed(refused()),
    }
}

const ABORTED: &str = "summarization failed on request 2 of 3; the failure policy is abort, so the conversation is unchanged";

#[test]
fn compaction_error_chains_to_the_summarizer_and_its_cause() {
    assert_eq!(
        chain(&abort_on_refusal()),
        [
            ABORTED,
            "the summarizer failed: connection refused",
            "connection refused",
        ]
    );
}

#[test]
fn pipeline_slice_error_is_transparent() {
    // `#[error(transparent)]`: the pipeline error is the slicer's error,
    // message and source alike.
    let error = PipelineError::from(SlicerError::InnerDuplicateIndex { index: 4 });
    assert_eq!(
        chain(&error),
        ["inner slicer returned position 4 more than once"]
    );
}

#[test]
fn prompt_errors_return_the_stage_that_failed() {
    assert_eq!(
        chain(&PromptError::Compaction(abort_on_refusal())),
        [
            "compacting the history failed",
            ABORTED,
            "the summarizer failed: connection refused",
            "connection refused",
        ]
    );
    let budget = ContextBudgetError::TargetExceedsMax {
        target_tokens: 900,
        max_tokens: 800,
    };
    assert_eq!(
        chain(&PromptError::Budget(budget)),
        [
            "the retrieved items' share is not a valid budget",
            "target_tokens 900 exceeds max_tokens 800",
        ]
    );
    let pinned = PipelineError::PinnedExceedsBudget {
        pinned_tokens: 120,
        available_tokens: 100,
    };
    assert_eq!(
        chain(&PromptError::Selection(pinned)),
        [
            "selecting the retrieved items failed",
            "pinned items require 120 tokens, but only 100 are available (max_tokens - output_reserve)",
        ]
    );
}
