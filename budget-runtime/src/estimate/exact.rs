//! [`ExactCounter`]: exact token counts, under an OpenAI [`Encoding`] with
//! the vocabularies compiled in (features `o200k` and `cl100k`), or under a
//! tokenizer file of an open model (tiktoken rank files and tekken JSON:
//! `rank_bpe`; `tokenizer.json`: the `tokenizers` crate).
//!
//! The compiled-in backend runs tiktoken's merges over `budget-vocab-openai`'s
//! hash tables, which are read in place, so a process pays nothing to load
//! a vocabulary. It reproduces every count of the corpus's `tokens.tsv` and
//! agrees with `tiktoken-rs` on random text of every Unicode plane
//! (tested; `benches/estimate.rs`, group `count_corpus_exact`, times both
//! side by side). `tiktoken-rs` remains a dev-dependency only, as the
//! differential reference.

use std::fmt;
use std::path::Path;
#[cfg(feature = "bpe")]
use std::sync::Arc;

use crate::estimate::{Encoding, ShippedVocabulary, SplitPattern, TokenCounter, TokenizerError};

#[cfg(any(feature = "o200k", feature = "cl100k"))]
use crate::estimate::compiled::CompiledBpe;
#[cfg(any(feature = "o200k", feature = "cl100k"))]
use crate::estimate::safe_cut::is_safe_cut;

/// The tokenizer behind an [`ExactCounter`].
#[derive(Clone)]
enum Backend {
    /// A vocabulary compiled into the binary.
    #[cfg(any(feature = "o200k", feature = "cl100k"))]
    Compiled(&'static CompiledBpe),
    /// A vocabulary read from a tiktoken or tekken file.
    #[cfg(feature = "bpe")]
    Loaded(Arc<crate::estimate::rank_bpe::RankBpe>),
    /// A `tokenizer.json`, SentencePiece model or GGUF file.
    #[cfg(feature = "bpe")]
    File(Arc<crate::estimate::file_tokenizer::FileTokenizer>),
    /// No tokenizer is compiled in: no value of this type exists.
    #[cfg(not(feature = "bpe"))]
    #[allow(dead_code)] // uninhabited
    None(std::convert::Infallible),
}

/// The compiled-in tokenizer of `encoding`, or the feature that would
/// compile it in.
fn compiled(encoding: Encoding) -> Result<Backend, TokenizerError> {
    match encoding {
        #[cfg(feature = "o200k")]
        Encoding::O200kBase => Ok(Backend::Compiled(&crate::estimate::compiled::O200K)),
        #[cfg(feature = "cl100k")]
        Encoding::Cl100kBase => Ok(Backend::Compiled(&crate::estimate::compiled::CL100K)),
        #[allow(unreachable_patterns)] // every encoding compiled in
        other => Err(TokenizerError::NotCompiled {
            encoding: other,
            feature: feature_of(other),
        }),
    }
}

/// The cargo feature that compiles in the vocabulary of `encoding`.
const fn feature_of(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::O200kBase => "o200k",
        Encoding::Cl100kBase => "cl100k",
    }
}

/// Counts tokens exactly, as the model's own tokenizer does in its ordinary
/// encoding: special-token text such as `<|endoftext|>` is counted as plain
/// text, never as one special token.
///
/// Three sources of vocabulary, nothing ever downloaded:
/// * OpenAI's encodings compiled into the binary ([`new`](Self::new);
///   feature `o200k` for `o200k_base`, `cl100k` for `cl100k_base`, `exact`
///   for both), read in place with nothing to build;
/// * a tokenizer file read from disk ([`from_file`](Self::from_file),
///   feature `bpe`): a tiktoken rank file (Llama 3 and 4, Qwen, OpenAI's
///   encodings) with its [`SplitPattern`], Mistral's tekken JSON, a Hugging
///   Face `tokenizer.json`, a SentencePiece `.model`, or a GGUF model file
///   (llama.cpp, Ollama, LocalAI), all read natively;
/// * a file in the local Hugging Face cache
///   ([`hf_cache_file`](crate::estimate::hf_cache_file)).
///
/// A counter is a cheap handle (a reference count): build it once and pass
/// it around as a [`TokenCounter`]. Every [`TokenCounter`] is an
/// [`Estimator`](crate::Estimator), so an exact counter goes wherever a
/// `&dyn Estimator` is taken (the content type is ignored):
///
/// ```
/// use budget::{Estimator, estimate::{ContentType, Encoding, ExactCounter, TokenCounter}};
///
/// # #[cfg(feature = "o200k")] {
/// let exact = ExactCounter::new(Encoding::O200kBase)?;
/// assert_eq!(exact.count_tokens("hello world"), 2);
/// // "Does it fit in 1 token?" stops as soon as the answer is no.
/// assert_eq!(exact.count_tokens_up_to("hello world", 1), None);
/// let estimator: &dyn Estimator = &exact;
/// assert_eq!(estimator.estimate("hello world", ContentType::Prose), 2);
/// # }
/// # Ok::<(), budget::estimate::TokenizerError>(())
/// ```
#[derive(Clone)]
pub struct ExactCounter {
    name: String,
    encoding: Option<Encoding>,
    backend: Backend,
}

