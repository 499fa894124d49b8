//! SentencePiece `.model` files (Llama 2, Mistral v1–v3 and Large 2411,
//! Gemma) read into a [`FileTokenizer`]: the protobuf's pieces, model type
//! (BPE or unigram), byte fallback and normalizer spec, with its compiled
//! character map.

use std::borrow::Cow;
use std::path::Path;

use crate::estimate::TokenizerError;
use crate::estimate::file_tokenizer::{AddedToken, FileTokenizer, Model, Normalization};
use crate::estimate::merge_bpe::{MergeBpe, Symbols, Unknown};
use crate::estimate::pre_tokenizer::PreTokenizer;
use crate::estimate::unigram::Unigram;

/// The whitespace mark SentencePiece writes spaces as.
pub(crate) const SPACE: char = '▁';

/// The kind of a piece (`ModelProto.SentencePiece.Type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PieceType {
    /// An ordinary piece.
    Normal,
    /// The unknown piece.
    Unknown,
    /// A control symbol (`<s>`): never produced from text.
    Control,
    /// A user-defined symbol: always one token where it appears.
    UserDefined,
    /// A byte (`<0x41>`), for byte fallback.
    Byte,
    /// Unused.
    Unused,
}

impl PieceType {
    /// The protobuf and GGUF code of a type (1 normal … 6 byte).
    pub(crate) fn from_code(code: u64) -> Self {
        match code {
            2 => Self::Unknown,
            3 => Self::Control,
            4 => Self::UserDefined,
            5 => Self::Unused,
            6 => Self::Byte,
            _ => Self::Normal,
        }
    }
}

/// One vocabulary entry.
#[derive(Clone, Debug)]
pub(crate) struct Piece {
    /// Its text.
    pub(crate) text: String,
    /// Its score.
    pub(crate) score: f32,
    /// Its kind.
    pub(crate) kind: PieceType,
}

/// SentencePiece's normalizer: the compiled character map, then the
/// whitespace rules of the normalizer spec.
pub(crate) struct SpNormalizer {
    /// The compiled map, if the model has one (`nmt_nfkc` and others).
    pub(crate) charsmap: Option<Charsmap>,
    /// Whether a space is put before the text.
    pub(crate) add_dummy_prefix: bool,
    /// Whether leading, trailing and repeated spaces are removed.
    pub(crate) remove_extra_whitespaces: bool,
    /// Whether spaces are written as `▁`.
    pub(crate) escape_whitespaces: bool,
}

impl SpNormalizer {
    /// `text` normalized as SentencePiece's `Normalizer::Normalize` does.
    pub(crate) fn normalize<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut input = text;
        if self.remove_extra_whitespaces {
            while !input.is_empty() {
                let (out, used) = self.prefix(input);
                if out != " " {
                    break;
                }
                input = &input[used..];
            }
        }
        if input.is_empty() {
            return Cow::Borrowed("");
        }
        let space = if self.escape_whitespaces { "▁" } else { " " };
        let mut normalized = String::with_capacity(text.len() * 3 / 2 + 3);
        if self.add_dummy_prefix {
            normalized.push_str(space);
        }
        let mut previous_space = self.remove_extra_whitespaces;
        while !input.is_empty() {
            let (mut out, used) = self.prefix(input);
            if previous_space {
                out = out.trim_start_matches(' ');
            }
            if !out.is_empty() {
                for c in out.chars() {
                    if c == ' ' {
                        normalized.push_str(space);
                    } else {
                        normalized.push(c);
                    }
                }
                previous_space = out.ends_with(' ');
            }
            input = &input[used..];
            if !self.remove_extra_whitespaces {
                previous_space = false;
            }
        }
        if self.remove_extra_whitespaces {
            while normalized.ends_with(space) {
                normalized.truncate(normalized.len() - space.len());
            }
        }
        Cow::Owned(normalized)
    }

    /// The normalized form of the longest prefix of `input` the map knows,
    /// else of its first character, and the bytes it used.
    fn prefix<'t>(&'t self, input: &'t str) -> (&'t str, usize) {
        if let Some(found) = self.charsmap.as_ref().and_then(|m| m.longest_prefix(input)) {
            return found;
        }
        let len = input.chars().next().map_or(0, char::len_utf8);
        (&input[..len], len)
    }
}

/// SentencePiece's compiled character map: a Darts double-array trie over
/// input bytes whose values point into a table of NUL-terminated
/// replacements.
pub(crate) struct Charsmap {
    units: Vec<u32>,
    replacements: Vec<u8>,
}

