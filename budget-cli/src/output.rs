//! Writing a command's result to stdout or a file.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The result could not be written.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// Writing the `-o` file failed.
    #[error("cannot write {}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Writing stdout failed (other than a closed pipe).
    #[error("cannot write to stdout")]
    Stdout(#[source] std::io::Error),
}

/// Writes `text` to `path`, or to stdout without one. A reader that closes
/// the pipe early (`budget pack | head`) is not an error.
pub fn write(text: &str, path: Option<&Path>) -> Result<(), OutputError> {
    match path {
        Some(path) => std::fs::write(path, text).map_err(|source| OutputError::File {
            path: path.to_path_buf(),
            source,
        }),
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(OutputError::Stdout(e)),
                _ => Ok(()),
            }
        }
    }
}
