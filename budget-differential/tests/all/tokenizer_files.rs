//! Tokenizer files of open models (Llama 3 and 4, Qwen, Mistral's tekken,
//! DeepSeek V3's `tokenizer.json`) read by `ExactCounter::from_file` against
//! each format's reference implementation (`tiktoken`, `mistral-common`,
//! Hugging Face `tokenizers`, in Python): the same count for every sample of
//! a multilingual set (31 samples in 20 languages and scripts, the 160 files
//! of the estimation corpus, 200 random strings of every Unicode plane).
//!
//! `scripts/references.sh` installs the files and the references and writes
//! the reference counts (`target/references/counts.jsonl`); this test fails
//! when they are missing.

use std::path::PathBuf;
use std::sync::LazyLock;

use budget_runtime::estimate::{
    ExactCounter, ShippedVocabulary, SplitPattern, TokenCounter, TokenizerError,
};

/// `target/references` of the workspace.
fn references() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/references")
}

struct Sample {
    name: String,
    text: String,
    counts: serde_json::Map<String, serde_json::Value>,
}

static SAMPLES: LazyLock<Vec<Sample>> = LazyLock::new(|| {
    let path = references().join("counts.jsonl");
    let data = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}: run scripts/references.sh first", path.display()));
    data.lines()
        .map(|line| {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            Sample {
                name: value["name"].as_str().unwrap().to_owned(),
                text: value["text"].as_str().unwrap().to_owned(),
                counts: value["counts"].as_object_mut().map(std::mem::take).unwrap(),
            }
        })
        .collect()
});

/// Every sample counted by the file `file` equals the reference's count.
fn agrees_with_reference(file: &str, pattern: Option<SplitPattern>) {
    let counter = ExactCounter::from_file(&references().join("files").join(file), pattern).unwrap();
    counts_as_reference(&counter, file);
}

/// Every sample counted by `counter` equals the count of the reference
/// named `file` in `counts.jsonl`.
fn counts_as_reference(counter: &ExactCounter, file: &str) {
    counts_as_reference_on(counter, file, |_| true);
}

/// [`counts_as_reference`] on the samples `keep` keeps.
fn counts_as_reference_on(counter: &ExactCounter, file: &str, keep: impl Fn(&str) -> bool) {
    assert!(SAMPLES.len() > 350, "{} samples", SAMPLES.len());
    let mut differences = Vec::new();
    for sample in SAMPLES.iter().filter(|s| keep(&s.text)) {
        let expected = sample.counts[file].as_u64().unwrap();
        let counted = counter.count_tokens(&sample.text);
        if counted != expected {
            differences.push(format!("{}: {counted} vs {expected}", sample.name));
            continue;
        }
        // Stopping early agrees with counting everything.
        assert_eq!(
            counter.count_tokens_up_to(&sample.text, expected),
            Some(expected)
        );
        if expected > 0 {
            assert_eq!(counter.count_tokens_up_to(&sample.text, expected - 1), None);
        }
    }
    assert!(
        differences.is_empty(),
        "{file}: {} differences: {differences:#?}",
        differences.len()
    );
}

#[test]
fn llama3_rank_file_counts_as_tiktoken_does() {
    agrees_with_reference("llama3.tiktoken", Some(SplitPattern::LLAMA3));
}

#[test]
fn llama4_rank_file_counts_as_tiktoken_does() {
    agrees_with_reference("llama4.tiktoken", None); // identified by its 200,000 ranks
}

#[test]
fn qwen_rank_file_counts_as_tiktoken_with_nfc_does() {
    agrees_with_reference("qwen.tiktoken", None); // identified by its 151,643 ranks
}

#[test]
fn tekken_file_counts_as_mistral_common_does() {
    agrees_with_reference("tekken_240911.json", None);
}

#[test]
fn deepseek_tokenizer_json_counts_as_hugging_face_tokenizers_does() {
    agrees_with_reference("deepseek_v3.json", None);
}