impl Charsmap {
    /// The map in `blob` (a `precompiled_charsmap`).
    pub(crate) fn parse(blob: &[u8]) -> Option<Self> {
        let size = usize::try_from(u32::from_le_bytes(blob.get(..4)?.try_into().ok()?)).ok()?;
        let trie = blob.get(4..4usize.checked_add(size)?)?;
        if size % 4 != 0 {
            return None;
        }
        Some(Self {
            units: trie
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
            replacements: blob[4 + size..].to_vec(),
        })
    }

    /// The replacement of the longest prefix of `input` in the map, and the
    /// prefix's length in bytes.
    fn longest_prefix<'t>(&'t self, input: &'t str) -> Option<(&'t str, usize)> {
        let unit = |pos: usize| self.units.get(pos).copied();
        let offset = |u: u32| ((u >> 10) << ((u & (1 << 9)) >> 6)) as usize;
        let mut pos = offset(unit(0)?);
        let mut found = None;
        for (i, &byte) in input.as_bytes().iter().enumerate() {
            pos ^= usize::from(byte);
            let u = unit(pos)?;
            if u & ((1 << 31) | 0xFF) != u32::from(byte) {
                break;
            }
            pos ^= offset(u);
            if (u >> 8) & 1 == 1 {
                let value = (unit(pos)? & 0x7FFF_FFFF) as usize;
                found = Some((value, i + 1));
            }
        }
        let (value, used) = found?;
        let tail = self.replacements.get(value..)?;
        let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
        // A match must end on a character boundary to be usable.
        if !input.is_char_boundary(used) {
            return None;
        }
        Some((std::str::from_utf8(&tail[..end]).ok()?, used))
    }
}

/// A SentencePiece tokenizer of `pieces` under `normalization`: BPE
/// (merges by the score of the joined piece) or unigram.
pub(crate) fn build(
    pieces: Vec<Piece>,
    bpe: bool,
    byte_fallback: bool,
    normalization: Normalization,
) -> Result<FileTokenizer, TokenizerError> {
    let user_defined: Vec<AddedToken> = pieces
        .iter()
        .filter(|p| p.kind == PieceType::UserDefined)
        .map(|p| AddedToken {
            content: p.text.clone(),
            single_word: false,
            lstrip: false,
            rstrip: false,
        })
        .collect();
    let model = if bpe {
        Model::Bpe(bpe_model(&pieces, byte_fallback))
    } else {
        let unk = pieces.iter().position(|p| p.kind == PieceType::Unknown);
        let scored = pieces
            .iter()
            .map(|p| {
                let usable = matches!(p.kind, PieceType::Normal | PieceType::UserDefined);
                // Unusable pieces never match: an empty text is skipped.
                (
                    if usable {
                        p.text.clone()
                    } else {
                        String::new()
                    },
                    f64::from(p.score),
                )
            })
            .collect();
        Model::Unigram(Unigram::new(scored, unk, byte_fallback))
    };
    let pre_tokenizers = word_cut(&pieces, byte_fallback).into_iter().collect();
    FileTokenizer::new(user_defined, normalization, pre_tokenizers, model)
}

/// How the text may be cut into words without changing any count: before
/// every `▁` that follows a character no piece has right before a `▁`
/// (most models have none: SentencePiece's default `split_by_whitespace`;
/// Gemma 3 has one, `>▁</`). A `▁` alone must be a piece or fall back to
/// bytes, so that no run of unknown characters spans a cut. Cut, the text
/// is encoded word by word, each word's count remembered: the same count,
/// memory bounded by the longest word, and most words found in the memory.
fn word_cut(pieces: &[Piece], byte_fallback: bool) -> Option<PreTokenizer> {
    let usable = |p: &&Piece| {
        matches!(
            p.kind,
            PieceType::Normal | PieceType::UserDefined | PieceType::Unused
        )
    };
    let space_known = byte_fallback || pieces.iter().filter(usable).any(|p| p.text == "▁");
    if !space_known {
        return None;
    }
    let mut kept_after: Vec<char> = Vec::new();
    for piece in pieces.iter().filter(usable) {
        let mut previous: Option<char> = None;
        for c in piece.text.chars() {
            if let Some(p) = previous.filter(|&p| c == SPACE && p != SPACE)
                && !kept_after.contains(&p)
            {
                kept_after.push(p);
            }
            previous = Some(c);
        }
    }
    // Past a handful, the cut would rarely apply: encode whole.
    (kept_after.len() <= 16).then_some(PreTokenizer::SpaceWords { kept_after })
}

