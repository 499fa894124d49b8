//! `budget`: token budgets for LLM prompts on the command line.
//!
//! * `budget pack [PATH]...` packs files into one payload that fits a token
//!   budget (Markdown, XML or a JSON report);
//! * `budget count [PATH]...` counts tokens per file, per content type and
//!   per folder;
//! * `budget check [PIPELINES]...` checks the budget contract of prompt
//!   pipelines against a model config.
//!
//! Exit codes: 0 success, 1 budget or contract violation, 2 usage or input
//! error. Errors are printed as one line on stderr.

#![forbid(unsafe_code)]

mod cache;
mod check;
mod cli;
mod config;
mod count;
mod counter;
mod localai;
#[cfg(feature = "mcp")]
mod mcp;
mod output;
mod pack;
mod progress;
mod sandbox;
mod tree;

use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use crate::cli::{Cli, Command};

/// Everything that ends a command early, with its exit code.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error(transparent)]
    Counter(#[from] counter::CounterError),
    #[error("{flag}{0}", flag = walk_flag(.0))]
    Walk(#[from] budget_pack::WalkError),
    #[error("{flag}{0}", flag = pack_flag(.0))]
    Pack(#[from] budget_pack::PackError),
    #[error(transparent)]
    OverFailLimit(#[from] pack::OverFailLimit),
    #[error(transparent)]
    Check(#[from] check::CheckError),
    #[error(transparent)]
    Output(#[from] output::OutputError),
    #[error("{flag}{0}", flag = sandbox_flag(.0))]
    Sandbox(#[from] budget_pack::SandboxError),
    #[error(transparent)]
    Admit(#[from] sandbox::AdmitError),

    #[cfg(feature = "mcp")]
    #[error(transparent)]
    Mcp(#[from] mcp::McpError),
}

/// The option a walk error is about, as a prefix (`--files-from: `): the
/// engine's messages name its inputs, not this command line's flags.
fn walk_flag(error: &budget_pack::WalkError) -> &'static str {
    use budget_pack::WalkError;
    match error {
        WalkError::List { .. } | WalkError::ListedOutside { .. } => "--files-from: ",
        WalkError::Sandbox(error) => sandbox_flag(error),
        _ => "",
    }
}

/// The option a sandbox error is about, as a prefix.
fn sandbox_flag(error: &budget_pack::SandboxError) -> &'static str {
    match error {
        budget_pack::SandboxError::Root { .. } => "--sandbox: ",
        _ => "",
    }
}

/// The option a pack error is about, as a prefix.
fn pack_flag(error: &budget_pack::PackError) -> &'static str {
    use budget_pack::PackError;
    match error {
        PackError::BudgetBelowMinimum { .. } | PackError::NothingFits { .. } => "--budget: ",
        PackError::Git(_) => "--diff/--log: ",
        PackError::Walk(error) => walk_flag(error),
        PackError::Sandbox(error) => sandbox_flag(error),
        _ => "",
    }
}

impl CliError {
    /// 1 for a budget or contract violation, 2 for usage and input errors.
    fn exit_code(&self) -> u8 {
        match self {
            Self::OverFailLimit(_) | Self::Check(check::CheckError::Violations { .. }) => 1,
            _ => 2,
        }
    }
}

fn main() -> ExitCode {
    let args = match config::with_config_defaults(std::env::args_os().collect()) {
        Ok(args) => args,
        Err(error) => {
            eprintln!("error: {}", one_line(&error));
            return ExitCode::from(2);
        }
    };
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    let result = run(&cli);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {}", one_line(&error));
            ExitCode::from(error.exit_code())
        }
    }
}

/// Runs the parsed command line.
fn run(cli: &Cli) -> Result<(), CliError> {
    let writes_stdout = match &cli.command {
        Command::Pack(args) => args.output_file().is_none(),
        Command::Count(_) | Command::Check(_) => true,
        #[cfg(feature = "mcp")]
        Command::Mcp(_) => true,
    };
    if writes_stdout {
        output::ensure_stdout_open()?;
    }
    let sandbox = budget_pack::Sandbox::new(&cli.sandbox)?;
    if let Some(sandbox) = &sandbox {
        sandbox::admit(sandbox, &cli.command)?;
    }
    let sandbox = sandbox.as_ref();
    match &cli.command {
        Command::Pack(args) => pack::run(args, sandbox),
        Command::Count(args) => count::run(args, sandbox),
        Command::Check(args) => check::run(args, sandbox),
        #[cfg(feature = "mcp")]
        Command::Mcp(args) => mcp::serve(args).map_err(CliError::from),
    }
}

/// Help and version go to stdout with exit 0; a usage error is one line on
/// stderr with exit 2.
fn usage_error(error: &clap::Error) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            ExitCode::from(2)
        }
        _ => {
            // The message is the paragraph before the usage and tips: one
            // line, or a heading and the arguments it names.
            let rendered = error.render().to_string();
            let paragraph: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .take_while(|line| !line.is_empty() && !line.starts_with("Usage:"))
                .collect();
            let message = paragraph.join(" ");
            let message = message.strip_prefix("error: ").unwrap_or(&message);
            let message = if message.is_empty() {
                "invalid arguments"
            } else {
                message
            };
            eprintln!("error: {message} (see budget --help)");
            ExitCode::from(2)
        }
    }
}

/// The error and its sources on one line, joined by `: `.
fn one_line(error: &dyn std::error::Error) -> String {
    let mut line = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !line.ends_with(&text) {
            line.push_str(": ");
            line.push_str(&text);
        }
        source = cause.source();
    }
    line.replace('\n', " ")
}
