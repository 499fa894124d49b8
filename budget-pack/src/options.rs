//! [`PackOptions`] and [`Budget`]: what to pack and how.

use budget_runtime::payload::{Format, OfferOrder};

use crate::walk::Inputs;

/// The token budget of a pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// At most this many tokens for the whole rendered payload.
    Tokens(u64),
    /// Sized from the material: 25,000, 70,000 or 100,000 tokens, by how
    /// much there is and how varied it is.
    Auto,
}

/// Everything `pack` needs besides the counter: the inputs, the budget,
/// the query and the payload's form.
///
/// ```
/// use budget_pack::{Budget, PackOptions};
///
/// let mut options = PackOptions::new(["src"]);
/// options.budget = Budget::Tokens(50_000);
/// options.query = Some("token budget".into());
/// assert_eq!(options.inputs.paths.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct PackOptions {
    /// The files and folders to pack, and how they are walked.
    pub inputs: Inputs,
    /// The payload's budget (default 25,000 tokens).
    pub budget: Budget,
    /// Rank files by how well they match this text (BM25F over their text,
    /// path and defined names) and focus outlines on it; files matching
    /// nothing never go RAW. A query no file matches ranks as none.
    pub query: Option<String>,
    /// The payload's format (default Markdown).
    pub format: Format,
    /// The order files are offered to the tiers (default: best rank first).
    pub order: OfferOrder,
    /// Whether the payload carries its META section (tier figures).
    pub meta: bool,
    /// Whether the payload carries its TREE section (default on).
    pub tree: bool,
    /// Whether LINKED lines say a fetch tool can open them.
    pub fetch_tool: bool,
    /// A git section with the diff of the working tree against this
    /// revision (feature `git`).
    pub diff: Option<String>,
    /// A git section with this many latest commit messages (feature `git`).
    pub log: Option<u16>,
    /// Pack files and git sections holding secrets with each secret
    /// replaced, instead of leaving them out.
    pub redact: bool,
    /// A folder where `pack` keeps what it learns of each file's text
    /// between runs of the same inputs (its size and where its description
    /// is; the names a source file defines, hashes of the names it uses,
    /// the offsets and rows of its outline; whether a search for secrets
    /// found none in it: never text), so that a tree packed again is
    /// scanned, parsed and searched only where it changed; the payload is
    /// the same (default none: nothing kept).
    /// Exact counts are kept by a [`CountCache`](crate::CountCache).
    pub cache: Option<std::path::PathBuf>,
}

impl PackOptions {
    /// Options to pack `paths` (the current directory when empty) with the
    /// defaults.
    pub fn new<P: Into<std::path::PathBuf>>(paths: impl IntoIterator<Item = P>) -> Self {
        Self {
            inputs: Inputs {
                paths: paths.into_iter().map(Into::into).collect(),
                ..Inputs::default()
            },
            budget: Budget::Tokens(25_000),
            query: None,
            format: Format::Markdown,
            order: OfferOrder::Rank,
            meta: false,
            tree: true,
            fetch_tool: false,
            diff: None,
            log: None,
            redact: false,
            cache: None,
        }
    }
}
