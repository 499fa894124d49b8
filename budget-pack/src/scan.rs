//! Reading, classifying and counting the input files, in parallel: each
//! file is read once, checked for binary content, size and emptiness, and
//! counted with the chosen counter on every core.

use std::fs::File;
use std::hash::BuildHasher;
use std::io::Read;
use std::path::Path;

use budget_runtime::estimate::{ContentType, guaranteed_upper_bound};

use crate::counting::Counting;
use crate::parallel::{parallel_map, parallel_map_owned};
use crate::progress::Progress;
use crate::secrets::{find_secret, redact};
use crate::skip::{FileTally, Skip};
use crate::walk::Entry;

/// Files larger than this are skipped as too large unless
/// [`Inputs::max_file_bytes`](crate::Inputs::max_file_bytes) says otherwise (bytes): 4 MiB.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// How much of a file is searched for a NUL byte (bytes).
const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// A text file, read and counted.
#[derive(Debug)]
pub struct TextFile {
    /// Its text; `None` when the caller asked not to keep it.
    pub text: Option<String>,
    /// The content type its extension names.
    pub content_type: ContentType,
    /// Its tokens, as counted, or their guaranteed upper bound when the
    /// scan was asked for bounds ([`ScanOptions::upper_bounds`]).
    pub tokens: u64,
    /// Secrets replaced by [`REDACTED`](crate::secrets::REDACTED) under
    /// [`Secrets::Redact`].
    pub redacted: usize,
}

/// What a scan does with a file holding a secret ([`find_secrets`](crate::secrets::find_secrets)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Secrets {
    /// Nothing: the file is read as it is (`count`).
    Keep,
    /// Only a file whose path holds a secret is skipped (as
    /// [`Skip::Secret`]) here; its text is the caller's to check where it
    /// is shown ([`Scan::leave_out_secret`]; `pack`).
    Names,
    /// Each secret is replaced by `[REDACTED]` (`pack --redact`).
    Redact,
}

/// One input file after scanning.
#[derive(Debug)]
pub struct Scanned {
    /// The file's label (see [`Entry::label`]).
    pub label: String,
    /// The counted text, or why there is none.
    pub outcome: Result<TextFile, (Skip, String)>,
    /// For a copy of an earlier file (a [`Skip::Duplicate`], or a
    /// [`Skip::Secret`] when that file's path holds one), that file's index.
    pub copy_of: Option<usize>,
}

/// The scanned files, in walk order, and their tally.
#[derive(Debug)]
pub struct Scan {
    /// One record per input file.
    pub files: Vec<Scanned>,
    /// Counted and skipped files.
    pub tally: FileTally,
}

impl Scan {
    /// Tokens of every counted file (saturating).
    pub fn total_tokens(&self) -> u64 {
        self.texts()
            .map(|(_, f)| f.tokens)
            .fold(0, u64::saturating_add)
    }

    /// Leaves out the counted file at `index` as holding a secret
    /// (`detail`: where, and which rule), with every copy of it: for a
    /// scan with [`Secrets::Names`], whose caller checks the texts it
    /// shows.
    pub fn leave_out_secret(&mut self, index: usize, detail: &str) {
        if self.files[index].outcome.is_ok() {
            self.tally.counted -= 1;
            self.tally.skip(Skip::Secret);
        }
        self.files[index].outcome = Err((Skip::Secret, detail.to_owned()));
        let label = self.files[index].label.clone();
        for file in &mut self.files {
            if file.copy_of == Some(index) && matches!(file.outcome, Err((Skip::Duplicate, _))) {
                self.tally.reclassify(Skip::Duplicate, Skip::Secret);
                file.outcome = Err((
                    Skip::Secret,
                    format!("identical to {label}, which holds a secret ({detail})"),
                ));
            }
        }
    }

