//! Centrality: how much the other files depend on a file, as PageRank over
//! a reference graph (after Aider's repository map).
//!
//! A file *defines* (unless it is a test, an example or a fixture, whose
//! definitions are helpers: [`uses_only`]) the names its syntax tree
//! defines ([`outline`](crate::outline): functions, methods, types,
//! traits, modules, constants; in the languages with a grammar) or else
//! the names that follow a definition keyword starting one of its lines,
//! modifiers aside (`def`, `class`, `fn`, `struct`, `func`, `function`,
//! `interface`, …; `pub fn`, `export class`; in Python, in a tree small
//! enough for the ranking to parse, only `def` and `class` outside
//! function bodies, as its syntax tree has them), and its
//! module name (the file stem; for `__init__.py`,
//! `mod.rs`, `index.js` and `lib.rs` the folder's name). A file *refers*
//! to a name each time the name appears in it as a whole identifier, unless
//! it is a test, an example or a fixture: how much those use a file says
//! how well it is tested or shown, not how much the code depends on it.
//! Each source file that refers to a name another file defines gets an edge to it,
//! weighted by the square root of the number of references, ×10 for long
//! compound names (`get_event_loop`, `PayloadAssembler`), ×0.1 for private
//! names (`_helper`) and for names that more than five files define.
//! Names shorter than three characters (except two-letter module names
//! such as `os` and `re`) and names defined by more than
//! eight files are ignored: they say nothing about which file is meant.
//! A file keeps its 64 heaviest edges.

use rustc_hash::FxHashMap as HashMap;

use crate::parallel::parallel_map;
#[cfg(test)]
use crate::rank::keywords::keyword_definitions;
use crate::rank::names::{ByNameHash, FileNames, NameHasher};
#[cfg(test)]
use crate::rank::role::is_code;
use crate::rank::role::{FileRole, uses_only};

/// File stems that name their folder rather than themselves.
const FOLDER_STEMS: &[&str] = &["__init__", "__main__", "index", "lib", "main", "mod"];

/// Names defined by more files than this are ignored.
const MAX_DEFINERS: usize = 8;
/// A file's edges beyond its heaviest this many are dropped.
const MAX_OUT_EDGES: usize = 64;

/// The names `text` (the file at `path`) defines: its module name first,
/// then, in source code, each name after a definition keyword, in order
/// (repeats kept).
#[cfg(test)]
pub fn definitions<'t>(path: &'t str, text: &'t str) -> Vec<&'t str> {
    let mut names: Vec<&str> = module_name(path).into_iter().collect();
    if is_code(path) {
        names.extend(keyword_definitions(text));
    }
    names
}

