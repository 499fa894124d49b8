//! Property tests of `budget pack` over random trees, with and without a
//! query: every input file in exactly one status, every packed file in
//! exactly one tier section of the payload (and the tree), no file that
//! matches nothing carried whole, and the payload, tree and skeletons
//! included, within the budget by an independent exact count.

use proptest::prelude::*;

use crate::common::{budget_in, o200k, owned_tree};

/// One file: its kind decides its contents.
#[derive(Clone, Debug)]
enum Kind {
    /// A Rust module of `n` functions with bodies (a skeleton candidate).
    Rust(usize),
    /// A Python module of `n` documented functions.
    Python(usize),
    /// Prose of `n` sentences.
    Prose(usize),
    /// A copy of the first file (a duplicate).
    Duplicate,
    /// Binary bytes.
    Binary,
    /// Only whitespace.
    Empty,
    /// A file holding an AWS access key id (AWS's published example).
    Secret,
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        4 => (1usize..120).prop_map(Kind::Rust),
        3 => (1usize..80).prop_map(Kind::Python),
        3 => (1usize..200).prop_map(Kind::Prose),
        1 => Just(Kind::Duplicate),
        1 => Just(Kind::Binary),
        1 => Just(Kind::Empty),
        1 => Just(Kind::Secret),
    ]
}

fn contents(kind: &Kind, index: usize, first: &[u8]) -> (String, Vec<u8>) {
    match kind {
        Kind::Rust(n) => (
            format!("src/m{index}.rs"),
            (0..*n)
                .map(|i| format!("/// Step {i}.\npub fn step_{index}_{i}(x: u64) -> u64 {{\n    let y = x.wrapping_mul({i});\n    y.rotate_left(3) ^ x\n}}\n"))
                .collect::<String>()
                .into_bytes(),
        ),
        Kind::Python(n) => (
            format!("pkg/mod{index}.py"),
            (0..*n)
                .map(|i| format!("def f{index}_{i}(x):\n    \"\"\"Return x scaled.\n\n    Details.\n    \"\"\"\n    y = x * {i}\n    return y + 1\n\n"))
                .collect::<String>()
                .into_bytes(),
        ),
        Kind::Prose(n) => (
            format!("docs/page{index}.md"),
            format!("# Page {index}\n\n{}", "The tide rises and falls twice a day. ".repeat(*n)).into_bytes(),
        ),
        Kind::Duplicate => (format!("copy{index}.txt"), first.to_vec()),
        Kind::Binary => (format!("blob{index}.bin"), vec![0, 159, 146, 150, 0, 1]),
        Kind::Empty => (format!("empty{index}.txt"), b"  \n\n".to_vec()),
        Kind::Secret => (
            format!("config{index}.env"),
            b"AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n".to_vec(),
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn every_file_has_one_status_and_the_payload_fits(
        kinds in prop::collection::vec(kind(), 1..14),
        budget in 1_500u64..12_000,
        format in prop::sample::select(vec!["markdown", "xml", "json"]),
        query in prop::option::of(Just("step")),
    ) {
        let first = b"# First\n\nThe first file.\n".to_vec();
        let mut files = vec![("README.md".to_owned(), first.clone())];
        files.extend(kinds.iter().enumerate().map(|(i, k)| contents(k, i, &first)));
        let dir = owned_tree(&files);
        let budget_arg = budget.to_string();
        let mut args = vec!["pack", "--budget", &budget_arg, "--format", format, "--report", "-"];
        if let Some(query) = query {
            args.extend(["--query", query]);
        }
        let run = budget_in(dir.path(), &args);
        if run.code == 2 {
            // Only a budget below the payload's structure may be refused.
            prop_assert!(run.stderr.contains("below the minimum"), "{}", run.stderr);
            return Ok(());
        }
        prop_assert_eq!(run.code, 0, "{}", run.stderr);
        let report = run.json();
        let payload = report["payload"].as_str().unwrap();
        prop_assert!(o200k(payload) <= budget, "{} > {}", o200k(payload), budget);

        // Every input file exactly once in the report, with one status.
        let records = report["files"].as_array().unwrap();
        let mut paths: Vec<&str> = records.iter().map(|f| f["path"].as_str().unwrap()).collect();
        paths.sort_unstable();
        let mut expected: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        expected.sort_unstable();
        prop_assert_eq!(&paths, &expected);
        for record in records {
            let status = record["status"].as_str().unwrap();
            let tier = record["tier"].as_str();
            match status {
                "packed" => prop_assert!(matches!(tier, Some("RAW" | "SKELETON" | "LINKED" | "SUMMARY"))),
                _ => prop_assert!(tier.is_none(), "{record}"),
            }
        }
        // Under a query that some file matches (`step` is in every Rust
        // module and in no other file), a file that matches nothing is
        // never carried whole.
        if query.is_some() && kinds.iter().any(|k| matches!(k, Kind::Rust(_))) {
            for record in records.iter().filter(|r| !r["path"].as_str().unwrap().ends_with(".rs")) {
                prop_assert_ne!(record["tier"].as_str(), Some("RAW"), "{}", record);
            }
        }
        // The counts add up to the inputs.
        let counts = &report["counts"];
        let total: u64 = counts.as_object().unwrap().values().filter_map(serde_json::Value::as_u64).sum();
        prop_assert_eq!(total, files.len() as u64, "{}", counts);

        // In Markdown, a packed file has one entry in one tier section and
        // one line in the tree; other files appear nowhere.
        if format == "markdown" {
            let tree_end = payload.find("\n## ").unwrap_or(payload.len());
            let (tree_text, body) = payload.split_at(tree_end);
            for record in records {
                let path = record["path"].as_str().unwrap();
                let name = path.rsplit('/').next().unwrap();
                let entries = body.matches(&format!("### `{path}`")).count()
                    + body.matches(&format!("- `{path}`")).count();
                let tree_lines = tree_text
                    .lines()
                    .filter(|l| l.trim_start().starts_with(&format!("{name} [")))
                    .count();
                if record["status"] == "packed" {
                    prop_assert_eq!(entries, 1, "{} in {}", path, payload);
                    let expected_line = format!("{name} [{}]", record["tier"].as_str().unwrap());
                    prop_assert!(tree_text.contains(&expected_line) || tree_text.contains(" files: ") || tree_text.contains(" file: "), "{}", expected_line);
                } else {
                    prop_assert_eq!(entries, 0, "{} not packed but in the payload", path);
                    prop_assert_eq!(tree_lines, 0, "{} not packed but in the tree", path);
                }
            }
        }
    }
}
