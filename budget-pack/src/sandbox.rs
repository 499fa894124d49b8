//! [`Sandbox`]: the directories a pack may read, for callers that serve
//! someone else (an MCP client, a model's tool call).

use std::path::{Path, PathBuf};

/// The directories a walk stays in, resolved (symbolic links included):
/// every path given and every file found must resolve inside one of them.
#[derive(Clone, Debug)]
pub struct Sandbox {
    roots: Vec<PathBuf>,
}

/// A path a sandbox refused, or a sandbox directory that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// A sandbox directory cannot be resolved.
    #[error("cannot resolve the sandbox directory {}", dir.display())]
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
}

impl Sandbox {
    /// The sandbox of `dirs`; `None` when there are none (no sandbox).
    ///
    /// ```
    /// use budget_pack::Sandbox;
    ///
    /// let dir = std::env::temp_dir();
    /// let sandbox = Sandbox::new(&[dir.clone()])?.unwrap();
    /// assert!(sandbox.check(&dir).is_ok());
    /// assert!(sandbox.check(std::path::Path::new("/")).is_err() || dir == std::path::Path::new("/"));
    /// # Ok::<(), budget_pack::SandboxError>(())
    /// ```
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
