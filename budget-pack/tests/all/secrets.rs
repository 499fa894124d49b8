//! Secrets are looked for where the payload would show them: a file the
//! payload would carry that holds one is left out and the payload made
//! again, so that the room goes to the next file.

use budget_pack::{Budget, Counting, PackOptions, pack};
use budget_runtime::estimate::{Encoding, ExactCounter};

/// A GitHub token in its published shape (split so that this file holds
/// none).
fn token() -> String {
    "ghp_".to_owned() + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
}

#[test]
fn a_shown_file_with_a_secret_gives_its_room_to_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let tide = |name: &str| format!("/// Tide {name}.\npub fn tide_{name}() -> u64 {{ 6 }}\n");
    // The best match for the query holds the token.
    let keys = format!(
        "{}{}const GITHUB_TOKEN: &str = \"{}\";\n",
        tide("height"),
        tide("height_again"),
        token()
    );
    std::fs::write(dir.path().join("tide_keys.rs"), keys).unwrap();
    std::fs::write(dir.path().join("tide.rs"), tide("table")).unwrap();
    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    let mut options = PackOptions::new([dir.path()]);
    options.budget = Budget::Tokens(4_000);
    options.query = Some("tide height".into());
    let packed = pack(&options, &Counting::exact("o200k", &o200k), &()).unwrap();

    assert!(!packed.text().contains(&token()), "{}", packed.text());
    assert!(packed.text().contains("pub fn tide_table()"));
    let report = packed.report();
    let record = |path: &str| crate::record(report, path);
    assert_eq!(record("tide_keys.rs")["status"], "secret");
    assert_eq!(record("tide_keys.rs")["reason"], "line 5: a GitHub token");
    assert_eq!(record("tide.rs")["tier"], "RAW");
    assert_eq!(report["counts"]["secret"], 1);
}
