//! The contract's reads of pipelines, model configs and prompts: the
//! runtime's bounded reads of regular files ([`budget_runtime::file`]),
//! with the contract's size cap.

use std::path::Path;

use budget_runtime::file::{ReadError, read_text};

/// The largest configuration file (pipeline, model config, prompt) the
/// contract reads, in bytes: 16 MiB. Larger files are rejected with
/// [`ReadError::TooLarge`] before their content is read.
pub const MAX_CONFIG_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads the UTF-8 text of the regular file at `path`, at most
/// [`MAX_CONFIG_FILE_BYTES`]; a FIFO, device or directory is an immediate
/// error.
///
/// ```
/// use budget::contract::read_config_file;
///
/// let path = std::env::temp_dir().join(format!("budget-doc-read-{}.txt", std::process::id()));
/// std::fs::write(&path, "max_context_tokens: 5000\n")?;
/// assert_eq!(read_config_file(&path)?, "max_context_tokens: 5000\n");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ReadError`]: I/O, not a regular file, too large, or not UTF-8.
pub fn read_config_file(path: &Path) -> Result<String, ReadError> {
    read_text(path, MAX_CONFIG_FILE_BYTES)
}
