//! Real source the tests compare the scans and readings with
//! tree-sitter on: the files of a tree by extension, CPython's standard
//! library, this repository.

use std::path::{Path, PathBuf};

/// The files under `dir` whose names end in `.{extension}`, sorted;
/// directories named in `skip`, and symbolic links to directories, are
/// not entered.
pub fn files_under(dir: &Path, extension: &str, skip: &[&str]) -> Vec<PathBuf> {
    fn walk(dir: &Path, suffix: &str, skip: &[&str], out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                if !path.is_symlink() && !skip.contains(&name.as_str()) {
                    walk(&path, suffix, skip, out);
                }
            } else if name.ends_with(suffix) {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &format!(".{extension}"), skip, &mut files);
    files.sort();
    files
}

/// This repository's root.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The Python modules of CPython's standard library outside its tests
/// and `site-packages` (as `python3` reports where it is, which
/// `scripts/references.sh` needs too), and of this repository's scripts.
pub fn python_modules() -> Vec<PathBuf> {
    let stdlib = std::process::Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['stdlib'])",
        ])
        .output()
        .expect("python3 runs");
    let stdlib = PathBuf::from(String::from_utf8(stdlib.stdout).unwrap().trim());
    let skip = ["test", "tests", "site-packages"];
    let mut files = files_under(&stdlib, "py", &skip);
    assert!(
        files.len() > 500,
        "{} files under {}",
        files.len(),
        stdlib.display()
    );
    let scripts = files_under(&repository().join("scripts"), "py", &skip);
    assert!(scripts.len() > 5, "{} scripts", scripts.len());
    files.extend(scripts);
    files
}
