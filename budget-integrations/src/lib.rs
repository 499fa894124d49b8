//! Integrations of `context-budget` with other crates, each behind its own
//! feature, so that the core crates' versions are not tied to theirs.
//!
//! | feature | module | converts |
//! |---|---|---|
//! | `async-openai` | [`async_openai`] (with the feature) | `async-openai`'s chat request types to and from [`Message`](budget_prompt::chat::Message) and [`ToolDefinition`](budget_prompt::chat::ToolDefinition) |
//!
//! Most users reach them through the facade: `budget::integrations::…`,
//! with the facade's feature of the same name.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

#[cfg(feature = "async-openai")]
#[cfg_attr(docsrs, doc(cfg(feature = "async-openai")))]
pub mod async_openai;
