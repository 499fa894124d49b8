//! Whole prompts for agents: the [`ChatFormat`] that counts a chat request
//! as a provider does, and the [`ToolDefinition`]s it counts.

mod chat_format;
mod tool_definition;

pub use chat_format::{ChatFormat, ToolsFormat};
pub use tool_definition::{ToolDefinition, ToolParameter};
