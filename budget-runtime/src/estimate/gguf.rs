//! GGUF model files (llama.cpp, Ollama, LocalAI) read into a
//! [`FileTokenizer`]: only the header and the `tokenizer.ggml.*` metadata
//! are read, never the tensors, so a model of any size costs milliseconds.
//!
//! `tokenizer.ggml.model` `llama` is SentencePiece's BPE over the pieces
//! and scores; `gpt2` is byte-pair merges over GPT-2's byte alphabet, cut by
//! the patterns llama.cpp assigns to `tokenizer.ggml.pre`; `gemma4` style
//! (`.pre` `gemma4`) is merges over `▁`-escaped text.

use std::io::{BufReader, Read};
use std::path::Path;

use crate::estimate::file_tokenizer::{AddedToken, FileTokenizer, Model, Normalization};
use crate::estimate::merge_bpe::{MergeBpe, Symbols, Unknown};
use crate::estimate::normalizer::{Normalizer, ReplacePattern};
use crate::estimate::pre_tokenizer::{Behavior, PreTokenizer};
use crate::estimate::sentencepiece::{self, Piece, PieceType};
use crate::estimate::split_regex::Splitter;
use crate::estimate::tokenizer_json::{merge_ids, token_bytes};
use crate::estimate::{SplitPattern, TokenizerError};

/// The most metadata read from a GGUF file, in bytes: the largest
/// vocabularies (262,144 tokens with merges) take about 20 MB.
pub(crate) const MAX_GGUF_METADATA_BYTES: u64 = 128 * 1024 * 1024;

/// The first bytes of every GGUF file.
pub(crate) const MAGIC: &[u8; 4] = b"GGUF";

/// A metadata value; only what the tokenizer needs is kept.
enum Value {
    String(String),
    Bool(bool),
    Strings(Vec<String>),
    Floats(Vec<f32>),
    Ints(Vec<i64>),
    Other,
}

