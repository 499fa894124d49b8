//! Finding the input files: every path given, walked with `.gitignore`
//! honoured and hidden files left out (ripgrep's rules), with the
//! [`Inputs::include`] / [`Inputs::exclude`] globs applied on top so that each file they
//! leave out is still counted.

use std::collections::HashSet;
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use budget_runtime::file::{ReadError, read_bytes};
use ignore::Match;
use ignore::overrides::{Override, OverrideBuilder};

use crate::progress::Progress;
use crate::sandbox::{Sandbox, SandboxError};
use crate::scan::MAX_FILE_BYTES;
use crate::skip::Skip;

/// The largest list of paths ([`Inputs::files_from`]) read (bytes): 16 MiB.
const MAX_LIST_BYTES: u64 = 16 * 1024 * 1024;

/// The files to read: paths walked with `.gitignore` honoured and hidden
/// files left out, globs on top, a size limit and an optional sandbox.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// Files or directories; the current directory when empty.
    pub paths: Vec<PathBuf>,
    /// Only files matching one of these (gitignore syntax) are inputs.
    pub include: Vec<String>,
    /// Files matching one of these (gitignore syntax) are left out.
    pub exclude: Vec<String>,
    /// The list to read the paths from (`-`: stdin), and
    /// whether they are NUL-separated; replaces `paths`.
    pub files_from: Option<(PathBuf, bool)>,
    /// Every path walked must resolve inside it.
    pub sandbox: Option<Sandbox>,
    /// Files larger than this many bytes are skipped (default
    /// [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES)).
    pub max_file_bytes: u64,
}

impl Default for Inputs {
    /// The current directory, no globs, no sandbox, [`MAX_FILE_BYTES`](crate::MAX_FILE_BYTES).
    fn default() -> Self {
        Self {
            paths: Vec::new(),
            include: Vec::new(),
            exclude: Vec::new(),
            files_from: None,
            sandbox: None,
            max_file_bytes: MAX_FILE_BYTES,
        }
    }
}

/// A path or glob given is unusable.
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    /// A path does not exist.
    #[error("{} does not exist", path.display())]
    Missing {
        /// The path as given.
        path: PathBuf,
    },
    /// A path exists but cannot be examined.
    #[error("cannot access {}", path.display())]
    Inaccessible {
        /// The path as given.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A path names a FIFO, socket or device.
    #[error("{} is a FIFO, socket or device, not a file or directory: not opened", path.display())]
    Special {
        /// The path as given.
        path: PathBuf,
    },
    /// A path is outside the sandbox.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// The list of paths ([`Inputs::files_from`]) cannot be read.
    #[error("the list of paths {}: {source}", path.display())]
    List {
        /// The list.
        path: PathBuf,
        /// Why.
        #[source]
        source: ReadError,
    },
    /// A path in the list of paths leaves the current directory.
    #[error("the list of paths, line {line}: paths must be inside the current directory")]
    ListedOutside {
        /// The entry's line (or NUL-separated field), from 1.
        line: usize,
    },
    /// A glob does not parse.
    #[error("invalid glob {glob:?}")]
    Glob {
        /// The glob as given.
        glob: String,
        /// The parser's complaint.
        #[source]
        source: ignore::Error,
    },
}

/// One input found by the walk.
#[derive(Debug)]
pub struct Entry {
    /// The path shown to users and models: `/`-separated, relative to the
    /// directory when a single directory is walked, else as given.
    pub label: String,
    /// Where to read it.
    pub path: PathBuf,
    /// `None` for a regular file to read; the reason (and detail) otherwise.
    pub skipped: Option<(Skip, String)>,
}

/// Walks every path of `options` in order, each directory sorted by path.
///
/// # Errors
/// [`WalkError`] for a missing path or a bad glob, before anything is walked.
pub fn walk(options: &Inputs, progress: &dyn Progress) -> Result<Vec<Entry>, WalkError> {
    if let Some((list, null)) = &options.files_from {
        let listed = read_list(list, *null)?;
        for path in &listed {
            exists(path)?;
            if let Some(sandbox) = &options.sandbox {
                sandbox.check(path)?;
            }
        }
        let globs = globs(options)?;
        let mut entries = Vec::new();
        walk_listed(&listed, &globs, &mut entries, progress);
        return Ok(entries);
    }
    let current = [PathBuf::from(".")];
    let roots = if options.paths.is_empty() {
        &current[..]
    } else {
        &options.paths[..]
    };
    for root in roots {
        exists(root)?;
        if let Some(sandbox) = &options.sandbox {
            sandbox.check(root)?;
        }
    }
    let globs = globs(options)?;
    let relative_labels = roots.len() == 1 && roots[0].is_dir();
    let mut entries = Vec::new();
    for root in roots {
        let found = walked(root, entries.len(), progress);
        walk_root(found, root, relative_labels, &globs, &mut entries);
    }
    Ok(entries)
}

