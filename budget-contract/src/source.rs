//! Where a configuration value came from: file, line and column.

use std::fmt;
use std::path::{Path, PathBuf};

/// A position in a configuration file; line and column are 1-based and
/// absent when unknown. Displays as `path:line:column`, `path:line` or `path`.
///
/// ```
/// use budget::contract::SourceLocation;
///
/// assert_eq!(SourceLocation::at("p.yaml", 3, 5).to_string(), "p.yaml:3:5");
/// assert_eq!(SourceLocation::file("p.yaml").to_string(), "p.yaml");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SourceLocation {
    /// The file.
    pub path: PathBuf,
    /// 1-based line, if known.
    pub line: Option<u64>,
    /// 1-based column (characters), if known.
    pub column: Option<u64>,
}

impl SourceLocation {
    /// A whole file, without a line.
    pub fn file(path: impl Into<PathBuf>) -> Self {
        Self {
            path: path.into(),
            line: None,
            column: None,
        }
    }

    /// A line and column in `path`; a 0 line or column means unknown.
    pub fn at(path: impl Into<PathBuf>, line: u64, column: u64) -> Self {
        Self {
            path: path.into(),
            line: (line > 0).then_some(line),
            column: (line > 0 && column > 0).then_some(column),
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        Ok(())
    }
}

/// A configuration value together with where it was written, so that
/// validation errors can point at the file and line.
///
/// ```
/// use budget::contract::{SourceLocation, Sourced};
///
/// let v = Sourced { value: 6_000_i64, location: SourceLocation::at("base.yaml", 4, 23) };
/// assert_eq!(v.value, 6_000);
/// assert_eq!(v.location.line, Some(4));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Sourced<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub location: SourceLocation,
}