    /// `(label, file)` of every counted file, in walk order.
    pub fn texts(&self) -> impl Iterator<Item = (&str, &TextFile)> {
        self.files
            .iter()
            .filter_map(|s| s.outcome.as_ref().ok().map(|f| (s.label.as_str(), f)))
    }
}

/// How files are read and counted.
#[derive(Debug)]
pub struct ScanOptions<'c> {
    /// The counter.
    pub counter: &'c Counting<'c>,
    /// Whether texts are kept (for the payload) or dropped once counted.
    pub keep_text: bool,
    /// Larger files are skipped as too large (bytes).
    pub max_file_bytes: u64,
    /// Whether files get the guaranteed upper bound of their `o200k_base` or
    /// `cl100k_base` count ([`guaranteed_upper_bound`]) instead of being
    /// counted: for a caller that counts exactly only what it needs.
    pub upper_bounds: bool,
    /// What happens to a file holding a secret.
    pub secrets: Secrets,
    /// Whether a file byte-identical to an earlier one is skipped as a
    /// duplicate before it is scanned or counted.
    pub deduplicate: bool,
}

/// Reads and counts every entry on all available cores. With
/// [`ScanOptions::deduplicate`], a file byte-identical to one earlier in
/// walk order is a [`Skip::Duplicate`] before it is scanned for secrets or
/// counted (or a [`Skip::Secret`] when that earlier file holds one).
pub fn scan(entries: Vec<Entry>, options: &ScanOptions<'_>, progress: &dyn Progress) -> Scan {
    progress.start_counting(entries.len());
    let hasher = foldhash::fast::RandomState::default();
    let mut read = parallel_map(&entries, |entry| {
        let named_secret = (options.secrets != Secrets::Keep)
            .then(|| find_secret(&entry.label, ""))
            .flatten();
        let text = match (&entry.skipped, named_secret) {
            (Some(skipped), _) => Err(skipped.clone()),
            // A name cannot be redacted without losing the file's place.
            (None, Some(found)) => Err((Skip::Secret, format!("its path holds {}", found.rule))),
            (None, None) => read_text(&entry.path, options.max_file_bytes),
        };
        progress.counted_one();
        let hash = match (&text, options.deduplicate) {
            (Ok(text), true) => hasher.hash_one(text.as_bytes()),
            _ => 0,
        };
        Some((text, hash))
    });
    progress.finish();
    let copy_of = if options.deduplicate {
        copies(&read)
    } else {
        vec![None; read.len()]
    };
    let jobs: Vec<(usize, String)> = read
        .iter_mut()
        .enumerate()
        .filter(|(i, _)| copy_of[*i].is_none())
        .filter_map(|(i, slot)| match slot.take() {
            Some((Ok(text), _)) => Some((i, text)),
            other => {
                *slot = other;
                None
            }
        })
        .collect();
    let scanned = parallel_map_owned(jobs, |(i, text): (usize, String)| {
        (i, secrets_and_tokens(text, &entries[i].label, options))
    });
    let mut outcomes: Vec<Option<Result<TextFile, (Skip, String)>>> = read
        .into_iter()
        .map(|slot| match slot {
            Some((Err(skipped), _)) => Some(Err(skipped)),
            _ => None,
        })
        .collect();
    for (i, outcome) in scanned {
        outcomes[i] = Some(outcome);
    }
    for (i, first) in copy_of.iter().enumerate() {
        if let Some(first) = *first {
            let label = &entries[first].label;
            outcomes[i] = Some(Err(match &outcomes[first] {
                Some(Err((Skip::Secret, detail))) => (
                    Skip::Secret,
                    format!("identical to {label}, which holds a secret ({detail})"),
                ),
                _ => (Skip::Duplicate, format!("identical to {label}")),
            }));
        }
    }
    let mut tally = FileTally::default();
    let files = entries
        .into_iter()
        .zip(outcomes)
        .zip(copy_of)
        .map(|((entry, outcome), copy_of)| {
            let outcome = outcome.unwrap_or_else(|| Err((Skip::Unreadable, "not read".to_owned())));
            match &outcome {
                Ok(_) => tally.counted += 1,
                Err((skip, _)) => tally.skip(*skip),
            }
            Scanned {
                label: entry.label,
                outcome,
                copy_of,
            }
        })
        .collect();
    Scan { files, tally }
}

