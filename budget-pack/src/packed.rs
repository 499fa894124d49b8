//! [`Packed`]: a payload and its report.

use std::sync::OnceLock;

use crate::report::FileRecord;
use crate::stages::Stage;

/// The payload `pack` made, with the account of every input file.
#[derive(Clone, Debug)]
pub struct Packed {
    pub(crate) text: String,
    pub(crate) tokens: u64,
    pub(crate) budget: u64,
    /// The report but for its `files` and `payload`.
    pub(crate) report_head: serde_json::Value,
    /// One record per input file.
    pub(crate) files: Vec<FileRecord>,
    /// The whole report, made on first read.
    pub(crate) report: OnceLock<serde_json::Value>,
    pub(crate) summary: Vec<String>,
    pub(crate) warnings: Vec<String>,
    pub(crate) stages: Vec<Stage>,
}

impl Packed {
    /// The rendered payload, within the budget.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The payload's tokens (exact under an exact counter, else estimated).
    pub fn tokens(&self) -> u64 {
        self.tokens
    }

    /// The budget it was made for, in tokens.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The report: the budget, the counter, tier figures, digests and one
    /// record per input file (its status, tier, tokens, cost, score and the
    /// reason it got what it got), as `budget pack --report` writes it
    /// (`docs/cli.md` documents every key). Made on the first call.
    pub fn report(&self) -> &serde_json::Value {
        self.report.get_or_init(|| {
            let mut report = self.report_head.clone();
            // Records of strings, numbers and options always serialize.
            report["files"] = serde_json::to_value(&self.files).unwrap_or_default();
            report["payload"] = self.text.clone().into();
            report
        })
    }

    /// A few lines for a person: files per tier, what was skipped, the
    /// payload's tokens, how the counting went.
    pub fn summary(&self) -> &[String] {
        &self.summary
    }

    /// What was left out and why (a git section holding a secret).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// How long each stage took, in the order they ran (`budget pack
    /// --timings` prints them): where a pack's time goes. Not part of the
    /// payload or the report, which are the same on every run.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// The payload's text, giving up the rest.
    pub fn into_text(self) -> String {
        self.text
    }
}