/// The names the file at `path` defines when its syntax tree
/// ([`outline`](crate::outline)) or its definition keywords
/// ([`KeywordDefinitions`](crate::rank::keywords::KeywordDefinitions)) gave `parsed`: its module name first, then
/// those names, in order.
pub fn with_module_name<'t>(path: &'t str, parsed: &[&'t str]) -> Vec<&'t str> {
    module_name(path)
        .into_iter()
        .chain(parsed.iter().copied())
        .collect()
}

/// The module name of the file at `path`: its name without the last
/// extension, or its folder's name for the stems in [`FOLDER_STEMS`].
fn module_name(path: &str) -> Option<&str> {
    let mut parts = path.rsplit('/');
    let file = parts.next()?;
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    if FOLDER_STEMS.contains(&stem) {
        parts.next()
    } else {
        Some(stem)
    }
    .filter(|name| !name.is_empty())
}

/// What the weight of a name's edges depends on beyond its uses: found
/// once per defined name, not once per file that uses it.
#[derive(Clone, Copy, Debug)]
struct NameShape {
    /// A compound name (`get_event_loop`, `PayloadAssembler`) of at least
    /// eight characters.
    long_compound: bool,
    /// A private name (`_helper`).
    private: bool,
}

impl NameShape {
    fn of(name: &str) -> Self {
        let compound = name.contains('_') && !name.starts_with('_')
            || name.chars().any(char::is_uppercase) && name.chars().any(char::is_lowercase);
        Self {
            long_compound: compound && name.chars().count() >= 8,
            private: name.starts_with('_'),
        }
    }
}

/// The weight of an edge for `references` uses of a name of `shape`,
/// defined by `definers` files.
fn edge_weight(shape: NameShape, references: u32, definers: usize) -> f64 {
    let mut weight = f64::from(references).sqrt();
    if shape.long_compound {
        weight *= 10.0;
    }
    if shape.private {
        weight *= 0.1;
    }
    if definers > 5 {
        weight *= 0.1;
    }
    weight
}

/// A reference graph: for each file, the files it refers to and how much.
#[derive(Debug)]
pub struct ReferenceGraph {
    /// Out-edges per file: (target file, weight), targets distinct.
    edges: Vec<Vec<(usize, f64)>>,
    /// For each defined name, how many other files refer to it.
    references: References,
}

/// For each defined name that counts, how many files refer to it that do
/// not define it ([`ReferenceGraph::into_references`]), looked up by name.
#[derive(Clone, Debug, PartialEq)]
pub struct References {
    /// The id of each name that counts, by its hash.
    ids: ByNameHash<u32>,
    /// By id: how many files refer to the name.
    referrers: Vec<u32>,
    hasher: NameHasher,
}

impl References {
    /// How many files refer to `name` that do not define it: 0 for a name
    /// no file defines, or that too many do.
    pub fn of(&self, name: &str) -> u32 {
        self.ids
            .get(&self.hasher.hash(name))
            .map_or(0, |&id| self.referrers[id as usize])
    }
}

impl ReferenceGraph {
    /// The graph of `files` (`(path, text)`, of `roles`), each defining the
    /// names in `defined` and using those of `used` (by position; see
    /// [`FileNames`]; source files only), names hashed with `hasher`,
    /// built on every core.
    pub fn build(
        files: &[(&str, &str)],
        roles: &[FileRole],
        defined: &[Vec<&str>],
        used: &[Option<FileNames>],
        hasher: NameHasher,
    ) -> Self {
        let names = DefinedNames::of(files, roles, defined, hasher);
        let indexed: Vec<usize> = (0..files.len()).collect();
        let edges_and_referenced = parallel_map(&indexed, |&file| {
            // Tests and examples use an API: how much they use a file says
            // how much it is tested or shown, not how much the code
            // depends on it.
            let used = match used.get(file).and_then(Option::as_ref) {
                Some(FileNames {
                    used: Some(used), ..
                }) if !uses_only(files[file].0, roles[file]) => used,
                _ => return (Vec::new(), Vec::new()),
            };
            // Each defined name this file uses, by id, with its uses.
            // Sized once: a vector grown as it fills is allocated again
            // and again, and every allocation may wait on the allocator's
            // lock while the other cores allocate.
            let mut uses: Vec<(u32, u32)> = Vec::with_capacity(used.len());
            uses.extend(
                used.iter()
                    .filter_map(|&(hash, count)| Some((names.id(hash)?, count))),
            );
            uses.sort_unstable();
            let mut out: HashMap<usize, f64> = HashMap::default();
            let mut referenced = Vec::with_capacity(uses.len());
            for (id, references) in uses {
                let targets = names.definers(id);
                let weight = edge_weight(names.shape(id), references, targets.len());
                let mut others = targets
                    .iter()
                    .map(|&target| target as usize)
                    .filter(|&target| target != file)
                    .peekable();
                if others.peek().is_some() {
                    referenced.push(id);
                }
                for target in others {
                    *out.entry(target).or_default() += weight;
                }
            }
            let mut out: Vec<(usize, f64)> = out.into_iter().collect();
            if out.len() > MAX_OUT_EDGES {
                out.select_nth_unstable_by(MAX_OUT_EDGES, |a, b| b.1.total_cmp(&a.1));
                out.truncate(MAX_OUT_EDGES);
            }
            out.sort_unstable_by_key(|&(target, _)| target);
            (out, referenced)
        });
        let mut referrers = vec![0u32; names.len()];
        let mut edges = Vec::with_capacity(files.len());
        for (out, referenced) in edges_and_referenced {
            for id in referenced {
                referrers[id as usize] += 1;
            }
            edges.push(out);
        }
        let references = References {
            ids: names.ids,
            referrers,
            hasher,
        };
        Self { edges, references }
    }

    /// For each defined name, how many files refer to it that do not
    /// define it; the graph is not needed after.
    pub fn into_references(self) -> References {
        self.references
    }

    /// The files each file refers to, with weights.
    #[cfg(test)]
    pub fn edges(&self, file: usize) -> &[(usize, f64)] {
        &self.edges[file]
    }

    /// PageRank with damping 0.85 and teleport distribution
    /// `personalization` (non-negative; uniform if it sums to zero), 40
    /// iterations; the ranks sum to 1.
    pub fn pagerank(&self, personalization: &[f64]) -> Vec<f64> {
        const DAMPING: f64 = 0.85;
        let n = self.edges.len();
        if n == 0 {
            return Vec::new();
        }
        let total: f64 = personalization.iter().sum();
        let teleport: Vec<f64> = if total > 0.0 {
            personalization.iter().map(|p| p / total).collect()
        } else {
            vec![1.0 / n as f64; n]
        };
        let out_weight: Vec<f64> = self
            .edges
            .iter()
            .map(|out| out.iter().map(|&(_, w)| w).sum())
            .collect();
        let mut rank = teleport.clone();
        let mut next = vec![0.0; n];
        for _ in 0..40 {
            let mut dangling = 0.0;
            next.iter_mut().for_each(|r| *r = 0.0);
            for (file, out) in self.edges.iter().enumerate() {
                if out_weight[file] > 0.0 {
                    for &(target, weight) in out {
                        next[target] += DAMPING * rank[file] * weight / out_weight[file];
                    }
                } else {
                    dangling += rank[file];
                }
            }
            for (r, t) in next.iter_mut().zip(&teleport) {
                *r += (1.0 - DAMPING + DAMPING * dangling) * t;
            }
            std::mem::swap(&mut rank, &mut next);
        }
        rank
    }
}

/// The names files define, each with an id and the files that define it
/// (names defined by more than [`MAX_DEFINERS`] files are not looked up).
struct DefinedNames {
    /// The id of each name that counts, by its hash.
    ids: ByNameHash<u32>,
    /// Bit `h >> (64 - FILTER_BITS)` is set for each hash `h` in `ids`:
    /// most identifiers a file uses are no defined name, and the bit
    /// (in a table that stays in a core's cache) says so without the map.
    filter: Vec<u64>,
    /// By id: the name's shape.
    shapes: Vec<NameShape>,
    /// By id: the files that define it.
    definers: Vec<Definers>,
}

impl DefinedNames {
    /// The names of `defined` (by file position) that count: long enough,
    /// defined outside tests and examples, by few enough files.
    fn of(
        files: &[(&str, &str)],
        roles: &[FileRole],
        defined: &[Vec<&str>],
        hasher: NameHasher,
    ) -> Self {
        let mut ids: ByNameHash<u32> = ByNameHash::default();
        let mut shapes = Vec::new();
        let mut definers: Vec<Definers> = Vec::new();
        for (file, defined) in defined.iter().enumerate() {
            // Tests and examples use an API; the names they define are helpers.
            if uses_only(files[file].0, roles[file]) {
                continue;
            }
            let module = module_name(files[file].0);
            let long_enough = |name: &str| {
                name.chars().nth(2).is_some() || module == Some(name) && name.len() == 2
            };
            let file = u32::try_from(file).unwrap_or(u32::MAX);
            for &name in defined.iter().filter(|name| long_enough(name)) {
                let next = u32::try_from(shapes.len()).unwrap_or(u32::MAX);
                let id = *ids.entry(hasher.hash(name)).or_insert(next);
                if id == next {
                    shapes.push(NameShape::of(name));
                    definers.push(Definers::default());
                }
                definers[id as usize].add(file);
            }
        }
        ids.retain(|_, id| !definers[*id as usize].too_many);
        let mut filter = vec![0u64; (1 << FILTER_BITS) / 64];
        for &hash in ids.keys() {
            let bit = filter_bit(hash);
            filter[bit / 64] |= 1 << (bit % 64);
        }
        Self {
            ids,
            filter,
            shapes,
            definers,
        }
    }

    /// The id of the name of hash `hash`, if it is a name that counts.
    fn id(&self, hash: u64) -> Option<u32> {
        let bit = filter_bit(hash);
        if self.filter[bit / 64] >> (bit % 64) & 1 == 0 {
            return None;
        }
        self.ids.get(&hash).copied()
    }

    fn shape(&self, id: u32) -> NameShape {
        self.shapes[id as usize]
    }

    /// The files that define the name `id`, in file order.
    fn definers(&self, id: u32) -> &[u32] {
        let definers = &self.definers[id as usize];
        &definers.files[..usize::from(definers.len)]
    }

    /// How many ids there are (names that do not count included).
    fn len(&self) -> usize {
        self.shapes.len()
    }
}

/// The bits of [`DefinedNames`]' filter, as a power of two: 2 Mi bits,
/// 256 KiB, a few set in a hundred for a tree's hundred thousand names.
const FILTER_BITS: u32 = 21;

/// The bit of the filter a name's hash sets: its top bits (the name
/// hashes are mixed through).
fn filter_bit(hash: u64) -> usize {
    (hash >> (64 - FILTER_BITS)) as usize
}

/// Up to [`MAX_DEFINERS`] files that define a name, inline: a large tree
/// defines hundreds of thousands of names, and an allocation each costs
/// more to make and free than every lookup of them.
#[derive(Clone, Copy, Default)]
struct Definers {
    files: [u32; MAX_DEFINERS],
    len: u8,
    /// More than [`MAX_DEFINERS`] files define the name.
    too_many: bool,
}

impl Definers {
    /// Adds `file` unless it is the last one added.
    fn add(&mut self, file: u32) {
        let len = usize::from(self.len);
        if self.too_many || len > 0 && self.files[len - 1] == file {
            return;
        }
        if len == MAX_DEFINERS {
            self.too_many = true;
        } else {
            self.files[len] = file;
            self.len += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(files: &[(&str, &str)]) -> ReferenceGraph {
        let defined: Vec<Vec<&str>> = files.iter().map(|(p, t)| definitions(p, t)).collect();
        let hasher = NameHasher::new(1);
        let used: Vec<Option<FileNames>> = files
            .iter()
            .map(|(p, t)| {
                FileNames::of(t, crate::rank::keywords::Dialect::of(p), hasher)
                    .filter(|_| is_code(p))
            })
            .collect();
        let roles: Vec<FileRole> = files.iter().map(|(p, _)| FileRole::of(p)).collect();
        ReferenceGraph::build(files, &roles, &defined, &used, hasher)
    }

    #[test]
    fn definitions_follow_keywords_and_module_names() {
        let python =
            "import os\nclass EventLoop(Base):\n    def run_forever(self):\n        type(x)\n";
        assert_eq!(
            definitions("Lib/asyncio/events.py", python),
            ["events", "EventLoop", "run_forever"]
        );
        let rust = "pub struct Tally<T> {}\nimpl Tally {\n    pub(crate) fn used(&self) {}\n}\nmacro_rules! tally {}\n";
        assert_eq!(
            definitions("src/tally/mod.rs", rust),
            ["tally", "Tally", "used", "tally"]
        );
        let go = "func (r *Reader) Read(p []byte) {}\nfunc NewReader() {}\ntype Reader struct {}\n";
        assert_eq!(
            definitions("io.go", go),
            ["io", "Read", "NewReader", "Reader"]
        );
        assert_eq!(definitions("Lib/json/__init__.py", ""), ["json"]);
        // A keyword ending its line names nothing; the next line is read.
        assert_eq!(
            definitions("a.py", "x = class\ndef run(): pass\nfunc\n"),
            ["a", "run"]
        );
        // Keywords count only in source code.
        assert_eq!(definitions("README", "A class apart"), ["README"]);
    }

    #[test]
    fn the_file_everyone_imports_ranks_first() {
        let files = [
            ("util/strings.py", "def normalize_text(s): pass\n"),
            (
                "app/a.py",
                "from util.strings import normalize_text\nnormalize_text(x)\n",
            ),
            ("app/b.py", "import strings\nstrings.normalize_text(y)\n"),
            ("app/c.py", "def unrelated(): pass\n"),
        ];
        let graph = build(&files);
        assert_eq!(graph.edges(1).iter().map(|e| e.0).collect::<Vec<_>>(), [0]);
        assert!(graph.edges(0).is_empty());
        // "strings" twice: sqrt(2); "normalize_text" (compound, 14
        // characters) once, ten times.
        assert_eq!(graph.edges(2), [(0, 2f64.sqrt() + 10.0)]);
        let rank = graph.pagerank(&[1.0; 4]);
        assert!((rank.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let best = (0..4).max_by(|&a, &b| rank[a].total_cmp(&rank[b])).unwrap();
        assert_eq!(best, 0, "{rank:?}");
        assert!(rank[3] < rank[0] && (rank[1] - rank[3]).abs() < 1e-12);
    }

    #[test]
    fn tests_define_nothing_and_point_at_nothing() {
        let files = [
            ("lib/view.js", "function render(name) {}\n"),
            (
                "test/app.render.js",
                "function render(path, fn) {}\nrender('x')\n",
            ),
            (
                "lib/response.js",
                "res.render = function () { render(view) }\n",
            ),
        ];
        let graph = build(&files);
        // `render` twice (sqrt 2) and the module name `view` once; nothing
        // points at the test, whose `render` is a helper, and the test
        // points at nothing, though its uses were counted.
        assert_eq!(graph.edges(2), [(0, 2f64.sqrt() + 1.0)]);
        assert_eq!(graph.edges(1), []);
        assert_eq!(module_name("test/app.engine.js"), Some("app.engine"));
        // The same text outside the tests is a file like any other.
        let mut moved = files;
        moved[1].0 = "lib/app.render.js";
        let graph = build(&moved);
        assert_eq!(graph.edges(1), [(0, 2f64.sqrt())]);
    }

    /// `definers` files that each define `common`, then one that calls it.
    fn common_defined_by(definers: usize) -> Vec<(String, String)> {
        let mut files: Vec<(String, String)> = (0..definers)
            .map(|i| (format!("m{i}.py"), format!("def common(): pass\n# {i}\n")))
            .collect();
        files.push(("user.py".to_owned(), "common()\ncommon()\n".to_owned()));
        files
    }

    #[test]
    fn names_defined_everywhere_make_no_edges() {
        let files = common_defined_by(MAX_DEFINERS + 1);
        let borrowed: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let graph = build(&borrowed);
        assert!(graph.edges(MAX_DEFINERS + 1).is_empty());
        assert_eq!(graph.pagerank(&[]).len(), MAX_DEFINERS + 2);
        assert_eq!(graph.into_references().of("common"), 0);
    }

    #[test]
    fn a_name_defined_by_the_most_files_allowed_points_at_each() {
        let files = common_defined_by(MAX_DEFINERS);
        let borrowed: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, t)| (p.as_str(), t.as_str()))
            .collect();
        let graph = build(&borrowed);
        // Two uses (sqrt 2), ×0.1 for a name more than five files define.
        let weight = 2f64.sqrt() * 0.1;
        let expected: Vec<(usize, f64)> = (0..MAX_DEFINERS).map(|file| (file, weight)).collect();
        assert_eq!(graph.edges(MAX_DEFINERS), expected);
        // Each definer refers to the others' `common`, and the user to all.
        assert_eq!(
            graph.into_references().of("common"),
            MAX_DEFINERS as u32 + 1
        );
    }
}