/// For each read text, the position of the first earlier text identical
/// to it, if any (by hash, then by content).
#[allow(clippy::type_complexity)]
fn copies(read: &[Option<(Result<String, (Skip, String)>, u64)>]) -> Vec<Option<usize>> {
    let mut first_of: rustc_hash::FxHashMap<u64, Vec<usize>> = rustc_hash::FxHashMap::default();
    let text = |i: usize| match &read[i] {
        Some((Ok(text), _)) => Some(text.as_str()),
        _ => None,
    };
    let mut copy_of = vec![None; read.len()];
    for (i, slot) in read.iter().enumerate() {
        let (Some(this), Some((_, hash))) = (text(i), slot) else {
            continue;
        };
        let firsts = first_of.entry(*hash).or_default();
        match firsts.iter().find(|&&f| text(f) == Some(this)) {
            Some(&first) => copy_of[i] = Some(first),
            None => firsts.push(i),
        }
    }
    copy_of
}

/// A read text as a [`TextFile`]: its secrets found (the file skipped) or
/// redacted, as `options` say, and its tokens counted.
fn secrets_and_tokens(
    text: String,
    label: &str,
    options: &ScanOptions<'_>,
) -> Result<TextFile, (Skip, String)> {
    let (text, redacted) = match options.secrets {
        Secrets::Keep => (text, 0),
        Secrets::Names => (text, 0),
        Secrets::Redact => {
            let (text, findings) = redact(&text, label);
            (text, findings.len())
        }
    };
    let content_type = content_type(label);
    let tokens = if options.upper_bounds {
        guaranteed_upper_bound(&text)
    } else {
        options.counter.count(&text, content_type)
    };
    Ok(TextFile {
        text: options.keep_text.then_some(text),
        content_type,
        tokens,
        redacted,
    })
}

