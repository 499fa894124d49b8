//! `budget check`: the budget contract of prompt pipelines (LocalAI-RAG
//! format) against a model config, one report per pipeline.

use std::fmt::Write;

use budget::contract::{
    Checker, FailureKind, ModelConfig, PipelineReport, Policy, PromptStore, check_paths,
    policy_from_env,
};

use crate::CliError;
use crate::cli::{CheckArgs, CountFormat, PolicyArg};
use crate::counter::Counter;
use crate::output;
use budget_pack::Sandbox;

/// Why `check` could not check.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The model config, the policy variable or a pipeline path is unusable.
    #[error(transparent)]
    Input(#[from] budget::contract::ContractError),
    /// At least one pipeline file could not be read, parsed or understood.
    #[error(
        "{unusable} of {checked} pipelines could not be checked: their files cannot be read or understood"
    )]
    UnusablePipelines {
        /// Reports whose failure is an input error.
        unusable: usize,
        /// Pipelines checked.
        checked: usize,
    },
    /// At least one pipeline fails its contract.
    #[error("{failed} of {checked} pipelines fail their budget contract")]
    Violations {
        /// Pipelines that fail.
        failed: usize,
        /// Pipelines checked.
        checked: usize,
    },
}

/// Runs `budget check`.
pub fn run(args: &CheckArgs, sandbox: Option<&Sandbox>) -> Result<(), CliError> {
    let model = ModelConfig::load(&args.model_config).map_err(CheckError::from)?;
    let policy = match args.policy {
        Some(PolicyArg::FailFast) => Some(Policy::FailFast),
        Some(PolicyArg::AutoClamp) => Some(Policy::AutoClamp),
        None => policy_from_env().map_err(CheckError::from)?,
    };
    let counter = Counter::resolve(args.counter, &args.model.counter_request())?;
    let prompts = PromptStore::new(&args.prompts);
    let mut checker = Checker::new(&model, &prompts)
        .estimator(counter.estimator())
        .policy_override(policy);
    if let Some(tokens) = args.format_overhead {
        checker = checker.format_overhead(tokens);
    }
    if let Some(sandbox) = sandbox {
        checker = checker.within(sandbox.roots());
    }
    let current = [std::path::PathBuf::from(".")];
    let paths = if args.pipelines.is_empty() {
        &current[..]
    } else {
        &args.pipelines[..]
    };
    let reports = check_paths(paths, &checker).map_err(CheckError::from)?;
    let text = match args.format {
        CountFormat::Table => table(&reports),
        CountFormat::Json => {
            let mut text = serde_json::to_string_pretty(&reports).unwrap_or_default();
            text.push('\n');
            text
        }
    };
    output::write(&text, None)?;
    for warning in reports.iter().flat_map(|r| &r.warnings) {
        eprintln!("warning: {warning} (--prompts wins)");
    }
    let unusable = reports
        .iter()
        .filter(|r| r.failure == Some(FailureKind::Input))
        .count();
    if unusable > 0 {
        return Err(CheckError::UnusablePipelines {
            unusable,
            checked: reports.len(),
        }
        .into());
    }
    let failed = reports.iter().filter(|r| !r.ok).count();
    if failed > 0 {
        return Err(CheckError::Violations {
            failed,
            checked: reports.len(),
        }
        .into());
    }
    Ok(())
}

fn table(reports: &[PipelineReport]) -> String {
    let mut out = String::new();
    for report in reports {
        let verdict = if report.ok { "ok" } else { "FAILED" };
        let _ = writeln!(
            out,
            "{} ({verdict}, {})",
            report.name,
            report.path.display()
        );
        let _ = writeln!(
            out,
            "  {:<24} {:>7} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>9}",
            "step",
            "prompt",
            "history",
            "context",
            "output",
            "safety",
            "total",
            "window",
            "headroom"
        );
        for s in &report.steps {
            let t = &s.terms;
            let _ = writeln!(
                out,
                "  {:<24} {:>7} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>9}",
                s.id,
                t.fixed_prompt_tokens,
                t.max_history_tokens,
                t.max_context_tokens,
                t.max_output_tokens,
                t.safety_margin_tokens,
                s.total(),
                t.context_window,
                s.headroom()
            );
        }
        for c in &report.clamps {
            let step = c
                .step
                .as_deref()
                .map_or_else(String::new, |s| format!(" of step {s}"));
            let _ = writeln!(
                out,
                "  clamped {}{step}: {} -> {}",
                c.setting.name(),
                c.before,
                c.after
            );
        }
        if let Some(error) = &report.error {
            let _ = writeln!(out, "  error: {error}");
        }
        out.push('\n');
    }
    let failed = reports.iter().filter(|r| !r.ok).count();
    let _ = writeln!(out, "{} pipelines checked, {failed} failed", reports.len());
    out
}
