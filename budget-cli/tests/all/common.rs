//! Running the built `budget` binary on temporary trees.

#![allow(dead_code)] // each test file uses its own subset

use std::path::Path;
use std::process::{Command, Output};
use std::sync::LazyLock;

use tempfile::TempDir;

/// What one run of the binary produced.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// stdout parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}

/// Runs `budget ARGS` in `dir`, with an empty Hugging Face cache, no
/// Ollama store and no user config (the machine's own never change a
/// result).
pub fn budget_in(dir: &Path, args: &[&str]) -> Run {
    let empty = dir.join(".no-hf-cache");
    let no_ollama = dir.join(".no-ollama");
    let no_config = dir.join(".no-user-config");
    budget_with_env(
        dir,
        args,
        &[
            ("HF_HUB_CACHE", empty.as_os_str()),
            ("OLLAMA_MODELS", no_ollama.as_os_str()),
            ("XDG_CONFIG_HOME", no_config.as_os_str()),
        ],
    )
}

/// The caches' folder of this test run: a temporary one, so that tests
/// write nothing into the user's cache or the source tree.
pub fn cache_dir() -> &'static Path {
    static DIR: LazyLock<TempDir> = LazyLock::new(|| tempfile::tempdir().expect("temp dir"));
    DIR.path()
}

/// Runs `budget ARGS` in `dir` with the environment variables `env` set,
/// and the test run's caches ([`cache_dir`]) unless `env` names others.
pub fn budget_with_env(dir: &Path, args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Run {
    let output: Output = Command::new(env!("CARGO_BIN_EXE_budget"))
        .args(args)
        .env("BUDGET_CACHE_DIR", cache_dir())
        .envs(env.iter().copied())
        .current_dir(dir)
        .output()
        .expect("the budget binary runs");
    Run {
        code: output.status.code().expect("exited normally"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    }
}

/// A temporary directory holding `files` (`path`, contents); folders are
/// created as needed.
pub fn tree(files: &[(&str, &[u8])]) -> TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, contents) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        std::fs::write(&path, contents).expect("write");
    }
    dir
}

/// [`tree`] of owned paths and contents.
pub fn owned_tree(files: &[(String, Vec<u8>)]) -> TempDir {
    let borrowed: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(path, contents)| (path.as_str(), contents.as_slice()))
        .collect();
    tree(&borrowed)
}

/// Exact o200k_base tokens of `text`, counted by tiktoken-rs directly (not
/// through the code under test).
pub fn o200k(text: &str) -> u64 {
    static BPE: LazyLock<tiktoken_rs::CoreBPE> =
        LazyLock::new(|| tiktoken_rs::o200k_base().expect("o200k_base loads"));
    BPE.encode_ordinary(text).len() as u64
}

/// A small project: code, docs, config and a README.
pub fn project() -> TempDir {
    tree(&[
        ("README.md", b"# Tides\n\nPredicts tide heights for coastal stations.\n"),
        ("src/lib.rs", b"//! Tide prediction.\npub fn height(hours: f64) -> f64 {\n    (hours * 0.5).sin()\n}\n"),
        ("src/station.rs", b"/// A station.\npub struct Station { pub name: String }\n"),
        ("docs/design.md", b"# Design\n\nHarmonic constituents are summed per station.\n"),
        ("config/stations.yaml", b"stations:\n  - brest\n  - cherbourg\n"),
        ("tests/predict.rs", b"#[test]\nfn zero() { assert_eq!(tides::height(0.0), 0.0); }\n"),
    ])
}

/// Runs `git ARGS` in `dir` with a fixed author and no system or user
/// configuration: test repositories made independently of libgit2.
pub fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(["-c", "user.name=Ada", "-c", "user.email=ada@example.com"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("git runs");
    assert!(status.success(), "git {args:?}");
}

/// Makes a FIFO at `path` (`mkfifo`).
#[cfg(unix)]
pub fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}