/// SentencePiece's BPE as merges: every split of a piece into two pieces
/// is a merge, ranked by the joined piece's score (equal scores join
/// leftmost first).
fn bpe_model(pieces: &[Piece], byte_fallback: bool) -> MergeBpe {
    let mergeable = |p: &Piece| {
        matches!(
            p.kind,
            PieceType::Normal | PieceType::UserDefined | PieceType::Unused
        )
    };
    let mut vocab: foldhash::HashMap<Box<[u8]>, u32> = foldhash::HashMap::default();
    for (id, piece) in pieces.iter().enumerate() {
        if mergeable(piece) || piece.kind == PieceType::Byte {
            let id = u32::try_from(id).unwrap_or(u32::MAX);
            vocab.entry(piece.text.as_bytes().into()).or_insert(id);
        }
    }
    // Dense ranks of the scores, highest first.
    let mut scores: Vec<f32> = pieces
        .iter()
        .filter(|p| mergeable(p))
        .map(|p| p.score)
        .collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    scores.dedup();
    let rank_of = |score: f32| {
        let at = scores.partition_point(|s| s.total_cmp(&score).is_gt());
        u32::try_from(at).unwrap_or(u32::MAX)
    };
    let mut merges = Vec::new();
    for (id, piece) in pieces.iter().enumerate() {
        if !mergeable(piece) || piece.kind == PieceType::UserDefined {
            continue;
        }
        let text = piece.text.as_str();
        let rank = rank_of(piece.score);
        for (at, _) in text.char_indices().skip(1) {
            let (left, right) = (&text[..at], &text[at..]);
            if let (Some(&l), Some(&r)) = (vocab.get(left.as_bytes()), vocab.get(right.as_bytes()))
            {
                let (lp, rp) = (&pieces[l as usize], &pieces[r as usize]);
                if mergeable(lp) && mergeable(rp) {
                    merges.push((rank, l, r, u32::try_from(id).unwrap_or(u32::MAX)));
                }
            }
        }
    }
    let unknown = if byte_fallback {
        Unknown::ByteFallback
    } else {
        Unknown::Unk { fuse: false }
    };
    MergeBpe::with_ranks(vocab, merges, Symbols::Chars, unknown, false)
}

