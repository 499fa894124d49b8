//! The files that differ between two trees, as libgit2's tree-to-tree diff
//! lists them without rename detection, found without reading what the
//! trees share: a subtree with the same id on both sides is passed over.
//! (libgit2 expands both trees whole, every subtree of every commit: in a
//! repository of a few hundred directories that was a quarter of a pack.)

use git2::{Oid, Repository, Tree, TreeEntry};

/// The bits of a mode that give an entry's kind (file, link, submodule,
/// tree).
const KIND: i32 = 0o170_000;
/// The kind of a tree.
const TREE: i32 = 0o040_000;

/// Calls `each` with the path (`/`-separated, from the trees' root) of
/// every file, link or submodule that differs between `old` and `new`
/// (`None`: empty): added, deleted, or changed in id or mode. A path whose
/// kind changed (a file that became a link) comes twice, as libgit2 lists
/// it deleted and added. Subtrees that cannot be read count as empty.
pub(super) fn for_each_changed_file(
    repo: &Repository,
    old: Option<&Tree<'_>>,
    new: Option<&Tree<'_>>,
    each: &mut dyn FnMut(&str),
) {
    let mut path = String::new();
    compare(repo, old, new, &mut path, each);
}

/// The tree at `path` (`/`-separated; `""`: `tree` itself) in `tree`.
pub(super) fn subtree<'r>(repo: &'r Repository, tree: Tree<'r>, path: &str) -> Option<Tree<'r>> {
    if path.is_empty() {
        return Some(tree);
    }
    let entry = tree.get_path(std::path::Path::new(path)).ok()?;
    repo.find_tree(entry.id()).ok()
}

/// One side's entry: its id and raw mode.
type Side = Option<(Oid, i32)>;

fn compare(
    repo: &Repository,
    old: Option<&Tree<'_>>,
    new: Option<&Tree<'_>>,
    path: &mut String,
    each: &mut dyn FnMut(&str),
) {
    let side = |entry: &TreeEntry<'_>| Some((entry.id(), entry.filemode_raw()));
    let named = |tree: Option<&Tree<'_>>, name: &[u8]| {
        tree.and_then(|tree| tree.get_name_bytes(name))
            .and_then(|entry| side(&entry))
    };
    for entry in new.into_iter().flat_map(Tree::iter) {
        let name = entry.name_bytes();
        entry_changes(repo, name, named(old, name), side(&entry), path, each);
    }
    for entry in old.into_iter().flat_map(Tree::iter) {
        let name = entry.name_bytes();
        if named(new, name).is_none() {
            entry_changes(repo, name, side(&entry), None, path, each);
        }
    }
}

/// The changes under one name of a tree, `before` and `after`.
fn entry_changes(
    repo: &Repository,
    name: &[u8],
    before: Side,
    after: Side,
    path: &mut String,
    each: &mut dyn FnMut(&str),
) {
    if before == after {
        return;
    }
    let length = path.len();
    if length > 0 {
        path.push('/');
    }
    path.push_str(&String::from_utf8_lossy(name));
    let is_tree = |side: Side| side.is_some_and(|(_, mode)| mode & KIND == TREE);
    let subtree = |side: Side| {
        side.filter(|_| is_tree(side))
            .and_then(|(id, _)| repo.find_tree(id).ok())
    };
    if is_tree(before) || is_tree(after) {
        compare(
            repo,
            subtree(before).as_ref(),
            subtree(after).as_ref(),
            path,
            each,
        );
    }
    let file = |side: Side| side.filter(|_| !is_tree(side));
    match (file(before), file(after)) {
        (Some((_, old)), Some((_, new))) if old & KIND != new & KIND => {
            each(path);
            each(path);
        }
        (None, None) => {}
        _ => each(path),
    }
    path.truncate(length);
}

#[cfg(test)]
mod tests {
    use super::*;
    use git2::{IndexEntry, IndexTime, ObjectType};
    use proptest::prelude::*;

    /// A file of a state: its kind (0 a file, 1 an executable, 2 a link,
    /// 3 a submodule) and which of a few contents it holds.
    type File = (u8, u8);

    /// A tree's files: `d` is a file or a directory (`d/a`, `d/b`, and
    /// `d/x`, itself a file or a directory of `d/x/y`), next to names that
    /// sort around it in git's tree order (`d.c`, `d0`).
    #[derive(Clone, Debug)]
    struct State {
        d_is_file: bool,
        x_is_file: bool,
        files: [Option<File>; 8],
    }