/// What walking `root` finds, on every core, in the order a walk that
/// visits each folder's entries sorted by path gives (a folder first, then
/// what it holds): sorted by path, component by component. Files found
/// are told to `progress` as they are, after `before` found earlier.
fn walked(
    root: &Path,
    before: usize,
    progress: &dyn Progress,
) -> Vec<Result<ignore::DirEntry, ignore::Error>> {
    let found = std::sync::Mutex::new(Vec::new());
    let files = std::sync::atomic::AtomicUsize::new(before);
    ignore::WalkBuilder::new(root)
        .require_git(false)
        .build_parallel()
        .visit(&mut Collector {
            found: &found,
            files: &files,
            progress,
        });
    let mut found = found
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let path = |result: &Result<ignore::DirEntry, ignore::Error>| match result {
        Ok(entry) => component_order(entry.path()),
        Err(error) => component_order(&error_path(error).unwrap_or_else(|| root.to_path_buf())),
    };
    found.sort_by_cached_key(path);
    found
}

/// What a parallel walk's threads find, each thread's own until it ends
/// (a shared list locked for every entry kept the threads waiting on
/// each other).
#[derive(Clone, Copy)]
struct Collector<'a> {
    found: &'a std::sync::Mutex<Vec<Result<ignore::DirEntry, ignore::Error>>>,
    files: &'a std::sync::atomic::AtomicUsize,
    progress: &'a dyn Progress,
}

impl<'s> ignore::ParallelVisitorBuilder<'s> for Collector<'s> {
    fn build(&mut self) -> Box<dyn ignore::ParallelVisitor + 's> {
        Box::new(ThreadFinds {
            collector: *self,
            found: Vec::new(),
        })
    }
}

/// One walk thread's finds, added to the [`Collector`]'s when it ends.
struct ThreadFinds<'a> {
    collector: Collector<'a>,
    found: Vec<Result<ignore::DirEntry, ignore::Error>>,
}

impl ignore::ParallelVisitor for ThreadFinds<'_> {
    fn visit(&mut self, result: Result<ignore::DirEntry, ignore::Error>) -> ignore::WalkState {
        let folder = result
            .as_ref()
            .is_ok_and(|entry| entry.file_type().is_some_and(|t| t.is_dir()));
        self.found.push(result);
        if !folder {
            let files = self.collector.files;
            let found = files.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            self.collector.progress.found(found);
        }
        ignore::WalkState::Continue
    }
}

impl Drop for ThreadFinds<'_> {
    fn drop(&mut self) {
        self.collector
            .found
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .append(&mut self.found);
    }
}

/// A key whose byte order is the component order of paths that a walk
/// joins from one root (no `.` or `..` past the root, no doubled or
/// trailing separators): the path's bytes with each separator made the
/// least byte, so that a shorter name sorts before any longer one it
/// starts.
/// Comparing the keys costs a `memcmp`; comparing [`Path`]s splits both
/// into components, which took most of a walk of 30,000 files.
fn component_order(path: &Path) -> Vec<u8> {
    let mut key = path.as_os_str().as_encoded_bytes().to_vec();
    for byte in &mut key {
        // No file name holds a NUL byte.
        if std::path::is_separator(char::from(*byte)) {
            *byte = 0;
        }
    }
    key
}

/// Whether `path` exists and is a file or directory (a FIFO, socket or
/// device named as an input is an error, not an empty result).
fn exists(path: &Path) -> Result<(), WalkError> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() && !meta.is_dir() => Err(WalkError::Special {
                path: path.to_path_buf(),
            }),
            _ => Ok(()),
        },
        Err(source) if source.kind() == std::io::ErrorKind::NotFound => Err(WalkError::Missing {
            path: path.to_path_buf(),
        }),
        Err(source) => Err(WalkError::Inaccessible {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The paths of a list ([`Inputs::files_from`]), relative to the current directory
/// (a leading `./` dropped; absolute paths under it made relative), in
/// order, without repeats or empty entries.
fn read_list(list: &Path, null: bool) -> Result<Vec<PathBuf>, WalkError> {
    let list_error = |source: ReadError| WalkError::List {
        path: list.to_path_buf(),
        source,
    };
    let bytes = if list.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .take(MAX_LIST_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| list_error(ReadError::Io(e)))?;
        if bytes.len() as u64 > MAX_LIST_BYTES {
            return Err(list_error(ReadError::TooLarge {
                size_bytes: bytes.len() as u64,
                limit_bytes: MAX_LIST_BYTES,
            }));
        }
        bytes
    } else {
        read_bytes(list, MAX_LIST_BYTES).map_err(list_error)?
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        list_error(ReadError::NotUtf8 {
            offset: e.utf8_error().valid_up_to(),
        })
    })?;
    let current = std::env::current_dir().ok();
    let separator = if null { '\0' } else { '\n' };
    let mut seen = HashSet::new();
    let mut listed = Vec::new();
    for (index, entry) in text.split(separator).enumerate() {
        let entry = if null {
            entry
        } else {
            entry.trim_end_matches('\r')
        };
        if entry.is_empty() {
            continue;
        }
        let path = Path::new(entry);
        let relative = if path.is_absolute() {
            current
                .as_deref()
                .and_then(|dir| path.strip_prefix(dir).ok())
                .ok_or(WalkError::ListedOutside { line: index + 1 })?
        } else {
            path
        };
        let normal: PathBuf = relative
            .components()
            .filter(|c| *c != Component::CurDir)
            .collect();
        if normal.as_os_str().is_empty()
            || normal
                .components()
                .any(|c| !matches!(c, Component::Normal(_)))
        {
            return Err(WalkError::ListedOutside { line: index + 1 });
        }
        if seen.insert(normal.clone()) {
            listed.push(normal);
        }
    }
    Ok(listed)
}

