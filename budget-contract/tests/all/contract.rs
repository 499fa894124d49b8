//! Budget contract on pipelines written in the LocalAI-RAG format: extends
//! chains, multi-pipeline files, step merging, every typo case, unsafe files
//! (FIFO, oversize, non-UTF-8), both policies, reports, caching. The
//! expected figures are the token-budget rules' ratios, selected by name.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use budget_contract::ContractError;
use budget_contract::{
    CacheStatus, Checker, ClampedSetting, ContractCache, Evaluation, ModelConfig, PipelineConfig,
    PipelineLoader, PipelineReport, Policy, PromptStore, StepReport, check_paths, parse_policy_var,
};
use budget_runtime::estimate::{RatioEstimator, TokenCounter};
use budget_runtime::file::ReadError;
use budget_runtime::model::ContractTerms;
use proptest::prelude::*;

/// A temporary LocalAI-RAG-like project: `pipelines/`, `prompts/`, `config.json`.
struct Project {
    dir: tempfile::TempDir,
}

/// 40 characters; with "\n\n" and the rendered parts it is counted as one text.
const ROUTER: &str = "Route the question. Output one JSON line";

impl Project {
    fn new() -> Self {
        let project = Self {
            dir: tempfile::tempdir().unwrap(),
        };
        project.write("prompts/r/router.txt", ROUTER);
        project.write(
            "config.json",
            r#"{"model_path": "x.gguf", "model_context_window": 8192, "model_max_tokens": 1500}"#,
        );
        project
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.path(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn model(&self) -> ModelConfig {
        ModelConfig::load(self.path("config.json")).unwrap()
    }

    fn prompts(&self) -> PromptStore {
        PromptStore::new(self.path("prompts"))
    }

    fn load(&self, name: &str) -> Result<PipelineConfig, ContractError> {
        PipelineLoader::new(self.path("pipelines")).load(self.path(name), None)
    }

    /// Writes `yaml` as `pipelines/<name>` and checks it under `policy`.
    fn check(
        &self,
        name: &str,
        yaml: &str,
        policy: Option<Policy>,
    ) -> Result<budget_contract::ContractReport, ContractError> {
        self.write(&format!("pipelines/{name}"), yaml);
        let pipeline = self.load(&format!("pipelines/{name}"))?;
        let model = self.model();
        let prompts = self.prompts();
        Checker::new(&model, &prompts)
            .estimator(&RatioEstimator)
            .policy_override(policy)
            .check(&pipeline)
    }

    fn reports(&self, policy: Policy) -> Vec<PipelineReport> {
        let model = self.model();
        let prompts = self.prompts();
        let checker = Checker::new(&model, &prompts)
            .estimator(&RatioEstimator)
            .policy_override(Some(policy));
        check_paths(&[self.path("pipelines")], &checker).unwrap()
    }
}

/// A router step: fixed text "<ROUTER>\n\n### User:\n\n\n" = 40 + 2 + 12 = 54 chars,
/// ceil(54 / 4) = 14 tokens, + 64 overhead = 78.
const ROUTER_STEP: &str = "    - id: router
      action: call_model
      prompt_key: r/router
      max_output_tokens: 200
      user_parts:
        question:
          source: user_question_neutral
          template: \"### User:\\n{}\\n\\n\"
";

const ROUTER_FIXED: u64 = 78;

fn pipeline(name: &str, settings: &str, steps: &str) -> String {
    format!("YAMLpipeline:\n  name: {name}\n  settings:\n{settings}  steps:\n{steps}")
}

fn terms_of(report: &budget_contract::ContractReport, id: &str) -> ContractTerms {
    report.steps.iter().find(|s| s.id == id).unwrap().terms
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> u64 {
    let at = text.find(needle).expect("needle in text");
    u64::try_from(text[..at].matches('\n').count()).unwrap() + 1
}

const ANSWER_STEP: &str = "    - id: answer
      action: call_model
      prompt_key: r/router
      use_history: true
      user_parts:
        context:
          source: context_blocks
          template: \"### Context:\\n{}\\n\\n\"
        question:
          source: user_question_neutral
          template: \"### User:\\n{}\\n\\n\"
";

/// "<ROUTER>\n\n### Context:\n\n\n### User:\n\n\n": 40 + 2 + 15 + 12 = 69 chars, 18 tokens, + 64.
const ANSWER_FIXED: u64 = 82;

const SETTINGS: &str =
    "    max_context_tokens: 5000\n    max_history_tokens: 800\n    entry_step_id: router\n";

#[test]
fn history_counts_in_every_call_model_step_and_other_actions_are_ignored() {
    let project = Project::new();
    let steps = format!(
        "{ROUTER_STEP}    - id: search\n      action: search_nodes\n      top_k: 12\n{ANSWER_STEP}"
    );
    let report = project
        .check("p.yaml", &pipeline("p", SETTINGS, &steps), None)
        .unwrap();
    let ids: Vec<_> = report.steps.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["router", "answer"]);
    // router has no use_history, yet its 800 history tokens count (the token-budget rules).
    assert_eq!(
        terms_of(&report, "router"),
        ContractTerms {
            fixed_prompt_tokens: ROUTER_FIXED,
            max_history_tokens: 800,
            max_context_tokens: 5000,
            max_output_tokens: 200,
            safety_margin_tokens: 128,
            context_window: 8192,
        }
    );
    // answer: no output limit of its own, so model_max_tokens 1500.
    let answer = report.steps.iter().find(|s| s.id == "answer").unwrap();
    assert_eq!(answer.terms.fixed_prompt_tokens, ANSWER_FIXED);
    assert_eq!(answer.terms.max_output_tokens, 1500);
    // 82 + 800 + 5000 + 1500 + 128 = 7510
    assert_eq!(answer.total(), 7510);
    assert_eq!(answer.headroom(), 682);
    assert_eq!(report.max_context_tokens_after, 5000);
    assert!(report.clamps.is_empty());
}

#[test]
fn format_overhead_and_counter_are_settable() {
    struct Words;
    impl TokenCounter for Words {
        fn count_tokens(&self, text: &str) -> u64 {
            u64::try_from(text.split_whitespace().count()).unwrap()
        }
    }
    let project = Project::new();
    let path = project.write("pipelines/p.yaml", &pipeline("p", SETTINGS, ROUTER_STEP));
    let pipeline = project.load("pipelines/p.yaml").unwrap();
    let (model, prompts) = (project.model(), project.prompts());
    let report = Checker::new(&model, &prompts)
        .estimator(&RatioEstimator)
        .estimator(&Words)
        .format_overhead(10)
        .check(&pipeline)
        .unwrap();
    // ROUTER has 7 words, "### User:" 2 more; + 10 overhead.
    assert_eq!(report.steps[0].terms.fixed_prompt_tokens, 19);
    assert!(path.exists());
}

/// Router and answer with 6000 context tokens: answer is 318 tokens over 8192.
fn over_by_318() -> String {
    let settings = "    max_context_tokens: 6000\n    max_history_tokens: 800\n";
    pipeline("p", settings, &format!("{ROUTER_STEP}{ANSWER_STEP}"))
}

#[test]
fn fail_fast_names_the_worst_step_with_every_term() {
    let project = Project::new();
    let err = project.check("p.yaml", &over_by_318(), None).unwrap_err();
    // 82 + 800 + 6000 + 1500 + 128 = 8510 = 8192 + 318; router (7206) fits.
    // The message names the pipeline's file first.
    let text = err.to_string();
    let (file, rest) = text.split_once(": pipeline").unwrap();
    assert!(file.ends_with("pipelines/p.yaml"), "{text}");
    assert_eq!(
        rest,
        " `p`: step `answer` exceeds context_window 8192 by 318 tokens: prompt 82 + history 800 + context 6000 + output 1500 + safety 128"
    );
}

#[test]
fn auto_clamp_lowers_the_shared_context_once_to_the_worst_step_and_logs_it() {
    let project = Project::new();
    let yaml = over_by_318();
    let captured = Arc::new(Captured::default());
    let report = Capture::collect(&captured, || {
        project.check("p.yaml", &yaml, Some(Policy::AutoClamp))
    })
    .unwrap();
    // answer allows 8192 - 82 - 800 - 1500 - 128 = 5682; router would allow 6986.
    assert_eq!(report.max_context_tokens_before, 6000);
    assert_eq!(report.max_context_tokens_after, 5682);
    assert_eq!(report.clamps.len(), 1);
    let clamp = &report.clamps[0];
    assert_eq!(clamp.setting, ClampedSetting::MaxContextTokens);
    assert_eq!(
        (clamp.step.as_deref(), clamp.before, clamp.after),
        (None, 6000, 5682)
    );
    assert!(
        report
            .steps
            .iter()
            .all(|s| s.terms.max_context_tokens == 5682)
    );
    assert_eq!(terms_of(&report, "answer").total(), Some(8192));
    let events = captured.events.lock().unwrap();
    let warn = events
        .iter()
        .find(|(level, f)| {
            *level == tracing::Level::WARN
                && f.get("setting").map(String::as_str) == Some("max_context_tokens")
        })
        .expect("a clamp warning");
    assert_eq!(warn.1["before"], "6000");
    assert_eq!(warn.1["after"], "5682");
    // The file is never rewritten.
    assert_eq!(
        std::fs::read_to_string(project.path("pipelines/p.yaml")).unwrap(),
        yaml
    );
}

/// The contract's order: context is cut first, to its minimum of 1 token
/// when a step leaves no room for it, then the output of a step that is
/// still over budget; only a step that cannot fit even then fails.
#[test]
fn no_room_for_context_cuts_context_to_one_then_the_output() {
    let project = Project::new();
    let settings = "    max_context_tokens: 100\n    max_history_tokens: 7000\n";
    let steps = format!("{ROUTER_STEP}{ANSWER_STEP}");
    let report = project
        .check(
            "p.yaml",
            &pipeline("p", settings, &steps),
            Some(Policy::AutoClamp),
        )
        .unwrap();
    // answer allows 8192 - 82 - 7000 - 1500 - 128 = -518 tokens of context:
    // context 100 -> 1, then its output 1500 -> 8192 - 82 - 7000 - 1 - 128 = 981.
    assert_eq!(report.max_context_tokens_after, 1);
    assert_eq!(
        (
            report.clamps[0].setting,
            report.clamps[0].before,
            report.clamps[0].after
        ),
        (ClampedSetting::MaxContextTokens, 100, 1)
    );
    let answer = report
        .clamps
        .iter()
        .find(|c| c.step.as_deref() == Some("answer"))
        .expect("the answer step's output is clamped");
    assert_eq!(
        (answer.setting, answer.before, answer.after),
        (ClampedSetting::MaxOutputTokens, 1500, 981)
    );
    assert!(report.steps.iter().all(|s| s.terms.check().is_ok()));

    // With 8,100 tokens of history not even context 1 and output 1 fit;
    // router (first in order) leaves 8192 - 78 - 8100 - 1 - 128 = -115.
    let settings = "    max_context_tokens: 100\n    max_history_tokens: 8100\n";
    let err = project
        .check(
            "p.yaml",
            &pipeline("p", settings, &steps),
            Some(Policy::AutoClamp),
        )
        .unwrap_err();
    assert!(
        matches!(&err, ContractError::OutputClampNotPositive { step, allowed: -115, .. } if step == "router"),
        "{err:?}"
    );
}

#[test]
fn limits_policy_setting_and_override_precedence() {
    let project = Project::new();
    let settings = "    max_context_tokens: 6000\n    max_history_tokens: 800\n    limits_policy: auto_clamp\n";
    let yaml = pipeline("p", settings, ANSWER_STEP);
    assert_eq!(
        project
            .check("p.yaml", &yaml, None)
            .unwrap()
            .max_context_tokens_after,
        5682
    );
    assert!(matches!(
        project.check("p.yaml", &yaml, Some(Policy::FailFast)),
        Err(ContractError::Violation { .. })
    ));
    assert_eq!(
        parse_policy_var(Some(OsStr::new("auto_clamp"))).unwrap(),
        Some(Policy::AutoClamp)
    );
    let bad = pipeline(
        "p",
        "    max_context_tokens: 1\n    limits_policy: clamp\n",
        "",
    );
    let err = project.check("p.yaml", &bad, None).unwrap_err();
    assert!(
        matches!(err, ContractError::UnknownPolicy { .. }),
        "{err:?}"
    );
}

#[test]
fn required_settings_and_values() {
    let project = Project::new();
    // No max_context_tokens: an error under both policies, even without model calls.
    for policy in [Policy::FailFast, Policy::AutoClamp] {
        let err = project
            .check(
                "p.yaml",
                &pipeline("p", "    max_history_tokens: 1\n", ""),
                Some(policy),
            )
            .unwrap_err();
        assert!(
            err.to_string()
                .ends_with("required setting max_context_tokens is missing"),
            "{err}"
        );
    }
    // use_history without max_history_tokens.
    let err = project
        .check(
            "p.yaml",
            &pipeline("p", "    max_context_tokens: 10\n", ANSWER_STEP),
            Some(Policy::AutoClamp),
        )
        .unwrap_err();
    assert!(
        err.to_string()
            .ends_with("required setting max_history_tokens is missing"),
        "{err}"
    );
    // Zero or negative values.
    let zero = pipeline("p", "    max_context_tokens: 0\n", "");
    assert_eq!(
        project
            .check("p.yaml", &zero, None)
            .unwrap_err()
            .to_string(),
        format!(
            "{}:4:25: max_context_tokens 0 must be > 0",
            project.path("pipelines/p.yaml").display()
        )
    );
    let negative = pipeline(
        "p",
        "    max_context_tokens: 10\n    budget_safety_margin_tokens: -1\n",
        "",
    );
    assert!(matches!(
        project.check("p.yaml", &negative, None),
        Err(ContractError::Negative { value: -1, .. })
    ));
    let text = pipeline("p", "    max_context_tokens: lots\n", "");
    assert!(matches!(
        project.check("p.yaml", &text, None),
        Err(ContractError::Shape {
            expected: "an integer",
            ..
        })
    ));
    // Output precedence: max_output_tokens over max_tokens over model_max_tokens.
    let both = pipeline(
        "p",
        "    max_context_tokens: 10\n",
        "    - id: a\n      action: call_model\n      prompt_key: r/router\n      max_tokens: 300\n      max_output_tokens: 100\n    - id: b\n      action: call_model\n      prompt_key: r/router\n      max_tokens: 300\n",
    );
    let report = project.check("p.yaml", &both, None).unwrap();
    assert_eq!(terms_of(&report, "a").max_output_tokens, 100);
    assert_eq!(terms_of(&report, "b").max_output_tokens, 300);
    // Safety margin default 128, settable (0 allowed).
    let zero_safety = pipeline(
        "p",
        "    max_context_tokens: 10\n    budget_safety_margin_tokens: 0\n",
        ROUTER_STEP,
    );
    assert_eq!(
        project.check("p.yaml", &zero_safety, None).unwrap().steps[0]
            .terms
            .safety_margin_tokens,
        0
    );
}

const COMMON: &str = "YAMLpipelines:
  - name: common
    settings:
      max_context_tokens: 4000
      max_history_tokens: 500
      budget_safety_margin_tokens: 100
      graph_max_depth: 2
    steps:
      - id: load
        action: load_conversation_history
      - id: router
        action: call_model
        prompt_key: r/router
        max_output_tokens: 200
        user_parts:
          question:
            source: user_question_neutral
            template: \"### User:\\n{}\\n\\n\"
      - id: answer
        action: call_model
        prompt_key: r/router
        max_tokens: 900
        user_parts:
          context:
            source: context_blocks
            template: \"### Context:\\n{}\\n\\n\"
  - name: other
    settings:
      max_context_tokens: 1
";

const MID: &str = "YAMLpipeline:
  name: mid
  extends: base/common.yaml#common
  settings:
    max_history_tokens: 600
  steps:
    - id: answer
      max_output_tokens: 1000
      user_parts:
        question:
          source: user_question_neutral
          template: \"### User:\\n{}\\n\\n\"
";

const LEAF: &str = "YAMLpipeline:
  name: leaf
  extends: mid
  settings:
    max_context_tokens: 4500
  steps:
    - id: extra
      action: call_model
      prompt_key: r/router
      max_output_tokens: 50
";

#[test]
fn extends_chain_merges_settings_deeply_and_steps_by_id() {
    let project = Project::new();
    project.write("pipelines/base/common.yaml", COMMON);
    project.write("pipelines/mid.yaml", MID);
    project.write("pipelines/leaf.yaml", LEAF);
    let leaf = project.load("pipelines/leaf.yaml").unwrap();
    assert_eq!(leaf.name(), "leaf");
    let files: Vec<_> = leaf
        .files()
        .iter()
        .map(|f| f.path.file_name().unwrap().to_owned())
        .collect();
    assert_eq!(files, ["leaf.yaml", "mid.yaml", "common.yaml"]);
    let ids: Vec<_> = leaf.steps().iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["load", "router", "answer", "extra"]);
    let answer = &leaf.steps()[2];
    assert_eq!(answer.max_tokens.as_ref().unwrap().value, 900); // kept from common
    assert_eq!(answer.max_output_tokens.as_ref().unwrap().value, 1000); // from mid
    let parts: Vec<_> = answer.user_parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(parts, ["context", "question"]); // user_parts deep-merged in order
    assert!(
        answer
            .max_output_tokens
            .as_ref()
            .unwrap()
            .location
            .path
            .ends_with("mid.yaml")
    );

    let (model, prompts) = (project.model(), project.prompts());
    let report = Checker::new(&model, &prompts)
        .estimator(&RatioEstimator)
        .check(&leaf)
        .unwrap();
    // router 78 + 600 + 4500 + 200 + 100 = 5478; answer 82 + 600 + 4500 + 1000 + 100 = 6282;
    // extra: "<ROUTER>\n\n" 42 chars -> 11 + 64 = 75; 75 + 600 + 4500 + 50 + 100 = 5325.
    let totals: Vec<_> = report
        .steps
        .iter()
        .map(|s| (s.id.as_str(), s.total()))
        .collect();
    assert_eq!(
        totals,
        [("router", 5478), ("answer", 6282), ("extra", 5325)]
    );
}

#[test]
fn multi_pipeline_files_are_checked_one_report_each_and_need_a_name_to_extend() {
    let project = Project::new();
    project.write("pipelines/base/common.yaml", COMMON);
    project.write("pipelines/mid.yaml", MID);
    project.write("pipelines/leaf.yaml", LEAF);
    let reports = project.reports(Policy::FailFast);
    let verdicts: Vec<_> = reports.iter().map(|r| (r.name.as_str(), r.ok)).collect();
    assert_eq!(
        verdicts,
        [
            ("common", true),
            ("other", true),
            ("leaf", true),
            ("mid", true)
        ]
    );
    assert_eq!(reports[1].max_context_tokens_after, Some(1));
    assert!(reports[1].steps.is_empty());

    project.write("pipelines/mid.yaml", &MID.replace("#common", ""));
    let err = project.load("pipelines/mid.yaml").unwrap_err();
    assert!(
        matches!(err, ContractError::AmbiguousPipeline { count: 2, .. }),
        "{err:?}"
    );
    project.write("pipelines/mid.yaml", &MID.replace("#common", "#nope"));
    let err = project.load("pipelines/mid.yaml").unwrap_err();
    assert!(
        matches!(&err, ContractError::PipelineNotFound { name, .. } if name == "nope"),
        "{err:?}"
    );
}

#[test]
fn extends_cycles_and_missing_targets_are_errors() {
    let project = Project::new();
    project.write(
        "pipelines/a.yaml",
        "YAMLpipeline:\n  name: a\n  extends: b\n",
    );
    project.write(
        "pipelines/b.yaml",
        "YAMLpipeline:\n  name: b\n  extends: ./a.yaml\n",
    );
    assert!(
        matches!(project.load("pipelines/a.yaml"), Err(ContractError::ExtendsCycle { chain }) if chain.len() == 3)
    );
    project.write(
        "pipelines/c.yaml",
        "YAMLpipeline:\n  name: c\n  extends: gone\n",
    );
    let err = project.load("pipelines/c.yaml").unwrap_err();
    let ContractError::ExtendsNotFound {
        location, tried, ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(location.line, Some(3));
    assert_eq!(tried.len(), 4);
}

/// Runs `f` on another thread and fails the test if it takes longer than 10 s.
fn within_10s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(f()).unwrap());
    rx.recv_timeout(Duration::from_secs(10))
        .expect("returned without blocking")
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn a_fifo_in_extends_is_an_immediate_error_naming_the_extends_line() {
    let project = Project::new();
    std::fs::create_dir_all(project.path("pipelines")).unwrap();
    mkfifo(&project.path("pipelines/base.yaml"));
    let leaf = project.write(
        "pipelines/leaf.yaml",
        "YAMLpipeline:\n  name: leaf\n  extends: ./base.yaml\n",
    );
    let root = project.path("pipelines");
    let err = within_10s(move || PipelineLoader::new(root).load(leaf, None)).unwrap_err();
    let ContractError::Extends {
        location, source, ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(location.line, Some(3));
    assert!(matches!(source, ReadError::NotRegular { .. }), "{source:?}");
    assert!(
        err.to_string().contains("it is a FIFO, not a regular file"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_among_pipelines_is_one_failed_report() {
    let project = Project::new();
    project.write("pipelines/ok.yaml", &pipeline("ok", SETTINGS, ROUTER_STEP));
    mkfifo(&project.path("pipelines/pipe.yaml"));
    let reports = within_10s(move || {
        let reports = project.reports(Policy::FailFast);
        drop(project);
        reports
    });
    let verdicts: Vec<_> = reports.iter().map(|r| r.ok).collect();
    assert_eq!(verdicts, [true, false]);
    assert!(
        reports[1].error.as_deref().unwrap().contains("FIFO"),
        "{:?}",
        reports[1].error
    );
}

#[test]
fn prompt_errors_name_pipeline_file_line_and_step() {
    let project = Project::new();
    let steps = ROUTER_STEP.replace("r/router", "r/missing");
    let yaml = pipeline("p", SETTINGS, &steps);
    let err = project.check("p.yaml", &yaml, None).unwrap_err();
    let ContractError::Prompt { location, step, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(location.path, project.path("pipelines/p.yaml"));
    assert_eq!(location.line, Some(line_of(&yaml, "prompt_key")));
    assert_eq!(step, "router");
    assert!(err.to_string().contains("r/missing.txt"), "{err}");

    let bad_key = pipeline(
        "p",
        SETTINGS,
        &ROUTER_STEP.replace("r/router", "../etc/passwd"),
    );
    let err = project.check("p.yaml", &bad_key, None).unwrap_err();
    assert!(
        err.to_string()
            .contains("step `router`: invalid prompt key \"../etc/passwd\""),
        "{err}"
    );

    project.write("prompts/r/latin1.txt", "caf\u{e9}");
    std::fs::write(project.path("prompts/r/latin1.txt"), b"caf\xe9").unwrap();
    let latin1 = pipeline("p", SETTINGS, &ROUTER_STEP.replace("r/router", "r/latin1"));
    let err = project.check("p.yaml", &latin1, None).unwrap_err();
    assert!(
        err.to_string()
            .contains("not valid UTF-8 (first invalid byte at offset 3)"),
        "{err}"
    );

    let big = std::fs::File::create(project.path("prompts/r/big.txt")).unwrap();
    big.set_len(16 * 1024 * 1024 + 1).unwrap();
    let oversize = pipeline("p", SETTINGS, &ROUTER_STEP.replace("r/router", "r/big"));
    let err = project.check("p.yaml", &oversize, None).unwrap_err();
    assert!(
        err.to_string()
            .contains("it is 16777217 bytes, more than the limit of 16777216 bytes"),
        "{err}"
    );
}

#[test]
fn templates_need_exactly_one_slot() {
    let project = Project::new();
    let yaml = pipeline("p", SETTINGS, &ROUTER_STEP.replace("{}", "{question}"));
    let err = project.check("p.yaml", &yaml, None).unwrap_err();
    let ContractError::Template {
        location,
        step,
        part,
        ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((step.as_str(), part.as_str()), ("router", "question"));
    assert_eq!(location.line, Some(line_of(&yaml, "template")));
}

/// A typo case: the YAML, the misspelled name and the name it resembles.
fn typo_cases() -> Vec<(String, &'static str, &'static str)> {
    vec![
        (
            pipeline(
                "p",
                "    max_context_tokens: 5000\n    max_history_token: 800\n",
                ROUTER_STEP,
            ),
            "max_history_token",
            "max_history_tokens",
        ),
        (
            pipeline(
                "p",
                SETTINGS,
                &ROUTER_STEP.replace("max_output_tokens", "max_output_token"),
            ),
            "max_output_token",
            "max_output_tokens",
        ),
        (
            pipeline(
                "p",
                SETTINGS,
                &format!("{ROUTER_STEP}      use_histroy: true\n"),
            ),
            "use_histroy",
            "use_history",
        ),
        (
            pipeline(
                "p",
                SETTINGS,
                &ROUTER_STEP.replace("action: call_model", "action: call_modle"),
            ),
            "call_modle",
            "call_model",
        ),
    ]
}

#[test]
fn typos_are_errors_under_fail_fast_naming_file_line_and_the_key() {
    let project = Project::new();
    for (yaml, written, resembles) in typo_cases() {
        let err = project.check("p.yaml", &yaml, None).unwrap_err();
        let ContractError::Typo(typo) = &err else {
            panic!("{written}: {err:?}")
        };
        assert_eq!(typo.written, written);
        assert_eq!(typo.resembles, resembles);
        assert_eq!(typo.location.path, project.path("pipelines/p.yaml"));
        assert_eq!(typo.location.line, Some(line_of(&yaml, written)));
        assert!(
            err.to_string()
                .ends_with(&format!("did you mean `{resembles}`?")),
            "{err}"
        );
    }
    // A misspelled max_context_tokens is a typo too, reported before the missing setting.
    let yaml = pipeline("p", "    max_context_token: 5000\n", "");
    assert!(
        matches!(project.check("p.yaml", &yaml, None), Err(ContractError::Typo(t)) if t.resembles == "max_context_tokens")
    );
}

#[test]
fn typos_are_warnings_under_auto_clamp() {
    let project = Project::new();
    for (yaml, written, resembles) in typo_cases() {
        let captured = Arc::new(Captured::default());
        let report = Capture::collect(&captured, || {
            project.check("p.yaml", &yaml, Some(Policy::AutoClamp))
        });
        assert!(report.is_ok(), "{written}: {report:?}");
        let events = captured.events.lock().unwrap();
        let warned = events.iter().any(|(level, f)| {
            *level == tracing::Level::WARN
                && f.get("key").map(String::as_str) == Some(written)
                && f.get("resembles").map(String::as_str) == Some(resembles)
                && f.get("location").is_some_and(|l| {
                    l.ends_with(&format!(
                        "p.yaml:{}:{}",
                        line_of(&yaml, written),
                        l.rsplit(':').next().unwrap()
                    ))
                })
        });
        assert!(warned, "{written}: {events:?}");
    }
    // The misspelled output limit is not applied: the model default (1500) is.
    let (yaml, _, _) = &typo_cases()[1];
    let report = project
        .check("p.yaml", yaml, Some(Policy::AutoClamp))
        .unwrap();
    assert_eq!(report.steps[0].terms.max_output_tokens, 1500);
}

#[test]
fn json_report_has_exactly_the_cli_fields() {
    let project = Project::new();
    project.write("pipelines/p.yaml", &over_by_318());
    let clamped = serde_json::to_value(&project.reports(Policy::AutoClamp)[0]).unwrap();
    assert_eq!(
        clamped,
        serde_json::json!({
            "name": "p", "ok": true, "max_context_tokens_after": 5682,
            "clamps": [{"kind": "max_context_tokens", "step": null, "before": 6000, "after": 5682}],
            "steps": [
                {"id": "router", "fixed_prompt_tokens": 78, "history_tokens": 800, "context_tokens": 5682,
                 "output_tokens": 200, "safety_margin_tokens": 128, "total": 6888, "window": 8192, "headroom": 1304},
                {"id": "answer", "fixed_prompt_tokens": 82, "history_tokens": 800, "context_tokens": 5682,
                 "output_tokens": 1500, "safety_margin_tokens": 128, "total": 8192, "window": 8192, "headroom": 0}
            ]
        })
    );
    let failed = serde_json::to_value(&project.reports(Policy::FailFast)[0]).unwrap();
    assert_eq!(failed["ok"], false);
    assert_eq!(failed["max_context_tokens_after"], serde_json::Value::Null);
    assert_eq!(failed["steps"][1]["headroom"], -318);
    assert!(failed["error"].as_str().unwrap().contains("by 318 tokens"));
    assert_eq!(failed["failure"], "violation");
    let keys: Vec<_> = failed.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        keys,
        [
            "clamps",
            "error",
            "failure",
            "max_context_tokens_after",
            "name",
            "ok",
            "steps"
        ]
    );
}

#[test]
fn a_missing_input_path_is_an_error_not_an_empty_report() {
    let project = Project::new();
    let (model, prompts) = (project.model(), project.prompts());
    let err = check_paths(
        &[project.path("nope")],
        &Checker::new(&model, &prompts).estimator(&RatioEstimator),
    )
    .unwrap_err();
    assert!(matches!(err, ContractError::Input { .. }), "{err:?}");
}

#[test]
fn cache_recomputes_only_when_an_input_changes() {
    let project = Project::new();
    let path = project.write("pipelines/p.yaml", &pipeline("p", SETTINGS, ROUTER_STEP));
    let (model, prompts) = (project.model(), project.prompts());
    let checker = Checker::new(&model, &prompts).estimator(&RatioEstimator);
    let mut cache = ContractCache::new();
    assert_eq!(cache.check(&checker, &path).unwrap().1, CacheStatus::Miss);
    assert_eq!(cache.check(&checker, &path).unwrap().1, CacheStatus::Hit);
    project.write("prompts/r/router.txt", "Route.");
    let (report, status) = cache.check(&checker, &path).unwrap();
    assert_eq!(status, CacheStatus::Miss);
    // "Route.\n\n### User:\n\n\n" = 6 + 2 + 12 = 20 chars -> 5 + 64.
    assert_eq!(report.steps[0].terms.fixed_prompt_tokens, 69);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// After auto-clamp every step fits; context is cut once, to exactly
    /// what the worst step allows but never below 1; outputs are cut only
    /// when context had to stop at 1; it fails only when a step cannot fit
    /// even then.
    #[test]
    fn after_auto_clamp_every_step_fits(
        steps in proptest::collection::vec((0u64..3_000, 1u64..4_000), 1..6),
        history in 0u64..3_000,
        context in 1u64..20_000,
        safety in 0u64..300,
        window in 1u64..16_384,
    ) {
        let reports: Vec<StepReport> = steps.iter().enumerate().map(|(i, &(fixed, output))| StepReport::new(format!("s{i}"), ContractTerms {
            fixed_prompt_tokens: fixed, max_history_tokens: history, max_context_tokens: context,
            max_output_tokens: output, safety_margin_tokens: safety, context_window: window,
        })).collect();
        let least = steps.iter().map(|&(fixed, output)| i128::from(window) - i128::from(fixed + history + output + safety)).min().unwrap();
        let context_after = if i128::from(context) > least { least.max(1) } else { i128::from(context) };
        // The output each step allows once context is `context_after`.
        let output_room = |fixed: u64| i128::from(window) - i128::from(fixed + history + safety) - context_after;
        match Evaluation::new("p", "p.yaml", Policy::AutoClamp, context, reports).enforce() {
            Ok(report) => {
                for step in &report.steps {
                    prop_assert!(step.terms.check().is_ok());
                    prop_assert!(step.headroom() >= 0);
                }
                prop_assert_eq!(i128::from(report.max_context_tokens_after), context_after);
                let context_clamps = report.clamps.iter().filter(|c| c.setting == ClampedSetting::MaxContextTokens).count();
                prop_assert_eq!(context_clamps, usize::from(i128::from(context) > context_after));
                for (i, &(fixed, output)) in steps.iter().enumerate() {
                    let clamp = report.clamps.iter().find(|c| c.step.as_deref() == Some(format!("s{i}").as_str()));
                    let room = output_room(fixed);
                    if i128::from(output) > room {
                        prop_assert!(least < 1, "outputs are cut only when context stopped at 1");
                        let clamp = clamp.expect("an output clamp");
                        prop_assert_eq!((clamp.before, i128::from(clamp.after)), (output, room));
                    } else {
                        prop_assert!(clamp.is_none());
                    }
                }
            }
            Err(ContractError::OutputClampNotPositive { allowed, step, .. }) => {
                let i: usize = step.trim_start_matches('s').parse().unwrap();
                prop_assert_eq!(i128::from(allowed), output_room(steps[i].0));
                prop_assert!(allowed <= 0 && least < 1);
            }
            Err(other) => prop_assert!(false, "unexpected {}", other),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The same through real files: random prompt sizes and output limits.
    #[test]
    fn auto_clamped_real_pipelines_fit(
        prompts in proptest::collection::vec((0usize..6_000, 1u64..3_000), 1..4),
        context in 1u64..8_000,
    ) {
        let project = Project::new();
        let mut steps = String::new();
        for (i, (chars, output)) in prompts.iter().enumerate() {
            project.write(&format!("prompts/s{i}.txt"), &"x".repeat(*chars));
            steps.push_str(&format!("    - id: s{i}\n      action: call_model\n      prompt_key: s{i}\n      max_output_tokens: {output}\n"));
        }
        let yaml = pipeline("p", &format!("    max_context_tokens: {context}\n    max_history_tokens: 500\n"), &steps);
        // fixed = ceil((chars + 2) / 4) + 64, worked out here, not by the library.
        let least = prompts.iter().map(|&(chars, output)| {
            let fixed = i128::try_from((chars + 2).div_ceil(4)).unwrap() + 64;
            8192 - fixed - 500 - i128::from(output) - 128
        }).min().unwrap();
        match project.check("p.yaml", &yaml, Some(Policy::AutoClamp)) {
            Ok(report) => {
                prop_assert!(report.steps.iter().all(|s| s.terms.check().is_ok()));
                prop_assert_eq!(i128::from(report.max_context_tokens_after), least.max(1).min(i128::from(context)));
            }
            Err(ContractError::OutputClampNotPositive { allowed, .. }) => prop_assert!(allowed <= 0 && least < 1),
            Err(other) => prop_assert!(false, "unexpected {}", other),
        }
    }
}

#[test]
fn model_config_json_errors_name_file_and_line() {
    let project = Project::new();
    let path = project.write(
        "bad.json",
        "{\n  \"model_context_window\": 8192\n  \"x\": 1\n}",
    );
    let err = ModelConfig::load(&path).unwrap_err();
    assert!(
        matches!(&err, ContractError::Json { location, .. } if location.line == Some(3)),
        "{err:?}"
    );
    let dir_err = ModelConfig::load(project.path("prompts")).unwrap_err();
    assert!(
        dir_err.to_string().contains("it is a directory"),
        "{dir_err}"
    );
}
#[derive(Default)]
struct Captured {
    events: Mutex<Vec<(tracing::Level, BTreeMap<String, String>)>>,
}

thread_local! {
    /// Where this thread's events go, if anywhere.
    static SINK: std::cell::RefCell<Option<Arc<Captured>>> = const { std::cell::RefCell::new(None) };
}

/// A global subscriber that hands each event to its thread's sink. Being
/// global (and always interested) it avoids the per-callsite interest cache
/// races of scoped subscribers when tests run in parallel.
struct Capture;

impl Capture {
    /// Runs `f` with this thread's events collected into `captured`.
    fn collect<T>(captured: &Arc<Captured>, f: impl FnOnce() -> T) -> T {
        static INSTALL: std::sync::Once = std::sync::Once::new();
        INSTALL.call_once(|| {
            tracing::subscriber::set_global_default(Capture).expect("no other global subscriber");
        });
        SINK.with(|sink| *sink.borrow_mut() = Some(Arc::clone(captured)));
        let result = f();
        SINK.with(|sink| *sink.borrow_mut() = None);
        result
    }
}

struct Fields<'a>(&'a mut BTreeMap<String, String>);

impl tracing::field::Visit for Fields<'_> {
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
}

impl tracing::Subscriber for Capture {
    fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
        tracing::span::Id::from_u64(1)
    }
    fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
    fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
    fn event(&self, event: &tracing::Event<'_>) {
        SINK.with(|sink| {
            if let Some(captured) = sink.borrow().as_ref() {
                let mut fields = BTreeMap::new();
                event.record(&mut Fields(&mut fields));
                captured
                    .events
                    .lock()
                    .unwrap()
                    .push((*event.metadata().level(), fields));
            }
        });
    }
    fn enter(&self, _: &tracing::span::Id) {}
    fn exit(&self, _: &tracing::span::Id) {}
}

/// A list, a scalar or an empty list is "no pipeline" with the line and
/// what was found; a number with a leading zero is refused, since YAML 1.1
/// (PyYAML, the LocalAI-RAG runtime) reads it as octal and YAML 1.2 as
/// decimal.
#[test]
fn documents_without_a_pipeline_and_leading_zeros_name_line_and_kind() {
    use budget_contract::PipelineConfig;
    for (yaml, expected) in [
        (
            "- a\n- b\n",
            "p.yaml:1:1: no pipeline: expected a YAMLpipeline mapping or a non-empty YAMLpipelines/pipelines list, found a list",
        ),
        (
            "just text\n",
            "p.yaml:1:1: no pipeline: expected a YAMLpipeline mapping or a non-empty YAMLpipelines/pipelines list, found a string",
        ),
        (
            "other: 1\n",
            "p.yaml:1:1: no pipeline: expected a YAMLpipeline mapping or a non-empty YAMLpipelines/pipelines list, found a mapping without a YAMLpipeline key",
        ),
    ] {
        let err = PipelineConfig::from_yaml_str(yaml, "p.yaml").unwrap_err();
        assert_eq!(err.to_string(), expected);
    }
    let yaml =
        "YAMLpipeline:\n  name: p\n  settings:\n    max_context_tokens: 013560\n  steps: []\n";
    let err = PipelineConfig::from_yaml_str(yaml, "p.yaml").unwrap_err();
    assert_eq!(
        err.to_string(),
        "p.yaml:4:25: max_context_tokens must be an integer, found a number with a leading zero, which YAML 1.1 (PyYAML) reads as octal and YAML 1.2 as decimal: write it without the zero"
    );
    // Without the zero it is the decimal it looks like.
    let yaml = yaml.replace("013560", "13560");
    let p = PipelineConfig::from_yaml_str(&yaml, "p.yaml").unwrap();
    assert_eq!(
        p.settings().max_context_tokens.as_ref().map(|s| s.value),
        Some(13_560)
    );
}
