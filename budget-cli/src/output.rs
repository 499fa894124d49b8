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
    /// Standard output is not open (`budget pack >&-`): the result would be
    /// lost, as the standard library drops writes to a closed stdout.
    #[error("cannot write to stdout: it is closed (write to a file with -o FILE)")]
    StdoutClosed,
}

/// Fails when standard output was closed when the program started
/// (`budget pack >&-`). The standard library then opens `/dev/null` on
/// descriptor 1, read-write, so the output would vanish and the command
/// would report success; a shell's `>/dev/null` opens it write-only, which
/// stays allowed. Detected on Linux (through `/proc/self`); elsewhere
/// nothing is checked.
pub fn ensure_stdout_open() -> Result<(), OutputError> {
    if stdout_was_closed() {
        return Err(OutputError::StdoutClosed);
    }
    Ok(())
}

#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    let null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|t| t == Path::new("/dev/null"));
    let read_write = || {
        let info = std::fs::read_to_string("/proc/self/fdinfo/1").ok()?;
        let flags = info.lines().find_map(|line| line.strip_prefix("flags:"))?;
        let flags = u32::from_str_radix(flags.trim(), 8).ok()?;
        Some(flags & 0o3 == 0o2) // O_ACCMODE == O_RDWR
    };
    null && read_write().unwrap_or(false)
}

#[cfg(not(target_os = "linux"))]
fn stdout_was_closed() -> bool {
    false
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
