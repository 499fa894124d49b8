//! Hugging Face `tokenizer.json` files read into a [`FileTokenizer`]:
//! byte-level BPE (Llama 3 and 4, Qwen, DeepSeek, Phi-4, GPT-2), the
//! SentencePiece-style BPE exports (Metaspace or `▁` replacement with byte
//! fallback: Llama 2, Mistral, Gemma) and unigram models. A component this
//! reader does not know is an error that names it, never a miscount.

use std::path::Path;

use serde_json::Value;

use crate::estimate::file_tokenizer::{AddedToken, FileTokenizer, Model, Normalization};
use crate::estimate::merge_bpe::{MergeBpe, Symbols, Unknown};
use crate::estimate::normalizer::{Normalizer, ReplacePattern};
use crate::estimate::pre_tokenizer::{Behavior, PreTokenizer, Prepend};
use crate::estimate::split_regex::Splitter;
use crate::estimate::unigram::Unigram;
use crate::estimate::{SplitPattern, TokenizerError};

/// GPT-2's split pattern, which `ByteLevel` with `use_regex` applies.
pub(crate) const GPT2_REGEX: &str =
    r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+";

/// The tokenizer described by the parsed `tokenizer.json` `json`, read
/// from `path`.
pub(crate) fn read(json: &Value, path: &Path) -> Result<FileTokenizer, TokenizerError> {
    let reader = Reader { path };
    let normalizers = reader.normalizers(&json["normalizer"])?;
    let pre_tokenizers = reader.pre_tokenizers(&json["pre_tokenizer"])?;
    let byte_level = pre_tokenizers
        .iter()
        .any(|p| matches!(p, PreTokenizer::ByteLevel { .. }));
    let model = reader.model(&json["model"], byte_level)?;
    let added = reader.added_tokens(&json["added_tokens"])?;
    FileTokenizer::new(
        added,
        Normalization::Steps(normalizers),
        pre_tokenizers,
        model,
    )
    .map_err(|e| reader.error(format!("the added tokens do not compile: {e}")))
}

struct Reader<'p> {
    path: &'p Path,
}

