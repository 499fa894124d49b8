//! `check`: a CI lint for prompt pipelines. Validates every pipeline
//! (`*.yaml`, `*.yml`) in a directory against a model config and prints one
//! table per pipeline: each `call_model` step's terms, total, window,
//! headroom and verdict. Exits non-zero on any violation or error.
//!
//! ```text
//! cargo run --example check --features contract -- [PIPELINES_DIR] [MODEL_JSON] [--prompts DIR]
//! ```
//!
//! Defaults: the sample in `examples/contract/` (`pipelines/`, `model.json`);
//! prompts are looked up in the `prompts` folder beside `PIPELINES_DIR` unless `--prompts` is
//! given. The policy is `fail_fast` unless `PIPELINE_LIMITS_POLICY=auto_clamp`
//! or a pipeline's `limits_policy: auto_clamp` asks for clamping.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use budget::contract::{
    Checker, ContractReport, ModelConfig, PipelineConfig, PromptStore, StepReport, policy_from_env,
};

struct Args {
    pipelines: PathBuf,
    model: PathBuf,
    prompts: PathBuf,
}

fn parse_args() -> Result<Args, String> {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/contract");
    let mut positional = Vec::new();
    let mut prompts = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--prompts" {
            prompts = Some(PathBuf::from(
                args.next().ok_or("--prompts needs a directory")?,
            ));
        } else if arg == "--help" || arg == "-h" {
            return Err("usage: check [PIPELINES_DIR] [MODEL_JSON] [--prompts DIR]".to_owned());
        } else {
            positional.push(PathBuf::from(arg));
        }
    }
    if positional.len() > 2 {
        return Err(format!(
            "expected at most 2 paths, got {}",
            positional.len()
        ));
    }
    let mut positional = positional.into_iter();
    let pipelines = positional
        .next()
        .unwrap_or_else(|| sample.join("pipelines"));
    let model = positional
        .next()
        .unwrap_or_else(|| sample.join("model.json"));
    let prompts = prompts.unwrap_or_else(|| {
        pipelines
            .parent()
            .map_or_else(|| PathBuf::from("prompts"), |parent| parent.join("prompts"))
    });
    Ok(Args {
        pipelines,
        model,
        prompts,
    })
}

fn pipeline_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    files.sort();
    Ok(files)
}

fn print_header() {
    println!(
        "  {:<16} {:>7} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>9}  verdict",
        "step", "prompt", "history", "context", "output", "safety", "total", "window", "headroom"
    );
}

fn print_row(step: &StepReport, verdict: &str) {
    let t = step.terms;
    let total = t
        .total()
        .map_or_else(|| "overflow".to_owned(), |v| v.to_string());
    println!(
        "  {:<16} {:>7} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>9}  {verdict}",
        step.name,
        t.fixed_prompt_tokens,
        t.max_history_tokens,
        t.max_context_tokens,
        t.max_output_tokens,
        t.safety_margin_tokens,
        total,
        t.context_window,
        step.headroom(),
    );
}

fn verdict(step: &StepReport) -> String {
    match step.terms.check() {
        Ok(()) => "ok".to_owned(),
        Err(v) => format!("OVER by {}", v.excess_tokens()),
    }
}

fn print_report(report: &ContractReport) {
    for step in &report.steps {
        let clamped = report.clamps.iter().any(|c| c.step == step.name);
        print_row(step, if clamped { "ok (clamped)" } else { "ok" });
    }
    for clamp in &report.clamps {
        println!("  clamped {clamp}");
    }
}

/// Checks one pipeline and prints its table; `true` when it passes.
fn check_one(checker: &Checker<'_>, path: &Path) -> bool {
    let result = PipelineConfig::load(path).and_then(|pipeline| checker.evaluate(&pipeline));
    let evaluation = match result {
        Ok(evaluation) => evaluation,
        Err(error) => {
            println!("{}\n  error: {error}\n", path.display());
            return false;
        }
    };
    println!("{}  (policy {})", path.display(), evaluation.policy);
    print_header();
    let passed = match evaluation.clone().enforce() {
        Ok(report) => {
            print_report(&report);
            true
        }
        Err(error) => {
            for step in &evaluation.steps {
                print_row(step, &verdict(step));
            }
            println!("  error: {error}");
            false
        }
    };
    println!();
    passed
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let setup = (|| -> Result<_, Box<dyn std::error::Error>> {
        let model = ModelConfig::load(&args.model)?;
        let policy = policy_from_env()?;
        let files = pipeline_files(&args.pipelines)
            .map_err(|e| format!("cannot list {}: {e}", args.pipelines.display()))?;
        Ok((model, policy, files))
    })();
    let (model, policy, files) = match setup {
        Ok(setup) => setup,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let prompts = PromptStore::new(&args.prompts);
    let checker = Checker::new(&model, &prompts).policy_override(policy);
    println!(
        "model {} (context window {} tokens), prompts {}\n",
        args.model.display(),
        model.context_window(),
        args.prompts.display()
    );
    let failed = files
        .iter()
        .filter(|path| !check_one(&checker, path))
        .count();
    if files.is_empty() {
        println!(
            "no *.yaml or *.yml pipelines in {}",
            args.pipelines.display()
        );
    }
    println!("{} pipeline(s) checked, {failed} failed", files.len());
    if failed == 0 && !files.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
