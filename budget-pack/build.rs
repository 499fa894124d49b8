//! Fingerprints the sources whose rules fill the text cache (identifiers,
//! definition keywords, outlines, descriptions, size estimates): the
//! cache's identity holds it (`BUDGET_PACK_RULES`), so that a build made
//! from other sources, a development build or one installed from git
//! between releases, never reads what another build's rules cached.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    // This crate's sources; in the workspace, the estimators' too (they
    // make the size estimates the cache keeps) and the lock file (it pins
    // the grammars).
    let sources = [
        manifest.join("src"),
        manifest.join("../budget-runtime/src/estimate"),
        manifest.join("../Cargo.lock"),
    ];
    let mut hasher = DefaultHasher::new();
    for source in sources.iter().filter(|source| source.exists()) {
        println!("cargo:rerun-if-changed={}", source.display());
        let mut files = Vec::new();
        collect(source, &mut files);
        files.sort();
        for file in files {
            file.strip_prefix(&manifest)
                .unwrap_or(&file)
                .hash(&mut hasher);
            std::fs::read(&file)
                .expect("a source file is readable")
                .hash(&mut hasher);
        }
    }
    println!("cargo:rustc-env=BUDGET_PACK_RULES={:016x}", hasher.finish());
}

/// Every file at or below `path`.
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).expect("a source folder is readable") {
            collect(&entry.expect("a source folder is readable").path(), files);
        }
    } else {
        files.push(path.to_path_buf());
    }
}