/// The tokenizer of the GGUF file at `path`, from its metadata.
pub(crate) fn read(path: &Path) -> Result<FileTokenizer, TokenizerError> {
    let file = crate::file::open_regular(path).map_err(|e| TokenizerError::Read {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    read_from(BufReader::with_capacity(1 << 16, file), path)
}

/// The tokenizer of the GGUF data `source` (named `path` in errors).
pub(crate) fn read_from(source: impl Read, path: &Path) -> Result<FileTokenizer, TokenizerError> {
    let mut reader = Reader {
        inner: source.take(MAX_GGUF_METADATA_BYTES),
        path,
        at: 0,
    };
    let meta = reader.metadata()?;
    build(meta, path)
}

struct Reader<'p, R> {
    inner: R,
    path: &'p Path,
    at: u64,
}

impl<R: Read> Reader<'_, R> {
    fn error(&self, message: String) -> TokenizerError {
        TokenizerError::format(
            self.path,
            None,
            format!("{message} (GGUF, byte {})", self.at),
        )
    }

    fn bytes(&mut self, n: usize) -> Result<Vec<u8>, TokenizerError> {
        let mut buffer = vec![0; n];
        self.inner.read_exact(&mut buffer).map_err(|_| {
            self.error(format!(
                "the metadata ends early or is larger than {MAX_GGUF_METADATA_BYTES} bytes"
            ))
        })?;
        self.at += n as u64;
        Ok(buffer)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], TokenizerError> {
        let bytes = self.bytes(N)?;
        Ok(bytes.try_into().unwrap_or([0; N]))
    }

    fn u32(&mut self) -> Result<u32, TokenizerError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, TokenizerError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A length that must fit in what may still be read.
    fn length(&mut self, what: &str) -> Result<usize, TokenizerError> {
        let n = self.u64()?;
        if n > MAX_GGUF_METADATA_BYTES {
            return Err(self.error(format!("{what} of {n} is larger than the metadata may be")));
        }
        usize::try_from(n).map_err(|_| self.error(format!("{what} of {n} does not fit")))
    }

    fn string(&mut self) -> Result<String, TokenizerError> {
        let n = self.length("a string length")?;
        String::from_utf8(self.bytes(n)?).map_err(|_| self.error("a string is not UTF-8".into()))
    }

    fn metadata(&mut self) -> Result<foldhash::HashMap<String, Value>, TokenizerError> {
        if &self.array::<4>()? != MAGIC {
            return Err(self.error("not a GGUF file".into()));
        }
        let version = self.u32()?;
        if !(2..=3).contains(&version) {
            return Err(self.error(format!(
                "GGUF version {version} is not supported (2 and 3 are)"
            )));
        }
        let _tensors = self.u64()?;
        let count = self.length("a metadata count")?;
        let mut meta = foldhash::HashMap::default();
        for _ in 0..count {
            let key = self.string()?;
            let kind = self.u32()?;
            let keep = key.starts_with("tokenizer.ggml.");
            let value = self.value(kind, keep)?;
            if keep {
                meta.insert(key, value);
            }
        }
        Ok(meta)
    }

    /// A value of type `kind`; kept only if `keep`.
    fn value(&mut self, kind: u32, keep: bool) -> Result<Value, TokenizerError> {
        Ok(match kind {
            0 | 1 | 7 => {
                let byte = self.bytes(1)?[0];
                if kind == 7 {
                    Value::Bool(byte != 0)
                } else {
                    Value::Other
                }
            }
            2 | 3 => {
                self.bytes(2)?;
                Value::Other
            }
            4..=6 => {
                self.bytes(4)?;
                Value::Other
            }
            10..=12 => {
                self.bytes(8)?;
                Value::Other
            }
            8 => {
                let text = self.string()?;
                if keep {
                    Value::String(text)
                } else {
                    Value::Other
                }
            }
            9 => {
                let item = self.u32()?;
                let n = self.length("an array length")?;
                match item {
                    8 => {
                        let mut items = Vec::with_capacity(n.min(1 << 20));
                        for _ in 0..n {
                            items.push(self.string()?);
                        }
                        Value::Strings(items)
                    }
                    6 => {
                        let bytes = self.bytes(
                            n.checked_mul(4)
                                .ok_or_else(|| self.error("an array is too long".into()))?,
                        )?;
                        Value::Floats(
                            bytes
                                .chunks_exact(4)
                                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                                .collect(),
                        )
                    }
                    4 | 5 => {
                        let bytes = self.bytes(
                            n.checked_mul(4)
                                .ok_or_else(|| self.error("an array is too long".into()))?,
                        )?;
                        Value::Ints(
                            bytes
                                .chunks_exact(4)
                                .map(|c| i64::from(i32::from_le_bytes([c[0], c[1], c[2], c[3]])))
                                .collect(),
                        )
                    }
                    other => {
                        for _ in 0..n {
                            self.value(other, false)?;
                        }
                        Value::Other
                    }
                }
            }
            other => return Err(self.error(format!("unknown metadata type {other}"))),
        })
    }
}

