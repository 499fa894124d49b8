//! Runs the Cupel conformance vectors against this crate.
//!
//! Vectors are read from the directory named by `BUDGET_CONFORMANCE_DIR`
//! (default: the vendored copy in `tests/data/conformance`, MIT, see its
//! LICENSE). A missing directory, one without vectors, or a vendored copy
//! without all of its 67 vectors fails the suite. It prints one summary line,
//! `conformance: N passed, M failed`, and fails if M > 0.
//!
//! It runs without the libtest harness (`harness = false`) so that the
//! summary line is always printed, not captured.

mod conformance {
    pub mod build;
    pub mod run;
    pub mod vector;
}

use std::path::{Path, PathBuf};

/// The vendored vectors: 58 required and 9 optional (its README).
const VENDORED_VECTORS: usize = 67;

/// The vector directory, and how many vectors it must hold when known.
fn vector_dir() -> (PathBuf, Option<usize>) {
    match std::env::var_os("BUDGET_CONFORMANCE_DIR") {
        Some(dir) => (PathBuf::from(dir), None),
        None => (
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance"),
            Some(VENDORED_VECTORS),
        ),
    }
}

fn collect_vectors(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_vectors(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "toml") {
            out.push(path);
        }
    }
    Ok(())
}

fn main() -> std::process::ExitCode {
    let (dir, expected) = vector_dir();
    let mut paths = Vec::new();
    if let Err(e) = collect_vectors(&dir, &mut paths) {
        panic!(
            "conformance: cannot read vectors at {} ({e}); set BUDGET_CONFORMANCE_DIR",
            dir.display()
        );
    }
    paths.sort();
    assert!(
        !paths.is_empty(),
        "no .toml vectors under {}",
        dir.display()
    );
    if let Some(expected) = expected {
        assert_eq!(
            paths.len(),
            expected,
            "vectors under {} (vendored copy incomplete?)",
            dir.display()
        );
    }

    let mut failures = Vec::new();
    for path in &paths {
        let label = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let outcome = std::fs::read_to_string(path)
            .map_err(|e| format!("unreadable: {e}"))
            .and_then(|text| conformance::run::run_vector(&text));
        if let Err(why) = outcome {
            failures.push(format!("{label}: {why}"));
        }
    }
    for failure in &failures {
        println!("FAILED {failure}");
    }
    let passed = paths.len() - failures.len();
    println!("conformance: {passed} passed, {} failed", failures.len());
    if failures.is_empty() {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
