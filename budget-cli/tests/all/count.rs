//! `budget count`: totals per file, content type and folder. Every test
//! compares with the exact o200k counter, the binary's default counter.
#![cfg(feature = "exact")]

use crate::common;

use common::{budget_in, o200k, project};

/// Exact tokens of a project file, counted independently.
fn exact(dir: &std::path::Path, path: &str) -> u64 {
    o200k(&std::fs::read_to_string(dir.join(path)).unwrap())
}

#[test]
fn o200k_totals_equal_the_exact_counters_sum() {
    let dir = project();
    let run = budget_in(
        dir.path(),
        &["count", "--counter", "o200k", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let mut sum = 0;
    for file in report["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap();
        let tokens = exact(dir.path(), path);
        assert_eq!(file["tokens"].as_u64(), Some(tokens), "{path}");
        sum += tokens;
    }
    assert_eq!(report["total_tokens"].as_u64(), Some(sum));
    let code = exact(dir.path(), "src/lib.rs")
        + exact(dir.path(), "src/station.rs")
        + exact(dir.path(), "tests/predict.rs");
    assert_eq!(
        report["by_content_type"]["code"]["tokens"].as_u64(),
        Some(code)
    );
    assert_eq!(report["by_content_type"]["code"]["files"], 3);
    assert_eq!(report["by_content_type"]["yaml"]["files"], 1);
}

#[test]
fn cl100k_and_ratio_counters() {
    let dir = common::tree(&[("twelve.rs", b"abcdefghijkl")]);
    let count = |counter: &str| {
        budget_in(
            dir.path(),
            &["count", "--counter", counter, "--format", "json"],
        )
        .json()["total_tokens"]
            .as_u64()
            .unwrap()
    };
    // 12 characters of code at the token-budget rules' 3.5 characters per token: 3.43, rounded up.
    assert_eq!(count("ratios"), 4);
    // As prose, 4 characters per token.
    assert_eq!(count("ratios:prose"), 3);
    let cl100k = tiktoken_rs::cl100k_base()
        .unwrap()
        .encode_ordinary("abcdefghijkl")
        .len() as u64;
    assert_eq!(count("cl100k"), cl100k);
}

#[test]
fn tree_shows_folder_totals_largest_first() {
    let dir = project();
    let run = budget_in(dir.path(), &["count", "--tree", "--depth", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let src = exact(dir.path(), "src/lib.rs") + exact(dir.path(), "src/station.rs");
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["tokens", "share", "files", "folder"]
    );
    assert!(lines[1].trim_end().ends_with("  ."), "{}", run.stdout);
    // Folders sorted by tokens, descending; src/ holds its two files.
    let folders: Vec<(u64, &str)> = lines[2..]
        .iter()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            (cols[0].parse().unwrap(), *cols.last().unwrap())
        })
        .collect();
    assert_eq!(folders.len(), 4, "{}", run.stdout);
    assert!(folders.windows(2).all(|w| w[0].0 >= w[1].0), "{folders:?}");
    assert!(folders.contains(&(src, "src/")), "{folders:?}");

    let json = budget_in(dir.path(), &["count", "--tree", "--format", "json"]).json();
    let total = json["total_tokens"].as_u64().unwrap();
    assert_eq!(json["tree"]["tokens"].as_u64(), Some(total));
    let src_node = json["tree"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "src")
        .unwrap();
    assert_eq!(src_node["tokens"].as_u64(), Some(src));
    let share = src_node["share_percent"].as_f64().unwrap();
    assert!((share - 100.0 * src as f64 / total as f64).abs() < 1e-9);
}

#[test]
fn table_lists_files_and_type_totals() {
    let dir = project();
    let run = budget_in(dir.path(), &["count"]);
    assert_eq!(run.code, 0);
    let readme = exact(dir.path(), "README.md");
    assert!(
        run.stdout
            .lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>()
                == [&readme.to_string(), "markdown", "README.md"]),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("6 files counted with --counter o200k; skipped: none")
    );
}
