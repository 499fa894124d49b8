//! [`ContextPosition`]: where the context message (pinned and retrieved
//! items) goes in a request.

/// Where a fitted request puts its context message.
///
/// A provider serves a repeated request prefix from its cache (OpenAI and
/// Gemini implicitly, Anthropic up to a `cache_control` breakpoint), so what
/// changes least should come first. Retrieved items usually change with
/// every user message, the history only grows; the default puts the context
/// after the older history, so a new retrieval leaves the prefix up to it
/// intact.
///
/// ```
/// use budget::chat::{Message, Role};
/// use budget::prompt::{ContextPosition, PromptBudget, Turn};
/// use budget::{Item, compact::{SummarizerError, SummaryRequest}};
///
/// let history = [Message::user("hi"), Message::assistant("hello"), Message::user("and?")];
/// let docs = [Item::builder("A retrieved note.").build()?];
/// let none = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok(String::new()) };
/// let turn = || Turn::new("Be brief.").history(&history).documents(&docs);
///
/// let stable = PromptBudget::builder(4_096).build()?.fit(turn(), &none)?;
/// let roles: Vec<Role> = stable.messages.iter().map(|m| m.role).collect();
/// assert_eq!(roles, [Role::System, Role::User, Role::Assistant, Role::System, Role::User]);
///
/// let first = PromptBudget::builder(4_096).context_position(ContextPosition::AfterSystem).build()?;
/// let roles: Vec<Role> = first.fit(turn(), &none)?.messages.iter().map(|m| m.role).collect();
/// assert_eq!(roles, [Role::System, Role::System, Role::User, Role::Assistant, Role::User]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ContextPosition {
    /// Just before the newest user message (after the whole history when
    /// it has none): the system prompt and the history up to the newest
    /// user message form a prefix that a new retrieval does not change.
    #[default]
    BeforeLatestUser,
    /// Right after the system prompt, before the history: every new
    /// retrieval changes the request from its second message on.
    AfterSystem,
}
