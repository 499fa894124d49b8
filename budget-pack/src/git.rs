//! What git knows about the packed tree: the working tree's diff against a
//! revision, the last commits' messages, and which files change often.
//!
//! Read with libgit2 (the `git2` crate, feature `git`): no `git` binary is
//! run and nothing touches the network.

use std::collections::HashMap;
use std::path::Path;

/// A git section of the payload: placed before every file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitSection {
    /// How the payload names it: `git diff HEAD`, `git log -5`.
    pub source: String,
    /// Its text.
    pub text: String,
    /// One line on what it holds (`3 files changed, 10 insertions(+), 2 deletions(-)`).
    pub description: String,
}

/// Why git could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// The path is not inside a git repository.
    #[cfg(feature = "git")]
    #[error("{path} is not inside a git repository")]
    NotARepository {
        /// The packed path.
        path: String,
    },
    /// The revision names no commit (or the repository has none yet).
    #[cfg(feature = "git")]
    #[error("no revision {rev} in {path}")]
    UnknownRevision {
        /// The revision.
        rev: String,
        /// The repository's path.
        path: String,
    },
    /// The repository has no commit yet ([`PackOptions::log`](crate::PackOptions::log), or
    /// [`PackOptions::diff`](crate::PackOptions::diff) of a
    /// revision).
    #[cfg(feature = "git")]
    #[error("the repository at {path} has no commits yet")]
    NoCommits {
        /// The repository's path.
        path: String,
    },
    /// libgit2 failed (a corrupt repository, …).
    #[cfg(feature = "git")]
    #[error("git: {0}")]
    Git(#[from] git2::Error),
    /// Built without the `git` feature.
    #[cfg(not(feature = "git"))]
    #[error("git sections need the `git` feature of budget-pack")]
    NoGitSupport,
}

/// Commits read for change history.
#[cfg(feature = "git")]
pub const HISTORY_COMMITS: usize = 300;

#[cfg(feature = "git")]
mod changed_files;

#[cfg(feature = "git")]
mod imp {
    use super::changed_files::{for_each_changed_file, subtree};
    use super::{FileChanges, GitError, GitSection, HISTORY_COMMITS};
    use git2::{DiffFormat, DiffOptions, Repository};
    use std::collections::HashMap;
    use std::path::Path;

    fn open(path: &Path) -> Result<Repository, GitError> {
        let repo = Repository::discover(path).map_err(|_| GitError::NotARepository {
            path: path.display().to_string(),
        })?;
        let unborn = repo.head().is_err_and(|e| {
            matches!(
                e.code(),
                git2::ErrorCode::UnbornBranch | git2::ErrorCode::NotFound
            )
        });
        if unborn {
            return Err(GitError::NoCommits {
                path: repo.workdir().unwrap_or(repo.path()).display().to_string(),
            });
        }
        Ok(repo)
    }

    /// The working tree (with the index) against `rev`, as a unified diff;
    /// the patch text stops at `max_bytes` (the description says so).
    pub fn diff(path: &Path, rev: &str, max_bytes: u64) -> Result<GitSection, GitError> {
        let repo = open(path)?;
        let tree = repo
            .revparse_single(rev)
            .map_err(|_| GitError::UnknownRevision {
                rev: rev.to_owned(),
                path: repo.path().display().to_string(),
            })?
            .peel_to_tree()?;
        let mut options = DiffOptions::new();
        options.include_untracked(false);
        let diff = repo.diff_tree_to_workdir_with_index(Some(&tree), Some(&mut options))?;
        let stats = diff.stats()?;
        let mut text = String::new();
        let mut truncated = false;
        diff.print(DiffFormat::Patch, |_, _, line| {
            let content = String::from_utf8_lossy(line.content());
            if (text.len() + content.len() + 1) as u64 > max_bytes {
                truncated = true;
                return false;
            }
            if matches!(line.origin(), '+' | '-' | ' ') {
                text.push(line.origin());
            }
            text.push_str(&content);
            true
        })
        .or_else(|e| if truncated { Ok(()) } else { Err(e) })?;
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        // `git diff --stat`'s summary line.
        let mut description = format!(
            "{} changed, {}, {}",
            plural(stats.files_changed(), "file", "files"),
            plural(stats.insertions(), "insertion(+)", "insertions(+)"),
            plural(stats.deletions(), "deletion(-)", "deletions(-)"),
        );
        if truncated {
            description.push_str(&format!("; patch cut at {max_bytes} bytes"));
        }
        Ok(GitSection {
            source: format!("git diff {rev}"),
            text,
            description,
        })
    }

