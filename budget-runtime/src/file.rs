//! Bounded, safe reads of the files a user or a configuration names
//! (tokenizers, model profiles, pipelines, model configs, prompts): regular
//! files only, with a size cap, never blocking on a FIFO or a device, and
//! errors that say what the file is without quoting what it holds.

use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use thiserror::Error;

/// What a path that is not a regular file turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FileKind {
    /// A directory.
    Directory,
    /// A named pipe.
    Fifo,
    /// A character or block device.
    Device,
    /// A Unix socket.
    Socket,
    /// Anything else that is not a regular file.
    Other,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FileKind::Directory => "a directory",
            FileKind::Fifo => "a FIFO",
            FileKind::Device => "a device",
            FileKind::Socket => "a socket",
            FileKind::Other => "not a regular file",
        })
    }
}

/// Why a file could not be read. No variant carries the file's content.
///
/// ```
/// use budget::file::{FileKind, ReadError, read_text};
///
/// let dir = std::env::temp_dir();
/// let err = read_text(&dir, 1024).unwrap_err();
/// assert!(matches!(err, ReadError::NotRegular { kind: FileKind::Directory }));
/// assert_eq!(err.to_string(), "it is a directory, not a regular file");
/// ```
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Opening or reading failed (missing file, permissions, …).
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The path is a directory, FIFO, device or socket.
    #[error("it is {kind}, not a regular file")]
    NotRegular {
        /// What it is.
        kind: FileKind,
    },
    /// The file is larger than the caller's limit.
    #[error("it is {size_bytes} bytes, more than the limit of {limit_bytes} bytes")]
    TooLarge {
        /// Its size in bytes (at least `limit_bytes + 1` when it grew while read).
        size_bytes: u64,
        /// The limit in bytes.
        limit_bytes: u64,
    },
    /// The content is not UTF-8.
    #[error("it is not valid UTF-8 (first invalid byte at offset {offset})")]
    NotUtf8 {
        /// Byte offset of the first invalid sequence.
        offset: usize,
    },
}

impl ReadError {
    /// Whether the file does not exist.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

/// Reads the UTF-8 text of the regular file at `path`, at most
/// `limit_bytes` bytes.
///
/// The file is opened without blocking (`O_NONBLOCK` on Unix), and the type
/// is checked on the opened handle, so a FIFO, device or directory is an
/// immediate error even if the path is swapped between a check and the open.
///
/// ```
/// use budget::file::{ReadError, read_text};
///
/// let path = std::env::temp_dir().join(format!("budget-doc-read-{}.txt", std::process::id()));
/// std::fs::write(&path, "max_context_tokens: 5000\n")?;
/// assert_eq!(read_text(&path, 1024)?, "max_context_tokens: 5000\n");
/// assert!(matches!(read_text(&path, 10), Err(ReadError::TooLarge { limit_bytes: 10, .. })));
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ReadError`]: I/O, not a regular file, too large, or not UTF-8.
pub fn read_text(path: &Path, limit_bytes: u64) -> Result<String, ReadError> {
    let bytes = read_bytes(path, limit_bytes)?;
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8 {
        offset: e.utf8_error().valid_up_to(),
    })
}

/// [`read_text`] for a file that need not be text: its bytes, at most
/// `limit_bytes`.
///
/// # Errors
/// [`ReadError`]: I/O, not a regular file, or too large.
pub fn read_bytes(path: &Path, limit_bytes: u64) -> Result<Vec<u8>, ReadError> {
    let file = open_regular(path)?;
    let metadata = file.metadata()?;
    if metadata.len() > limit_bytes {
        return Err(ReadError::TooLarge {
            size_bytes: metadata.len(),
            limit_bytes,
        });
    }
    let mut bytes = Vec::new();
    file.take(limit_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if read > limit_bytes {
        return Err(ReadError::TooLarge {
            size_bytes: read,
            limit_bytes,
        });
    }
    Ok(bytes)
}

/// The regular file at `path`, opened for reading without blocking on a
/// FIFO or device, which are refused.
pub(crate) fn open_regular(path: &Path) -> Result<File, ReadError> {
    let file = open_nonblocking(path)?;
    let file_type = file.metadata()?.file_type();
    if !file_type.is_file() {
        return Err(ReadError::NotRegular {
            kind: kind_of(&file_type),
        });
    }
    Ok(file)
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    // No FIFOs to block on; directories are rejected by the type check.
    File::open(path)
}

#[cfg(unix)]
fn kind_of(file_type: &std::fs::FileType) -> FileKind {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_dir() {
        FileKind::Directory
    } else if file_type.is_fifo() {
        FileKind::Fifo
    } else if file_type.is_char_device() || file_type.is_block_device() {
        FileKind::Device
    } else if file_type.is_socket() {
        FileKind::Socket
    } else {
        FileKind::Other
    }
}

#[cfg(not(unix))]
fn kind_of(file_type: &std::fs::FileType) -> FileKind {
    if file_type.is_dir() {
        FileKind::Directory
    } else {
        FileKind::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_is_enforced_on_size_and_content() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.yaml");
        std::fs::write(&path, "x".repeat(11)).unwrap();
        let err = read_text(&path, 10).unwrap_err();
        assert!(
            matches!(
                err,
                ReadError::TooLarge {
                    size_bytes: 11,
                    limit_bytes: 10
                }
            ),
            "{err:?}"
        );
        assert_eq!(read_text(&path, 11).unwrap().len(), 11);
    }

    #[test]
    fn invalid_utf8_names_the_offset() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.txt");
        std::fs::write(&path, b"ok\xffno").unwrap();
        let err = read_text(&path, 1024).unwrap_err();
        assert!(matches!(err, ReadError::NotUtf8 { offset: 2 }), "{err:?}");
    }

    #[cfg(unix)]
    #[test]
    fn device_is_rejected_without_reading() {
        let err = read_text(Path::new("/dev/zero"), 1024).unwrap_err();
        assert!(
            matches!(
                err,
                ReadError::NotRegular {
                    kind: FileKind::Device
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn missing_file_is_not_found() {
        let err = read_text(Path::new("/no/such/file.yaml"), 1024).unwrap_err();
        assert!(err.is_not_found());
    }
}
