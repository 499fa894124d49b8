//! `check`: the budget contract of pipelines in the LocalAI-RAG format, one
//! line per pipeline (or, with `--json`, the JSON reports `budget check
//! --format json` prints).
//!
//! ```text
//! cargo run --example check --features contract
//! PIPELINE_LIMITS_POLICY=auto_clamp cargo run --example check --features contract
//! cargo run --example check --features contract -- --json MODEL_JSON PROMPTS_DIR PIPELINES...
//! ```
//!
//! Without paths it checks the sample in `examples/contract/`. The policy
//! comes from `PIPELINE_LIMITS_POLICY` (default `fail_fast`); the counter is
//! the token-budget rules' ratio estimator (as the reference implementation
//! counts; the library's default is exact `o200k_base`), every prompt read
//! as prose, and the default
//! per-step format overhead of 64 tokens. `budget check` (crate
//! `budget-cli`) is the full tool; this shows the library calls it makes.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use budget::contract::{
    Checker, ModelConfig, PipelineReport, PromptStore, check_paths, policy_from_env,
};
use budget::estimate::RatioEstimator;

/// One line per pipeline; `budget check` prints the per-step table.
fn print_summary(report: &PipelineReport) {
    match (&report.error, report.max_context_tokens_after) {
        (Some(error), _) => println!("{}: FAILED: {error}", report.name),
        (None, Some(context)) => println!(
            "{}: ok, max_context_tokens {context}, {} clamp(s), {} step(s)",
            report.name,
            report.clamps.len(),
            report.steps.len()
        ),
        (None, None) => println!("{}: ok", report.name),
    }
}

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let mut args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let json = args.first().is_some_and(|a| a == Path::new("--json"));
    if json {
        args.remove(0);
    }
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/contract");
    let (model, prompts, paths) = match args.as_slice() {
        [] => (
            sample.join("model.json"),
            sample.join("prompts"),
            vec![sample.join("pipelines")],
        ),
        [model, prompts, paths @ ..] if !paths.is_empty() => {
            (model.clone(), prompts.clone(), paths.to_vec())
        }
        _ => return Err("usage: check [--json] [MODEL_JSON PROMPTS_DIR PIPELINES...]".into()),
    };
    let model = ModelConfig::load(model)?;
    let prompts = PromptStore::new(prompts);
    // The reference implementation's counter (ceil(chars / 4)), selected by
    // name; the library's default is exact `o200k_base`.
    let checker = Checker::new(&model, &prompts)
        .estimator(&RatioEstimator)
        .policy_override(policy_from_env()?);
    let reports = check_paths(&paths, &checker)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&reports)?);
    } else {
        reports.iter().for_each(print_summary);
        let failed = reports.iter().filter(|r| !r.ok).count();
        println!("{} pipeline(s) checked, {failed} failed", reports.len());
    }
    Ok(if reports.iter().all(|r| r.ok) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
