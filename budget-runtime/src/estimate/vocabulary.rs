//! Byte-pair vocabularies read from files: tiktoken rank files (Llama 3 and
//! 4, Qwen, OpenAI's encodings) and Mistral's tekken JSON.

use std::path::Path;

use base64::Engine as _;

use crate::estimate::rank_bpe::RankBpe;
use crate::estimate::{SplitPattern, TokenizerError};

/// The tokens of a tiktoken rank file (`base64-token rank` per line), in
/// rank order. Ranks must run 0, 1, 2, … (`line` in the error is 1-based).
pub(crate) fn read_tiktoken(data: &str, path: &Path) -> Result<Vec<Vec<u8>>, TokenizerError> {
    let mut tokens = Vec::new();
    for (index, line) in data.lines().enumerate() {
        if line.is_empty() {
            continue;
        }
        let error = |message: String| TokenizerError::format(path, Some(index + 1), message);
        let mut fields = line.split(' ');
        let (Some(token), Some(rank), None) = (fields.next(), fields.next(), fields.next()) else {
            return Err(error(
                "expected `<base64 token> <rank>`: not a tiktoken rank file".into(),
            ));
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(token)
            .map_err(|_| error("the token is not base64".into()))?;
        let rank: usize = rank
            .parse()
            .map_err(|_| error("the rank is not a number".into()))?;
        if rank != tokens.len() {
            return Err(error(format!(
                "rank {rank} where {} was expected (ranks must run 0, 1, 2, …)",
                tokens.len()
            )));
        }
        tokens.push(bytes);
    }
    Ok(tokens)
}

/// The tokens and split pattern of a tekken file, truncated as
/// `mistral-common` does: to `default_vocab_size` minus
/// `default_num_special_tokens` ranks.
pub(crate) fn read_tekken(
    json: &serde_json::Value,
    path: &Path,
) -> Result<(Vec<Vec<u8>>, SplitPattern), TokenizerError> {
    let error = |message: String| TokenizerError::format(path, None, message);
    let config = &json["config"];
    let pattern = config["pattern"]
        .as_str()
        .ok_or_else(|| error("no string `config.pattern`".into()))?;
    let number = |key: &str| {
        config[key]
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| error(format!("no number `config.{key}`")))
    };
    let (size, special) = (
        number("default_vocab_size")?,
        number("default_num_special_tokens")?,
    );
    let inner = size.checked_sub(special).ok_or_else(|| {
        error(format!(
            "default_vocab_size {size} is smaller than default_num_special_tokens {special}"
        ))
    })?;
    let vocab = json["vocab"]
        .as_array()
        .ok_or_else(|| error("no array `vocab`".into()))?;
    if vocab.len() < inner {
        return Err(error(format!(
            "`vocab` has {} entries, fewer than the {inner} the config asks for",
            vocab.len()
        )));
    }
    let mut tokens = Vec::with_capacity(inner);
    for (index, entry) in vocab.iter().take(inner).enumerate() {
        let bytes = entry["token_bytes"]
            .as_str()
            .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
            .ok_or_else(|| error(format!("vocab[{index}] has no base64 `token_bytes`")))?;
        if entry["rank"].as_u64() != u64::try_from(index).ok() {
            return Err(error(format!("vocab[{index}] does not have rank {index}")));
        }
        tokens.push(bytes);
    }
    let name = path
        .file_stem()
        .map_or_else(|| "tekken".to_owned(), |s| s.to_string_lossy().into_owned());
    Ok((tokens, SplitPattern::custom(name, pattern, false)))
}

/// A tokenizer of `tokens` (in rank order) split by `pattern`: no empty or
/// repeated token, and every single byte a token (else some text could not
/// be encoded).
pub(crate) fn build(
    tokens: Vec<Vec<u8>>,
    pattern: &SplitPattern,
    path: &Path,
) -> Result<RankBpe, TokenizerError> {
    let error = |message: String| TokenizerError::format(path, None, message);
    let mut seen = foldhash::HashSet::with_capacity_and_hasher(tokens.len(), Default::default());
    for (rank, token) in tokens.iter().enumerate() {
        if token.is_empty() {
            return Err(error(format!("rank {rank} is an empty token")));
        }
        if !seen.insert(token.as_slice()) {
            return Err(error(format!("rank {rank} repeats an earlier token")));
        }
    }
    if let Some(byte) = (0..=255u8).find(|b| !seen.contains([*b].as_slice())) {
        return Err(error(format!(
            "byte {byte:#04x} is not a token: a byte-pair vocabulary needs all 256"
        )));
    }
    drop(seen);
    RankBpe::new(tokens, pattern)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path() -> &'static Path {
        Path::new("ranks.tiktoken")
    }

    #[test]
    fn rank_files_must_count_up_from_zero() {
        assert_eq!(
            read_tiktoken("YQ== 0\nYg== 1\n", path()).unwrap(),
            [b"a".to_vec(), b"b".to_vec()]
        );
        let err = read_tiktoken("YQ== 0\nYg== 2\n", path())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("ranks.tiktoken:2") && err.contains("rank 2 where 1"),
            "{err}"
        );
        let err = read_tiktoken("YQ== 0\n!!! 1\n", path())
            .unwrap_err()
            .to_string();
        assert!(err.contains(":2") && err.contains("not base64"), "{err}");
        let err = read_tiktoken("just-one-field\n", path())
            .unwrap_err()
            .to_string();
        assert!(err.contains(":1") && err.contains("expected"), "{err}");
    }

    #[test]
    fn a_vocabulary_without_every_byte_is_refused() {
        let tokens = vec![b"a".to_vec(), b"b".to_vec()];
        let err = build(tokens, &SplitPattern::CL100K, path())
            .unwrap_err()
            .to_string();
        assert!(err.contains("byte 0x00 is not a token"), "{err}");
    }

    #[test]
    fn repeated_tokens_are_refused_not_asserted() {
        let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        tokens.push(b"a".to_vec());
        let err = build(tokens, &SplitPattern::CL100K, path())
            .unwrap_err()
            .to_string();
        assert!(err.contains("rank 256 repeats"), "{err}");
    }

    #[test]
    fn bytes_and_merges_count_like_byte_pair_encoding() {
        let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        tokens.extend([b"ab".to_vec(), b"abc".to_vec()]);
        let tokenizer = build(tokens, &SplitPattern::CL100K, path()).unwrap();
        // "abc" merges to one token; " abcd" is " ", "abc", "d" (the space is
        // part of the letter run's piece, but no token joins it to "a").
        assert_eq!(tokenizer.count("abc"), 1);
        assert_eq!(tokenizer.count(" abcd"), 3);
    }
}
