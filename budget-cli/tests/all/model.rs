//! `--model` and `--tokenizer` on `count`, `pack` and `check`: the model's
//! window and counter, typed errors for unknown names and broken files.
#![cfg(feature = "exact")]

use crate::common;

use common::{budget_in, budget_with_env, o200k, project, tree};

#[test]
fn count_reports_the_models_counter_and_window() {
    let dir = project();
    let run = budget_in(
        dir.path(),
        &["count", "--model", "gpt-4o", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["counter"], "o200k_base (exact)");
    assert_eq!(report["exact"], true);
    assert_eq!(report["model"]["name"], "gpt-4o");
    assert_eq!(report["model"]["context_window"], 128_000);
    assert_eq!(report["model"]["max_output_tokens"], 16_384);
    let lib = std::fs::read_to_string(dir.path().join("src/lib.rs")).unwrap();
    let file = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "src/lib.rs")
        .unwrap();
    assert_eq!(file["tokens"].as_u64(), Some(o200k(&lib)));
}

#[test]
fn a_model_without_its_tokenizer_file_is_an_estimate_over_o200k() {
    let dir = tree(&[("a.txt", "Привет, как дела? ".repeat(50).as_bytes())]);
    // A Hugging Face cache with nothing in it and no vocabulary compiled
    // in: Phi-4 falls back to its margin.
    let run = budget_in(
        dir.path(),
        &["count", "--model", "phi-4", "--format", "json", "a.txt"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["exact"], false);
    assert!(
        report["counter"]
            .as_str()
            .unwrap()
            .starts_with("o200k_base x 2.7 (estimate"),
        "{}",
        report["counter"]
    );
    let exact = o200k(&"Привет, как дела? ".repeat(50));
    assert_eq!(
        report["total_tokens"].as_u64(),
        Some((exact as f64 * 2.7).ceil() as u64)
    );
}

#[test]
fn pack_budget_auto_is_the_window_minus_the_reserve() {
    let dir = project();
    let run = budget_in(
        dir.path(),
        &[
            "pack", "--model", "gpt-4", "--budget", "auto", "--format", "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // gpt-4: 8,192 window, output reserve a quarter: 6,144 for the payload.
    assert!(
        run.stderr.contains("of a 6144-token budget"),
        "{}",
        run.stderr
    );
}

#[test]
fn unknown_models_and_broken_tokenizers_exit_2_with_the_reason() {
    let dir = project();
    let run = budget_in(dir.path(), &["count", "--model", "gpt-4oo"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains(r#"unknown model "gpt-4oo" (did you mean "gpt-4o"?)"#),
        "{}",
        run.stderr
    );
    let run = budget_in(dir.path(), &["pack", "--tokenizer", "missing.tiktoken"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("missing.tiktoken: cannot read the tokenizer file"),
        "{}",
        run.stderr
    );
    std::fs::write(dir.path().join("bad.tiktoken"), "AA== 0\nAQ== 5\n").unwrap();
    let run = budget_in(dir.path(), &["count", "--tokenizer", "bad.tiktoken"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("bad.tiktoken:2: rank 5 where 1 was expected"),
        "{}",
        run.stderr
    );
    let run = budget_in(
        dir.path(),
        &["count", "--model", "gpt-4o", "--counter", "o200k"],
    );
    assert_eq!(run.code, 2, "--model replaces --counter");
}

#[test]
fn a_tokenizer_file_counts_exactly() {
    // A tiny rank file: every byte, then "ab". Its 257 ranks identify no
    // pattern, so --model names Llama 3's.
    let ranks = tiny_ranks();
    let dir = tree(&[("t.tiktoken", ranks.as_bytes()), ("x.txt", b"ababab c")]);
    let run = budget_in(
        dir.path(),
        &[
            "count",
            "--tokenizer",
            "t.tiktoken",
            "--format",
            "json",
            "x.txt",
        ],
    );
    assert_eq!(run.code, 2, "no pattern for 257 ranks: {}", run.stderr);
    assert!(run.stderr.contains("name one"), "{}", run.stderr);
    let run = budget_in(
        dir.path(),
        &[
            "count",
            "--tokenizer",
            "t.tiktoken",
            "--model",
            "llama3.1",
            "--format",
            "json",
            "x.txt",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    // "ababab" → ab ab ab; " c" → " " "c" (no merge): 5 tokens.
    assert_eq!(run.json()["total_tokens"], 5);
    assert_eq!(run.json()["exact"], true);
}

/// A tiny tiktoken rank file: every byte, then "ab" (257 ranks, a size no
/// pattern is known by).
fn tiny_ranks() -> String {
    let mut ranks = String::new();
    for byte in 0..=255u8 {
        ranks.push_str(&format!("{} {byte}\n", base64(&[byte])));
    }
    ranks.push_str(&format!("{} 256\n", base64(b"ab")));
    ranks
}

/// Standard base64 of `bytes`.
fn base64(bytes: &[u8]) -> String {
    const TABLE: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn models_file_adds_and_overrides_profiles() {
    let dir = project();
    std::fs::write(
        dir.path().join("models.toml"),
        "[models.\"our-gpt\"]\nbase = \"gpt-4o\"\ncontext_window = 20000\nmax_output_tokens = 4000\n",
    )
    .unwrap();
    let run = budget_in(
        dir.path(),
        &[
            "count",
            "--models",
            "models.toml",
            "--model",
            "our-gpt",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["model"]["name"], "our-gpt");
    assert_eq!(report["model"]["context_window"], 20_000);
    assert_eq!(report["counter"], "o200k_base (exact)");
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "--models",
            "models.toml",
            "--model",
            "our-gpt",
            "--budget",
            "auto",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("of a 16000-token budget"),
        "{}",
        run.stderr
    );
    // A mistake in the file: exit 2 with the file, line and key.
    std::fs::write(
        dir.path().join("bad.toml"),
        "\n[models.x]\nbase = \"gpt-4o\"\nwindow = 3\n",
    )
    .unwrap();
    let run = budget_in(
        dir.path(),
        &["count", "--models", "bad.toml", "--model", "x"],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("bad.toml:2: model `x`: unknown key `window`"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_models_tokenizer_in_the_hugging_face_cache_counts_exactly() {
    // The same tiny rank file as above, where Llama 3.1's profile looks for
    // its tokenizer in the cache: its pattern comes from the profile.
    let ranks = tiny_ranks();
    let snapshot =
        "hub/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/0123abc/original/tokenizer.model";
    let dir = tree(&[(snapshot, ranks.as_bytes()), ("x.txt", b"ababab c")]);
    let hub = dir.path().join("hub");
    let run = common::budget_with_env(
        dir.path(),
        &["count", "--model", "llama3.1", "--format", "json", "x.txt"],
        &[("HF_HUB_CACHE", hub.as_os_str())],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["exact"], true);
    assert_eq!(report["total_tokens"], 5);
    assert_eq!(
        report["counter"],
        "meta-llama/Llama-3.1-8B-Instruct tokenizer.model (exact)"
    );
}

/// The reference tokenizer files `scripts/references.sh` installs.
fn reference_file(name: &str) -> std::path::PathBuf {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/references/files")
        .join(name);
    assert!(
        path.is_file(),
        "{}: run scripts/references.sh first",
        path.display()
    );
    path
}

/// Text whose counts the references give: Llama 3 (`tiktoken` over
/// `llama3.tiktoken`) 12, Mistral v3 (`sentencepiece`) 20, DeepSeek V3
/// (`tokenizers`) 17.
const MIXED: &str = "Hello world 12345 こんにちは\n\tfn main() {}";

#[test]
fn tokenizer_files_of_every_format_count_exactly_in_the_default_build() {
    let dir = tree(&[("mixed.txt", MIXED.as_bytes())]);
    for (file, expected) in [
        ("gguf/ggml-vocab-llama-bpe.gguf", 12),
        ("mistral_v3.model", 20),
        ("deepseek_v3.json", 17),
    ] {
        let path = reference_file(file);
        let run = budget_in(
            dir.path(),
            &[
                "count",
                "--format",
                "json",
                "--tokenizer",
                path.to_str().unwrap(),
            ],
        );
        assert_eq!(run.code, 0, "{file}: {}", run.stderr);
        let json = run.json();
        assert_eq!(json["total_tokens"], expected, "{file}: {json}");
        let name = std::path::Path::new(file)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        assert!(
            json.to_string().contains(&format!("{name} (exact)")),
            "{file}: {json}"
        );
    }
}

#[test]
fn a_model_pulled_into_ollama_counts_with_its_gguf() {
    // An Ollama store as `ollama pull llama3.1:8b` leaves it, the model
    // blob being llama.cpp's Llama 3 vocabulary file.
    let store = tempfile::tempdir().unwrap();
    let manifests = store
        .path()
        .join("manifests/registry.ollama.ai/library/llama3.1");
    std::fs::create_dir_all(&manifests).unwrap();
    std::fs::create_dir_all(store.path().join("blobs")).unwrap();
    std::fs::write(
        manifests.join("8b"),
        r#"{"schemaVersion":2,"layers":[{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:0123abcd","size":1}]}"#,
    )
    .unwrap();
    std::fs::copy(
        reference_file("gguf/ggml-vocab-llama-bpe.gguf"),
        store.path().join("blobs/sha256-0123abcd"),
    )
    .unwrap();
    let dir = tree(&[("mixed.txt", MIXED.as_bytes())]);
    let empty_cache = tempfile::tempdir().unwrap();
    let env = [
        ("OLLAMA_MODELS", store.path().as_os_str()),
        ("HF_HUB_CACHE", empty_cache.path().as_os_str()),
    ];
    // Any spelling of the model finds the same profile and its GGUF.
    for name in [
        "llama3.1",
        "llama-3.1-8b",
        "meta-llama/Llama-3.1-8B-Instruct",
    ] {
        let run = budget_with_env(
            dir.path(),
            &["count", "--format", "json", "--model", name],
            &env,
        );
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let json = run.json();
        assert_eq!(json["total_tokens"], 12, "{name}: {json}");
        assert!(
            json.to_string().contains("ollama llama3.1:8b GGUF (exact)"),
            "{name}: {json}"
        );
    }
    // Without the store: the vocabulary compiled in, the same count.
    let none = tempfile::tempdir().unwrap();
    let env = [
        ("OLLAMA_MODELS", none.path().as_os_str()),
        ("HF_HUB_CACHE", empty_cache.path().as_os_str()),
    ];
    let run = budget_with_env(
        dir.path(),
        &["count", "--format", "json", "--model", "llama3.1"],
        &env,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json = run.json();
    assert_eq!(json["total_tokens"], 12, "{json}");
    assert_eq!(json["counter"], "llama3.tiktoken (exact, compiled in)");
}

/// Every model of the registry, with no tokenizer file anywhere (an empty
/// Hugging Face cache, no Ollama store): `count` and `pack` count exactly
/// for OpenAI's models and for every family whose vocabulary the default
/// build compiles in (Gemma 3 and Gemini, Qwen, DeepSeek V3, Mistral
/// tekken, Llama 3 and 4); the rest are named here (no vocabulary a
/// registry package ships, or none public), so that a family that stops
/// being exact fails.
#[test]
fn every_family_counts_exactly_with_no_file_but_those_named() {
    let still_estimated = ["phi-", "claude-", "deepseek-v4-", "mistral-large-"];
    let registry = budget::profile::ModelRegistry::builtin();
    let dir = tree(&[("mixed.txt", MIXED.as_bytes())]);
    for profile in registry.profiles() {
        let count = budget_in(
            dir.path(),
            &["count", "--format", "json", "--model", &profile.name],
        );
        assert_eq!(count.code, 0, "{}: {}", profile.name, count.stderr);
        let report = count.json();
        let exact = report["exact"].as_bool().unwrap();
        let expected = !still_estimated
            .iter()
            .any(|prefix| profile.name.starts_with(prefix));
        assert_eq!(exact, expected, "{}: {}", profile.name, report["counter"]);
        let pack = budget_in(
            dir.path(),
            &[
                "pack",
                "--format",
                "json",
                "--model",
                &profile.name,
                "--budget",
                "1000",
            ],
        );
        assert_eq!(pack.code, 0, "{}: {}", profile.name, pack.stderr);
        assert!(
            pack.stderr.contains(report["counter"].as_str().unwrap()),
            "{}: {}",
            profile.name,
            pack.stderr
        );
    }
}

#[test]
fn a_model_of_a_localai_folder_counts_with_its_gguf_and_context() {
    let models = tempfile::tempdir().unwrap();
    std::fs::copy(
        reference_file("gguf/ggml-vocab-llama-bpe.gguf"),
        models.path().join("Meta-Llama-3.1-8B-Instruct.Q4_K_M.gguf"),
    )
    .unwrap();
    std::fs::write(
        models.path().join("local-llama.yaml"),
        "name: local-llama\ncontext_size: 8192\nparameters:\n  model: Meta-Llama-3.1-8B-Instruct.Q4_K_M.gguf\n",
    )
    .unwrap();
    std::fs::write(
        models.path().join("escape.yaml"),
        "name: escape\ncontext_size: 8192\nparameters:\n  model: ../../etc/passwd\n",
    )
    .unwrap();
    let dir = tree(&[("mixed.txt", MIXED.as_bytes())]);
    let folder = models.path().to_str().unwrap();
    let run = budget_in(
        dir.path(),
        &[
            "count",
            "--format",
            "json",
            "--model",
            "local-llama",
            "--models-dir",
            folder,
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["total_tokens"], 12, "{report}"); // tiktoken over llama3.tiktoken
    assert_eq!(
        report["counter"],
        "localai Meta-Llama-3.1-8B-Instruct.Q4_K_M.gguf (exact)"
    );
    // The config's context size is the window: 8,192, a quarter kept.
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "--model",
            "local-llama",
            "--models-dir",
            folder,
            "--budget",
            "auto",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("of a 6144-token budget"),
        "{}",
        run.stderr
    );
    // A config that points outside the folder is refused, not followed.
    let run = budget_in(
        dir.path(),
        &["count", "--model", "escape", "--models-dir", folder],
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("leaves the models folder"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("root:"), "{}", run.stderr);
    // A sandbox refuses the flag.
    let run = budget_in(
        dir.path(),
        &[
            "--sandbox",
            ".",
            "count",
            "--model",
            "local-llama",
            "--models-dir",
            folder,
        ],
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--models-dir"), "{}", run.stderr);
}
