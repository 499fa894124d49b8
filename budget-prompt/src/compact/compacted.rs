//! [`Compacted`]: a compacted conversation and its report.

use std::borrow::Cow;

use crate::chat::Message;
use crate::compact::CompactionReport;

/// A compacted conversation and the report of how it was made.
///
/// `messages` borrows the input when nothing changed.
///
/// ```
/// use std::borrow::Cow;
/// use budget::compact::{CompactionConfig, Compactor, PromptTokens, SummaryRequest};
/// use budget::chat::Message;
/// use budget::compact::SummarizerError;
///
/// let toy = |_: SummaryRequest<'_>| -> Result<String, SummarizerError> { Ok("…".into()) };
/// let messages = vec![Message::user("hello")];
/// let out = Compactor::new(&CompactionConfig::default(), None)?.compact(&messages, PromptTokens::Estimate, &toy)?;
/// let owned: Vec<Message> = out.messages.into_owned(); // keep it beyond the input's lifetime
/// assert_eq!(owned, messages);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Compacted<'a> {
    /// The conversation to send from now on.
    pub messages: Cow<'a, [Message]>,
    /// What happened, with the numbers.
    pub report: CompactionReport,
}