    impl State {
        fn paths(&self) -> Vec<&'static str> {
            let mut paths = vec!["a", "d.c", "d0"];
            if self.d_is_file {
                paths.push("d");
            } else {
                paths.extend(["d/a", "d/b"]);
                paths.push(if self.x_is_file { "d/x" } else { "d/x/y" });
            }
            paths
        }

        /// The tree of this state, written to `repo`.
        fn tree<'r>(&self, repo: &'r Repository) -> Tree<'r> {
            let mut index = git2::Index::new().unwrap();
            for (path, file) in self.paths().into_iter().zip(&self.files) {
                let Some((kind, content)) = *file else {
                    continue;
                };
                let bytes = format!("{path} {content}");
                let (mode, id) = match kind % 4 {
                    0 => (0o100_644, repo.blob(bytes.as_bytes()).unwrap()),
                    1 => (0o100_755, repo.blob(bytes.as_bytes()).unwrap()),
                    2 => (0o120_000, repo.blob(bytes.as_bytes()).unwrap()),
                    _ => (
                        0o160_000,
                        Oid::hash_object(ObjectType::Commit, bytes.as_bytes()).unwrap(),
                    ),
                };
                index
                    .add(&IndexEntry {
                        ctime: IndexTime::new(0, 0),
                        mtime: IndexTime::new(0, 0),
                        dev: 0,
                        ino: 0,
                        mode,
                        uid: 0,
                        gid: 0,
                        file_size: 0,
                        id,
                        flags: 0,
                        flags_extended: 0,
                        path: path.as_bytes().to_vec(),
                    })
                    .unwrap();
            }
            repo.find_tree(index.write_tree_to(repo).unwrap()).unwrap()
        }
    }

    fn state() -> impl Strategy<Value = State> {
        let file = proptest::option::of((0u8..4, 0u8..2));
        (
            any::<bool>(),
            any::<bool>(),
            proptest::array::uniform8(file),
        )
            .prop_map(|(d_is_file, x_is_file, files)| State {
                d_is_file,
                x_is_file,
                files,
            })
    }

    /// The paths libgit2's tree-to-tree diff lists (one per entry), under
    /// `prefix` and relative to it, sorted.
    fn libgit2_paths(
        repo: &Repository,
        old: Option<&Tree>,
        new: Option<&Tree>,
        prefix: &str,
    ) -> Vec<String> {
        let diff = repo.diff_tree_to_tree(old, new, None).unwrap();
        let mut paths: Vec<String> = diff
            .deltas()
            .filter_map(|delta| {
                let path = delta.new_file().path()?.to_string_lossy().into_owned();
                match prefix {
                    "" => Some(path),
                    _ => Some(path.strip_prefix(prefix)?.strip_prefix('/')?.to_owned()),
                }
            })
            .collect();
        paths.sort();
        paths
    }

    fn our_paths<'r>(
        repo: &'r Repository,
        old: Option<&Tree<'r>>,
        new: Option<&Tree<'r>>,
        prefix: &str,
    ) -> Vec<String> {
        let under = |tree: Option<&Tree<'r>>| subtree(repo, tree?.clone(), prefix);
        let mut paths = Vec::new();
        for_each_changed_file(
            repo,
            under(old).as_ref(),
            under(new).as_ref(),
            &mut |path| {
                paths.push(path.to_owned());
            },
        );
        paths.sort();
        paths
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// Over histories of files that come and go, change content, mode
        /// and kind, and turn into directories and back, the changed paths
        /// are libgit2's, in the whole tree and under `d`.
        #[test]
        fn changed_files_are_libgit2s(states in proptest::collection::vec(state(), 1..6)) {
            let dir = tempfile::tempdir().unwrap();
            let repo = Repository::init(dir.path()).unwrap();
            let trees: Vec<Tree> = states.iter().map(|state| state.tree(&repo)).collect();
            let mut old: Option<&Tree> = None;
            for new in &trees {
                for prefix in ["", "d"] {
                    prop_assert_eq!(
                        our_paths(&repo, old, Some(new), prefix),
                        libgit2_paths(&repo, old, Some(new), prefix),
                        "prefix {:?}", prefix
                    );
                }
                old = Some(new);
            }
        }
    }
}
