//! `pack --diff` and `--log`: git sections first, within the budget. The
//! repositories are made with the `git` command, independently of the
//! library (libgit2) the binary reads them with.

use crate::common::{budget_in, git, tree};

fn repository() -> tempfile::TempDir {
    let dir = tree(&[
        ("alpha.py", b"def alpha(text):\n    return text.strip()\n"),
        ("beta.py", b"def beta():\n    return 2\n"),
    ]);
    git(dir.path(), &["init", "-q", "-b", "main"]);
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "Add alpha and beta"]);
    std::fs::write(
        dir.path().join("alpha.py"),
        "def alpha(text):\n    if not text:\n        return ''\n    return text.strip()\n",
    )
    .unwrap();
    git(
        dir.path(),
        &["commit", "-q", "-am", "fix(alpha): handle empty input"],
    );
    std::fs::write(dir.path().join("beta.py"), "def beta():\n    return 3\n").unwrap();
    dir
}

#[test]
fn diff_and_log_come_first_and_fit() {
    let dir = repository();
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "--diff",
            "--log",
            "2",
            "--counter",
            "ratios",
            "--budget",
            "3000",
            "--report",
            "-",
            "-o",
            "payload.md",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let git = report["git"].as_array().unwrap();
    assert_eq!(git.len(), 2);
    assert_eq!(
        (git[0]["source"].as_str(), git[0]["tier"].as_str()),
        (Some("git diff HEAD"), Some("RAW"))
    );
    assert_eq!(
        (git[1]["source"].as_str(), git[1]["tier"].as_str()),
        (Some("git log -2"), Some("RAW"))
    );
    assert!(report["payload_tokens"].as_u64().unwrap() <= 3000);
    // The summary counts files; the git sections have their own lines.
    assert!(
        run.stderr
            .contains("packed 2 of 2 files: RAW 2, SKELETON 0, LINKED 0"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("git: git diff HEAD RAW\ngit: git log -2 RAW\n"),
        "{}",
        run.stderr
    );
    let payload = std::fs::read_to_string(dir.path().join("payload.md")).unwrap();
    let raw = &payload[payload.find("## RAW").unwrap()..];
    let diff = raw.find("### `git diff HEAD`").unwrap();
    let log = raw.find("### `git log -2`").unwrap();
    let first_file = raw.find("### `alpha.py`").unwrap();
    assert!(diff < log && log < first_file, "{raw}");
    assert!(raw.contains("-    return 2\n+    return 3\n"), "{raw}");
    assert!(
        raw.contains("1 file changed, 1 insertion(+), 1 deletion(-)"),
        "{raw}"
    );
    let log_text = &raw[log..first_file];
    let newest = log_text.find("    fix(alpha): handle empty input").unwrap();
    let oldest = log_text.find("    Add alpha and beta").unwrap();
    assert!(newest < oldest && log_text.contains(" Ada\n"), "{log_text}");
}

#[test]
fn a_repository_without_commits_says_so() {
    let dir = tree(&[("a.py", b"x = 1\n")]);
    git(dir.path(), &["init", "-q", "-b", "main"]);
    for flag in ["--log=3", "--diff"] {
        let run = budget_in(dir.path(), &["pack", flag, "--counter", "ratios"]);
        assert_eq!(run.code, 2, "{flag}");
        assert!(
            run.stderr.contains("has no commits yet"),
            "{flag}: {}",
            run.stderr
        );
    }
}

#[test]
fn bad_revision_and_no_repository_are_input_errors() {
    let dir = repository();
    let run = budget_in(dir.path(), &["pack", "--diff", "no-such-rev"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("error: --diff/--log: no revision no-such-rev in "),
        "{}",
        run.stderr
    );

    let run = budget_in(dir.path(), &["pack", "--log", "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);

    let plain = tree(&[("a.txt", b"hello\n")]);
    let run = budget_in(plain.path(), &["pack", "--log", "1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("is not inside a git repository"),
        "{}",
        run.stderr
    );
}

/// Without a query, the file changed in more (and more recent) commits
/// ranks above its unchanged twin.
#[test]
fn history_ranks_often_changed_files_higher() {
    let dir = repository();
    let report = budget_in(
        dir.path(),
        &["pack", "--counter", "ratios", "--report", "-"],
    )
    .json();
    let score = |path: &str| {
        report["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == path)
            .unwrap()["score"]
            .as_f64()
            .unwrap()
    };
    // alpha.py: two commits; beta.py: one (its working-tree change is not history).
    assert!(score("alpha.py") > score("beta.py"), "{report}");
}