/// The file's text, or why it has none worth counting. At most
/// `max_bytes + 1` bytes are read whatever the file's metadata says (files
/// in `/proc` report a size of 0 and can be endless), and a file whose
/// first 8 KiB hold a NUL byte is skipped as binary before the rest is read.
fn read_text(path: &Path, max_bytes: u64) -> Result<String, (Skip, String)> {
    let unreadable = |e: std::io::Error| (Skip::Unreadable, e.to_string());
    let file = File::open(path).map_err(unreadable)?;
    let reported = file.metadata().map_err(unreadable)?.len();
    if reported > max_bytes {
        return Err((
            Skip::TooLarge,
            format!("{reported} bytes, over the {max_bytes}-byte limit"),
        ));
    }
    let mut reader = file.take(max_bytes.saturating_add(1));
    // Sized from the metadata (which may lie: the reads below still stop
    // at the limit), so a whole file is read without regrowing.
    let mut bytes = Vec::with_capacity(usize::try_from(reported.saturating_add(1)).unwrap_or(0));
    let whole = read_small(&mut reader, &mut bytes, reported).map_err(unreadable)?;
    if !whole {
        (&mut reader)
            .take((BINARY_SNIFF_BYTES - bytes.len()) as u64)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
    }
    if bytes.contains(&0) {
        return Err((Skip::Binary, "NUL byte in the first 8 KiB".to_owned()));
    }
    // Fewer bytes than asked for: that read went on to the end of the file
    // (most files are this small; another read would only find the end).
    if !whole && bytes.len() == BINARY_SNIFF_BYTES {
        reader.read_to_end(&mut bytes).map_err(unreadable)?;
    }
    if bytes.len() as u64 > max_bytes {
        return Err((
            Skip::TooLarge,
            format!(
                "more than {max_bytes} bytes read (its size reads {reported}), over the {max_bytes}-byte limit"
            ),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        (
            Skip::Binary,
            format!(
                "not UTF-8 (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    if text.trim().is_empty() {
        return Err((Skip::Empty, "empty or only whitespace".to_owned()));
    }
    Ok(text)
}

/// Reads a file whose metadata reports fewer than [`BINARY_SNIFF_BYTES`]
/// (and more than none) into the empty `bytes`; `true` when it is read
/// whole. A file is whole once its reported size is read: `read_to_end`
/// would make one more read, to find the end, for every file (most are
/// this small). Past the reported size (a file that grew), or short of it
/// at the end, it is not, and the reads go on as for any file: at most
/// `reported + 1` bytes are read here.
fn read_small(reader: &mut impl Read, bytes: &mut Vec<u8>, reported: u64) -> std::io::Result<bool> {
    let Some(size) = usize::try_from(reported)
        .ok()
        .filter(|&size| size > 0 && size < BINARY_SNIFF_BYTES)
    else {
        return Ok(false);
    };
    // Zeroed first (a few KiB), as `read` asks for initialised bytes.
    bytes.resize(size + 1, 0);
    let mut filled = 0;
    let whole = loop {
        match reader.read(&mut bytes[filled..]) {
            Ok(0) => break false,
            Ok(read) => filled += read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => {
                bytes.clear();
                return Err(error);
            }
        }
        if filled == size {
            break true;
        }
        if filled > size {
            break false;
        }
    };
    bytes.truncate(filled);
    Ok(whole)
}

/// The content type a file's extension names (prose when unknown).
pub fn content_type(label: &str) -> ContentType {
    let name = label.rsplit('/').next().unwrap_or(label);
    let extension = name.rsplit_once('.').map_or("", |(_, ext)| ext);
    match extension.to_ascii_lowercase().as_str() {
        "md" | "markdown" => ContentType::Markdown,
        "yaml" | "yml" => ContentType::Yaml,
        "rs" | "py" | "js" | "ts" | "c" | "h" | "cc" | "cpp" | "hpp" | "go" | "java" | "kt"
        | "rb" | "sh" | "json" | "toml" | "html" | "css" | "sql" => ContentType::Code,
        _ => ContentType::Prose,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_by_extension() {
        assert_eq!(content_type("src/lib.RS"), ContentType::Code);
        assert_eq!(content_type("docs/a.md"), ContentType::Markdown);
        assert_eq!(content_type("config/x.yml"), ContentType::Yaml);
        assert_eq!(content_type("NOTES"), ContentType::Prose);
    }

    /// A reader that gives one byte a read, as a slow file system may.
    struct ByteAtATime<'a>(&'a [u8]);

    impl Read for ByteAtATime<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            let one = buffer.len().min(1);
            self.0.read(&mut buffer[..one])
        }
    }

    /// A small file is whole once its reported size is read, however many
    /// reads that takes; one that grew past its report, or ended short of
    /// it, is not, with at most one byte past the report read.
    #[test]
    fn a_small_file_is_whole_at_its_reported_size() {
        let text = b"def tide():\n    return 1\n";
        let size = text.len() as u64;
        let mut bytes = Vec::new();
        assert!(read_small(&mut ByteAtATime(text), &mut bytes, size).unwrap());
        assert_eq!(bytes, text);

        let mut bytes = Vec::new();
        assert!(!read_small(&mut &text[..], &mut bytes, size - 5).unwrap());
        assert_eq!(bytes, &text[..text.len() - 4]);

        let mut bytes = Vec::new();
        assert!(!read_small(&mut &text[..], &mut bytes, size + 5).unwrap());
        assert_eq!(bytes, text);

        for reported in [0, BINARY_SNIFF_BYTES as u64, 1 << 40] {
            let mut bytes = Vec::new();
            assert!(!read_small(&mut &text[..], &mut bytes, reported).unwrap());
            assert!(bytes.is_empty(), "{reported}");
        }
    }

    /// Files around the binary sniff's 8 KiB are read whole; a NUL byte in
    /// the first 8 KiB makes a file binary, one past them does not; the
    /// size limit holds whether or not the sniff reaches it.
    #[test]
    fn texts_are_read_whole_around_the_sniff() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        };
        for size in [1, 8_191, 8_192, 8_193, 20_000] {
            let path = write("text", &vec![b'a'; size]);
            assert_eq!(
                read_text(&path, 1 << 20).unwrap().len(),
                size,
                "{size} bytes"
            );
        }
        let mut early = vec![b'a'; 9_000];
        early[8_000] = 0;
        let path = write("early", &early);
        assert!(matches!(read_text(&path, 1 << 20), Err((Skip::Binary, _))));
        let mut late = vec![b'a'; 9_000];
        late[8_500] = 0;
        let path = write("late", &late);
        assert_eq!(read_text(&path, 1 << 20).unwrap().len(), 9_000);
        let path = write("large", &vec![b'a'; 500]);
        assert!(matches!(read_text(&path, 100), Err((Skip::TooLarge, _))));
    }
}