#[test]
fn mistral_v1_sentencepiece_model_counts_as_sentencepiece_does() {
    agrees_with_reference("mistral_v1.model", None);
}

#[test]
fn mistral_v3_sentencepiece_model_counts_as_sentencepiece_does() {
    agrees_with_reference("mistral_v3.model", None);
}

#[test]
fn mistral_v7_sentencepiece_model_counts_as_sentencepiece_does() {
    agrees_with_reference("mistral_v7.model", None);
}

#[test]
fn unigram_sentencepiece_models_count_as_sentencepiece_does() {
    agrees_with_reference("sp_unigram_en.model", None);
    agrees_with_reference("sp_ja.model", None);
}

/// The vocabularies compiled in from the `vocab/*` data crates count as
/// the references count the files they come from.
#[test]
fn shipped_vocabularies_count_as_their_references_do() {
    for (vocabulary, reference) in [
        (ShippedVocabulary::Gemma3, "gemma3"),
        (ShippedVocabulary::Qwen, "qwen.tiktoken"),
        (ShippedVocabulary::DeepSeekV3, "deepseek_v3.json"),
        (ShippedVocabulary::Tekken, "tekken_240911.json"),
        (ShippedVocabulary::Llama3, "llama3.tiktoken"),
        (ShippedVocabulary::Llama4, "llama4.tiktoken"),
    ] {
        let counter = ExactCounter::shipped(vocabulary).unwrap();
        counts_as_reference(&counter, reference);
    }
}

#[test]
fn a_rank_file_under_the_wrong_pattern_counts_differently() {
    // The pattern matters: Llama 3's ranks split Qwen's way (single digits)
    // count numbers differently. (Guards the test above against a pattern
    // that is ignored.)
    let path = references().join("files/llama3.tiktoken");
    let right = ExactCounter::from_file(&path, Some(SplitPattern::LLAMA3)).unwrap();
    let wrong = ExactCounter::from_file(&path, Some(SplitPattern::QWEN)).unwrap();
    assert_eq!(right.count_tokens("12345678"), 3);
    assert_eq!(wrong.count_tokens("12345678"), 8);
}

