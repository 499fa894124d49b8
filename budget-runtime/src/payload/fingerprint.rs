//! [`Fingerprint`]: SHA-256 digests over defined parts of a rendered payload.

use std::fmt;

use sha2::{Digest, Sha256};

/// A SHA-256 digest, displayed as 64 lower-case hex digits.
///
/// ```
/// use budget::payload::Sha256Digest;
///
/// let empty = Sha256Digest::of(b"");
/// assert_eq!(
///     empty.to_string(),
///     "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
/// );
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sha256Digest([u8; 32]);

impl Sha256Digest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        Self(Sha256::digest(bytes).into())
    }

    /// The digest a finished hasher holds.
    pub(crate) fn from_hasher(hasher: Sha256) -> Self {
        Self(hasher.finalize().into())
    }

    /// A digest computed elsewhere, from its 32 bytes.
    ///
    /// ```
    /// use budget::payload::Sha256Digest;
    ///
    /// let digest = Sha256Digest::of(b"abc");
    /// assert_eq!(Sha256Digest::from_bytes(*digest.as_bytes()), digest);
    /// ```
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// The 32 digest bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Display for Sha256Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

impl fmt::Debug for Sha256Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sha256Digest({self})")
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Sha256Digest {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// The digests identifying a rendered payload.
///
/// # What each digest covers
///
/// A rendered payload is five sections: META, SUMMARY, RAW, LINKED and the
/// fingerprint itself, in that order; a sixth, SKELETON, between RAW and
/// LINKED when an item is carried as its skeleton. What a section's bytes are depends on
/// the [`Format`](crate::payload::Format):
///
/// * Markdown: from the `#` of its `## ` heading through the newline that
///   ends its last line; the empty line between sections belongs to none.
///   Lines inside RAW's fenced blocks that look like headings (a packed
///   Markdown file's own `## ` lines) are content, not section headings.
/// * XML: its element (`<meta>`, `<summary>`, `<raw>`, `<linked>`), from
///   the `<` of its start tag through the newline after its end tag.
/// * JSON: the value of its member (`"meta"`, ...), from its opening `{` or
///   `[` through the matching closing one.
///
/// The digests:
///
/// * `meta`, `summary`, `raw`, `linked`, and `skeleton` when there is that
///   section: SHA-256 of that section's bytes (UTF-8).
/// * `sources`: SHA-256 of the sources of every item in RAW, SKELETON,
///   LINKED or SUMMARY, sorted by bytes, each followed by `\n`. An item's source is
///   its [`link`](crate::ContextItem::link) on one line, or `item N` (N its
///   candidate position) when it has none.
/// * `payload`: SHA-256 of every byte before the fingerprint: before the
///   `## Fingerprint` heading (Markdown), the `<fingerprint` tag (XML), or
///   the `,` before the `"fingerprint"` member (JSON).
///
/// No digest covers the fingerprint section, so no hash is computed
/// over text containing itself. Digests are written as 64 lower-case hex
/// digits.
///
/// ```
/// use budget::{Item, payload::{PayloadAssembler, TierBudget}};
///
/// let items = [Item::builder("fn main() {}").tokens(4).link("src/main.rs").build()?];
/// let payload = PayloadAssembler::new(TierBudget::with_total(20_000)?).assemble_items(&items)?;
/// let fp = payload.fingerprint();
/// let text = payload.text();
/// let before = &text[..text.find("## Fingerprint").unwrap()];
/// assert_eq!(fp.payload, budget::payload::Sha256Digest::of(before.as_bytes()));
/// assert_eq!(fp.sources, budget::payload::Sha256Digest::of(b"src/main.rs\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Fingerprint {
    /// The META section.
    pub meta: Sha256Digest,
    /// The SUMMARY section.
    pub summary: Sha256Digest,
    /// The RAW section.
    pub raw: Sha256Digest,
    /// The LINKED section.
    pub linked: Sha256Digest,
    /// The SKELETON section, when the payload has one.
    pub skeleton: Option<Sha256Digest>,
    /// The sorted sources of the items in the payload.
    pub sources: Sha256Digest,
    /// Everything before the fingerprint.
    pub payload: Sha256Digest,
}

impl Fingerprint {
    /// The digest of `sources` sorted by bytes, each followed by `\n`.
    /// Sorts `sources` in place.
    pub(crate) fn of_sources<S: AsRef<str>>(sources: &mut [S]) -> Sha256Digest {
        sources.sort_unstable_by(|a, b| a.as_ref().cmp(b.as_ref()));
        let mut hasher = Sha256::new();
        for source in sources.iter() {
            hasher.update(source.as_ref().as_bytes());
            hasher.update(b"\n");
        }
        Sha256Digest::from_hasher(hasher)
    }

    /// The digests with their names, in the order formats print them:
    /// `skeleton` only when the payload has that section.
    pub(crate) fn digests(&self) -> Vec<(&'static str, Sha256Digest)> {
        let mut digests = vec![
            ("meta", self.meta),
            ("summary", self.summary),
            ("raw", self.raw),
        ];
        digests.extend(self.skeleton.map(|digest| ("skeleton", digest)));
        digests.extend([
            ("linked", self.linked),
            ("sources", self.sources),
            ("payload", self.payload),
        ]);
        digests
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 180-2 test vector.
    #[test]
    fn sha256_of_abc_matches_the_standard_vector() {
        assert_eq!(
            Sha256Digest::of(b"abc").to_string(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn sources_are_sorted_and_newline_terminated() {
        let mut sources = ["b.rs", "a.rs"];
        let digest = Fingerprint::of_sources(&mut sources);
        assert_eq!(sources, ["a.rs", "b.rs"]);
        assert_eq!(digest, Sha256Digest::of(b"a.rs\nb.rs\n"));
    }
}