    /// The last `count` commits reachable from HEAD, newest first: short id,
    /// date (UTC), author and message.
    pub fn log(path: &Path, count: usize) -> Result<GitSection, GitError> {
        let repo = open(path)?;
        let head = repo.head()?.peel_to_commit()?;
        let mut text = String::new();
        let mut shown = 0;
        for commit in newest_first(&repo, head).take(count) {
            let id = commit.id().to_string();
            let author = commit.author();
            let message = String::from_utf8_lossy(commit.message_bytes()).into_owned();
            if shown > 0 {
                text.push('\n');
            }
            text.push_str(&format!(
                "commit {} {} {}\n",
                &id[..id.len().min(10)],
                super::date(commit.time().seconds()),
                author.name().unwrap_or("?")
            ));
            for line in message.trim_end().lines() {
                text.push_str("    ");
                text.push_str(line);
                text.push('\n');
            }
            shown += 1;
        }
        Ok(GitSection {
            source: format!("git log -{count}"),
            text,
            description: format!(
                "the last {shown} {} reachable from HEAD",
                if shown == 1 { "commit" } else { "commits" }
            ),
        })
    }

    /// The commits reachable from `head`, newest first (by commit time,
    /// each after the commits that have it as a parent, as `git log`
    /// walks): found as they are read, where libgit2's time sort reads
    /// every commit of the history first (70 ms of clap's 9,000; a
    /// repository of a million commits would take seconds).
    pub(super) fn newest_first<'r>(
        repo: &'r Repository,
        head: git2::Commit<'r>,
    ) -> impl Iterator<Item = git2::Commit<'r>> + 'r {
        // By time, then by when first seen: the newest first, ties in
        // the order the walk met them.
        let mut queue = std::collections::BinaryHeap::new();
        let mut seen = std::collections::HashSet::new();
        let mut met = 0u64;
        seen.insert(head.id());
        queue.push((head.time().seconds(), std::cmp::Reverse(met), head.id()));
        std::iter::from_fn(move || {
            let (_, _, id) = queue.pop()?;
            let commit = repo.find_commit(id).ok()?;
            for parent in commit.parents() {
                if seen.insert(parent.id()) {
                    met += 1;
                    queue.push((parent.time().seconds(), std::cmp::Reverse(met), parent.id()));
                }
            }
            Some(commit)
        })
    }

    /// How recently and often each file changed in the last
    /// [`HISTORY_COMMITS`] non-merge commits ([`FileChanges`]). Keys are
    /// paths relative to `path` (`/`-separated); files outside it are left
    /// out. Empty when `path` is not in a repository.
    pub fn change_weights(path: &Path) -> HashMap<String, FileChanges> {
        let mut weights = HashMap::new();
        let Ok(repo) = Repository::discover(path) else {
            return weights;
        };
        let (Some(workdir), Ok(root)) = (repo.workdir(), path.canonicalize()) else {
            return weights;
        };
        let Ok(prefix) = workdir
            .canonicalize()
            .map_err(drop)
            .and_then(|w| root.strip_prefix(&w).map(Path::to_path_buf).map_err(drop))
        else {
            return weights;
        };
        let prefix = prefix.to_string_lossy().replace('\\', "/");
        let Some(head) = repo.head().ok().and_then(|head| head.peel_to_commit().ok()) else {
            return weights;
        };
        let mut index = 0;
        for commit in newest_first(&repo, head) {
            if index >= HISTORY_COMMITS {
                break;
            }
            if commit.parent_count() > 1 {
                continue;
            }
            let weight = 0.5f64.powf(index as f64 / 100.0);
            index += 1;
            let Ok(tree) = commit.tree() else { continue };
            let parent = commit.parent(0).ok().and_then(|p| p.tree().ok());
            // Under a subdirectory, only its trees are compared.
            let under_prefix = |tree| subtree(&repo, tree, &prefix);
            let (old, new) = (parent.and_then(under_prefix), under_prefix(tree));
            let mut count = |file: &str| {
                let changes = weights.entry(file.to_owned()).or_insert(FileChanges {
                    weight: 0.0,
                    latest: index - 1,
                });
                changes.weight += weight;
            };
            for_each_changed_file(&repo, old.as_ref(), new.as_ref(), &mut count);
        }
        weights
    }
}

