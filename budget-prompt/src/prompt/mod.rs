//! Whole prompts for agents: one [`PromptBudget`] for the system prompt,
//! tool definitions, chat history and retrieved items of each request,
//! counted as the provider counts them ([`ChatFormat`](crate::chat::ChatFormat)).
//!
//! See [`PromptBudget`] for an agent turn, [`ChatFormat`](crate::chat::ChatFormat) for the counting
//! rules and [`ToolDefinition`](crate::chat::ToolDefinition) for tools.

mod context_position;
mod error;
mod fitted_prompt;
mod prompt_budget;
mod prompt_budget_builder;
mod prompt_session;
mod turn;

pub use context_position::ContextPosition;
pub use error::PromptError;
pub use fitted_prompt::{FittedPrompt, PromptReport, StablePrefix};
pub use prompt_budget::{
    DEFAULT_DOCUMENTS_HEADER, DEFAULT_HISTORY_SHARE, DEFAULT_OUTPUT_RESERVE, PromptBudget,
    default_counter,
};
pub use prompt_budget_builder::PromptBudgetBuilder;
pub use prompt_session::{DEFAULT_SHRINK_TO, PromptSession};
pub use turn::Turn;
