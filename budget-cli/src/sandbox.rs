//! `--sandbox DIR`: the flags a sandboxed command may not use (the
//! directories it may read are a [`Sandbox`]). `budget mcp` runs every tool in one, so that a client (or a
//! prompt injected into it) cannot make the tool read or write anything
//! outside the served root.

use std::path::PathBuf;

use budget_pack::{Sandbox, SandboxError};

use crate::cli::{CheckArgs, Command, InputArgs, ModelArgs, PackArgs};

/// Why a sandboxed command was refused.
#[derive(Debug, thiserror::Error)]
pub enum AdmitError {
    /// A path the command names is outside the sandbox, or the sandbox
    /// cannot be made.
    #[error(transparent)]
    Path(#[from] SandboxError),
    /// A flag that names a file to write, or one to read from elsewhere.
    #[error(
        "{flag} cannot be used with --sandbox: it names a file to write or to read outside the sandbox"
    )]
    Flag {
        /// The flag, e.g. `--output`.
        flag: &'static str,
    },
}

/// Refuses the flags of `command` that `sandbox` does not allow, and the
/// paths of `check` outside it (`pack` and `count` paths are checked by
/// the walk, each as it is found).
///
/// # Errors
/// The first [`AdmitError`].
pub fn admit(sandbox: &Sandbox, command: &Command) -> Result<(), AdmitError> {
    match command {
        Command::Pack(args) => admit_pack(sandbox, args),
        Command::Count(args) => admit_input(sandbox, &args.input),
        Command::Check(args) => admit_check(sandbox, args),
        #[cfg(feature = "mcp")]
        Command::Mcp(_) => Ok(()),
    }
}

fn admit_pack(sandbox: &Sandbox, args: &PackArgs) -> Result<(), AdmitError> {
    if args.output.is_some() {
        return Err(AdmitError::Flag { flag: "--output" });
    }
    if args.report.as_deref().is_some_and(|p| p.as_os_str() != "-") {
        return Err(AdmitError::Flag { flag: "--report" });
    }
    admit_input(sandbox, &args.input)
}

fn admit_input(sandbox: &Sandbox, input: &InputArgs) -> Result<(), AdmitError> {
    if let Some(list) = input.files_from.as_deref().filter(|p| p.as_os_str() != "-") {
        sandbox.check(list)?;
    }
    admit_model(&input.model)
}

fn admit_check(sandbox: &Sandbox, args: &CheckArgs) -> Result<(), AdmitError> {
    admit_model(&args.model)?;
    sandbox.check(&args.model_config)?;
    sandbox.check(&args.prompts)?;
    let current = [PathBuf::from(".")];
    let pipelines = if args.pipelines.is_empty() {
        &current[..]
    } else {
        &args.pipelines[..]
    };
    pipelines
        .iter()
        .try_for_each(|path| sandbox.check(path))
        .map_err(AdmitError::from)
}

/// `--tokenizer`, `--models` and `--models-dir` read files a sandbox does
/// not vouch for.
fn admit_model(model: &ModelArgs) -> Result<(), AdmitError> {
    if model.models_dir.is_some() {
        return Err(AdmitError::Flag {
            flag: "--models-dir",
        });
    }
    if model.tokenizer.is_some() {
        return Err(AdmitError::Flag {
            flag: "--tokenizer",
        });
    }
    if model.models.is_some() {
        return Err(AdmitError::Flag { flag: "--models" });
    }
    Ok(())
}
