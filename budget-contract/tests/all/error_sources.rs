//! Every error that wraps another returns it from `source()`, so a caller
//! can walk the chain.

use std::error::Error;

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
use std::path::PathBuf;

use budget::file::ReadError;
use budget_contract::{ContractError, PromptFileError, SourceLocation, TemplateError};

#[test]
fn read_error_returns_the_io_error() {
    let error = ContractError::Read {
        path: PathBuf::from("model.json"),
        source: ReadError::Io(refused()),
    };
    // `ReadError::Io` is transparent: its message is the I/O error's.
    assert_eq!(
        chain(&error),
        [
            "cannot read model.json: connection refused",
            "connection refused"
        ]
    );
}

#[test]
fn extends_error_returns_the_read_error() {
    let error = ContractError::Extends {
        location: SourceLocation::at("pipeline.yaml", 1, 10),
        target: PathBuf::from("base.yaml"),
        source: ReadError::TooLarge {
            size_bytes: 2_000_000,
            limit_bytes: 1_000_000,
        },
    };
    assert_eq!(
        chain(&error),
        [
            "pipeline.yaml:1:10: cannot read extended pipeline base.yaml: it is 2000000 bytes, more than the limit of 1000000 bytes",
            "it is 2000000 bytes, more than the limit of 1000000 bytes",
        ]
    );
}

#[test]
fn prompt_error_chains_to_the_read_error() {
    let error = ContractError::Prompt {
        location: SourceLocation::at("pipeline.yaml", 7, 3),
        step: "answer".to_owned(),
        source: Box::new(PromptFileError::Read {
            path: PathBuf::from("prompts/answer.md"),
            source: ReadError::Io(refused()),
        }),
    };
    assert_eq!(
        chain(&error),
        [
            "pipeline.yaml:7:3: step `answer`: cannot read prompt prompts/answer.md: connection refused",
            "cannot read prompt prompts/answer.md: connection refused",
            "connection refused",
        ]
    );
}

#[test]
fn template_error_returns_the_template_fault() {
    let error = ContractError::Template {
        location: SourceLocation::file("pipeline.yaml"),
        step: "answer".to_owned(),
        part: "question".to_owned(),
        source: Box::new(TemplateError::SecondSlot { offset_chars: 6 }),
    };
    assert_eq!(
        chain(&error),
        [
            "pipeline.yaml: step `answer` user_parts `question`: a second `{}` at character 6; a template has exactly one",
            "a second `{}` at character 6; a template has exactly one",
        ]
    );
}

#[test]
fn input_error_returns_the_io_error() {
    let error = ContractError::Input {
        path: PathBuf::from("pipelines/"),
        source: refused(),
    };
    assert_eq!(
        chain(&error),
        [
            "cannot check pipelines/: connection refused",
            "connection refused"
        ]
    );
}