/// Walks the current directory for the `listed` paths (a listed directory:
/// everything below it) with the ignore rules and globs of any walk; a
/// listed file the rules leave out is counted as excluded.
fn walk_listed(
    listed: &[PathBuf],
    globs: &Override,
    entries: &mut Vec<Entry>,
    progress: &dyn Progress,
) {
    let wanted: HashSet<PathBuf> = listed.iter().cloned().collect();
    let ancestors: HashSet<PathBuf> = listed
        .iter()
        .flat_map(|path| path.ancestors().skip(1).map(Path::to_path_buf))
        .collect();
    let keep = {
        let wanted = wanted.clone();
        move |entry: &ignore::DirEntry| {
            let relative = entry.path().strip_prefix(".").unwrap_or(entry.path());
            entry.depth() == 0
                || ancestors.contains(relative)
                || relative.ancestors().any(|a| wanted.contains(a))
        }
    };
    let root = Path::new(".");
    let walker = ignore::WalkBuilder::new(root)
        .require_git(false)
        .sort_by_file_path(Ord::cmp)
        .filter_entry(keep)
        .build();
    let first = entries.len();
    walk_root(walker, root, true, globs, entries);
    progress.found(entries.len());
    let found: HashSet<PathBuf> = entries[first..]
        .iter()
        .map(|e| e.path.strip_prefix(".").unwrap_or(&e.path).to_path_buf())
        .collect();
    for path in listed {
        if !found.contains(path) && !path.is_dir() {
            entries.push(Entry {
                label: path.to_string_lossy().replace('\\', "/"),
                path: root.join(path),
                skipped: Some((
                    Skip::ExcludedByGlob,
                    "listed, but left out by .gitignore, .ignore or as a hidden file".to_owned(),
                )),
            });
        }
    }
}

/// The override matcher: includes first, then excludes, so an exclude wins.
fn globs(options: &Inputs) -> Result<Override, WalkError> {
    let mut builder = OverrideBuilder::new("");
    let lines = options
        .include
        .iter()
        .map(|g| (g, g.clone()))
        .chain(options.exclude.iter().map(|g| (g, format!("!{g}"))));
    for (glob, line) in lines {
        builder.add(&line).map_err(|source| WalkError::Glob {
            glob: glob.clone(),
            source,
        })?;
    }
    builder.build().map_err(|source| WalkError::Glob {
        glob: options
            .include
            .iter()
            .chain(&options.exclude)
            .cloned()
            .collect::<Vec<_>>()
            .join(" "),
        source,
    })
}