/// The tokenizer the metadata describes.
fn build(
    mut meta: foldhash::HashMap<String, Value>,
    path: &Path,
) -> Result<FileTokenizer, TokenizerError> {
    let error = |message: String| TokenizerError::format(path, None, message);
    let mut take = |key: &str| meta.remove(&format!("tokenizer.ggml.{key}"));
    let model = match take("model") {
        Some(Value::String(model)) => model,
        _ => {
            return Err(error(
                "a GGUF file without `tokenizer.ggml.model`: it holds no tokenizer".into(),
            ));
        }
    };
    let Some(Value::Strings(tokens)) = take("tokens") else {
        return Err(error("no `tokenizer.ggml.tokens`".into()));
    };
    let types: Vec<PieceType> = match take("token_type") {
        Some(Value::Ints(codes)) => codes
            .iter()
            .map(|&c| PieceType::from_code(u64::try_from(c).unwrap_or(1)))
            .collect(),
        _ => vec![PieceType::Normal; tokens.len()],
    };
    if types.len() != tokens.len() {
        return Err(error(format!(
            "{} token types for {} tokens",
            types.len(),
            tokens.len()
        )));
    }
    let pre = match take("pre") {
        Some(Value::String(pre)) => pre,
        _ if model == "gemma4" => "gemma4".to_owned(),
        _ => "default".to_owned(),
    };
    let add_space_prefix = match take("add_space_prefix") {
        Some(Value::Bool(flag)) => Some(flag),
        _ => None,
    };
    let merges = match take("merges") {
        Some(Value::Strings(merges)) => merges,
        _ => Vec::new(),
    };
    let scores = match take("scores") {
        Some(Value::Floats(scores)) => scores,
        _ => Vec::new(),
    };
    // User-defined tokens are cut out of the text first, as llama.cpp
    // does when it does not parse special tokens.
    let user_defined = tokens
        .iter()
        .zip(&types)
        .filter(|(_, kind)| **kind == PieceType::UserDefined)
        .map(|(text, _)| AddedToken {
            content: text.clone(),
            single_word: false,
            lstrip: false,
            rstrip: false,
        })
        .collect();
    match model.as_str() {
        "llama" => {
            if scores.len() != tokens.len() {
                return Err(error(format!(
                    "{} scores for {} tokens",
                    scores.len(),
                    tokens.len()
                )));
            }
            let pieces = tokens
                .into_iter()
                .zip(scores)
                .zip(types)
                .map(|((text, score), kind)| Piece { text, score, kind })
                .collect();
            // llama.cpp puts a space before the text and after every
            // user-defined token, then writes spaces as `▁`.
            let mut steps = vec![Normalizer::Replace {
                pattern: ReplacePattern::Literal(" ".into()),
                content: sentencepiece::SPACE.to_string(),
            }];
            if add_space_prefix.unwrap_or(true) {
                steps.push(Normalizer::Prepend(sentencepiece::SPACE.to_string()));
            }
            sentencepiece::build(pieces, true, true, Normalization::Steps(steps))
        }
        "gpt2" | "gemma4" => {
            let (patterns, ignore_merges, byte_level) = pre_patterns(&pre).ok_or_else(|| {
                error(format!(
                    "`tokenizer.ggml.pre` `{pre}` is not supported: the count would not be exact"
                ))
            })?;
            let mut vocab =
                foldhash::HashMap::with_capacity_and_hasher(tokens.len(), Default::default());
            for (id, token) in tokens.iter().enumerate() {
                vocab
                    .entry(token_bytes(token, byte_level).into_boxed_slice())
                    .or_insert(u32::try_from(id).unwrap_or(u32::MAX));
            }
            let mut pairs = Vec::with_capacity(merges.len());
            for (index, merge) in merges.iter().enumerate() {
                let (left, right) = merge.split_once(' ').ok_or_else(|| {
                    error(format!(
                        "merge #{index} is not two tokens separated by a space"
                    ))
                })?;
                let ids = merge_ids(&vocab, left, right, byte_level).ok_or_else(|| {
                    error(format!(
                        "merge #{index} names a token that is not in the vocabulary"
                    ))
                })?;
                pairs.push(ids);
            }
            let (symbols, unknown) = if byte_level {
                (Symbols::Bytes, Unknown::Dropped)
            } else {
                (Symbols::Chars, Unknown::ByteFallback)
            };
            let model = Model::Bpe(MergeBpe::new(vocab, pairs, symbols, unknown, ignore_merges));
            let mut pre_tokenizers = Vec::new();
            for pattern in patterns {
                pre_tokenizers.push(PreTokenizer::Split {
                    splitter: Splitter::new(&SplitPattern::custom(pre.clone(), pattern, false))?,
                    behavior: Behavior::Isolated,
                    invert: false,
                });
            }
            let steps = if byte_level {
                Vec::new()
            } else {
                vec![Normalizer::Replace {
                    pattern: ReplacePattern::Literal(" ".into()),
                    content: sentencepiece::SPACE.to_string(),
                }]
            };
            FileTokenizer::new(
                user_defined,
                Normalization::Steps(steps),
                pre_tokenizers,
                model,
            )
        }
        other => Err(error(format!(
            "`tokenizer.ggml.model` `{other}` is not supported (`llama` and `gpt2` are): the count would not be exact"
        ))),
    }
}

