//! Whole requests for chat models, for the `budget` crate: the messages and
//! tools of a conversation ([`chat`]), each model's window, output limit,
//! tokenizer and template ([`profile`]), shrinking a conversation that
//! outgrows its window ([`compact`]), and one budget for a whole agent
//! request ([`prompt`]).
//!
//! Built on `budget-runtime` (items, budgets, counters, the selection
//! pipeline). Most users depend on the `budget` facade (package
//! `context-budget`), which re-exports these modules at the same paths.
//!
//! ```
//! use budget::chat::Message;
//! use budget::compact::{SummarizerError, SummaryRequest};
//! use budget::prompt::{PromptBudget, Turn};
//!
//! let budget = PromptBudget::for_model("gpt-4o")?.build()?;
//! let history = [Message::user("hi"), Message::assistant("hello")];
//! let summarize = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok("earlier talk".into()) };
//! let fitted = budget.fit(Turn::new("Be brief.").history(&history), &summarize)?;
//! assert!(fitted.report.total_tokens + fitted.report.output_reserve <= 128_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]
#![deny(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]
#![warn(missing_docs)]

pub mod chat;
pub mod compact;
pub mod profile;
pub mod prompt;
