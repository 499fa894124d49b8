//! Invariants of every pack, over random trees: every input file has
//! exactly one record, no file is carried in two tiers, the payload never
//! exceeds its budget (counted by tiktoken-rs, not by the code under test)
//! nor shows a secret, and packing again gives the same bytes.

use std::collections::BTreeMap;

use budget_pack::{Budget, Counting, PackOptions, pack};
use budget_runtime::estimate::{Encoding, ExactCounter};
use proptest::prelude::*;

/// A Rust file of `functions` functions of `body` lines, some named after
/// the query's words.
fn rust_file(seed: usize, functions: usize, body: usize) -> String {
    let mut text = format!("//! Module {seed}.\n\npub struct State{seed} {{ pub tick: u64 }}\n\n");
    for f in 0..functions {
        let name = if (seed + f).is_multiple_of(5) {
            format!("tide_height_{f}")
        } else {
            format!("step_{seed}_{f}")
        };
        text.push_str(&format!(
            "/// Does {name}.\npub fn {name}(state: &mut State{seed}) -> u64 {{\n"
        ));
        for line in 0..body {
            text.push_str(&format!(
                "    state.tick = state.tick.wrapping_mul({line}).rotate_left({f});\n"
            ));
        }
        text.push_str("    state.tick\n}\n\n");
    }
    text
}

/// An AWS access key id in its published shape (split so that this file
/// holds none).
fn aws_key() -> String {
    "AKIA".to_owned() + "Z7VQ3KXMN4PLRWTB"
}

fn files() -> impl Strategy<Value = Vec<(String, String)>> {
    proptest::collection::vec((0usize..5, 0usize..30, 0usize..12, 0usize..3), 1..12).prop_map(
        |specs| {
            specs
                .into_iter()
                .enumerate()
                .map(|(i, (kind, functions, body, copy_of))| match kind {
                    0 => (format!("src/m{i}.rs"), rust_file(i, functions, body)),
                    1 => (
                        format!("docs/n{i}.md"),
                        format!("# Note {i}\n\nTide tables and heights, {functions} of them.\n"),
                    ),
                    // A copy of an earlier file (or of itself when first).
                    2 => (
                        format!("copy/c{i}.rs"),
                        rust_file(i.min(copy_of), functions, body),
                    ),
                    3 => (
                        format!("src/big{i}.rs"),
                        rust_file(i, functions * 4, body + 8),
                    ),
                    // Code that matches the query and holds a credential.
                    _ => (
                        format!("src/keys{i}.rs"),
                        format!(
                            "{}// aws_access_key_id = {}\n",
                            rust_file(i, functions, body),
                            aws_key()
                        ),
                    ),
                })
                .collect()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn every_file_has_one_record_and_one_tier_within_the_budget(
        files in files(),
        budget in 1_500u64..12_000,
        query in proptest::option::of(Just("tide height".to_owned())),
    ) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in &files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
        let mut options = PackOptions::new([dir.path()]);
        options.budget = Budget::Tokens(budget);
        options.query = query;
        let packed = match pack(&options, &Counting::exact("o200k", &o200k), &()) {
            Ok(packed) => packed,
            // A budget below the payload's structure is a typed error.
            Err(budget_pack::PackError::BudgetBelowMinimum { minimum, .. }) => {
                prop_assert!(minimum > budget);
                return Ok(());
            }
            Err(other) => return Err(TestCaseError::fail(other.to_string())),
        };
        // The same input and options give the same bytes, whatever the
        // threads' timing and the hashers' seeds.
        let again = pack(&options, &Counting::exact("o200k", &o200k), &()).unwrap();
        prop_assert_eq!(again.text(), packed.text());
        prop_assert_eq!(again.report(), packed.report());

        let reference = tiktoken_rs::o200k_base().unwrap();
        let tokens = reference.encode_ordinary(packed.text()).len() as u64;
        prop_assert!(tokens <= budget, "{tokens} > {budget}");
        prop_assert_eq!(tokens, packed.tokens());

        // A file that holds a secret is never shown, in any tier.
        prop_assert!(!packed.text().contains(&aws_key()));
        let records = packed.report()["files"].as_array().unwrap();
        for record in records {
            if record["path"].as_str().unwrap().starts_with("src/keys") {
                prop_assert!(
                    ["secret", "omitted"].contains(&record["status"].as_str().unwrap()),
                    "{}", record
                );
            }
        }
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for record in records {
            *seen.entry(record["path"].as_str().unwrap()).or_default() += 1;
        }
        let distinct: std::collections::BTreeSet<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
        prop_assert_eq!(seen.len(), distinct.len());
        prop_assert!(seen.values().all(|&n| n == 1));
        for record in records {
            let path = record["path"].as_str().unwrap();
            // A file's whole text or outline appears under one heading at
            // most: RAW and SKELETON headings are `### \`path\``.
            let headings = packed.text().matches(&format!("### `{path}`")).count();
            match record["tier"].as_str() {
                Some("RAW" | "SKELETON") => prop_assert_eq!(headings, 1, "{}", path),
                _ => prop_assert_eq!(headings, 0, "{}", path),
            }
        }
    }
}