/// The largest tokenizer file read, in bytes (the largest published ones are
/// about 20 MB).
pub const MAX_TOKENIZER_FILE_BYTES: u64 = 256 * 1024 * 1024;

impl ExactCounter {
    /// A counter for `encoding`, over its vocabulary compiled into the
    /// binary: nothing is loaded. The first text the hand-written ASCII
    /// split of `o200k_base` does not cover (non-ASCII text, or any text
    /// under `cl100k_base`) compiles the split pattern, once per process
    /// (a few milliseconds).
    ///
    /// # Errors
    /// [`TokenizerError::NotCompiled`] if the vocabulary of `encoding` was
    /// not compiled in (its cargo feature, named in the error, is off).
    ///
    /// ```
    /// use budget::{estimate::{Encoding, ExactCounter, TokenCounter}};
    /// # #[cfg(feature = "cl100k")] {
    /// let cl100k = ExactCounter::new(Encoding::Cl100kBase)?;
    /// assert_eq!(cl100k.encoding(), Some(Encoding::Cl100kBase));
    /// assert_eq!(cl100k.count_tokens(""), 0);
    /// # }
    /// # Ok::<(), budget::estimate::TokenizerError>(())
    /// ```
    pub fn new(encoding: Encoding) -> Result<Self, TokenizerError> {
        Ok(Self {
            name: encoding.name().to_owned(),
            encoding: Some(encoding),
            backend: compiled(encoding)?,
        })
    }

    /// A counter for the tokenizer file at `path`, its format read from its
    /// content:
    /// * a JSON object with `config` and `vocab`: Mistral's tekken (its
    ///   pattern inside);
    /// * a JSON object with `model`: a Hugging Face `tokenizer.json`
    ///   (byte-level BPE, SentencePiece-style BPE, unigram; its normalizer,
    ///   pre-tokenizers and added tokens);
    /// * a file starting with `GGUF`: a llama.cpp model, of which only the
    ///   tokenizer metadata is read (`tokenizer.ggml.model` `llama` or
    ///   `gpt2`), however large the file;
    /// * a protobuf: a SentencePiece `.model` (BPE or unigram, byte
    ///   fallback, its normalizer spec);
    /// * anything else: a tiktoken rank file, split by `pattern`, or when
    ///   that is `None` by the pattern its number of ranks identifies
    ///   ([`SplitPattern::for_vocabulary_size`]).
    ///
    /// Counts follow each format's reference implementation (`tokenizers`,
    /// `sentencepiece`, llama.cpp): no BOS or EOS, and a `tokenizer.json`'s
    /// added tokens and a SentencePiece model's user-defined symbols found
    /// in the text count one each. Building takes up to about a second for
    /// 128k–262k tokens; build once and clone the counter. At most
    /// [`MAX_TOKENIZER_FILE_BYTES`] are read (of a GGUF file, its metadata
    /// only).
    ///
    /// # Errors
    /// [`TokenizerError::Read`] if the file cannot be read or is too large,
    /// [`TokenizerError::Format`] with the file (and line) if it is not a
    /// tokenizer of a known format or uses a component this reader does not
    /// support (named in the message: the count would not be exact),
    /// [`TokenizerError::UnknownPattern`] if a rank file's pattern is neither
    /// given nor identified, [`TokenizerError::NotCompiledFormat`] without
    /// the `bpe` feature.
    ///
    /// ```no_run
    /// use budget::estimate::{ExactCounter, SplitPattern, TokenCounter};
    /// let llama3 = ExactCounter::from_file("tokenizer.model".as_ref(), Some(SplitPattern::LLAMA3))?;
    /// assert_eq!(llama3.count_tokens("hello world"), 2);
    /// # Ok::<(), budget::estimate::TokenizerError>(())
    /// ```
    pub fn from_file(path: &Path, pattern: Option<SplitPattern>) -> Result<Self, TokenizerError> {
        #[cfg(feature = "bpe")]
        {
            let name = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            if starts_with_gguf_magic(path)? {
                return Ok(Self::file(name, crate::estimate::gguf::read(path)?));
            }
            Self::parse(name, &read_bounded(path)?, pattern, path)
        }
        #[cfg(not(feature = "bpe"))]
        {
            let _ = pattern;
            Err(TokenizerError::NotCompiledFormat {
                path: path.to_path_buf(),
                format: "tokenizer file",
                feature: "bpe",
            })
        }
    }

