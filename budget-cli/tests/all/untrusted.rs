//! What a packed repository, a mistaken path or a script can and cannot
//! make `budget` do: a project's `budget.toml` cannot name files, files
//! that are not regular are refused without blocking and never quoted,
//! secrets are kept out of every section, and `--files-from` lists pass the
//! same rules as a walk.

use std::process::{Command, Stdio};

use crate::common::{budget_in, budget_with_env, project, tree};

#[test]
fn a_projects_config_cannot_name_files() {
    let outer = tempfile::tempdir().unwrap();
    let repo = outer.path().join("r");
    std::fs::create_dir(&repo).unwrap();
    std::fs::write(repo.join("a.md"), "# A\n").unwrap();
    std::fs::write(outer.path().join("victim.txt"), "keep me\n").unwrap();
    for (key, value) in [
        ("output", "\"../victim.txt\""),
        ("report", "\"../victim.txt\""),
        ("tokenizer", "\"/etc/passwd\""),
        ("models", "\"/etc/passwd\""),
        ("files-from", "\"/etc/passwd\""),
    ] {
        std::fs::write(
            repo.join("budget.toml"),
            format!("[pack]\n{key} = {value}\n"),
        )
        .unwrap();
        let run = budget_in(outer.path(), &["pack", "r"]);
        assert_eq!(run.code, 2, "{key}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "r/budget.toml:2: a project's budget.toml may not set `{key}`"
            )),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("root:"), "{}", run.stderr);
    }
    assert_eq!(
        std::fs::read_to_string(outer.path().join("victim.txt")).unwrap(),
        "keep me\n"
    );
    // The keys a project may set still work, and --no-config ignores it all.
    std::fs::write(
        repo.join("budget.toml"),
        "[pack]\nbudget = 3000\nexclude = [\"b.md\"]\n",
    )
    .unwrap();
    let report = budget_in(outer.path(), &["pack", "r", "--report", "-"]).json();
    assert_eq!(report["budget"], 3000);
    std::fs::write(
        repo.join("budget.toml"),
        "[pack]\noutput = \"../victim.txt\"\n",
    )
    .unwrap();
    let run = budget_in(
        outer.path(),
        &["pack", "r", "--no-config", "--counter", "ratios"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn the_users_config_may_set_everything_and_the_project_comes_after() {
    let dir = project();
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join("budget")).unwrap();
    std::fs::write(
        home.path().join("budget/budget.toml"),
        "[pack]\noutput = \"payload.md\"\nbudget = 2000\ncounter = \"ratios\"\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("budget.toml"), "[pack]\nbudget = 3000\n").unwrap();
    let no_hf = dir.path().join(".no-hf-cache");
    let env = [
        ("XDG_CONFIG_HOME", home.path().as_os_str()),
        ("HF_HUB_CACHE", no_hf.as_os_str()),
    ];
    let run = budget_with_env(dir.path(), &["pack"], &env);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The user's output is used; the project's budget wins over the user's.
    assert!(dir.path().join("payload.md").is_file());
    assert!(
        run.stderr.contains("of a 3000-token budget"),
        "{}",
        run.stderr
    );
    // Under --sandbox the user's config is not read.
    std::fs::remove_file(dir.path().join("payload.md")).unwrap();
    let run = budget_with_env(
        dir.path(),
        &["pack", "--sandbox", ".", "--counter", "ratios"],
        &env,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!dir.path().join("payload.md").exists());
}

#[cfg(unix)]
#[test]
fn files_that_are_not_regular_are_refused_without_blocking() {
    let dir = project();
    crate::common::mkfifo(&dir.path().join("fifo"));
    let mut cases = vec![
        &["count", "--model", "gpt-4o", "--models", "fifo"][..],
        &["pack", "--config", "fifo"],
        &["pack", "--files-from", "fifo"],
        &["check", "--model-config", "fifo", "--prompts", "."],
        &["pack", "fifo"],
    ];
    // Without the exact counters no tokenizer file is opened at all.
    if cfg!(feature = "exact") {
        cases.push(&["count", "--tokenizer", "fifo"]);
    }
    for args in cases {
        let run = budget_in(dir.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains("FIFO"), "{args:?}: {}", run.stderr);
    }
    // A file that is not a tokenizer is named, never quoted.
    std::fs::write(
        dir.path().join("passwd"),
        "root:x:0:0:root:/root:/bin/bash\n",
    )
    .unwrap();
    for args in [
        &["count", "--tokenizer", "passwd"][..],
        &["count", "--model", "gpt-4o", "--models", "passwd"],
        &["pack", "--config", "passwd"],
    ] {
        let run = budget_in(dir.path(), args);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(!run.stderr.contains("root:x"), "{args:?}: {}", run.stderr);
    }
}

#[cfg(feature = "git")]
#[test]
fn secrets_are_kept_out_of_diffs_logs_and_names() {
    let token = format!("ghp_{}", "a1B2".repeat(9));
    let dir = tree(&[("app.py", b"print('hello')\n"), ("notes.md", b"# Notes\n")]);
    crate::common::git(dir.path(), &["init", "-q", "-b", "main"]);
    crate::common::git(dir.path(), &["add", "."]);
    crate::common::git(
        dir.path(),
        &["commit", "-q", "-m", &format!("rotate {token}")],
    );
    std::fs::write(dir.path().join("app.py"), format!("TOKEN = '{token}'\n")).unwrap();
    std::fs::write(
        dir.path().join(format!("{token}.txt")),
        "named after a token\n",
    )
    .unwrap();
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "--diff",
            "--log",
            "3",
            "--counter",
            "ratios",
            "--report",
            "-",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let payload = report["payload"].as_str().unwrap();
    assert!(!payload.contains(&token), "{payload}");
    assert!(
        run.stderr.contains("`git diff HEAD` left out"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("`git log -3` left out"),
        "{}",
        run.stderr
    );
    let named = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with(".txt"))
        .unwrap();
    assert_eq!(named["status"], "secret");
    assert_eq!(named["reason"], "its path holds a GitHub token");
    // With --redact the sections come, with the secret replaced.
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "--diff",
            "--log",
            "3",
            "--redact",
            "--counter",
            "ratios",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stdout.contains(&token), "{}", run.stdout);
    assert!(run.stdout.contains("rotate [REDACTED]"), "{}", run.stdout);
    assert!(
        run.stdout.contains("+TOKEN = '[REDACTED]'"),
        "{}",
        run.stdout
    );
}

#[test]
fn files_from_lists_pass_the_ignore_rules_and_the_globs() {
    let dir = tree(&[
        (".gitignore", b"build/\n"),
        ("src/a.rs", b"fn a() {}\n"),
        ("src/b.rs", b"fn b() {}\n"),
        ("src/c.rs", b"fn c() {}\n"),
        ("build/out.rs", b"fn out() {}\n"),
        ("docs/x.md", b"# X\n"),
    ]);
    std::fs::write(
        dir.path().join("list.txt"),
        "./src/a.rs\nsrc/b.rs\r\nbuild/out.rs\ndocs\n\n",
    )
    .unwrap();
    let run = budget_in(
        dir.path(),
        &[
            "count",
            "--files-from",
            "list.txt",
            "--exclude",
            "src/b.rs",
            "--format",
            "json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let status = |path: &str| {
        report["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == path)
            .map(|f| f["status"].as_str().unwrap().to_owned())
    };
    assert_eq!(status("src/a.rs").as_deref(), Some("counted"), "{report}");
    assert_eq!(status("src/b.rs").as_deref(), Some("excluded_by_glob"));
    assert_eq!(status("build/out.rs").as_deref(), Some("excluded_by_glob"));
    assert_eq!(status("docs/x.md").as_deref(), Some("counted"));
    assert_eq!(status("src/c.rs"), None, "not listed");
    // NUL-separated, from stdin.
    let mut child = Command::new(env!("CARGO_BIN_EXE_budget"))
        .args(["count", "--files-from", "-", "-0", "--format", "json"])
        .current_dir(dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join(".none"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"src/a.rs\0src/c.rs\0").unwrap();
    let output = child.wait_with_output().unwrap();
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["files"].as_array().unwrap().len(), 2, "{report}");
    // Missing and outside paths are errors with the line.
    std::fs::write(dir.path().join("bad.txt"), "src/a.rs\n../x\n").unwrap();
    let run = budget_in(dir.path(), &["count", "--files-from", "bad.txt"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("line 2: paths must be inside"),
        "{}",
        run.stderr
    );
    std::fs::write(dir.path().join("gone.txt"), "src/zzz.rs\n").unwrap();
    let run = budget_in(dir.path(), &["count", "--files-from", "gone.txt"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("src/zzz.rs does not exist"),
        "{}",
        run.stderr
    );
}