/// A SentencePiece `.model` file read into a tokenizer.
pub(crate) fn read_model(data: &[u8], path: &Path) -> Result<FileTokenizer, TokenizerError> {
    let error = |message: String| TokenizerError::format(path, None, message);
    let mut pieces = Vec::new();
    let mut model_type = 1; // unigram
    let mut byte_fallback = false;
    let mut normalizer = SpNormalizer {
        charsmap: None,
        add_dummy_prefix: true,
        remove_extra_whitespaces: true,
        escape_whitespaces: true,
    };
    for field in Fields::new(data) {
        let (number, value) = field.map_err(|at| {
            error(format!(
                "not a SentencePiece model: broken protobuf at byte {at}"
            ))
        })?;
        match (number, value) {
            (1, Value::Bytes(bytes)) => {
                let mut piece = Piece {
                    text: String::new(),
                    score: 0.0,
                    kind: PieceType::Normal,
                };
                for inner in Fields::new(bytes) {
                    match inner.map_err(|at| {
                        error(format!("piece {} is broken at byte {at}", pieces.len()))
                    })? {
                        (1, Value::Bytes(text)) => {
                            piece.text = String::from_utf8(text.to_vec()).map_err(|_| {
                                error(format!("piece {} is not UTF-8", pieces.len()))
                            })?;
                        }
                        (2, Value::Fixed32(bits)) => piece.score = f32::from_bits(bits),
                        (3, Value::Varint(code)) => piece.kind = PieceType::from_code(code),
                        _ => {}
                    }
                }
                pieces.push(piece);
            }
            (2, Value::Bytes(trainer)) => {
                for inner in Fields::new(trainer) {
                    match inner
                        .map_err(|at| error(format!("the trainer spec is broken at byte {at}")))?
                    {
                        (3, Value::Varint(kind)) => model_type = kind,
                        (35, Value::Varint(flag)) => byte_fallback = flag != 0,
                        (24, Value::Varint(flag)) if flag != 0 => {
                            return Err(error("`treat_whitespace_as_suffix` is not supported: the count would not be exact".into()));
                        }
                        _ => {}
                    }
                }
            }
            (3, Value::Bytes(spec)) => {
                for inner in Fields::new(spec) {
                    match inner.map_err(|at| {
                        error(format!("the normalizer spec is broken at byte {at}"))
                    })? {
                        (2, Value::Bytes(blob)) if !blob.is_empty() => {
                            normalizer.charsmap = Some(Charsmap::parse(blob).ok_or_else(|| {
                                error("the normalizer's precompiled_charsmap is broken".into())
                            })?);
                        }
                        (3, Value::Varint(flag)) => normalizer.add_dummy_prefix = flag != 0,
                        (4, Value::Varint(flag)) => normalizer.remove_extra_whitespaces = flag != 0,
                        (5, Value::Varint(flag)) => normalizer.escape_whitespaces = flag != 0,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    if pieces.is_empty() {
        return Err(error("not a SentencePiece model: no pieces".into()));
    }
    let bpe = match model_type {
        1 => false,
        2 => true,
        3 => {
            return Err(error(
                "model type WORD is not supported: the count would not be exact".into(),
            ));
        }
        4 => {
            return Err(error(
                "model type CHAR is not supported: the count would not be exact".into(),
            ));
        }
        other => return Err(error(format!("unknown model type {other}"))),
    };
    build(
        pieces,
        bpe,
        byte_fallback,
        Normalization::SentencePiece(normalizer),
    )
}

/// A protobuf field's value.
enum Value<'d> {
    Varint(u64),
    Fixed64,
    Bytes(&'d [u8]),
    Fixed32(u32),
}

/// The fields of a protobuf message, in order; a broken one is `Err` with
/// its byte offset, after which iteration stops.
struct Fields<'d> {
    data: &'d [u8],
    at: usize,
    broken: bool,
}

impl<'d> Fields<'d> {
    fn new(data: &'d [u8]) -> Self {
        Self {
            data,
            at: 0,
            broken: false,
        }
    }

    fn varint(&mut self) -> Option<u64> {
        let mut value: u64 = 0;
        for shift in (0..64).step_by(7) {
            let byte = *self.data.get(self.at)?;
            self.at += 1;
            value |= u64::from(byte & 0x7F) << shift;
            if byte & 0x80 == 0 {
                return Some(value);
            }
        }
        None
    }

    fn field(&mut self) -> Option<(u64, Value<'d>)> {
        let key = self.varint()?;
        let value = match key & 7 {
            0 => Value::Varint(self.varint()?),
            1 => {
                self.data.get(self.at..self.at.checked_add(8)?)?;
                self.at += 8;
                Value::Fixed64
            }
            2 => {
                let len = usize::try_from(self.varint()?).ok()?;
                let bytes = self.data.get(self.at..self.at.checked_add(len)?)?;
                self.at += len;
                Value::Bytes(bytes)
            }
            5 => {
                let bytes = self.data.get(self.at..self.at.checked_add(4)?)?;
                self.at += 4;
                Value::Fixed32(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
            }
            _ => return None,
        };
        Some((key >> 3, value))
    }
}

impl<'d> Iterator for Fields<'d> {
    type Item = Result<(u64, Value<'d>), usize>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.broken || self.at >= self.data.len() {
            return None;
        }
        let start = self.at;
        match self.field() {
            Some(field) => Some(Ok(field)),
            None => {
                self.broken = true;
                Some(Err(start))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity() -> SpNormalizer {
        SpNormalizer {
            charsmap: None,
            add_dummy_prefix: true,
            remove_extra_whitespaces: false,
            escape_whitespaces: true,
        }
    }

    #[test]
    fn whitespace_rules_follow_the_spec() {
        assert_eq!(identity().normalize("a b"), "▁a▁b");
        assert_eq!(identity().normalize(""), "");
        let collapse = SpNormalizer {
            remove_extra_whitespaces: true,
            ..identity()
        };
        assert_eq!(collapse.normalize("  a   b  "), "▁a▁b");
        assert_eq!(collapse.normalize("   "), "");
    }

    #[test]
    fn broken_protobuf_is_an_error_with_the_offset() {
        // Field 1, length 10, but only 2 bytes follow.
        let err = read_model(&[0x0A, 10, 1, 2], Path::new("x.model")).unwrap_err();
        assert!(err.to_string().contains("byte 0"), "{err}");
        let err = read_model(&[], Path::new("x.model")).unwrap_err();
        assert!(err.to_string().contains("no pieces"), "{err}");
    }
}
