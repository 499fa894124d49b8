//! Exit codes: 0 success, 1 budget violation, 2 usage or input error, each
//! with one line on stderr.

use crate::common;

use common::{budget_in, project};

#[test]
fn success_is_zero() {
    let dir = project();
    let run = budget_in(dir.path(), &["pack", "."]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("## TREE\n"));
}

#[test]
fn output_dash_is_stdout() {
    let dir = project();
    let run = budget_in(dir.path(), &["pack", ".", "-o", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("## TREE\n"));
    assert!(!dir.path().join("-").exists());
}

#[test]
fn fail_over_is_one_and_writes_nothing() {
    let dir = project();
    let seed = ["pack", "--counter", "ratios"];
    let report = budget_in(dir.path(), &[&seed[..], &["--report", "-"]].concat()).json();
    let tokens = report["payload_tokens"].as_u64().unwrap();
    let below = (tokens - 1).to_string();
    let run = budget_in(dir.path(), &[&seed[..], &["--fail-over", &below]].concat());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("payload is {tokens} tokens")) && run.stderr.contains("by 1"),
        "{}",
        run.stderr
    );
    // At the limit is not over it.
    let at = tokens.to_string();
    assert_eq!(
        budget_in(dir.path(), &[&seed[..], &["--fail-over", &at]].concat()).code,
        0
    );
}

#[test]
fn missing_path_is_two_and_named() {
    let dir = project();
    let run = budget_in(dir.path(), &["pack", "src", "no/such/dir"]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.trim(), "error: no/such/dir does not exist");
    assert!(run.stdout.is_empty());
    assert_eq!(budget_in(dir.path(), &["count", "nothing-here"]).code, 2);
}

#[test]
fn usage_errors_are_two_on_one_line() {
    let dir = project();
    for args in [
        &["pack", "--bogus"][..],
        &["pack", "--budget", "lots"],
        &["pack", "--counter", "gpt2"],
        &["pack", "--format", "yaml"],
        &["count", "--depth", "2"], // needs --tree
        &["frobnicate"],
    ] {
        let run = budget_in(dir.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("error: "),
            "{args:?}: {}",
            run.stderr
        );
    }
}

#[test]
fn bad_glob_is_two() {
    let dir = project();
    let run = budget_in(dir.path(), &["pack", "--include", "src/[a-"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("error: invalid glob \"src/[a-\""),
        "{}",
        run.stderr
    );
}

#[test]
fn budget_below_the_structure_is_one_error_with_one_minimum() {
    let dir = project();
    let minimum_at = |budget: &str| {
        let run = budget_in(
            dir.path(),
            &["pack", "--counter", "ratios", "--budget", budget],
        );
        assert_eq!(run.code, 2, "--budget {budget}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1);
        let prefix =
            format!("error: --budget: a budget of {budget} tokens is below the minimum of ");
        let rest = run
            .stderr
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{}", run.stderr));
        rest.split(' ').next().unwrap().parse::<u64>().unwrap()
    };
    let first = minimum_at("0");
    assert!(first > 100, "{first}");
    let mut minimums = vec![first];
    for budget in [1, 50, first / 2, first - 20, first - 1] {
        minimums.push(minimum_at(&budget.to_string()));
    }
    assert!(minimums.windows(2).all(|w| w[0] == w[1]), "{minimums:?}");
    // The minimum itself packs, and the payload fits it (as counted).
    let minimum = minimums[0].to_string();
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "--counter",
            "ratios",
            "--budget",
            &minimum,
            "--report",
            "-",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.json()["payload_tokens"].as_u64().unwrap() <= minimums[0]);
    // One below it does not.
    let below = (minimums[0] - 1).to_string();
    assert_eq!(
        budget_in(
            dir.path(),
            &["pack", "--counter", "ratios", "--budget", &below]
        )
        .code,
        2
    );
    // With the exact counter too (the default with feature `exact`): the
    // minimum fits when counted independently.
    if cfg!(feature = "exact") {
        exact_minimum_fits(&dir);
    }
}

fn exact_minimum_fits(dir: &tempfile::TempDir) {
    let run = budget_in(dir.path(), &["pack", "--budget", "10"]);
    assert_eq!(run.code, 2);
    let exact_minimum: u64 = run
        .stderr
        .split("minimum of ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let run = budget_in(
        dir.path(),
        &["pack", "--budget", &exact_minimum.to_string()],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    #[cfg(feature = "exact")]
    assert!(common::o200k(&run.stdout) <= exact_minimum);
}

#[test]
fn help_documents_the_exit_codes() {
    let dir = project();
    for args in [&["--help"][..], &["pack", "--help"], &["count", "--help"]] {
        let run = budget_in(dir.path(), args);
        assert_eq!(run.code, 0);
        assert!(run.stdout.contains("Exit codes:"), "{args:?}");
        assert!(run.stdout.contains("  1  budget or contract violation"));
        assert!(run.stdout.contains("  2  usage or input error"));
    }
}

/// A closed stdout (`>&-`) loses the payload, so it is an error (exit 2),
/// as a full disk is; with `-o FILE` stdout is not needed.
#[cfg(target_os = "linux")]
#[test]
fn closed_stdout_is_two() {
    let dir = project();
    let closed = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("exec \"$0\" {args} >&-"))
            .arg(env!("CARGO_BIN_EXE_budget"))
            .current_dir(dir.path())
            .output()
            .expect("sh runs")
    };
    for command in ["pack .", "count ."] {
        let output = closed(command);
        assert_eq!(output.status.code(), Some(2), "{command}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("stdout: it is closed"),
            "{command}: {stderr}"
        );
    }
    assert_eq!(closed("pack . -o out.md").status.code(), Some(0));
    assert!(dir.path().join("out.md").is_file());
    // An open stdout (here a pipe) is fine.
    assert_eq!(budget_in(dir.path(), &["pack", "."]).code, 0);
}

/// A missing required argument is named in the one-line error.
#[test]
fn missing_arguments_are_named() {
    let dir = project();
    let run = budget_in(dir.path(), &["check", "--prompts", "prompts"]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "error: the following required arguments were not provided: --model-config <FILE> (see budget --help)\n"
    );
}