#[test]
fn broken_files_are_typed_errors_with_the_file() {
    let dir = std::env::temp_dir().join(format!("budget-tokenizer-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, data: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, data).unwrap();
        path
    };
    // A truncated rank file: its number of ranks identifies no pattern.
    let llama = std::fs::read_to_string(references().join("files/llama3.tiktoken")).unwrap();
    let truncated: String = llama.lines().take(1000).map(|l| format!("{l}\n")).collect();
    let err =
        ExactCounter::from_file(&write("short.tiktoken", truncated.as_bytes()), None).unwrap_err();
    assert!(
        matches!(err, TokenizerError::UnknownPattern { ranks: 1000, .. }),
        "{err}"
    );
    assert!(
        err.to_string().contains("short.tiktoken") && err.to_string().contains("llama3"),
        "{err}"
    );
    // Garbage on line 3.
    let err = ExactCounter::from_file(
        &write("bad.tiktoken", b"AA== 0\nAQ== 1\nnot base64! 2\n"),
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("bad.tiktoken:3"), "{err}");
    // JSON of neither kind, broken JSON, binary, missing.
    let err = ExactCounter::from_file(&write("other.json", b"{\"a\": 1}"), None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("neither a tekken file"), "{err}");
    let err = ExactCounter::from_file(&write("broken.json", b"{\n\"config\": ["), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("broken.json:2") && err.contains("not JSON"),
        "{err}"
    );
    let err = ExactCounter::from_file(&write("binary.model", &[0xff, 0xfe, 0]), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("binary.model") && err.contains("not a SentencePiece model"),
        "{err}"
    );
    // A GGUF header that ends early, and one whose string length claims
    // more than any metadata may have.
    let err = ExactCounter::from_file(&write("short.gguf", b"GGUF\x03\0\0\0"), None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("short.gguf") && err.contains("ends early"),
        "{err}"
    );
    let mut huge = b"GGUF\x03\0\0\0".to_vec();
    huge.extend(0u64.to_le_bytes()); // tensors
    huge.extend(1u64.to_le_bytes()); // one key
    huge.extend(u64::MAX.to_le_bytes()); // its length
    let err = ExactCounter::from_file(&write("huge.gguf", &huge), None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("larger than the metadata may be"), "{err}");
    let err = ExactCounter::from_file(&dir.join("missing.tiktoken"), None).unwrap_err();
    assert!(matches!(err, TokenizerError::Read { .. }), "{err}");
    // A tekken file whose config asks for more ranks than it has.
    let err = ExactCounter::from_file(
        &write("tekken.json", br#"{"config": {"pattern": "\\S+", "default_vocab_size": 10, "default_num_special_tokens": 2}, "vocab": []}"#),
        None,
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("fewer than the 8"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// llama.cpp's GGUF conversions of Llama 3's and Qwen 2's vocabularies
/// count the multilingual samples as `tiktoken` counts the rank files they
/// were converted from: the GGUF reader (merges, `tokenizer.ggml.pre`
/// patterns) checked on all the scripts of the sample, not only on
/// llama.cpp's own test texts. llama.cpp does not put text in NFC for
/// Qwen as Qwen's own tokenizer does (and neither does the GGUF reader,
/// which counts what llama.cpp sends): Qwen is compared on the samples NFC
/// leaves alone (all but some random strings).
#[test]
fn gguf_vocabularies_count_as_tiktoken_counts_their_rank_files() {
    use unicode_normalization::UnicodeNormalization;
    let files = references().join("files");
    let llama3 =
        ExactCounter::from_file(&files.join("gguf/ggml-vocab-llama-bpe.gguf"), None).unwrap();
    counts_as_reference(&llama3, "llama3.tiktoken");
    let qwen2 = ExactCounter::from_file(&files.join("gguf/ggml-vocab-qwen2.gguf"), None).unwrap();
    let nfc_stable = |text: &str| text.nfc().eq(text.chars());
    assert!(SAMPLES.iter().filter(|s| nfc_stable(&s.text)).count() > 300);
    counts_as_reference_on(&qwen2, "qwen.tiktoken", nfc_stable);
}

/// Damaged files of every format (bytes flipped, cut short) are an error
/// or a working counter, never a panic: 300 seeded mutations each.
#[test]
fn damaged_tokenizer_files_never_panic() {
    let files = [
        "mistral_v3.model",
        "sp_ja.model",
        "gguf/ggml-vocab-llama-spm.gguf",
        "gguf/ggml-vocab-qwen2.gguf",
        "deepseek_v3.json",
    ];
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut loaded, mut refused) = (0, 0);
    for file in files {
        let original = std::fs::read(references().join("files").join(file)).unwrap();
        for round in 0..300 {
            let mut bytes = original.clone();
            if round % 3 == 0 {
                bytes.truncate((next() as usize) % bytes.len());
            }
            // Damage near the start (headers, lengths) as often as anywhere.
            for _ in 0..1 + next() % 8 {
                if bytes.is_empty() {
                    break;
                }
                let span = if next() % 2 == 0 {
                    bytes.len().min(4096)
                } else {
                    bytes.len()
                };
                let at = (next() as usize) % span;
                bytes[at] = next() as u8;
            }
            match ExactCounter::from_bytes(file, &bytes, None) {
                Ok(counter) => {
                    loaded += 1;
                    let _ = counter.count_tokens("Hello, world! こんにちは 12345\n\t ");
                }
                Err(_) => refused += 1,
            }
        }
    }
    assert!(
        loaded > 0 && refused > 0,
        "{loaded} loaded, {refused} refused"
    );
}
