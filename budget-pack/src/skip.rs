//! Why an input file is not packed or counted: one counter per reason.

use std::fmt;

use serde::Serialize;

/// The reason an input file was left out. Every input file is either
/// counted (and, in `pack`, handed to the payload) or has exactly one of
/// these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Skip {
    /// Byte-identical to a file already packed (`pack` only).
    Duplicate,
    /// A NUL byte in the first 8 KiB, or not UTF-8.
    Binary,
    /// Larger than [`Inputs::max_file_bytes`](crate::Inputs::max_file_bytes) (default [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES)).
    TooLarge,
    /// Reading it (or its directory) failed.
    Unreadable,
    /// Empty or only whitespace.
    Empty,
    /// A symbolic link (links are not followed).
    Symlink,
    /// A FIFO, socket or device: never opened.
    SpecialFile,
    /// Left out by an [`Inputs::include`](crate::Inputs::include) or
    /// [`Inputs::exclude`](crate::Inputs::exclude) glob.
    ExcludedByGlob,
    /// It holds a secret (a private key, a credential): never packed.
    Secret,
}

impl Skip {
    /// Every reason, in report order.
    pub const ALL: [Self; 9] = [
        Self::Duplicate,
        Self::Binary,
        Self::TooLarge,
        Self::Unreadable,
        Self::Empty,
        Self::Symlink,
        Self::SpecialFile,
        Self::ExcludedByGlob,
        Self::Secret,
    ];

    /// The reason as JSON spells it (`too_large`, …).
    pub fn key(self) -> &'static str {
        match self {
            Self::Duplicate => "duplicate",
            Self::Binary => "binary",
            Self::TooLarge => "too_large",
            Self::Unreadable => "unreadable",
            Self::Empty => "empty",
            Self::Symlink => "symlink",
            Self::SpecialFile => "special_file",
            Self::ExcludedByGlob => "excluded_by_glob",
            Self::Secret => "secret",
        }
    }

    fn index(self) -> usize {
        Self::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }
}

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Duplicate => "duplicate",
            Self::Binary => "binary",
            Self::TooLarge => "too large",
            Self::Unreadable => "unreadable",
            Self::Empty => "empty",
            Self::Symlink => "symlink",
            Self::SpecialFile => "special file",
            Self::ExcludedByGlob => "excluded by a glob",
            Self::Secret => "secret",
        })
    }
}

/// How many input files were counted and how many were skipped per reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FileTally {
    /// Files read and counted (in `pack`: handed to the payload).
    pub counted: usize,
    skipped: [usize; Skip::ALL.len()],
}

impl FileTally {
    /// Records one skipped file.
    pub fn skip(&mut self, skip: Skip) {
        self.skipped[skip.index()] += 1;
    }

    /// Moves one file skipped for `from` to `to`.
    pub(crate) fn reclassify(&mut self, from: Skip, to: Skip) {
        self.skipped[from.index()] -= 1;
        self.skipped[to.index()] += 1;
    }

    /// Files skipped for `skip`.
    pub fn skipped(&self, skip: Skip) -> usize {
        self.skipped[skip.index()]
    }

    /// Every input file: counted plus skipped.
    pub fn inputs(&self) -> usize {
        self.counted + self.skipped.iter().sum::<usize>()
    }

    /// `(reason, files)` for every reason with at least one file.
    pub fn nonzero(&self) -> impl Iterator<Item = (Skip, usize)> + '_ {
        Skip::ALL
            .into_iter()
            .map(|s| (s, self.skipped(s)))
            .filter(|&(_, n)| n > 0)
    }

    /// The JSON object: `counted` and one key per reason (zeros included).
    pub fn json(&self, counted_key: &str) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert(counted_key.to_owned(), self.counted.into());
        for skip in Skip::ALL {
            map.insert(skip.key().to_owned(), self.skipped(skip).into());
        }
        serde_json::Value::Object(map)
    }
}

impl fmt::Display for FileTally {
    /// `3 binary, 1 symlink` or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut any = false;
        for (skip, n) in self.nonzero() {
            if any {
                f.write_str(", ")?;
            }
            any = true;
            write!(f, "{n} {skip}")?;
        }
        if !any {
            f.write_str("none")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tally_counts_each_reason_once() {
        let mut tally = FileTally {
            counted: 2,
            ..FileTally::default()
        };
        tally.skip(Skip::Binary);
        tally.skip(Skip::Binary);
        tally.skip(Skip::SpecialFile);
        assert_eq!(tally.inputs(), 5);
        assert_eq!(tally.to_string(), "2 binary, 1 special file");
        let json = tally.json("packed");
        assert_eq!(json["packed"], 2);
        assert_eq!(json["binary"], 2);
        assert_eq!(json["excluded_by_glob"], 0);
    }
}
