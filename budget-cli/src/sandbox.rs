//! `--sandbox DIR`: the directories a command may read, and the flags it
//! may not use. `budget mcp` runs every tool in one, so that a client (or a
//! prompt injected into it) cannot make the tool read or write anything
//! outside the served root.

use std::path::{Path, PathBuf};

use crate::cli::{CheckArgs, Command, InputArgs, ModelArgs, PackArgs};

/// The directories a sandboxed command stays in, resolved (symbolic links
/// included).
#[derive(Clone, Debug)]
pub struct Sandbox {
    roots: Vec<PathBuf>,
}

/// Why a sandboxed command was refused.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// A `--sandbox` directory cannot be resolved.
    #[error("--sandbox {}: cannot resolve it", dir.display())]
    Root {
        /// The directory as given.
        dir: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A path resolves outside every sandbox directory.
    #[error("{} is outside the sandbox ({roots}): only files under it can be read", path.display())]
    Outside {
        /// The path as given.
        path: PathBuf,
        /// The sandbox directories, joined by `, `.
        roots: String,
    },
    /// A path cannot be resolved (missing, or a component cannot be read).
    #[error("{} does not exist or cannot be resolved", path.display())]
    Unresolvable {
        /// The path as given.
        path: PathBuf,
    },
    /// A flag that names a file to write, or one to read from elsewhere.
    #[error(
        "{flag} cannot be used with --sandbox: it names a file to write or to read outside the sandbox"
    )]
    Flag {
        /// The flag, e.g. `--output`.
        flag: &'static str,
    },
}

impl Sandbox {
    /// The sandbox of `dirs`; `None` when there are none (no sandbox).
    ///
    /// # Errors
    /// [`SandboxError::Root`] when a directory cannot be resolved.
    pub fn new(dirs: &[PathBuf]) -> Result<Option<Self>, SandboxError> {
        if dirs.is_empty() {
            return Ok(None);
        }
        let roots = dirs
            .iter()
            .map(|dir| {
                std::fs::canonicalize(dir).map_err(|source| SandboxError::Root {
                    dir: dir.clone(),
                    source,
                })
            })
            .collect::<Result<_, _>>()?;
        Ok(Some(Self { roots }))
    }

    /// The resolved sandbox directories.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Whether `path` (resolved: `..` and symbolic links followed) lies
    /// inside one of the sandbox directories.
    ///
    /// # Errors
    /// [`SandboxError::Outside`] when it does not,
    /// [`SandboxError::Unresolvable`] when it cannot be resolved.
    pub fn check(&self, path: &Path) -> Result<(), SandboxError> {
        let resolved = std::fs::canonicalize(path).map_err(|_| SandboxError::Unresolvable {
            path: path.to_path_buf(),
        })?;
        if self.roots.iter().any(|root| resolved.starts_with(root)) {
            Ok(())
        } else {
            Err(SandboxError::Outside {
                path: path.to_path_buf(),
                roots: self
                    .roots
                    .iter()
                    .map(|r| r.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }

    /// Refuses the flags of `command` that a sandbox does not allow, and the
    /// paths of `check` outside it (`pack` and `count` paths are checked by
    /// the walk, each as it is found).
    ///
    /// # Errors
    /// The first [`SandboxError`].
    pub fn admit(&self, command: &Command) -> Result<(), SandboxError> {
        match command {
            Command::Pack(args) => self.admit_pack(args),
            Command::Count(args) => self.admit_input(&args.input),
            Command::Check(args) => self.admit_check(args),
            #[cfg(feature = "mcp")]
            Command::Mcp(_) => Ok(()),
        }
    }

    fn admit_pack(&self, args: &PackArgs) -> Result<(), SandboxError> {
        if args.output.is_some() {
            return Err(SandboxError::Flag { flag: "--output" });
        }
        if args.report.as_deref().is_some_and(|p| p.as_os_str() != "-") {
            return Err(SandboxError::Flag { flag: "--report" });
        }
        self.admit_input(&args.input)
    }

    fn admit_input(&self, input: &InputArgs) -> Result<(), SandboxError> {
        if let Some(list) = input.files_from.as_deref().filter(|p| p.as_os_str() != "-") {
            self.check(list)?;
        }
        admit_model(&input.model)
    }

    fn admit_check(&self, args: &CheckArgs) -> Result<(), SandboxError> {
        admit_model(&args.model)?;
        self.check(&args.model_config)?;
        self.check(&args.prompts)?;
        let current = [PathBuf::from(".")];
        let pipelines = if args.pipelines.is_empty() {
            &current[..]
        } else {
            &args.pipelines[..]
        };
        pipelines.iter().try_for_each(|path| self.check(path))
    }
}

/// `--tokenizer`, `--models` and `--models-dir` read files a sandbox does
/// not vouch for.
fn admit_model(model: &ModelArgs) -> Result<(), SandboxError> {
    if model.models_dir.is_some() {
        return Err(SandboxError::Flag {
            flag: "--models-dir",
        });
    }
    if model.tokenizer.is_some() {
        return Err(SandboxError::Flag {
            flag: "--tokenizer",
        });
    }
    if model.models.is_some() {
        return Err(SandboxError::Flag { flag: "--models" });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_resolve_before_they_are_judged() {
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("inside");
        std::fs::create_dir(&inside).unwrap();
        std::fs::write(dir.path().join("outside.txt"), "x").unwrap();
        std::fs::write(inside.join("a.txt"), "x").unwrap();
        let sandbox = Sandbox::new(std::slice::from_ref(&inside))
            .unwrap()
            .unwrap();
        assert!(sandbox.check(&inside.join("a.txt")).is_ok());
        assert!(matches!(
            sandbox.check(&inside.join("../outside.txt")),
            Err(SandboxError::Outside { .. })
        ));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("outside.txt"), inside.join("link"))
                .unwrap();
            assert!(matches!(
                sandbox.check(&inside.join("link")),
                Err(SandboxError::Outside { .. })
            ));
        }
        assert!(matches!(
            sandbox.check(&inside.join("missing")),
            Err(SandboxError::Unresolvable { .. })
        ));
        assert!(Sandbox::new(&[]).unwrap().is_none());
    }
}
