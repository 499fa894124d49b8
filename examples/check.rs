//! `check`: the budget contract of the sample pipelines in
//! `examples/contract/` (LocalAI-RAG format), one table per pipeline.
//!
//! ```text
//! cargo run --example check --features contract
//! PIPELINE_LIMITS_POLICY=auto_clamp cargo run --example check --features contract
//! ```
//!
//! The `budget check` command of `budget-cli` is the full tool; this shows
//! the library calls it makes.

use std::path::Path;
use std::process::ExitCode;

use budget::contract::{Checker, ModelConfig, PromptStore, check_paths, policy_from_env};

fn main() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/contract");
    let model = ModelConfig::load(sample.join("model.json"))?;
    let prompts = PromptStore::new(sample.join("prompts"));
    let checker = Checker::new(&model, &prompts).policy_override(policy_from_env()?);
    let reports = check_paths(&[sample.join("pipelines")], &checker)?;
    for report in &reports {
        let verdict = if report.ok { "ok" } else { "FAILED" };
        println!("{} ({verdict})", report.name);
        println!(
            "  {:<10} {:>7} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>9}",
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
            println!(
                "  {:<10} {:>7} {:>8} {:>8} {:>7} {:>7} {:>8} {:>8} {:>9}",
                s.id,
                s.fixed_prompt_tokens,
                s.history_tokens,
                s.context_tokens,
                s.output_tokens,
                s.safety_margin_tokens,
                s.total,
                s.window,
                s.headroom
            );
        }
        for c in &report.clamps {
            println!("  clamped {} {} -> {}", c.kind, c.before, c.after);
        }
        if let Some(error) = &report.error {
            println!("  error: {error}");
        }
        println!();
    }
    let failed = reports.iter().filter(|r| !r.ok).count();
    println!("{} pipeline(s) checked, {failed} failed", reports.len());
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
