//! Budget contract: loading real files, every validation rule, both
//! policies, output-limit precedence, `extends`, caching and malformed input.
#![cfg(feature = "contract")]

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use budget_runtime::contract::{
    CacheStatus, Checker, ClampedSetting, ContractCache, ContractTerms, FormatOverhead,
    ModelConfig, PipelineConfig, Policy, PromptStore, parse_policy_var,
};
use budget_runtime::{ContentType, ContractError, Estimator, TokenCounter};
use proptest::prelude::*;

/// A temporary project: `prompts/`, `model.json` and pipeline files.
struct Project {
    dir: tempfile::TempDir,
}

/// 28 characters of prose: 7 seed tokens.
const ANSWER_PROMPT: &str = "You are a support assistant.";

/// A `call_model` step with two user parts ("Question: " 10 chars -> 3 tokens,
/// "Context:\n" 9 chars -> 3 tokens). With `ANSWER_PROMPT` its fixed prompt is
/// 7 + 3 + 3 + (3 messages * 4 + 3) = 28 tokens.
const ANSWER_STEP: &str = "  - name: answer
    type: call_model
    prompt_key: answer
    use_history: true
    user_parts:
      - \"Question: {{ question }}\"
      - \"Context:\\n{{ context }}\"
";

impl Project {
    fn new() -> Self {
        let project = Self {
            dir: tempfile::tempdir().unwrap(),
        };
        project.write("prompts/answer.txt", ANSWER_PROMPT);
        project.write(
            "model.json",
            r#"{"model_context_window": 16384, "model_max_tokens": 1024}"#,
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
        ModelConfig::load(self.path("model.json")).unwrap()
    }

    fn prompts(&self) -> PromptStore {
        PromptStore::new(self.path("prompts"))
    }

    /// Writes `yaml` as `name` and checks it under `policy` (None: no override).
    fn check(
        &self,
        name: &str,
        yaml: &str,
        policy: Option<Policy>,
    ) -> Result<budget_runtime::contract::ContractReport, ContractError> {
        let path = self.write(name, yaml);
        let model = self.model();
        let prompts = self.prompts();
        let pipeline = PipelineConfig::load(path)?;
        Checker::new(&model, &prompts)
            .policy_override(policy)
            .check(&pipeline)
    }
}

fn pipeline(settings: &str, steps: &str) -> String {
    format!("settings:\n{settings}steps:\n{steps}")
}

const SETTINGS: &str = "  max_context_tokens: 6000\n  max_history_tokens: 2000\n";

// ---------------------------------------------------------------- the check

#[test]
fn fitting_pipeline_reports_every_term() {
    let project = Project::new();
    let report = project
        .check("p.yaml", &pipeline(SETTINGS, ANSWER_STEP), None)
        .unwrap();
    assert_eq!(report.policy, Policy::FailFast);
    assert!(report.clamps.is_empty());
    assert_eq!(report.steps.len(), 1);
    assert_eq!(report.steps[0].name, "answer");
    assert_eq!(
        report.steps[0].terms,
        ContractTerms {
            fixed_prompt_tokens: 28,
            max_history_tokens: 2000,
            max_context_tokens: 6000,
            max_output_tokens: 1024,   // from model_max_tokens
            safety_margin_tokens: 128, // default
            context_window: 16384,
        }
    );
    // 16384 - (28 + 2000 + 6000 + 1024 + 128) = 7204
    assert_eq!(report.steps[0].headroom(), 7204);
}

#[test]
fn steps_of_other_types_are_not_checked_and_history_counts_only_when_used() {
    let project = Project::new();
    let steps = "  - name: retrieve\n    type: retrieve\n    top_k: 8\n  - name: summarize\n    type: call_model\n    prompt_key: answer\n    max_tokens: 300\n";
    let report = project
        .check("p.yaml", &pipeline(SETTINGS, steps), None)
        .unwrap();
    assert_eq!(report.steps.len(), 1);
    let t = report.steps[0].terms;
    assert_eq!(t.max_history_tokens, 0);
    // 7 prompt + (1 message * 4 + 3)
    assert_eq!(t.fixed_prompt_tokens, 14);
    assert_eq!(t.max_output_tokens, 300);
}

#[test]
fn max_context_tokens_is_required_under_both_policies() {
    let project = Project::new();
    for policy in [Policy::FailFast, Policy::AutoClamp] {
        let err = project
            .check(
                "p.yaml",
                &pipeline("  max_history_tokens: 2000\n", ANSWER_STEP),
                Some(policy),
            )
            .unwrap_err();
        assert!(
            matches!(&err, ContractError::Missing { field: "max_context_tokens", location } if location.path.ends_with("p.yaml")),
            "{policy}: {err}"
        );
    }
}

#[test]
fn max_context_tokens_must_be_positive() {
    let project = Project::new();
    for (value, shown) in [("0", "0"), ("-20", "-20")] {
        let settings = format!("  max_context_tokens: {value}\n  max_history_tokens: 10\n");
        let err = project
            .check(
                "p.yaml",
                &pipeline(&settings, ANSWER_STEP),
                Some(Policy::AutoClamp),
            )
            .unwrap_err();
        let path = project.path("p.yaml");
        assert_eq!(
            err.to_string(),
            format!(
                "{}:2:23: max_context_tokens {shown} must be > 0",
                path.display()
            )
        );
    }
}

#[test]
fn model_context_window_is_required_and_positive() {
    let project = Project::new();
    project.write("model.json", r#"{"model_max_tokens": 1024}"#);
    let err = ModelConfig::load(project.path("model.json")).unwrap_err();
    assert!(
        matches!(
            err,
            ContractError::Missing {
                field: "model_context_window",
                ..
            }
        ),
        "{err}"
    );
    project.write("model.json", r#"{"model_context_window": 0}"#);
    let err = ModelConfig::load(project.path("model.json")).unwrap_err();
    assert!(
        matches!(
            err,
            ContractError::NotPositive {
                field: "model_context_window",
                value: 0,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn max_history_tokens_is_required_only_when_a_step_uses_history() {
    let project = Project::new();
    let only_context = "  max_context_tokens: 6000\n";
    for policy in [Policy::FailFast, Policy::AutoClamp] {
        let err = project
            .check("p.yaml", &pipeline(only_context, ANSWER_STEP), Some(policy))
            .unwrap_err();
        assert!(
            matches!(
                err,
                ContractError::Missing {
                    field: "max_history_tokens",
                    ..
                }
            ),
            "{err}"
        );
    }
    let no_history = ANSWER_STEP.replace("use_history: true", "use_history: false");
    assert!(
        project
            .check("p.yaml", &pipeline(only_context, &no_history), None)
            .is_ok()
    );
}

#[test]
fn max_history_tokens_zero_is_allowed_negative_is_not() {
    let project = Project::new();
    let zero = "  max_context_tokens: 6000\n  max_history_tokens: 0\n";
    let report = project
        .check("p.yaml", &pipeline(zero, ANSWER_STEP), None)
        .unwrap();
    assert_eq!(report.steps[0].terms.max_history_tokens, 0);
    let negative = "  max_context_tokens: 6000\n  max_history_tokens: -1\n";
    let err = project
        .check("p.yaml", &pipeline(negative, ANSWER_STEP), None)
        .unwrap_err();
    assert!(
        matches!(
            err,
            ContractError::Negative {
                field: "max_history_tokens",
                value: -1,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn safety_margin_defaults_to_128_and_can_be_set() {
    let project = Project::new();
    let set = format!("{SETTINGS}  budget_safety_margin_tokens: 0\n");
    let report = project
        .check("p.yaml", &pipeline(&set, ANSWER_STEP), None)
        .unwrap();
    assert_eq!(report.steps[0].terms.safety_margin_tokens, 0);
    let negative = format!("{SETTINGS}  budget_safety_margin_tokens: -5\n");
    let err = project
        .check("p.yaml", &pipeline(&negative, ANSWER_STEP), None)
        .unwrap_err();
    assert!(
        matches!(
            err,
            ContractError::Negative {
                field: "budget_safety_margin_tokens",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn output_limit_precedence() {
    let project = Project::new();
    let step =
        |extra: &str| format!("  - name: s\n    type: call_model\n    prompt_key: answer\n{extra}");
    let output = |extra: &str| {
        project
            .check("p.yaml", &pipeline(SETTINGS, &step(extra)), None)
            .unwrap()
            .steps[0]
            .terms
            .max_output_tokens
    };
    assert_eq!(
        output("    max_output_tokens: 300\n    max_tokens: 500\n"),
        300
    );
    assert_eq!(output("    max_tokens: 500\n"), 500);
    assert_eq!(output(""), 1024); // model_max_tokens

    // No fallback at all.
    project.write("model.json", r#"{"model_context_window": 16384}"#);
    let err = project
        .check("p.yaml", &pipeline(SETTINGS, &step("")), None)
        .unwrap_err();
    assert!(
        matches!(&err, ContractError::NoOutputLimit { step, .. } if step == "s"),
        "{err}"
    );
    assert!(err.to_string().contains("has no model_max_tokens"), "{err}");

    let err = project
        .check(
            "p.yaml",
            &pipeline(SETTINGS, &step("    max_tokens: 0\n")),
            None,
        )
        .unwrap_err();
    assert!(
        matches!(
            err,
            ContractError::NotPositive {
                field: "max_tokens",
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn steps_need_a_type_and_model_calls_a_prompt() {
    let project = Project::new();
    let err = project
        .check(
            "p.yaml",
            &pipeline(SETTINGS, "  - name: x\n    prompt_key: answer\n"),
            None,
        )
        .unwrap_err();
    assert!(
        matches!(&err, ContractError::MissingStepField { field: "type", step, .. } if step == "x"),
        "{err}"
    );
    let err = project
        .check(
            "p.yaml",
            &pipeline(SETTINGS, "  - type: call_model\n"),
            None,
        )
        .unwrap_err();
    assert!(
        matches!(&err, ContractError::MissingStepField { field: "prompt_key", step, .. } if step == "steps[0]"),
        "{err}"
    );
    let err = project
        .check(
            "p.yaml",
            &pipeline(
                SETTINGS,
                "  - name: x\n    type: call_model\n    prompt_key: missing\n",
            ),
            None,
        )
        .unwrap_err();
    assert!(matches!(err, ContractError::PromptNotFound { .. }), "{err}");
}

#[test]
fn malformed_template_names_file_line_and_part() {
    let project = Project::new();
    let steps = "  - name: s\n    type: call_model\n    prompt_key: answer\n    user_parts:\n      - ok {{ a }}\n      - broken {{ b\n";
    let err = project
        .check("p.yaml", &pipeline(SETTINGS, steps), None)
        .unwrap_err();
    let ContractError::Template {
        location, index, ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!((location.line, *index), (Some(10), 1)); // settings 1-3, steps 4, the broken part is line 10
    assert!(
        err.to_string()
            .ends_with("step `s` user_parts[1]: unclosed `{{` at character 7"),
        "{err}"
    );
}

#[test]
fn markdown_prompts_and_exact_counters() {
    struct Words;
    impl TokenCounter for Words {
        fn count_tokens(&self, text: &str) -> u64 {
            text.split_whitespace().count() as u64
        }
    }
    let project = Project::new();
    // 15 chars of markdown: ceil(15 / 3.75) = 4 (prose would be 4 too; 16 chars makes 5 vs 4).
    project.write("prompts/md.md", "# Role\nBe terse");
    let path = project.write(
        "p.yaml",
        &pipeline(SETTINGS, "  - name: s\n    type: call_model\n    prompt_key: md\n    user_parts: [\"Q: {{ q }} now\"]\n"),
    );
    let model = project.model();
    let prompts = project.prompts();
    let p = PipelineConfig::load(path).unwrap();
    let zero = FormatOverhead {
        per_message_tokens: 0,
        per_request_tokens: 0,
    };
    let seed = Checker::new(&model, &prompts)
        .format_overhead(zero)
        .check(&p)
        .unwrap();
    // markdown 15 chars -> 4; "Q:  now" 7 chars prose -> 2
    assert_eq!(seed.steps[0].terms.fixed_prompt_tokens, 6);
    let exact = Checker::new(&model, &prompts)
        .estimator(&Words)
        .format_overhead(zero)
        .check(&p)
        .unwrap();
    // "# Role Be terse" -> 4 words; "Q:  now" -> 2 words
    assert_eq!(exact.steps[0].terms.fixed_prompt_tokens, 6);
    let overhead = FormatOverhead {
        per_message_tokens: 5,
        per_request_tokens: 1,
    };
    let with = Checker::new(&model, &prompts)
        .estimator(&Words)
        .format_overhead(overhead)
        .check(&p)
        .unwrap();
    assert_eq!(with.steps[0].terms.fixed_prompt_tokens, 6 + 2 * 5 + 1);
}

// ---------------------------------------------------------------- policies

/// Settings that overflow a 16384 window: 28 + 2000 + 14000 + 1024 + 128 = 17180, excess 796.
const TOO_BIG: &str = "  max_context_tokens: 14000\n  max_history_tokens: 2000\n";

#[test]
fn fail_fast_is_the_default_and_names_step_terms_and_excess() {
    let project = Project::new();
    let err = project
        .check("p.yaml", &pipeline(TOO_BIG, ANSWER_STEP), None)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: step `answer` exceeds context_window 16384 by 796 tokens: prompt 28 + history 2000 + context 14000 + output 1024 + safety 128",
            project.path("p.yaml").display()
        )
    );
    let ContractError::Violation {
        step, violation, ..
    } = err
    else {
        panic!()
    };
    assert_eq!(step, "answer");
    assert_eq!(violation.excess_tokens(), 796);
}

#[test]
fn fail_fast_reports_the_first_violating_step() {
    let project = Project::new();
    let steps = format!(
        "{ANSWER_STEP}  - name: second\n    type: call_model\n    prompt_key: answer\n    max_tokens: 9000\n"
    );
    // Step `answer` (1024 output) fits at context 6000; `second` does not: 14 + 6000 + 9000 + 128 + 0 history.
    let settings = "  max_context_tokens: 8000\n  max_history_tokens: 0\n";
    let err = project
        .check("p.yaml", &pipeline(settings, &steps), None)
        .unwrap_err();
    assert!(
        matches!(&err, ContractError::Violation { step, .. } if step == "second"),
        "{err}"
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

#[test]
fn auto_clamp_by_config_flag_clamps_logs_and_leaves_files_untouched() {
    let project = Project::new();
    let yaml = pipeline(
        &format!("{TOO_BIG}  limits_policy: auto_clamp\n"),
        ANSWER_STEP,
    );
    let path = project.write("p.yaml", &yaml);
    let before = std::fs::read(&path).unwrap();

    let captured = Arc::new(Captured::default());
    let model = project.model();
    let prompts = project.prompts();
    let pipeline = PipelineConfig::load(&path).unwrap();
    let report = Capture::collect(&captured, || {
        Checker::new(&model, &prompts).check(&pipeline)
    })
    .unwrap();

    assert_eq!(report.policy, Policy::AutoClamp);
    assert_eq!(report.steps[0].terms.max_context_tokens, 14000 - 796);
    assert_eq!(report.steps[0].terms.max_output_tokens, 1024);
    assert_eq!(report.steps[0].headroom(), 0);
    assert_eq!(report.clamps.len(), 1);
    let clamp = &report.clamps[0];
    assert_eq!(
        (clamp.setting, clamp.before, clamp.after),
        (ClampedSetting::MaxContextTokens, 14000, 13204)
    );
    assert_eq!(
        clamp.reason,
        "total 17180 exceeds context_window 16384 by 796 tokens"
    );

    let events = captured.events.lock().unwrap();
    assert_eq!(events.len(), 1);
    let (level, fields) = &events[0];
    assert_eq!(*level, tracing::Level::WARN);
    assert_eq!(fields["step"], "answer");
    assert_eq!(fields["setting"], "max_context_tokens");
    assert_eq!(fields["before"], "14000");
    assert_eq!(fields["after"], "13204");
    assert_eq!(fields["reason"], clamp.reason);

    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the pipeline file was modified"
    );
}

#[test]
fn auto_clamp_reduces_output_after_context_reaches_one() {
    let project = Project::new();
    project.write(
        "model.json",
        r#"{"model_context_window": 2000, "model_max_tokens": 1024}"#,
    );
    // 28 + 900 + 100 + 1024 + 128 = 2180 > 2000, excess 180: context 100 -> 1 (99), output 1024 -> 943 (81).
    let settings = "  max_context_tokens: 100\n  max_history_tokens: 900\n";
    let report = project
        .check(
            "p.yaml",
            &pipeline(settings, ANSWER_STEP),
            Some(Policy::AutoClamp),
        )
        .unwrap();
    let t = report.steps[0].terms;
    assert_eq!((t.max_context_tokens, t.max_output_tokens), (1, 943));
    let settings_changed: Vec<_> = report.clamps.iter().map(|c| c.setting).collect();
    assert_eq!(
        settings_changed,
        [
            ClampedSetting::MaxContextTokens,
            ClampedSetting::MaxOutputTokens
        ]
    );
}

#[test]
fn auto_clamp_that_cannot_fit_is_an_error() {
    let project = Project::new();
    project.write(
        "model.json",
        r#"{"model_context_window": 2000, "model_max_tokens": 1024}"#,
    );
    // 28 + 1900 + 128 = 2056 > 2000 before context and output count at all.
    let settings = "  max_context_tokens: 100\n  max_history_tokens: 1900\n";
    let err = project
        .check(
            "p.yaml",
            &pipeline(settings, ANSWER_STEP),
            Some(Policy::AutoClamp),
        )
        .unwrap_err();
    let ContractError::Unclampable {
        step, violation, ..
    } = &err
    else {
        panic!("{err:?}")
    };
    assert_eq!(step, "answer");
    // 28 + 1900 + 1 + 1 + 128 = 2058
    assert_eq!(violation.excess_tokens(), 58);
    assert!(
        err.to_string().contains("cannot be clamped to fit"),
        "{err}"
    );
}

#[test]
fn policy_precedence_environment_over_config_over_default() {
    let project = Project::new();
    let model = project.model();
    let prompts = project.prompts();
    let clamp_in_file = PipelineConfig::load(project.write(
        "clamp.yaml",
        &pipeline(
            &format!("{TOO_BIG}  limits_policy: auto_clamp\n"),
            ANSWER_STEP,
        ),
    ))
    .unwrap();
    let plain =
        PipelineConfig::load(project.write("plain.yaml", &pipeline(TOO_BIG, ANSWER_STEP))).unwrap();

    let env = |value: &str| parse_policy_var(Some(OsStr::new(value))).unwrap();
    let checker = |value: Option<Policy>| Checker::new(&model, &prompts).policy_override(value);

    // Environment set: it wins in both directions.
    assert!(matches!(
        checker(env("fail_fast")).check(&clamp_in_file),
        Err(ContractError::Violation { .. })
    ));
    assert_eq!(
        checker(env("auto_clamp")).check(&plain).unwrap().policy,
        Policy::AutoClamp
    );
    // Environment blank or unset: the file decides, else fail_fast.
    assert_eq!(
        checker(env("")).check(&clamp_in_file).unwrap().policy,
        Policy::AutoClamp
    );
    assert!(matches!(
        checker(None).check(&plain),
        Err(ContractError::Violation { .. })
    ));
    // A bad environment value is an error, not a silent default.
    assert!(matches!(
        parse_policy_var(Some(OsStr::new("auto-clamp"))),
        Err(ContractError::UnknownPolicy { .. })
    ));
}

// ---------------------------------------------------------------- extends

#[test]
fn extended_pipeline_is_checked_with_merged_settings() {
    let project = Project::new();
    project.write("pipelines/base.yaml", &pipeline(SETTINGS, ANSWER_STEP));
    let child = project.write(
        "pipelines/long.yaml",
        "extends: base.yaml\nsettings:\n  max_context_tokens: 12000\nsteps:\n  - name: answer\n    max_output_tokens: 2000\n",
    );
    let model = project.model();
    let prompts = project.prompts();
    let report = Checker::new(&model, &prompts)
        .check(&PipelineConfig::load(child).unwrap())
        .unwrap();
    let t = report.steps[0].terms;
    assert_eq!(t.max_context_tokens, 12000); // child
    assert_eq!(t.max_history_tokens, 2000); // parent
    assert_eq!(t.max_output_tokens, 2000); // child step override
    assert_eq!(t.fixed_prompt_tokens, 28); // parent step's prompt and parts
}

// ---------------------------------------------------------------- malformed files

#[test]
fn malformed_yaml_reports_file_and_line() {
    let project = Project::new();
    let path = project.write(
        "bad.yaml",
        "settings:\n  max_context_tokens: 6000\nsteps:\n  - name: a\n    type: [call_model\n",
    );
    let err = PipelineConfig::load(&path).unwrap_err();
    let ContractError::Yaml { location, message } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(location.path, path);
    let line = location.line.expect("a line number");
    assert!((5..=6).contains(&line), "line {line}: {message}");
    assert!(
        err.to_string()
            .starts_with(&format!("{}:{line}", path.display())),
        "{err}"
    );
}

#[test]
fn malformed_json_reports_file_and_line() {
    let project = Project::new();
    let path = project.write(
        "model.json",
        "{\n  \"model_context_window\": 8192,\n  \"model_max_tokens\": 10x\n}\n",
    );
    let err = ModelConfig::load(&path).unwrap_err();
    let ContractError::Json { location, .. } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        (location.path.as_path(), location.line),
        (path.as_path(), Some(3))
    );
}

// ---------------------------------------------------------------- cache

/// Counts estimator calls to tell recomputation from cache hits.
#[derive(Default)]
struct Counting(AtomicUsize);

impl Estimator for Counting {
    fn estimate(&self, text: &str, content_type: ContentType) -> u64 {
        self.0.fetch_add(1, Ordering::SeqCst);
        budget_runtime::SeedEstimator.estimate(text, content_type)
    }
}

#[test]
fn cache_recomputes_only_when_an_input_changes() {
    let project = Project::new();
    project.write("pipelines/base.yaml", &pipeline(SETTINGS, ANSWER_STEP));
    let child = project.write("pipelines/child.yaml", "extends: base.yaml\n");
    let counting = Counting::default();
    let mut cache = ContractCache::new();
    let mut run = |model: &ModelConfig, policy: Option<Policy>| {
        let prompts = project.prompts();
        let checker = Checker::new(model, &prompts)
            .estimator(&counting)
            .policy_override(policy);
        cache
            .check(&checker, &child)
            .map(|(report, status)| (report.steps[0].terms, status))
    };
    let model = project.model();

    let (first, status) = run(&model, None).unwrap();
    assert_eq!((first.fixed_prompt_tokens, status), (28, CacheStatus::Miss));
    let calls = counting.0.load(Ordering::SeqCst);
    assert_eq!(calls, 3); // system prompt + two user parts

    assert_eq!(run(&model, None).unwrap().1, CacheStatus::Hit);
    assert_eq!(
        counting.0.load(Ordering::SeqCst),
        calls,
        "a hit must not re-estimate"
    );

    // A prompt file changes: 28 -> 48 characters, 7 -> 12 tokens.
    project.write(
        "prompts/answer.txt",
        "You are a support assistant for the billing API.",
    );
    let (changed, status) = run(&model, None).unwrap();
    assert_eq!(
        (changed.fixed_prompt_tokens, status),
        (33, CacheStatus::Miss)
    );
    assert_eq!(run(&model, None).unwrap().1, CacheStatus::Hit);

    // An ancestor changes.
    project.write(
        "pipelines/base.yaml",
        &pipeline(
            "  max_context_tokens: 5000\n  max_history_tokens: 2000\n",
            ANSWER_STEP,
        ),
    );
    let (changed, status) = run(&model, None).unwrap();
    assert_eq!(
        (changed.max_context_tokens, status),
        (5000, CacheStatus::Miss)
    );

    // The model config changes.
    let smaller = ModelConfig::new(12_000, Some(1024)).unwrap();
    assert_eq!(run(&smaller, None).unwrap().1, CacheStatus::Miss);
    assert_eq!(run(&smaller, None).unwrap().1, CacheStatus::Hit);

    // The policy changes.
    assert_eq!(
        run(&smaller, Some(Policy::AutoClamp)).unwrap().1,
        CacheStatus::Miss
    );
    assert_eq!(
        run(&smaller, Some(Policy::AutoClamp)).unwrap().1,
        CacheStatus::Hit
    );
}

#[test]
fn cache_does_not_store_failures() {
    let project = Project::new();
    let path = project.write("p.yaml", &pipeline(TOO_BIG, ANSWER_STEP));
    let model = project.model();
    let prompts = project.prompts();
    let checker = Checker::new(&model, &prompts);
    let mut cache = ContractCache::new();
    assert!(cache.check(&checker, &path).is_err());
    assert!(cache.is_empty());
    project.write("p.yaml", &pipeline(SETTINGS, ANSWER_STEP));
    assert_eq!(cache.check(&checker, &path).unwrap().1, CacheStatus::Miss);
    assert_eq!(cache.len(), 1);
    assert!(cache.fingerprint(&path).is_some());
}

// ---------------------------------------------------------------- property

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Loaded from real files, every step fits after auto-clamp, or the check
    /// fails only because a step cannot fit even at the floor.
    #[test]
    fn after_auto_clamp_every_step_fits(
        window in 500u64..40_000,
        context in 1u64..40_000,
        history in 0u64..10_000,
        safety in 0u64..400,
        outputs in proptest::collection::vec((1u64..8_000, any::<bool>()), 1..5),
    ) {
        let project = Project::new();
        project.write("model.json", &format!(r#"{{"model_context_window": {window}, "model_max_tokens": 1024}}"#));
        let mut steps = String::new();
        for (i, (output, use_history)) in outputs.iter().enumerate() {
            steps.push_str(&format!(
                "  - name: s{i}\n    type: call_model\n    prompt_key: answer\n    max_output_tokens: {output}\n    use_history: {use_history}\n    user_parts: [\"Q{i}: {{{{ q }}}}\"]\n"
            ));
        }
        let settings = format!(
            "  max_context_tokens: {context}\n  max_history_tokens: {history}\n  budget_safety_margin_tokens: {safety}\n  limits_policy: auto_clamp\n"
        );
        match project.check("p.yaml", &pipeline(&settings, &steps), None) {
            Ok(report) => {
                prop_assert_eq!(report.steps.len(), outputs.len());
                for step in &report.steps {
                    let t = step.terms;
                    prop_assert!(
                        t.fixed_prompt_tokens + t.max_history_tokens + t.max_context_tokens + t.max_output_tokens
                            + t.safety_margin_tokens <= t.context_window,
                        "{:?}", t
                    );
                    prop_assert!(t.max_context_tokens >= 1 && t.max_output_tokens >= 1);
                }
            }
            Err(ContractError::Unclampable { violation, .. }) => {
                let t = violation.terms();
                prop_assert_eq!((t.max_context_tokens, t.max_output_tokens), (1, 1));
                prop_assert!(t.fixed_prompt_tokens + t.max_history_tokens + t.safety_margin_tokens + 2 > window);
            }
            Err(other) => prop_assert!(false, "unexpected error: {}", other),
        }
    }
}

#[test]
fn public_types_are_thread_safe() {
    fn is<T: Send + Sync>() {}
    is::<ContractCache>();
    is::<ContractError>();
    is::<budget_runtime::contract::ContractReport>();
    is::<Checker<'static>>();
}