    /// A counter for the contents of a tokenizer file already in memory (a
    /// vocabulary compiled into a program with `include_bytes!`), in any
    /// format [`from_file`](Self::from_file) reads; `name` is what
    /// [`name`](Self::name) and errors call it.
    ///
    /// # Errors
    /// As [`from_file`](Self::from_file), but never [`TokenizerError::Read`].
    ///
    /// ```no_run
    /// use budget::estimate::{ExactCounter, TokenCounter};
    /// // Or `include_bytes!`: the contents, however they got there.
    /// let gemma3 = std::fs::read("gemma3.spiece.model")?;
    /// let gemma = ExactCounter::from_bytes("gemma3.spiece.model", &gemma3, None)?;
    /// assert_eq!(gemma.count_tokens("What is your name?"), 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "bpe")]
    pub fn from_bytes(
        name: &str,
        bytes: &[u8],
        pattern: Option<SplitPattern>,
    ) -> Result<Self, TokenizerError> {
        let path = Path::new(name);
        if bytes.starts_with(crate::estimate::gguf::MAGIC) {
            let tokenizer = crate::estimate::gguf::read_from(bytes, path)?;
            return Ok(Self::file(name.to_owned(), tokenizer));
        }
        Self::parse(name.to_owned(), bytes, pattern, path)
    }

    /// A counter for a vocabulary compiled in from its data crate, built on
    /// first use (once per process; up to about a second for the largest)
    /// and shared.
    ///
    /// # Errors
    /// [`TokenizerError::NotShipped`] if its cargo feature (named in the
    /// error) is off.
    ///
    /// ```
    /// use budget::estimate::{ExactCounter, ShippedVocabulary, TokenCounter};
    /// match ExactCounter::shipped(ShippedVocabulary::Gemma3) {
    ///     Ok(gemma) => assert_eq!(gemma.count_tokens("What is your name?"), 5),
    ///     Err(error) => assert!(error.to_string().contains("vocab-gemma3")),
    /// }
    /// ```
    pub fn shipped(vocabulary: ShippedVocabulary) -> Result<Self, TokenizerError> {
        #[cfg(feature = "bpe")]
        if let Some((name, bytes)) = vocabulary.data() {
            static BUILT: [std::sync::OnceLock<ExactCounter>; ShippedVocabulary::ALL.len()] =
                [const { std::sync::OnceLock::new() }; ShippedVocabulary::ALL.len()];
            let slot = &BUILT[ShippedVocabulary::ALL
                .iter()
                .position(|v| *v == vocabulary)
                .unwrap_or(0)];
            if let Some(built) = slot.get() {
                return Ok(built.clone());
            }
            let built = Self::from_bytes(name, bytes, vocabulary.pattern())?;
            return Ok(slot.get_or_init(|| built).clone());
        }
        Err(TokenizerError::NotShipped {
            vocabulary,
            feature: vocabulary.feature(),
        })
    }