impl Reader<'_> {
    fn error(&self, message: String) -> TokenizerError {
        TokenizerError::format(self.path, None, message)
    }

    fn unsupported(&self, part: &str, kind: &str) -> TokenizerError {
        self.error(format!(
            "{part} `{kind}` is not supported: the count would not be exact"
        ))
    }

    fn string<'v>(
        &self,
        value: &'v Value,
        key: &str,
        part: &str,
    ) -> Result<&'v str, TokenizerError> {
        value[key]
            .as_str()
            .ok_or_else(|| self.error(format!("{part} has no string `{key}`")))
    }

    fn splitter(&self, pattern: &Value, part: &str) -> Result<Splitter, TokenizerError> {
        let regex = if let Some(literal) = pattern["String"].as_str() {
            regex_syntax::escape(literal)
        } else if let Some(regex) = pattern["Regex"].as_str() {
            regex.to_owned()
        } else {
            return Err(self.error(format!("{part} has no `pattern`")));
        };
        Splitter::new(&SplitPattern::custom(part, regex, false))
    }

    fn normalizers(&self, value: &Value) -> Result<Vec<Normalizer>, TokenizerError> {
        if value.is_null() {
            return Ok(Vec::new());
        }
        let kind = self.string(value, "type", "a normalizer")?;
        Ok(match kind {
            "Sequence" => {
                let mut steps = Vec::new();
                for step in value["normalizers"].as_array().into_iter().flatten() {
                    steps.extend(self.normalizers(step)?);
                }
                steps
            }
            "NFC" => vec![Normalizer::Nfc],
            "NFD" => vec![Normalizer::Nfd],
            "NFKC" => vec![Normalizer::Nfkc],
            "NFKD" => vec![Normalizer::Nfkd],
            "Lowercase" => vec![Normalizer::Lowercase],
            "Prepend" => vec![Normalizer::Prepend(
                self.string(value, "prepend", "normalizer Prepend")?
                    .to_owned(),
            )],
            "Replace" => {
                let content = self
                    .string(value, "content", "normalizer Replace")?
                    .to_owned();
                let pattern = &value["pattern"];
                let pattern = if let Some(literal) = pattern["String"].as_str() {
                    ReplacePattern::Literal(literal.to_owned())
                } else if let Some(regex) = pattern["Regex"].as_str() {
                    ReplacePattern::Regex(regex_automata::meta::Regex::new(regex).map_err(|e| {
                        TokenizerError::Pattern {
                            pattern: "normalizer Replace".into(),
                            message: e.to_string(),
                        }
                    })?)
                } else {
                    return Err(self.error("normalizer Replace has no `pattern`".into()));
                };
                vec![Normalizer::Replace { pattern, content }]
            }
            "Strip" => vec![Normalizer::Strip {
                left: value["strip_left"].as_bool().unwrap_or(false),
                right: value["strip_right"].as_bool().unwrap_or(false),
            }],
            other => return Err(self.unsupported("normalizer", other)),
        })
    }

    fn pre_tokenizers(&self, value: &Value) -> Result<Vec<PreTokenizer>, TokenizerError> {
        if value.is_null() {
            return Ok(Vec::new());
        }
        let kind = self.string(value, "type", "a pre-tokenizer")?;
        Ok(match kind {
            "Sequence" => {
                let mut steps = Vec::new();
                for step in value["pretokenizers"].as_array().into_iter().flatten() {
                    steps.extend(self.pre_tokenizers(step)?);
                }
                steps
            }
            "Split" => {
                let behavior = match self.string(value, "behavior", "pre-tokenizer Split")? {
                    "Removed" => Behavior::Removed,
                    "Isolated" => Behavior::Isolated,
                    "MergedWithPrevious" => Behavior::MergedWithPrevious,
                    "MergedWithNext" => Behavior::MergedWithNext,
                    "Contiguous" => Behavior::Contiguous,
                    other => return Err(self.unsupported("Split behavior", other)),
                };
                vec![PreTokenizer::Split {
                    splitter: self.splitter(&value["pattern"], "pre-tokenizer Split")?,
                    behavior,
                    invert: value["invert"].as_bool().unwrap_or(false),
                }]
            }
            "ByteLevel" => vec![PreTokenizer::ByteLevel {
                add_prefix_space: value["add_prefix_space"].as_bool().unwrap_or(true),
                splitter: if value["use_regex"].as_bool().unwrap_or(true) {
                    Some(Splitter::new(&SplitPattern::custom(
                        "gpt2", GPT2_REGEX, false,
                    ))?)
                } else {
                    None
                },
            }],
            "Digits" => {
                let (pattern, behavior) = if value["individual_digits"].as_bool().unwrap_or(false) {
                    (r"\p{N}", Behavior::Isolated)
                } else {
                    (r"\p{N}", Behavior::Contiguous)
                };
                vec![PreTokenizer::Split {
                    splitter: Splitter::new(&SplitPattern::custom("digits", pattern, false))?,
                    behavior,
                    invert: false,
                }]
            }
            "Metaspace" => {
                let replacement = self
                    .string(value, "replacement", "pre-tokenizer Metaspace")?
                    .chars()
                    .next()
                    .unwrap_or('▁');
                let prepend = match value["prepend_scheme"].as_str() {
                    Some("always") => Prepend::Always,
                    Some("first") => Prepend::First,
                    Some("never") => Prepend::Never,
                    // Files written before `prepend_scheme`.
                    None if value["add_prefix_space"].as_bool().unwrap_or(true) => Prepend::Always,
                    None => Prepend::Never,
                    Some(other) => return Err(self.unsupported("Metaspace prepend_scheme", other)),
                };
                vec![PreTokenizer::Metaspace {
                    replacement,
                    prepend,
                    split: value["split"].as_bool().unwrap_or(true),
                }]
            }
            other => return Err(self.unsupported("pre-tokenizer", other)),
        })
    }

    fn model(&self, value: &Value, byte_level: bool) -> Result<Model, TokenizerError> {
        match self.string(value, "type", "the model")? {
            "BPE" => self.bpe(value, byte_level).map(Model::Bpe),
            "Unigram" => self.unigram(value, byte_level).map(Model::Unigram),
            other => Err(self.unsupported("model", other)),
        }
    }

    fn bpe(&self, value: &Value, byte_level: bool) -> Result<MergeBpe, TokenizerError> {
        for key in ["dropout", "continuing_subword_prefix", "end_of_word_suffix"] {
            if !value[key].is_null() && value[key] != "" {
                return Err(self.unsupported("BPE option", key));
            }
        }
        let vocab_json = value["vocab"]
            .as_object()
            .ok_or_else(|| self.error("the BPE model has no object `vocab`".into()))?;
        let mut vocab =
            foldhash::HashMap::with_capacity_and_hasher(vocab_json.len(), Default::default());
        for (token, id) in vocab_json {
            let id = id
                .as_u64()
                .and_then(|id| u32::try_from(id).ok())
                .ok_or_else(|| self.error(format!("vocab entry #{} has no id", vocab.len())))?;
            vocab.insert(token_bytes(token, byte_level).into_boxed_slice(), id);
        }
        let merges_json = value["merges"]
            .as_array()
            .ok_or_else(|| self.error("the BPE model has no array `merges`".into()))?;
        let mut merges = Vec::with_capacity(merges_json.len());
        for (index, merge) in merges_json.iter().enumerate() {
            let (left, right) = match merge {
                Value::String(text) => text.split_once(' ').ok_or_else(|| {
                    self.error(format!(
                        "merge #{index} is not two tokens separated by a space"
                    ))
                })?,
                Value::Array(pair) if pair.len() == 2 => match (pair[0].as_str(), pair[1].as_str())
                {
                    (Some(l), Some(r)) => (l, r),
                    _ => return Err(self.error(format!("merge #{index} is not two strings"))),
                },
                _ => return Err(self.error(format!("merge #{index} is not a pair of tokens"))),
            };
            let ids = merge_ids(&vocab, left, right, byte_level).ok_or_else(|| {
                self.error(format!(
                    "merge #{index} names a token that is not in `vocab`"
                ))
            })?;
            merges.push(ids);
        }
        let unknown = if value["byte_fallback"].as_bool().unwrap_or(false) {
            Unknown::ByteFallback
        } else if value["unk_token"]
            .as_str()
            .is_some_and(|t| vocab.contains_key(t.as_bytes()))
        {
            Unknown::Unk {
                fuse: value["fuse_unk"].as_bool().unwrap_or(false),
            }
        } else {
            Unknown::Dropped
        };
        let symbols = if byte_level {
            Symbols::Bytes
        } else {
            Symbols::Chars
        };
        Ok(MergeBpe::new(
            vocab,
            merges,
            symbols,
            unknown,
            value["ignore_merges"].as_bool().unwrap_or(false),
        ))
    }

    fn unigram(&self, value: &Value, byte_level: bool) -> Result<Unigram, TokenizerError> {
        if byte_level {
            return Err(self.unsupported("model", "Unigram over ByteLevel"));
        }
        let entries = value["vocab"]
            .as_array()
            .ok_or_else(|| self.error("the Unigram model has no array `vocab`".into()))?;
        let mut pieces = Vec::with_capacity(entries.len());
        for (index, entry) in entries.iter().enumerate() {
            match (entry[0].as_str(), entry[1].as_f64()) {
                (Some(piece), Some(score)) => pieces.push((piece.to_owned(), score)),
                _ => return Err(self.error(format!("vocab entry #{index} is not [piece, score]"))),
            }
        }
        let unk = value["unk_id"]
            .as_u64()
            .and_then(|id| usize::try_from(id).ok());
        Ok(Unigram::new(
            pieces,
            unk,
            value["byte_fallback"].as_bool().unwrap_or(false),
        ))
    }

    fn added_tokens(&self, value: &Value) -> Result<Vec<AddedToken>, TokenizerError> {
        let mut added = Vec::new();
        for (index, token) in value.as_array().into_iter().flatten().enumerate() {
            let content = token["content"]
                .as_str()
                .ok_or_else(|| self.error(format!("added token #{index} has no `content`")))?;
            let flag = |key: &str| token[key].as_bool().unwrap_or(false);
            added.push(AddedToken {
                content: content.to_owned(),
                single_word: flag("single_word"),
                lstrip: flag("lstrip"),
                rstrip: flag("rstrip"),
            });
        }
        Ok(added)
    }
}

