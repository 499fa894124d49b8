//! `budget check`: contract reports per pipeline, exit 1 on a violation.

use crate::common;

use std::path::Path;

use common::{budget_in, tree};
use tempfile::TempDir;

/// One pipeline with one `call_model` step whose prompt is `Answer.`:
/// context 500, output 100, safety margin 128 (the default), and a model
/// with a `window`-token context.
fn pipeline(window: u64) -> TempDir {
    let model = format!("{{\"model_context_window\": {window}}}");
    tree(&[
        (
            "pipelines/p.yaml",
            b"YAMLpipeline:\n  name: p\n  settings:\n    max_context_tokens: 500\n  steps:\n    - id: a\n      action: call_model\n      prompt_key: a\n      max_output_tokens: 100\n",
        ),
        ("prompts/a.txt", b"Answer."),
        ("model.json", model.as_bytes()),
    ])
}

fn check(dir: &Path, extra: &[&str]) -> common::Run {
    let args = [
        &[
            "check",
            "pipelines",
            "--model-config",
            "model.json",
            "--prompts",
            "prompts",
        ][..],
        extra,
    ]
    .concat();
    budget_in(dir, &args)
}

#[test]
fn json_report_has_every_term() {
    let dir = pipeline(1_000);
    let run = check(
        dir.path(),
        &["--counter", "ratios:prose", "--format", "json"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let reports = run.json();
    let report = &reports[0];
    assert_eq!(report["name"], "p");
    assert_eq!(report["ok"], true);
    assert!(report.get("error").is_none());
    assert_eq!(report["max_context_tokens_after"], 500);
    assert_eq!(report["clamps"].as_array().unwrap().len(), 0);
    let step = &report["steps"][0];
    // "Answer.\n\n" is 9 characters: 3 tokens at 4 per token, plus the
    // default 64-token format overhead.
    assert_eq!(step["id"], "a");
    assert_eq!(step["fixed_prompt_tokens"], 67);
    assert_eq!(step["history_tokens"], 0);
    assert_eq!(step["context_tokens"], 500);
    assert_eq!(step["output_tokens"], 100);
    assert_eq!(step["safety_margin_tokens"], 128);
    assert_eq!(step["total"], 67 + 500 + 100 + 128);
    assert_eq!(step["window"], 1_000);
    assert_eq!(step["headroom"], 1_000 - 795);
}

#[test]
fn format_overhead_and_counter_reach_the_fixed_prompt() {
    let dir = pipeline(1_000);
    let fixed = |extra: &[&str]| {
        check(dir.path(), &[extra, &["--format", "json"]].concat()).json()[0]["steps"][0]["fixed_prompt_tokens"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(
        fixed(&["--counter", "ratios:prose", "--format-overhead", "0"]),
        3
    );
    assert_eq!(
        fixed(&["--counter", "ratios:prose", "--format-overhead", "10"]),
        13
    );
}

#[cfg(feature = "exact")]
#[test]
fn the_exact_counter_reaches_the_fixed_prompt() {
    let dir = pipeline(1_000);
    let json = check(
        dir.path(),
        &[
            "--counter",
            "o200k",
            "--format-overhead",
            "0",
            "--format",
            "json",
        ],
    )
    .json();
    assert_eq!(
        json[0]["steps"][0]["fixed_prompt_tokens"].as_u64(),
        Some(common::o200k("Answer.\n\n"))
    );
}

#[test]
fn a_violation_exits_one_and_auto_clamp_fixes_it() {
    // 795 tokens against a 700-token window: 95 over.
    let dir = pipeline(700);
    let run = check(
        dir.path(),
        &["--counter", "ratios:prose", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    let report = &run.json()[0];
    assert_eq!(report["ok"], false);
    assert!(
        report["error"].as_str().unwrap().contains("by 95"),
        "{report}"
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);

    let run = check(
        dir.path(),
        &[
            "--counter",
            "ratios:prose",
            "--format",
            "json",
            "--policy",
            "auto_clamp",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = &run.json()[0];
    assert_eq!(report["ok"], true);
    assert_eq!(report["max_context_tokens_after"], 405);
    let clamp = &report["clamps"][0];
    assert_eq!(clamp["kind"], "max_context_tokens");
    assert!(clamp["step"].is_null());
    assert_eq!(
        (clamp["before"].as_u64(), clamp["after"].as_u64()),
        (Some(500), Some(405))
    );

    let table = check(dir.path(), &["--counter", "ratios:prose"]);
    assert_eq!(table.code, 1);
    assert!(table.stdout.contains("p (FAILED"), "{}", table.stdout);
    assert!(table.stdout.contains("1 pipelines checked, 1 failed"));
}

#[test]
fn missing_model_config_is_two() {
    let dir = pipeline(1_000);
    let run = budget_in(
        dir.path(),
        &[
            "check",
            "pipelines",
            "--model-config",
            "nope.json",
            "--prompts",
            "prompts",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("error: ") && run.stderr.contains("nope.json"),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1);
}

#[test]
fn the_bundled_sample_checks() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/contract");
    let run = check(Path::new(sample), &["--format", "json"]);
    let reports = run.json();
    let verdicts: Vec<(&str, bool)> = reports
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["name"].as_str().unwrap(), r["ok"].as_bool().unwrap()))
        .collect();
    // support fits the 16k window; support_long_context asks for 12,000
    // tokens of context and fails under fail_fast.
    assert!(verdicts.contains(&("support", true)), "{verdicts:?}");
    assert!(
        verdicts.contains(&("support_long_context", false)),
        "{verdicts:?}"
    );
    assert_eq!(run.code, 1);
}

/// A pipeline file that cannot be read or understood is an input error
/// (exit 2), reported like the others with `failure: "input"`; a violation
/// stays exit 1 with `failure: "violation"`.
#[test]
fn unreadable_or_broken_pipelines_are_two() {
    let broken: [(&str, &[u8]); 4] = [
        ("invalid YAML", b"YAMLpipeline: [unclosed\n"),
        ("UTF-16", b"\xff\xfeY\x00A\x00M\x00L\x00"),
        ("not UTF-8", b"YAMLpipeline:\n  name: \xc3\x28\n"),
        (
            "extends a folder",
            b"YAMLpipeline:\n  name: q\n  extends: ../prompts\n",
        ),
    ];
    for (what, bytes) in broken {
        let dir = pipeline(100_000);
        std::fs::write(dir.path().join("pipelines/q.yaml"), bytes).unwrap();
        let run = check(
            dir.path(),
            &["--counter", "ratios:prose", "--format", "json"],
        );
        assert_eq!(run.code, 2, "{what}: {}", run.stderr);
        let reports = run.json();
        let broken = reports
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["ok"] == false)
            .unwrap_or_else(|| panic!("{what}: {reports}"));
        assert_eq!(broken["failure"], "input", "{what}: {broken}");
        assert!(
            run.stderr.contains("could not be checked"),
            "{what}: {}",
            run.stderr
        );
    }
    let dir = pipeline(700);
    let run = check(
        dir.path(),
        &["--counter", "ratios:prose", "--format", "json"],
    );
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(run.json()[0]["failure"], "violation");
}

/// A typo in a file that extends a valid base is an error naming the
/// file, the line and the key it resembles, not a silent pass with the
/// base's values.
#[test]
fn typos_in_an_extending_pipeline_are_errors_with_file_and_line() {
    let base = b"YAMLpipeline:\n  name: base\n  settings:\n    max_context_tokens: 500\n  steps:\n    - id: a\n      action: call_model\n      prompt_key: a\n      max_output_tokens: 100\n";
    for (child, line, written, known) in [
        (
            "YAMLpipeline:\n  name: c\n  extends: ./base.yaml\n  setings:\n    max_context_tokens: 9000\n",
            "4:3",
            "setings",
            "settings",
        ),
        (
            "YAMLpipeline:\n  name: c\n  extends: ./base.yaml\n  step:\n    - id: a\n      max_output_tokens: 9000\n",
            "4:3",
            "step",
            "steps",
        ),
        (
            "YAMLpipeline:\n  name: c\n  extends: ./base.yaml\n  settings:\n    max_ctx_tokens: 9000\n",
            "5:5",
            "max_ctx_tokens",
            "max_context_tokens",
        ),
    ] {
        let dir = tree(&[
            ("pipelines/base/base.yaml", base.as_slice()),
            (
                "pipelines/child.yaml",
                child.replace("./base.yaml", "./base/base.yaml").as_bytes(),
            ),
            ("prompts/a.txt", b"Answer."),
            ("model.json", b"{\"model_context_window\": 1000}"),
        ]);
        let run = budget_in(
            dir.path(),
            &[
                "check",
                "pipelines/child.yaml",
                "--model-config",
                "model.json",
                "--prompts",
                "prompts",
            ],
        );
        assert_eq!(run.code, 2, "{written}: {}{}", run.stdout, run.stderr);
        let expected = format!(
            "pipelines/child.yaml:{line}: `{written}` is not a known key; did you mean `{known}`?"
        );
        assert!(run.stdout.contains(&expected), "{expected}\n{}", run.stdout);
    }
}

/// `--prompts DIR` wins over a pipeline's own `settings.prompts_dir`, and
/// says so for each one it overrides.
#[test]
fn prompts_flag_wins_over_prompts_dir_with_a_warning() {
    let dir = tree(&[
        (
            "pipelines/p.yaml",
            b"YAMLpipeline:\n  name: p\n  settings:\n    max_context_tokens: 500\n    prompts_dir: elsewhere\n  steps:\n    - id: a\n      action: call_model\n      prompt_key: a\n      max_output_tokens: 100\n",
        ),
        ("prompts/a.txt", b"Answer."),
        ("model.json", b"{\"model_context_window\": 1000}"),
    ]);
    let run = check(dir.path(), &["--counter", "ratios:prose"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "warning: pipelines/p.yaml:5:18: settings.prompts_dir `elsewhere` is ignored: prompts are read from prompts for every pipeline (--prompts wins)"
        ),
        "{}",
        run.stderr
    );
    let json = check(
        dir.path(),
        &["--counter", "ratios:prose", "--format", "json"],
    )
    .json();
    assert_eq!(json[0]["warnings"].as_array().map(Vec::len), Some(1));
}
