//! `budget pack`: the pack engine ([`budget_pack::pack`]) on the command
//! line: the counter the flags ask for, the payload and report where the
//! flags say, the summary on stderr, `--fail-over` as exit code 1.

use budget::payload::{Format, OfferOrder};
use budget_pack::{Budget, PackOptions, Sandbox, Stage};

use crate::CliError;
use crate::cli::{BudgetArg, Order, PackArgs, PackFormat};
use crate::counter::Counter;
use crate::output;
use crate::progress::ProgressBarOnStderr;

/// `--fail-over` was exceeded.
#[derive(Debug, thiserror::Error)]
#[error("payload is {tokens} tokens ({counter}), over --fail-over {limit} by {excess}")]
pub struct OverFailLimit {
    /// The payload's tokens.
    tokens: u64,
    /// The limit.
    limit: u64,
    /// `tokens − limit`.
    excess: u64,
    /// The counter's label.
    counter: String,
}

/// Runs `budget pack`.
pub fn run(args: &PackArgs, sandbox: Option<&Sandbox>) -> Result<(), CliError> {
    let counter = Counter::resolve(args.input.counter, &args.input.model.counter_request())?;
    let label = counter.label();
    let cache_dir = crate::cache::dir(args.input.no_cache);
    let cache = counter.count_cache(cache_dir.as_deref());
    let cached = counter.cached(cache.as_ref());
    let packed = budget_pack::pack(
        &PackOptions {
            cache: cache_dir,
            ..options(args, sandbox, &counter)
        },
        &counter.counting(&label, cached.as_ref()),
        &ProgressBarOnStderr::on_stderr(),
    )?;
    crate::cache::save(cache.as_ref());
    for warning in packed.warnings() {
        eprintln!("warning: {warning}");
    }
    let tokens = packed.tokens();
    if let Some(limit) = args.fail_over.filter(|&limit| tokens > limit) {
        return Err(OverFailLimit {
            tokens,
            limit,
            excess: tokens - limit,
            counter: label,
        }
        .into());
    }
    if let Some(report_path) = &args.report {
        let mut text = serde_json::to_string_pretty(packed.report()).unwrap_or_default();
        text.push('\n');
        output::write(
            &text,
            (report_path.as_os_str() != "-").then_some(report_path.as_path()),
        )?;
    }
    if args
        .report
        .as_deref()
        .is_none_or(|path| path.as_os_str() != "-")
        || args.output_file().is_some()
    {
        output::write(packed.text(), args.output_file())?;
    }
    for line in packed.summary() {
        eprintln!("{line}");
    }
    if args.timings {
        for line in timings(packed.stages()) {
            eprintln!("{line}");
        }
    }
    Ok(())
}

/// The lines `--timings` prints: each stage's wall time, then the total.
fn timings(stages: &[Stage]) -> Vec<String> {
    let milliseconds = |took: std::time::Duration| took.as_secs_f64() * 1000.0;
    let mut lines = vec!["timings (wall time, ms):".to_owned()];
    for stage in stages {
        lines.push(format!(
            "  {:<10}{:>9.1}",
            stage.name,
            milliseconds(stage.took)
        ));
    }
    let total = stages.iter().map(|stage| stage.took).sum();
    lines.push(format!("  {:<10}{:>9.1}", "total", milliseconds(total)));
    lines
}

/// The pack the flags ask for: `--budget auto` with `--model` is the
/// model's window less its output reserve.
fn options(args: &PackArgs, sandbox: Option<&Sandbox>, counter: &Counter) -> PackOptions {
    let mut options = PackOptions::new(args.input.paths.iter().cloned());
    options.inputs = args.input.inputs(sandbox);
    options.budget = match (args.budget, counter.model()) {
        (BudgetArg::Tokens(n), _) => Budget::Tokens(n),
        (BudgetArg::Auto, Some(model)) => Budget::Tokens(model.input_budget()),
        (BudgetArg::Auto, None) => Budget::Auto,
    };
    options.query.clone_from(&args.query);
    options.format = match args.format {
        PackFormat::Markdown => Format::Markdown,
        PackFormat::Xml => Format::Xml,
        PackFormat::Json => Format::Json,
    };
    options.order = match args.order {
        Order::Rank => OfferOrder::Rank,
        Order::Arrival => OfferOrder::Arrival,
    };
    options.meta = args.meta;
    options.tree = !args.no_tree;
    options.fetch_tool = args.fetch_tool;
    options.diff.clone_from(&args.diff);
    options.log = args.log;
    options.redact = args.redact;
    options
}