/// The ids of the tokens `left` and `right` (vocabulary entries) and of the
/// token they join to, if all three are in `vocab`.
pub(crate) fn merge_ids(
    vocab: &foldhash::HashMap<Box<[u8]>, u32>,
    left: &str,
    right: &str,
    byte_level: bool,
) -> Option<(u32, u32, u32)> {
    let (left, right) = (
        token_bytes(left, byte_level),
        token_bytes(right, byte_level),
    );
    let joined = [left.as_slice(), right.as_slice()].concat();
    Some((
        *vocab.get(left.as_slice())?,
        *vocab.get(right.as_slice())?,
        *vocab.get(joined.as_slice())?,
    ))
}

/// The bytes a vocabulary entry stands for: under a byte-level
/// pre-tokenizer each character is one byte of GPT-2's alphabet, else the
/// text itself.
pub(crate) fn token_bytes(token: &str, byte_level: bool) -> Vec<u8> {
    if !byte_level {
        return token.as_bytes().to_vec();
    }
    token
        .chars()
        .map(|c| byte_of_char(c).unwrap_or(b'?'))
        .collect()
}

/// Whether GPT-2's byte-to-unicode table maps `byte` to itself (printable
/// Latin-1).
const fn printable(byte: u8) -> bool {
    matches!(byte, 0x21..=0x7E | 0xA1..=0xAC | 0xAE..=0xFF)
}

