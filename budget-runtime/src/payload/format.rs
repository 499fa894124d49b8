//! [`Format`]: the text format a hybrid payload is rendered in.

use std::fmt;

/// The text format of a rendered hybrid payload. Every format carries the
/// same sections (META, SUMMARY, RAW, LINKED and the fingerprint) with the
/// same numbers; the assembler fits whichever is chosen to the total.
///
/// * `Markdown` (the default): `## META`, `## SUMMARY`, `## RAW`,
///   `## LINKED`, `## Fingerprint`; RAW contents in fenced blocks.
/// * `Xml`: one `<payload>` element with `<meta/>`, `<summary>`, `<raw>`,
///   `<linked>` and `<fingerprint/>`; RAW contents verbatim in CDATA.
/// * `Json`: one object with `meta`, `summary`, `raw`, `linked` and
///   `fingerprint` members; RAW contents as JSON strings.
///
/// ```
/// use budget::Item;
/// use budget::payload::{Format, PayloadAssembler, TierBudget};
///
/// let items = [Item::builder("fn main() {}").tokens(4).link("src/main.rs").build()?];
/// let payload = PayloadAssembler::new(TierBudget::with_total(2_000)?)
///     .format(Format::Json)
///     .assemble_items(&items)?;
/// assert!(payload.text().starts_with("{\n\"meta\":"));
/// assert_eq!(payload.format(), Format::Json);
/// assert_eq!(Format::Xml.to_string(), "xml");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum Format {
    /// Markdown with fenced blocks.
    #[default]
    Markdown,
    /// XML with CDATA contents.
    Xml,
    /// JSON.
    Json,
}

impl Format {
    /// Every format, in the order [`Display`](fmt::Display) names them.
    pub const ALL: [Format; 3] = [Format::Markdown, Format::Xml, Format::Json];

    /// The format's name: `markdown`, `xml` or `json`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Markdown => "markdown",
            Self::Xml => "xml",
            Self::Json => "json",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
