//! `budget.toml`: defaults for every flag, per subcommand.
//!
//! ```toml
//! [pack]
//! budget = 50000
//! exclude = ["target/**", "*.lock"]
//! meta = true
//!
//! [count]
//! counter = "calibrated"
//! ```
//!
//! Each key of a `[pack]`, `[count]` or `[check]` table is a long flag of
//! that subcommand (`max-file-bytes` or `max_file_bytes`); a string or
//! number is its value, `true` turns a switch on (`false` leaves it off),
//! and an array repeats the flag.
//!
//! Two files are read, as cargo and git tell trusted from untrusted
//! configuration:
//!
//! * the user's own, `$XDG_CONFIG_HOME/budget/budget.toml` (else
//!   `~/.config/budget/budget.toml`), or `--config FILE` in its place: it
//!   may set every flag;
//! * the project's, `budget.toml` in the packed directory (the first PATH of
//!   `pack` and `count` when it is a directory, else the current
//!   directory): it comes with the material, perhaps from a repository just
//!   cloned, so it may set only the flags in [`PROJECT_KEYS`], none of
//!   which names a file to read or write.
//!
//! The project's flags come after the user's, and flags on the command line
//! after both, so the command line wins. `--no-config` reads neither;
//! `--sandbox` reads the project's file only.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use budget::file::{ReadError, read_text};

use clap::CommandFactory;

use crate::cli::Cli;

/// The config file's name: the pack engine leaves it out at the root it
/// walks.
pub const FILE_NAME: &str = budget_pack::CONFIG_FILE;

/// Larger config files are refused.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The flags a project's `budget.toml` may set: none names a file, so a
/// packed repository cannot choose what is read or written outside it.
/// Flags that name files (`output`, `report`, `tokenizer`, `models`,
/// `model-config`, `prompts`, `files-from`) come from the command line or
/// the user's config.
pub const PROJECT_KEYS: &[&str] = &[
    "budget",
    "query",
    "include",
    "exclude",
    "format",
    "counter",
    "model",
    "max-file-bytes",
    "meta",
    "no-tree",
    "fetch-tool",
    "order",
    "fail-over",
    "redact",
    "diff",
    "log",
    "tree",
    "depth",
    "policy",
    "format-overhead",
];

/// Who wrote a config file, which decides the flags it may set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Trust {
    /// The user's own config or `--config FILE`: every flag.
    User,
    /// A `budget.toml` found with the material: [`PROJECT_KEYS`] only.
    Project,
}

/// Why a config file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// It could not be read (missing, not a regular file, larger than
    /// 1 MiB, not UTF-8).
    #[error("config {path}: {source}")]
    Unreadable {
        /// The file.
        path: String,
        /// Why.
        source: ReadError,
    },
    /// A project's `budget.toml` sets a flag that names a file.
    #[error(
        "config {path}:{line}: a project's budget.toml may not set `{key}` (it names a file, which could be outside the project); give it on the command line, with --config FILE or in your own config ({user}), or pass --no-config"
    )]
    NotForProjects {
        /// The file.
        path: String,
        /// Its line (1-based; 0 when not found).
        line: usize,
        /// The key.
        key: String,
        /// Where the user's own config is looked for.
        user: String,
    },
    /// `--config` and `--sandbox` together.
    #[error(
        "--config cannot be used with --sandbox: a sandbox reads only the project's budget.toml"
    )]
    ConfigInSandbox,
    /// It is not valid TOML.
    #[error("config {path}:{line}: invalid TOML: {message}")]
    Invalid {
        /// The file.
        path: String,
        /// The line of the error (1-based; 0 when unknown).
        line: usize,
        /// The parser's message.
        message: String,
    },
    /// A table that names no subcommand.
    #[error("config {path}:{line}: unknown table [{name}]{}", suggestion(.closest.as_deref()))]
    UnknownTable {
        /// The file.
        path: String,
        /// Its line (1-based; 0 when not found).
        line: usize,
        /// The name.
        name: String,
        /// The closest subcommand.
        closest: Option<String>,
    },
    /// A key that names no flag of its table's subcommand.
    #[error("config {path}:{line}: unknown key `{name}` in [{table}]{}", suggestion(.closest.as_deref()))]
    UnknownKey {
        /// The file.
        path: String,
        /// Its line (1-based; 0 when not found).
        line: usize,
        /// The table.
        table: String,
        /// The key.
        name: String,
        /// The closest flag of the subcommand.
        closest: Option<String>,
    },
    /// A value of a type no flag takes (a table, a date, a nested array).
    #[error(
        "config {path}:{line}: `{key}` in [{table}] must be a string, number, boolean or array of those"
    )]
    BadValue {
        /// The file.
        path: String,
        /// Its line (1-based; 0 when not found).
        line: usize,
        /// The table.
        table: String,
        /// The key.
        key: String,
    },
}

