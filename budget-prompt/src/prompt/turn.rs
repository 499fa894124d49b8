//! [`Turn`]: what one request is made of, before fitting.

use std::fmt;

use crate::chat::Message;
use crate::chat::ToolDefinition;
use budget_runtime::model::{ContextItem, Item};

/// The parts of one request: system prompt, tool definitions, chat
/// history, retrieved items and pinned items. Everything is borrowed;
/// [`PromptBudget::fit`](crate::prompt::PromptBudget::fit) decides what
/// goes in.
///
/// `T` is the type of the retrieved and pinned items (any
/// [`ContextItem`](budget_runtime::ContextItem), e.g. a `#[derive(ContextItem)]`
/// struct); a turn starts as `Turn<Item>` and takes its type from
/// [`documents`](Turn::documents).
///
/// ```
/// use budget::chat::Message;
/// use budget::prompt::Turn;
/// use budget::chat::ToolDefinition;
/// use budget::Item;
///
/// let tools = [ToolDefinition::new("search", "Search the docs")];
/// let history = [Message::user("How do I borrow mutably?")];
/// let docs = [Item::builder("Mutable references: &mut T").relevance(0.8).build()?];
/// let turn = Turn::new("You answer Rust questions.").tools(&tools).history(&history).documents(&docs);
/// assert_eq!(turn.documents.len(), 1);
/// # Ok::<(), budget::model::ItemError>(())
/// ```
#[non_exhaustive]
pub struct Turn<'a, T = Item> {
    /// The system prompt (no system message when empty).
    pub system: &'a str,
    /// The tools the model may call.
    pub tools: &'a [ToolDefinition],
    /// The conversation so far, oldest first, without the system prompt.
    pub history: &'a [Message],
    /// Retrieved items, selected by relevance into what is left.
    pub documents: &'a [T],
    /// Items always included, before the retrieved ones (of any item type).
    pub pinned: &'a [&'a dyn ContextItem],
}

impl<'a> Turn<'a, Item> {
    /// A turn with only a system prompt.
    pub fn new(system: &'a str) -> Self {
        Self {
            system,
            tools: &[],
            history: &[],
            documents: &[],
            pinned: &[],
        }
    }
}

impl<'a, T> Turn<'a, T> {
    /// This turn with `tools`.
    #[must_use]
    pub fn tools(mut self, tools: &'a [ToolDefinition]) -> Self {
        self.tools = tools;
        self
    }

    /// This turn with `history`.
    #[must_use]
    pub fn history(mut self, history: &'a [Message]) -> Self {
        self.history = history;
        self
    }

    /// This turn with retrieved items `documents`, of any item type.
    pub fn documents<U>(self, documents: &'a [U]) -> Turn<'a, U> {
        Turn {
            system: self.system,
            tools: self.tools,
            history: self.history,
            documents,
            pinned: self.pinned,
        }
    }

    /// This turn with `pinned` items, always included.
    ///
    /// ```
    /// use budget::{ContextItem, Item};
    /// use budget::prompt::Turn;
    /// let rules = Item::new("Never run rm -rf.", 6)?;
    /// let pinned: [&dyn ContextItem; 1] = [&rules];
    /// assert_eq!(Turn::new("You are an agent.").pinned(&pinned).pinned.len(), 1);
    /// # Ok::<(), budget::model::ItemError>(())
    /// ```
    #[must_use]
    pub fn pinned(mut self, pinned: &'a [&'a dyn ContextItem]) -> Self {
        self.pinned = pinned;
        self
    }
}

impl<T: fmt::Debug> fmt::Debug for Turn<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Turn")
            .field("system", &self.system)
            .field("tools", &self.tools)
            .field("history", &self.history)
            .field("documents", &self.documents)
            .field("pinned", &self.pinned.len())
            .finish()
    }
}