/// `git diff REV` of the repository holding `path`.
///
/// # Errors
/// [`GitError`] outside a repository, for a bad revision, or without the
/// `git` feature.
pub fn diff(path: &Path, rev: &str, max_bytes: u64) -> Result<GitSection, GitError> {
    #[cfg(feature = "git")]
    return imp::diff(path, rev, max_bytes);
    #[cfg(not(feature = "git"))]
    {
        let _ = (path, rev, max_bytes);
        Err(GitError::NoGitSupport)
    }
}

/// `git log -N` of the repository holding `path`.
///
/// # Errors
/// As [`diff`].
pub fn log(path: &Path, count: usize) -> Result<GitSection, GitError> {
    #[cfg(feature = "git")]
    return imp::log(path, count);
    #[cfg(not(feature = "git"))]
    {
        let _ = (path, count);
        Err(GitError::NoGitSupport)
    }
}

/// The top of the working tree (a bare repository: its git directory) of
/// the repository holding `path`; `None` outside one or without the `git`
/// feature.
pub fn repository_root(path: &Path) -> Option<std::path::PathBuf> {
    #[cfg(feature = "git")]
    {
        let repo = git2::Repository::discover(path).ok()?;
        Some(repo.workdir().unwrap_or_else(|| repo.path()).to_path_buf())
    }
    #[cfg(not(feature = "git"))]
    {
        let _ = path;
        None
    }
}

/// How recently and often a file changed in the last 300 non-merge
/// commits, counted back from HEAD (0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FileChanges {
    /// Σ 0.5^(i / 100) over the commits `i` touching it.
    pub weight: f64,
    /// The newest commit touching it.
    pub latest: usize,
}

/// How recently and often each file under `path` changed (see
/// `imp::change_weights`); empty outside a repository or without the `git`
/// feature.
pub fn change_weights(path: &Path) -> HashMap<String, FileChanges> {
    #[cfg(feature = "git")]
    return imp::change_weights(path);
    #[cfg(not(feature = "git"))]
    {
        let _ = path;
        HashMap::new()
    }
}

/// `seconds` since the Unix epoch as a UTC date, `YYYY-MM-DD`.
#[cfg(feature = "git")]
fn date(seconds: i64) -> String {
    let instant = budget_runtime::model::Timestamp::from_unix_seconds(seconds).to_string();
    // RFC 3339: the date is everything before the `T`.
    instant.split('T').next().unwrap_or_default().to_owned()
}

#[cfg(all(test, feature = "git"))]
mod tests {
    use super::date;
    use git2::{Oid, Repository, Signature, Sort, Time};

    /// A commit at `seconds` with `parents`, changing `file`.
    fn commit(repo: &Repository, parents: &[Oid], seconds: i64, file: &str) -> Oid {
        let blob = repo.blob(file.as_bytes()).unwrap();
        let mut tree = repo.treebuilder(None).unwrap();
        tree.insert(file, blob, 0o100_644).unwrap();
        let tree = repo.find_tree(tree.write().unwrap()).unwrap();
        let who = Signature::new("Tide", "tide@example.com", &Time::new(seconds, 0)).unwrap();
        let parents: Vec<_> = parents
            .iter()
            .map(|&id| repo.find_commit(id).unwrap())
            .collect();
        let parents: Vec<_> = parents.iter().collect();
        repo.commit(None, &who, &who, file, &tree, &parents)
            .unwrap()
    }

