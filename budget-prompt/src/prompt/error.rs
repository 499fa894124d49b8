//! [`PromptError`]: why a prompt could not be built or fitted.

use thiserror::Error;

use crate::compact::CompactionError;
use budget_runtime::model::ContextBudgetError;
use budget_runtime::pipeline::PipelineError;

/// A [`PromptBudget`](crate::prompt::PromptBudget) rejected its settings, or
/// a turn could not be fitted into the window. Token counts are under the
/// budget's counter and chat format.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PromptError {
    /// The output reserve and the safety margin leave no room for the
    /// prompt.
    #[error(
        "output_reserve {output_reserve} tokens and safety margin {safety_margin_tokens} tokens leave nothing of the {window}-token window"
    )]
    ReserveExceedsWindow {
        /// The reserve, in tokens.
        output_reserve: u64,
        /// The safety margin, in tokens.
        safety_margin_tokens: u64,
        /// The window, in tokens.
        window: u64,
    },
    /// The history share is not a fraction within `0.0..=1.0`.
    #[error("history_share {share} is not within 0.0..=1.0")]
    ShareOutOfRange {
        /// The value given.
        share: f64,
    },
    /// The parts that are never dropped (system prompt, tool definitions,
    /// pinned items, reply priming, and whatever history cannot be cut
    /// without orphaning a tool call) exceed the window minus the reserve
    /// and the safety margin.
    #[error(
        "the prompt needs {required_tokens} tokens (system {system_tokens}, tools {tools_tokens}, pinned {pinned_tokens}, history {history_tokens}) but the {window}-token window minus the {output_reserve}-token output reserve and the {safety_margin_tokens}-token safety margin leaves {available_tokens}"
    )]
    DoesNotFit {
        /// Tokens of what could not be left out.
        required_tokens: u64,
        /// Of which the system message and the reply priming.
        system_tokens: u64,
        /// Of which the tool definitions.
        tools_tokens: u64,
        /// Of which the pinned items (with their message's framing).
        pinned_tokens: u64,
        /// Of which the history that could not be cut further.
        history_tokens: u64,
        /// `window - output_reserve - safety_margin_tokens`.
        available_tokens: u64,
        /// The window.
        window: u64,
        /// The output reserve.
        output_reserve: u64,
        /// The safety margin.
        safety_margin_tokens: u64,
    },
    /// The pinned items alone (with the context message's framing) exceed
    /// [`max_context_tokens`](crate::prompt::PromptBudgetBuilder::max_context_tokens);
    /// pinned items are never dropped.
    #[error(
        "the context message needs {context_tokens} tokens for its pinned items alone, over max_context_tokens {max_context_tokens}"
    )]
    ContextExceedsLimit {
        /// Tokens of the context message with every retrieved item dropped.
        context_tokens: u64,
        /// The limit.
        max_context_tokens: u64,
    },
    /// Compacting the history failed (summarizer failure under the abort
    /// policy).
    #[error("compacting the history failed")]
    Compaction(#[source] CompactionError),
    /// The retrieved items' share could not be expressed as a
    /// [`ContextBudget`](budget_runtime::ContextBudget).
    #[error("the retrieved items' share is not a valid budget")]
    Budget(#[source] ContextBudgetError),
    /// Selecting the retrieved items failed.
    #[error("selecting the retrieved items failed")]
    Selection(#[source] PipelineError),
}