/// Appends to `entries` each file a walk of `root` found (`walker`, in
/// walk order), with what the globs and its type say of it; a directory a
/// glob excludes has everything below it counted as excluded.
fn walk_root(
    walker: impl IntoIterator<Item = Result<ignore::DirEntry, ignore::Error>>,
    root: &Path,
    relative_labels: bool,
    globs: &Override,
    entries: &mut Vec<Entry>,
) {
    // Directories excluded by a glob, innermost last: files below them are
    // counted as excluded too.
    let mut excluded_dirs: Vec<PathBuf> = Vec::new();
    for result in walker {
        let entry = match result {
            Ok(entry) => entry,
            Err(error) => {
                let path = error_path(&error).unwrap_or_else(|| root.to_path_buf());
                entries.push(Entry {
                    label: label(root, &path, relative_labels),
                    skipped: Some((Skip::Unreadable, error.to_string())),
                    path,
                });
                continue;
            }
        };
        let path = entry.path();
        let file_type = entry.file_type();
        let is_dir = file_type.is_some_and(|t| t.is_dir());
        while excluded_dirs.last().is_some_and(|d| !path.starts_with(d)) {
            excluded_dirs.pop();
        }
        // Most walks have no globs: no path to match them against is made.
        let excluded = !excluded_dirs.is_empty()
            || !globs.is_empty()
                && matches!(
                    globs.matched(glob_path(root, path), is_dir),
                    Match::Ignore(_)
                );
        if is_dir {
            if excluded && entry.depth() > 0 {
                excluded_dirs.push(path.to_path_buf());
            }
            continue;
        }
        let skipped = if excluded {
            Some((
                Skip::ExcludedByGlob,
                "left out by the include/exclude globs".to_owned(),
            ))
        } else if entry.depth() == 1 && path.file_name() == Some(OsStr::new(crate::CONFIG_FILE)) {
            // The packed directory's own settings for budget, not material.
            Some((
                Skip::ExcludedByGlob,
                format!("{}: budget's config file", crate::CONFIG_FILE),
            ))
        } else {
            match file_type {
                Some(t) if t.is_file() => None,
                Some(t) if t.is_symlink() => {
                    Some((Skip::Symlink, "symbolic links are not followed".to_owned()))
                }
                _ => Some((
                    Skip::SpecialFile,
                    "FIFO, socket or device: not opened".to_owned(),
                )),
            }
        };
        entries.push(Entry {
            label: label(root, path, relative_labels),
            path: path.to_path_buf(),
            skipped,
        });
    }
}

/// The path a walk error is about, if it names one.
fn error_path(error: &ignore::Error) -> Option<PathBuf> {
    match error {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        _ => None,
    }
}

/// `path` relative to `root` for glob matching; a root that is itself the
/// file matches by its name.
fn glob_path(root: &Path, path: &Path) -> PathBuf {
    match path.strip_prefix(root) {
        Ok(relative) if !relative.as_os_str().is_empty() => relative.to_path_buf(),
        _ => path
            .file_name()
            .map_or_else(|| path.to_path_buf(), PathBuf::from),
    }
}

/// The label of `path` found under `root`.
fn label(root: &Path, path: &Path, relative_labels: bool) -> String {
    let shown = if relative_labels {
        path.strip_prefix(root).unwrap_or(path)
    } else {
        path
    };
    let text = shown.to_string_lossy();
    let text = if text.contains('\\') {
        std::borrow::Cow::Owned(text.replace('\\', "/"))
    } else {
        text
    };
    text.strip_prefix("./").unwrap_or(&text).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    use proptest::strategy::Strategy;

    proptest::proptest! {
        /// The keys sort joined paths as `Path` compares them.
        #[test]
        fn component_order_is_the_path_order(
            paths in proptest::collection::vec(
                // Names a directory can hold: never `.` or `..`.
                proptest::collection::vec(
                    "[a.A_ -]{1,3}".prop_filter("a name", |n| n != "." && n != ".."),
                    1..4,
                ),
                0..30,
            )
        ) {
            let paths: Vec<PathBuf> = paths
                .iter()
                .map(|names| Path::new("./root").join(names.join("/")))
                .collect();
            let mut by_path = paths.clone();
            by_path.sort();
            let mut by_key = paths;
            by_key.sort_by_cached_key(|path| component_order(path));
            proptest::prop_assert_eq!(by_key, by_path);
        }
    }

    #[test]
    fn labels_are_relative_for_one_directory_else_as_given() {
        let root = Path::new("./examples/data");
        let file = Path::new("./examples/data/src/lib.rs");
        assert_eq!(label(root, file, true), "src/lib.rs");
        assert_eq!(label(root, file, false), "examples/data/src/lib.rs");
    }

    #[test]
    fn a_walk_on_every_core_gives_folders_in_order_and_each_before_what_it_holds() {
        let dir = tempfile::tempdir().unwrap();
        let files = [
            "b.txt",
            "a/z.txt",
            "a/b/c.txt",
            "a.txt",
            "a/b.txt",
            "ab/x.txt",
        ];
        for file in files {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        for _ in 0..5 {
            let inputs = Inputs {
                paths: vec![dir.path().to_path_buf()],
                ..Inputs::default()
            };
            let entries = walk(&inputs, &()).unwrap();
            let labels: Vec<&str> = entries.iter().map(|e| e.label.as_str()).collect();
            assert_eq!(
                labels,
                [
                    "a/b/c.txt",
                    "a/b.txt",
                    "a/z.txt",
                    "a.txt",
                    "ab/x.txt",
                    "b.txt"
                ]
            );
        }
    }

    #[test]
    fn glob_path_of_a_file_root_is_its_name() {
        let file = Path::new("src/lib.rs");
        assert_eq!(glob_path(file, file), PathBuf::from("lib.rs"));
        assert_eq!(glob_path(Path::new("src"), file), PathBuf::from("lib.rs"));
    }
}