    /// A counter for the contents of a tokenizer file other than GGUF.
    #[cfg(feature = "bpe")]
    fn parse(
        name: String,
        bytes: &[u8],
        pattern: Option<SplitPattern>,
        path: &Path,
    ) -> Result<Self, TokenizerError> {
        use crate::estimate::{sentencepiece, tokenizer_json, vocabulary};

        let Ok(data) = std::str::from_utf8(bytes) else {
            // Binary: a SentencePiece model is a protobuf.
            return Ok(Self::file(name, sentencepiece::read_model(bytes, path)?));
        };
        if data.trim_start().starts_with('{') {
            let json: serde_json::Value = serde_json::from_str(data).map_err(|e| {
                TokenizerError::format(path, Some(e.line()), format!("not JSON: {e}"))
            })?;
            if json.get("config").is_some() && json.get("vocab").is_some() {
                let (tokens, pattern) = vocabulary::read_tekken(&json, path)?;
                let tokenizer = vocabulary::build(tokens, &pattern, path)?;
                return Ok(Self::loaded(name, tokenizer));
            }
            if json.get("model").is_some() {
                return Ok(Self::file(name, tokenizer_json::read(&json, path)?));
            }
            return Err(TokenizerError::format(
                path,
                None,
                "a JSON file that is neither a tekken file (`config`, `vocab`) nor a Hugging Face tokenizer.json (`model`)".into(),
            ));
        }
        if bytes.first() == Some(&0x0A) {
            // Field 1 (a piece), length-delimited: a SentencePiece model
            // whose bytes happen to be UTF-8.
            return Ok(Self::file(name, sentencepiece::read_model(bytes, path)?));
        }
        let tokens = vocabulary::read_tiktoken(data, path)?;
        let pattern = match pattern.or_else(|| SplitPattern::for_vocabulary_size(tokens.len())) {
            Some(pattern) => pattern,
            None => {
                return Err(TokenizerError::UnknownPattern {
                    path: path.to_path_buf(),
                    ranks: tokens.len(),
                });
            }
        };
        let tokenizer = vocabulary::build(tokens, &pattern, path)?;
        Ok(Self::loaded(name, tokenizer))
    }

    #[cfg(feature = "bpe")]
    fn loaded(name: String, tokenizer: crate::estimate::rank_bpe::RankBpe) -> Self {
        Self {
            name,
            encoding: None,
            backend: Backend::Loaded(Arc::new(tokenizer)),
        }
    }

    #[cfg(feature = "bpe")]
    fn file(name: String, tokenizer: crate::estimate::file_tokenizer::FileTokenizer) -> Self {
        Self {
            name,
            encoding: None,
            backend: Backend::File(Arc::new(tokenizer)),
        }
    }

    /// The OpenAI encoding of a compiled-in counter; `None` for one read
    /// from a file.
    ///
    /// ```
    /// use budget::{estimate::{Encoding, ExactCounter}};
    /// # #[cfg(feature = "o200k")]
    /// assert_eq!(ExactCounter::new(Encoding::O200kBase)?.encoding(), Some(Encoding::O200kBase));
    /// # Ok::<(), budget::estimate::TokenizerError>(())
    /// ```
    pub fn encoding(&self) -> Option<Encoding> {
        self.encoding
    }