/// The 68 bytes GPT-2's table maps to U+0100 onwards, in order.
const SHIFTED: [u8; 68] = {
    let mut table = [0u8; 68];
    let (mut byte, mut next) = (0u8, 0usize);
    loop {
        if !printable(byte) {
            table[next] = byte;
            next += 1;
        }
        if byte == u8::MAX {
            break table;
        }
        byte += 1;
    }
};

/// The byte GPT-2's byte-to-unicode table maps to `c`: printable Latin-1
/// stands for itself, the other 68 bytes for U+0100 onwards in order.
fn byte_of_char(c: char) -> Option<u8> {
    let code = u32::from(c);
    match u8::try_from(code) {
        Ok(byte) if printable(byte) => Some(byte),
        _ => {
            let index = usize::try_from(code.checked_sub(0x100)?).ok()?;
            SHIFTED.get(index).copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpt2_alphabet_maps_back_to_bytes() {
        assert_eq!(byte_of_char('a'), Some(b'a'));
        assert_eq!(byte_of_char('Ġ'), Some(b' ')); // U+0120
        assert_eq!(byte_of_char('Ċ'), Some(b'\n')); // U+010A
        assert_eq!(byte_of_char('Ā'), Some(0)); // U+0100
        assert_eq!(byte_of_char('ł'), Some(0xA0)); // U+0142
        assert_eq!(byte_of_char('Ń'), Some(0xAD)); // U+0143, the last
        assert_eq!(byte_of_char('ń'), None);
        assert_eq!(byte_of_char('\u{AD}'), None); // soft hyphen: not printable
        assert_eq!(token_bytes("Ġhello", true), b" hello");
    }
}