fn suggestion(closest: Option<&str>) -> String {
    closest.map_or_else(String::new, |name| format!(" (did you mean `{name}`?)"))
}

/// `args` (the whole command line, program name first) with the config's
/// flags for the subcommand inserted right after the subcommand's name, so
/// flags given on the command line win. Unchanged when there is no config
/// or no subcommand (clap then reports what is wrong).
///
/// # Errors
/// [`ConfigError`] for a config that cannot be read or parsed, or that
/// names an unknown table, an unknown flag or a value of the wrong type.
pub fn with_config_defaults(args: Vec<OsString>) -> Result<Vec<OsString>, ConfigError> {
    let command = Cli::command().ignore_errors(true);
    let Ok(matches) = command.try_get_matches_from(&args) else {
        return Ok(args);
    };
    let Some((subcommand, sub)) = matches.subcommand() else {
        return Ok(args);
    };
    if sub.get_flag("no_config") {
        return Ok(args);
    }
    let sandboxed = sub
        .try_get_many::<PathBuf>("sandbox")
        .ok()
        .flatten()
        .is_some_and(|mut dirs| dirs.next().is_some());
    let explicit = sub.get_one::<PathBuf>("config");
    if sandboxed && explicit.is_some() {
        return Err(ConfigError::ConfigInSandbox);
    }
    let mut files: Vec<(PathBuf, Trust)> = Vec::new();
    match explicit {
        Some(path) => files.push((path.clone(), Trust::User)),
        None if !sandboxed => {
            if let Some(path) = user_config().filter(|path| path.is_file()) {
                files.push((path, Trust::User));
            }
        }
        None => {}
    }
    if explicit.is_none() {
        let root = sub
            .try_get_many::<PathBuf>("paths")
            .ok()
            .flatten()
            .and_then(|mut paths| paths.next().cloned())
            .filter(|path| path.is_dir())
            .unwrap_or_else(|| PathBuf::from("."));
        let path = root.join(FILE_NAME);
        if path.is_file() {
            files.push((path, Trust::Project));
        }
    }
    let mut flags = Vec::new();
    for (path, trust) in &files {
        flags.extend(config_flags(path, subcommand, *trust)?);
    }
    let Some(at) = args.iter().position(|arg| arg == subcommand) else {
        return Ok(args);
    };
    let mut out = args;
    out.splice(at + 1..at + 1, flags);
    Ok(out)
}

/// Where the user's own config is: `$XDG_CONFIG_HOME/budget/budget.toml`,
/// else `$HOME/.config/budget/budget.toml`.
pub fn user_config() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(base.join("budget").join(FILE_NAME))
}