/// llama.cpp's split patterns for a `tokenizer.ggml.pre`, whether a word
/// that is a token skips the merges, and whether tokens are byte-level.
fn pre_patterns(pre: &str) -> Option<(Vec<String>, bool, bool)> {
    const GPT2: &str =
        r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+";
    let own = |p: &str| vec![p.to_owned()];
    Some(match pre {
        "llama3" | "llama-v3" | "llama-bpe" | "falcon3" | "pixtral" | "dbrx" | "smaug-bpe" => {
            (own(SplitPattern::LLAMA3.regex()), pre != "dbrx" && pre != "smaug-bpe", true)
        }
        "qwen2" | "deepseek-r1-qwen" | "stablelm2" => (own(SplitPattern::QWEN.regex()), false, true),
        "qwen35" => (
            own(r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"),
            false,
            true,
        ),
        "deepseek-v3" => (
            vec![
                r"\p{N}{1,3}".to_owned(),
                "[一-龥぀-ゟ゠-ヿ]+".to_owned(),
                r"[!-/:-@\[-`{-~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+".to_owned(),
            ],
            false,
            true,
        ),
        "deepseek-llm" => (
            vec![
                r"[\r\n]".to_owned(),
                r"\s?[A-Za-zµÀ-ÖØ-öø-ƺƼ-ƿǄ-ʓʕ-ʯͰ-ͳͶͷͻ-ͽͿΆΈ-ΊΌΎ-ΡΣ-ϵϷ-ҁҊ-ԯԱ-ՖႠ-ჅᎠ-Ᏽᏸ-ᏽᲐ-ᲺᲽ-Ჿᴀ-ᴫᵫ-ᵷᵹ-ᶚḀ-ἕἘ-Ἕἠ-ὅὈ-Ὅὐ-ὗὙὛὝὟ-ώᾀ-ᾴᾶ-ᾼιῂ-ῄῆ-ῌῐ-ΐῖ-Ίῠ-Ῥῲ-ῴῶ-ῼℂℇℊ-ℓℕℙ-ℝℤΩℨK-ℭℯ-ℴℹℼ-ℿⅅ-ⅉⅎↃↄⰀ-ⱻⱾ-ⳤⳫ-ⳮⳲⳳꙀ-ꙭꚀ-ꚛꜢ-ꝯꝱ-ꞇꞋ-ꞎꭰ-ꮿﬀ-ﬆﬓ-ﬗＡ-Ｚａ-ｚ𐐀-𐑏𐒰-𐓓𐓘-𐓻𐲀-𐲲𐳀-𐳲𑢠-𑣟𞤀-𞥃]+".to_owned(),
                r"\s?[!-/:-~！-／：-～‘-‟　-。]+".to_owned(),
                r"\s+$".to_owned(),
                r"[一-龥ࠀ-一가-퟿]+".to_owned(),
                r"\p{N}+".to_owned(),
            ],
            false,
            true,
        ),
        "deepseek-coder" => (
            vec![
                r"[\r\n]".to_owned(),
                r"\s?\p{L}+".to_owned(),
                r"\s?\p{P}+".to_owned(),
                "[一-龥ࠀ-一가-퟿]+".to_owned(),
                r"\p{N}".to_owned(),
            ],
            false,
            true,
        ),
        "gpt-2" | "phi-2" | "mpt" | "olmo" | "jais" | "trillion" => (own(GPT2), false, true),
        "starcoder" | "refact" | "command-r" | "smollm" | "codeshell" | "exaone" | "minerva-7b" => {
            (vec![r"\p{N}".to_owned(), GPT2.to_owned()], false, true)
        }
        "tekken" => (own(SplitPattern::TEKKEN.regex()), false, true),
        "gpt-4o" | "minimax-m2" => (own(SplitPattern::O200K.regex()), false, true),
        "chatglm-bpe" => (own(SplitPattern::LLAMA3.regex()), false, true),
        "gemma4" => (own(r"[^\n]+|[\n]+"), false, false),
        _ => return None,
    })
}
