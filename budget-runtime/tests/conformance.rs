//! Runs the Cupel conformance vectors against this crate.
//!
//! Vectors are read from the directory named by `BUDGET_CONFORMANCE_DIR`
//! (default: the vendored copy in `tests/data/conformance`, MIT, see its
//! LICENSE). A missing directory, or one without vectors, fails the suite. It
//! prints one summary line, `conformance: N passed, M failed`, and fails if
//! M > 0.
//!
//! It runs without the libtest harness (`harness = false`) so that the
//! summary line is always printed, not captured.

mod conformance {
    pub mod build;
    pub mod run;
    pub mod vector;
}

use std::path::{Path, PathBuf};

fn vector_dir() -> PathBuf {
    match std::env::var_os("BUDGET_CONFORMANCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/conformance"),
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
    let dir = vector_dir();
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