/// The flags `[subcommand]` of the config at `path` gives, after checking
/// every table and key of the file against what `trust` allows.
fn config_flags(path: &Path, subcommand: &str, trust: Trust) -> Result<Vec<OsString>, ConfigError> {
    let shown = path.display().to_string();
    let text = read_text(path, MAX_CONFIG_BYTES).map_err(|source| ConfigError::Unreadable {
        path: shown.clone(),
        source,
    })?;
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| ConfigError::Invalid {
            path: shown.clone(),
            line: e.span().map_or(0, |span| {
                text[..span.start.min(text.len())].matches('\n').count() + 1
            }),
            message: e.message().to_owned(),
        })?;
    let command = Cli::command();
    let subcommands: Vec<&str> = command
        .get_subcommands()
        .map(clap::Command::get_name)
        .collect();
    let mut flags = Vec::new();
    for (name, value) in &table {
        let unknown_table = || ConfigError::UnknownTable {
            path: shown.clone(),
            line: line_of(&text, None, name),
            name: name.clone(),
            closest: closest(name, &subcommands),
        };
        let Some(sub) = command.find_subcommand(name) else {
            return Err(unknown_table());
        };
        let toml::Value::Table(keys) = value else {
            return Err(unknown_table());
        };
        let known: Vec<&str> = sub
            .get_arguments()
            .filter_map(clap::Arg::get_long)
            .filter(|long| {
                !matches!(
                    *long,
                    "config" | "no-config" | "sandbox" | "help" | "version"
                )
            })
            .collect();
        for (key, value) in keys {
            let flag = key.replace('_', "-");
            if !known.contains(&flag.as_str()) {
                return Err(ConfigError::UnknownKey {
                    path: shown.clone(),
                    line: line_of(&text, Some(name), key),
                    table: name.clone(),
                    name: key.clone(),
                    closest: closest(&flag, &known),
                });
            }
            if trust == Trust::Project && !PROJECT_KEYS.contains(&flag.as_str()) {
                return Err(ConfigError::NotForProjects {
                    path: shown.clone(),
                    line: line_of(&text, Some(name), key),
                    key: key.clone(),
                    user: user_config()
                        .map_or_else(|| "none found".to_owned(), |p| p.display().to_string()),
                });
            }
            let bad_value = || ConfigError::BadValue {
                path: shown.clone(),
                line: line_of(&text, Some(name), key),
                table: name.clone(),
                key: key.clone(),
            };
            let values = match value {
                toml::Value::Array(values) => values.iter().collect(),
                other => vec![other],
            };
            for value in values {
                let arg = match value {
                    toml::Value::Boolean(false) => continue,
                    toml::Value::Boolean(true) => format!("--{flag}"),
                    toml::Value::String(s) => format!("--{flag}={s}"),
                    toml::Value::Integer(n) => format!("--{flag}={n}"),
                    toml::Value::Float(x) => format!("--{flag}={x}"),
                    _ => return Err(bad_value()),
                };
                if name == subcommand {
                    flags.push(OsString::from(arg));
                }
            }
        }
    }
    Ok(flags)
}

/// The closest of `known` to `name` ([`budget_rules::closest`]).
fn closest(name: &str, known: &[&str]) -> Option<String> {
    budget_rules::closest(name, known.iter().copied()).map(str::to_owned)
}

/// The line (1-based) where `key` is set in `table` (`None`: a top-level
/// table header `[key]`), or 0 when not found.
fn line_of(text: &str, table: Option<&str>, key: &str) -> usize {
    let mut current: Option<String> = None;
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_end_matches(']').trim();
            if table.is_none() && header == key {
                return index + 1;
            }
            current = Some(header.to_owned());
            continue;
        }
        let Some((name, _)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim().trim_matches('"');
        match table {
            Some(t) if current.as_deref() == Some(t) && name == key => return index + 1,
            None if current.is_none() && name == key => return index + 1,
            _ => {}
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_found_in_their_table() {
        let text = "[pack]\nbudget = 1\n\n[count]\nbudget = 2\n\"counter\" = \"ratios\"\n";
        assert_eq!(line_of(text, Some("count"), "budget"), 5);
        assert_eq!(line_of(text, Some("count"), "counter"), 6);
        assert_eq!(line_of(text, None, "count"), 4);
        assert_eq!(line_of(text, Some("check"), "budget"), 0);
    }

    #[test]
    fn suggestions_are_close_names() {
        assert_eq!(
            closest("budgte", &["budget", "query"]).as_deref(),
            Some("budget")
        );
        assert_eq!(
            closest("exclud", &["include", "exclude"]).as_deref(),
            Some("exclude")
        );
        assert_eq!(closest("zzz", &["budget"]), None);
    }
}