/// Every input file counted (`budget count`): the text files' tokens and
/// the tally of what was counted and skipped.
#[derive(Debug)]
pub struct Counted {
    scan: Scan,
}

impl Counted {
    /// `(label, content type, tokens)` of every counted file, in walk
    /// order; labels are `/`-separated, relative to the folder when one
    /// folder is walked.
    pub fn files(&self) -> impl Iterator<Item = (&str, ContentType, u64)> {
        self.scan
            .texts()
            .map(|(label, file)| (label, file.content_type, file.tokens))
    }

    /// Every input file in walk order: its label, and its content type and
    /// tokens, or why it was skipped (with a detail).
    #[allow(clippy::type_complexity)]
    pub fn inputs(&self) -> impl Iterator<Item = (&str, Result<(ContentType, u64), (Skip, &str)>)> {
        self.scan.files.iter().map(|file| {
            let outcome = match &file.outcome {
                Ok(text) => Ok((text.content_type, text.tokens)),
                Err((skip, detail)) => Err((*skip, detail.as_str())),
            };
            (file.label.as_str(), outcome)
        })
    }

    /// Tokens of every counted file (saturating).
    pub fn total_tokens(&self) -> u64 {
        self.scan.total_tokens()
    }

    /// How many files were counted, and how many skipped for each reason.
    pub fn tally(&self) -> &FileTally {
        &self.scan.tally
    }
}

/// Counts the tokens of every file of `inputs` with `counting`, in
/// parallel; binary, empty, oversized and unreadable files are skipped
/// (and tallied), and files holding secrets are counted like the rest.
///
/// ```
/// use budget_pack::{Counting, Inputs, count};
/// use budget_runtime::estimate::RatioEstimator;
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("a.md"), "# Notes\n\nSome words.\n")?;
/// let inputs = Inputs { paths: vec![dir.path().into()], ..Inputs::default() };
/// let counted = count(&inputs, &Counting::estimated("ratios", &RatioEstimator), &())?;
/// assert_eq!(counted.tally().counted, 1);
/// assert!(counted.total_tokens() > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`WalkError`](crate::WalkError) for a missing path or a bad glob.
pub fn count(
    inputs: &crate::Inputs,
    counting: &Counting<'_>,
    progress: &dyn Progress,
) -> Result<Counted, crate::WalkError> {
    let entries = crate::walk::walk(inputs, progress)?;
    let scan = scan(
        entries,
        &ScanOptions {
            counter: counting,
            keep_text: false,
            max_file_bytes: inputs.max_file_bytes,
            upper_bounds: false,
            secrets: Secrets::Keep,
            deduplicate: false,
        },
        progress,
    );
    Ok(Counted { scan })
}