    /// What this counter counts with: the encoding's name (`o200k_base`) or
    /// the file name it was read from.
    ///
    /// ```
    /// use budget::{estimate::{Encoding, ExactCounter}};
    /// # #[cfg(feature = "o200k")]
    /// assert_eq!(ExactCounter::new(Encoding::O200kBase)?.name(), "o200k_base");
    /// # Ok::<(), budget::estimate::TokenizerError>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// The text of the file at `path`, read up to [`MAX_TOKENIZER_FILE_BYTES`]:
/// a regular file only (a FIFO or device is refused without blocking), and
/// an error that never quotes the file.
#[cfg(feature = "bpe")]
fn read_bounded(path: &Path) -> Result<Vec<u8>, TokenizerError> {
    use crate::file::ReadError;
    crate::file::read_bytes(path, MAX_TOKENIZER_FILE_BYTES).map_err(|error| {
        let message = match error {
            ReadError::TooLarge { .. } => format!(
                "larger than {MAX_TOKENIZER_FILE_BYTES} bytes, the most a tokenizer file may have (a GGUF model file may be of any size)"
            ),
            other => other.to_string(),
        };
        TokenizerError::Read {
            path: path.to_path_buf(),
            message,
        }
    })
}

/// Whether the file at `path` starts as a GGUF file does (a regular file
/// only; four bytes read).
#[cfg(feature = "bpe")]
fn starts_with_gguf_magic(path: &Path) -> Result<bool, TokenizerError> {
    use std::io::Read;
    let file = crate::file::open_regular(path).map_err(|error| TokenizerError::Read {
        path: path.to_path_buf(),
        message: error.to_string(),
    })?;
    let mut magic = [0u8; 4];
    let read = file.take(4).read(&mut magic).unwrap_or(0);
    Ok(read == 4 && &magic == crate::estimate::gguf::MAGIC)
}

/// Texts at least this long are counted in chunks on every core.
#[cfg(any(feature = "o200k", feature = "cl100k"))]
const PARALLEL_BYTES: usize = 256 * 1024;

/// The first [safe cut](crate::estimate::safe_cut) after each multiple
/// of `chunk_bytes` of `text`: its pieces count to the whole's count.
#[cfg(any(feature = "o200k", feature = "cl100k"))]
fn cut_points(text: &str, chunk_bytes: usize) -> Vec<usize> {
    let mut cuts = Vec::new();
    let mut target = chunk_bytes.max(1);
    while target < text.len() {
        let Some(at) = (target + 1..text.len()).find(|&at| is_safe_cut(text, at)) else {
            break;
        };
        cuts.push(at);
        target = at + chunk_bytes;
    }
    cuts
}

/// The count of `text` under `tokenizer` as the sum of its chunks' counts,
/// cut at [`cut_points`] about every `chunk_bytes`, counted on every core.
#[cfg(any(feature = "o200k", feature = "cl100k"))]
fn count_in_chunks(tokenizer: &CompiledBpe, text: &str, chunk_bytes: usize) -> u64 {
    let mut starts = vec![0];
    starts.extend(cut_points(text, chunk_bytes));
    let chunks: Vec<&str> = starts
        .iter()
        .zip(starts.iter().skip(1).chain(std::iter::once(&text.len())))
        .map(|(&start, &end)| &text[start..end])
        .collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(chunks.len())
        .max(1);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut total: u64 = 0;
        while let Some(chunk) = chunks.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
        {
            total = total.saturating_add(tokenizer.count(chunk));
        }
        total
    };
    std::thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        let mine = work();
        helpers
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .fold(mine, u64::saturating_add)
    })
}

/// The byte-pair count of `text`: in chunks on every core from
/// [`PARALLEL_BYTES`] on, whole below.
#[cfg(any(feature = "o200k", feature = "cl100k"))]
fn count_bpe(tokenizer: &CompiledBpe, text: &str) -> u64 {
    if text.len() >= PARALLEL_BYTES {
        return count_in_chunks(tokenizer, text, PARALLEL_BYTES / 4);
    }
    tokenizer.count(text)
}

impl TokenCounter for ExactCounter {
    /// Byte-pair texts of 256 KiB or more are cut where no pretokenizer
    /// piece spans (line starts, spaces after a word) and counted on every
    /// core; the count is the same.
    #[cfg_attr(not(feature = "bpe"), allow(unused_variables))]
    fn count_tokens(&self, text: &str) -> u64 {
        match &self.backend {
            #[cfg(any(feature = "o200k", feature = "cl100k"))]
            Backend::Compiled(tokenizer) => count_bpe(tokenizer, text),
            #[cfg(feature = "bpe")]
            Backend::Loaded(tokenizer) => tokenizer.count(text),
            #[cfg(feature = "bpe")]
            Backend::File(tokenizer) => tokenizer.count(text),
            #[cfg(not(feature = "bpe"))]
            Backend::None(never) => match *never {},
        }
    }

    /// The cost is proportional to the prefix that fits, not to the text
    /// (byte-pair vocabularies; a `tokenizer.json` counts the whole text).
    fn count_tokens_up_to(&self, text: &str, limit: u64) -> Option<u64> {
        match &self.backend {
            #[cfg(any(feature = "o200k", feature = "cl100k"))]
            Backend::Compiled(tokenizer) => tokenizer.count_up_to(text, limit),
            #[cfg(feature = "bpe")]
            Backend::Loaded(tokenizer) => tokenizer.count_up_to(text, limit),
            #[allow(unreachable_patterns)]
            _ => Some(self.count_tokens(text)).filter(|&n| n <= limit),
        }
    }
}

impl fmt::Debug for ExactCounter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExactCounter")
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, feature = "o200k", feature = "cl100k"))]
mod tests;
