//! `budget.toml` and `--config`: flag defaults, command-line flags win,
//! mistakes named with file, line and a suggestion.

use crate::common::{budget_in, project};

#[test]
fn budget_toml_in_the_packed_directory_sets_defaults_and_flags_win() {
    let dir = project();
    std::fs::write(
        dir.path().join("budget.toml"),
        "[pack]\nbudget = 2000\ncounter = \"ratios\"\nexclude = [\"tests/**\", \"docs/**\"]\n\n[count]\nformat = \"json\"\n",
    )
    .unwrap();
    let report = budget_in(dir.path(), &["pack", "--report", "-"]).json();
    assert_eq!(report["budget"], 2000);
    assert_eq!(report["counter"], "ratios");
    let excluded: Vec<(&str, &str)> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] == "excluded_by_glob")
        .map(|f| (f["path"].as_str().unwrap(), f["reason"].as_str().unwrap()))
        .collect();
    // budget.toml itself is settings, not material: left out and said so.
    assert_eq!(
        excluded,
        [
            ("budget.toml", "budget.toml: budget's config file"),
            ("docs/design.md", "left out by the include/exclude globs"),
            ("tests/predict.rs", "left out by the include/exclude globs")
        ]
    );
    assert!(
        !report["payload"]
            .as_str()
            .unwrap()
            .contains("budget = 2000")
    );
    let report = budget_in(dir.path(), &["pack", "--report", "-", "--budget", "3000"]).json();
    assert_eq!(report["budget"], 3000);
    // [count] applies to count.
    let count = budget_in(dir.path(), &["count"]);
    assert_eq!(count.code, 0, "{}", count.stderr);
    assert!(serde_json::from_str::<serde_json::Value>(&count.stdout).is_ok());
    // --no-config ignores the file.
    let report = budget_in(dir.path(), &["pack", "--no-config", "--report", "-"]).json();
    assert_eq!(report["budget"], 25000);
}

#[test]
fn an_explicit_config_file_is_used_from_anywhere() {
    let dir = project();
    let elsewhere = tempfile::tempdir().unwrap();
    let config = elsewhere.path().join("team.toml");
    std::fs::write(&config, "[pack]\nbudget = 1500\nno_tree = true\n").unwrap();
    let config = config.to_str().unwrap();
    let run = budget_in(
        dir.path(),
        &["pack", "--config", config, "--counter", "ratios"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("of a 1500-token budget"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("## TREE"));
    let missing = budget_in(dir.path(), &["pack", "--config", "nope.toml"]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.starts_with("error: config nope.toml: "),
        "{}",
        missing.stderr
    );
}

#[test]
fn mistakes_name_the_file_line_and_closest_flag() {
    let cases = [
        (
            "[pack]\ncounter = \"ratios\"\nbudgte = 100\n",
            "budget.toml:3: unknown key `budgte` in [pack] (did you mean `budget`?)",
        ),
        (
            "[pakc]\nbudget = 100\n",
            "budget.toml:1: unknown table [pakc] (did you mean `pack`?)",
        ),
        (
            "[pack]\nquery = { a = 1 }\n",
            "budget.toml:2: `query` in [pack] must be a string, number, boolean or array of those",
        ),
        (
            "[pack]\nbudget = 100\n[pack\n",
            "budget.toml:3: invalid TOML: ",
        ),
        (
            "[count]\nmeta = true\n",
            "budget.toml:2: unknown key `meta` in [count]",
        ),
    ];
    for (text, expected) in cases {
        let dir = project();
        std::fs::write(dir.path().join("budget.toml"), text).unwrap();
        let run = budget_in(dir.path(), &["pack"]);
        assert_eq!(run.code, 2, "{text}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
        assert!(run.stderr.contains(expected), "{text}: {}", run.stderr);
    }
}
