//! The chat vocabulary every part of the library speaks: a conversation's
//! [`Message`]s (with their [`Role`] and [`ToolCall`]s), the
//! [`ToolDefinition`]s a request offers, and the [`ChatFormat`] that says
//! what a request costs beyond the text of its messages, the only
//! per-message overhead model of the library.
//!
//! Compaction ([`compact`](crate::compact)) shrinks conversations of these
//! messages, and whole prompts ([`prompt`](crate::prompt)) fit them, with
//! tools, into a model's window.
//!
//! ```
//! use budget::chat::{ChatFormat, Message, ToolCall};
//! use budget::estimate::RatioEstimator;
//!
//! let conversation = [
//!     Message::user("What is in src/lib.rs?"),
//!     Message::assistant_with_tool_calls("", vec![ToolCall::new("c1", "read_file", r#"{"path":"src/lib.rs"}"#)]),
//!     Message::tool_result("c1", "pub mod model;"),
//! ];
//! let format = ChatFormat::approximate();
//! let tokens = format.request_tokens(&conversation, &[], &RatioEstimator);
//! assert!(tokens > 0);
//! ```

mod chat_format;
mod chat_template;
mod message;
mod tool_definition;
#[cfg(feature = "serde")]
mod wire;

pub use chat_format::{ChatFormat, ToolsFormat};
pub use chat_template::{ChatTemplate, OPEN_TOOLS_PREAMBLE};
pub use message::{Message, Role, SUMMARY_HEADER, ToolCall};
pub use tool_definition::{DuplicateParameter, ToolDefinition, ToolParameter};
