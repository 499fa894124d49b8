//! What OpenAI's chat wire format of messages and tools shares.

use serde::{Deserialize, Serialize};

/// The only tool (and tool-call) type a chat request knows: `"function"`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum FunctionType {
    /// `"function"`.
    Function,
}