    /// With no two commits at the same time, the walk gives libgit2's
    /// time order: two branches interleaved by time, merges included.
    #[test]
    fn the_history_is_read_newest_first_as_libgit2_sorts_it() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        let root = commit(&repo, &[], 1_000, "root");
        let (mut main, mut side) = (root, root);
        for step in 0..6 {
            main = commit(&repo, &[main], 2_000 + step * 100, &format!("main{step}"));
            side = commit(&repo, &[side], 2_050 + step * 100, &format!("side{step}"));
        }
        let merge = commit(&repo, &[main, side], 9_000, "merge");
        let head = commit(&repo, &[merge], 9_100, "head");
        let mut walk = repo.revwalk().unwrap();
        walk.push(head).unwrap();
        walk.set_sorting(Sort::TIME).unwrap();
        let expected: Vec<Oid> = walk.map(Result::unwrap).collect();
        let head = repo.find_commit(head).unwrap();
        let walked: Vec<Oid> = super::imp::newest_first(&repo, head)
            .map(|commit| commit.id())
            .collect();
        assert_eq!(walked.len(), 15);
        assert_eq!(walked, expected);
    }

    /// A commit on `parent` that writes `files` (path, contents).
    fn commit_files(repo: &Repository, parent: Option<Oid>, files: &[(&str, &str)]) -> Oid {
        let mut index = repo.index().unwrap();
        for (path, contents) in files {
            let full = repo.workdir().unwrap().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(&full, contents).unwrap();
            index.add_path(std::path::Path::new(path)).unwrap();
        }
        index.write().unwrap();
        let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
        let who = Signature::new("Tide", "tide@example.com", &Time::new(1_000, 0)).unwrap();
        let parents: Vec<_> = parent
            .map(|id| repo.find_commit(id).unwrap())
            .into_iter()
            .collect();
        let parents: Vec<_> = parents.iter().collect();
        repo.commit(Some("HEAD"), &who, &who, "change", &tree, &parents)
            .unwrap()
    }

    /// Under a subdirectory (whose name is a glob pattern, and a prefix
    /// of a sibling's) only its files count, keyed relative to it, with
    /// the weights they have in the whole repository's history.
    #[test]
    fn a_subdirectory_weighs_only_its_own_files() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        let first = commit_files(
            &repo,
            None,
            &[("s[u]b/a.py", "1"), ("s[u]b2/b.py", "1"), ("sub/c.py", "1")],
        );
        let second = commit_files(
            &repo,
            Some(first),
            &[("s[u]b/a.py", "2"), ("s[u]b2/b.py", "2")],
        );
        commit_files(
            &repo,
            Some(second),
            &[("sub/c.py", "3"), ("s[u]b/d/e.py", "3")],
        );
        let whole = super::change_weights(dir.path());
        let mut keys: Vec<&str> = whole.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["s[u]b/a.py", "s[u]b/d/e.py", "s[u]b2/b.py", "sub/c.py"]
        );
        let sub = super::change_weights(&dir.path().join("s[u]b"));
        let mut keys: Vec<&str> = sub.keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["a.py", "d/e.py"]);
        // a.py changed in the second and third newest commits, e.py in the newest.
        assert_eq!(sub["a.py"].latest, 1);
        assert_eq!(sub["d/e.py"].latest, 0);
        assert_eq!(sub["a.py"], whole["s[u]b/a.py"]);
        assert_eq!(sub["d/e.py"], whole["s[u]b/d/e.py"]);
    }

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400), "2000-02-29");
        assert_eq!(date(1_798_675_199), "2026-12-30");
        assert_eq!(date(-86_400), "1969-12-31");
    }
}
