//! [`FileRole`]: what a file is, from its path alone.

/// Source-code file extensions (lower case).
const CODE_EXTENSIONS: &[&str] = &[
    "c", "cc", "cpp", "cs", "css", "cxx", "go", "h", "hpp", "html", "java", "js", "jsx", "kt",
    "mjs", "php", "py", "rb", "rs", "scala", "sh", "sql", "swift", "ts", "tsx",
];
/// Configuration file extensions (lower case).
const CONFIG_EXTENSIONS: &[&str] = &["cfg", "ini", "json", "toml", "yaml", "yml"];
/// Documentation file extensions (lower case).
const DOC_EXTENSIONS: &[&str] = &["md", "markdown", "rst", "adoc"];
/// Folders whose files, code aside, are documentation (lower case):
/// `doc/`, Maven's `src/site/` (xdoc pages, upgrade notes), a project's
/// `website/`. (Everything in `docs/` is.)
const DOC_FOLDERS: &[&str] = &["doc", "documentation", "site", "website"];
/// Files that say what a project is and how it is built: they rank as
/// entry points.
const MANIFESTS: &[&str] = &[
    "build.gradle",
    "cargo.toml",
    "cmakelists.txt",
    "go.mod",
    "makefile",
    "package.json",
    "pom.xml",
    "pyproject.toml",
    "setup.py",
];
/// How the names of licence, copyright and notice files start
/// (`LICENSE-MIT`, `COPYING.LIB`, `NOTICE.txt`).
const LEGAL_PREFIXES: &[&str] = &["copying", "copyright", "licence", "license", "notice"];
/// How the names of change logs start (`CHANGELOG.md`, `RELEASE-NOTES.md`).
const CHANGE_LOG_PREFIXES: &[&str] = &[
    "changelog",
    "release-notes",
    "release_notes",
    "releasenotes",
];
/// Folders whose files are a change log's (`release-notes/VERSION-2.x`,
/// towncrier's `changelog.d/` and `newsfragments/`).
const CHANGE_LOG_FOLDERS: &[&str] = &[
    "changelog",
    "changelog.d",
    "changelogs",
    "newsfragments",
    "release-notes",
    "release_notes",
    "releasenotes",
];
/// File stems of entry points: `lib.rs`, `main.go`, `__main__.py`, `index.ts`, …
const ENTRY_STEMS: &[&str] = &["__main__", "app", "index", "lib", "main"];

/// What a file is, by the first rule its path (compared without ASCII
/// case) meets: a name starting `readme` is [`Readme`](Self::Readme); one
/// starting `license`, `licence`, `copying`, `copyright` or `notice` that
/// is not code is [`Legal`](Self::Legal); one starting `changelog` or
/// `release-notes`, with the stem `changes`, `history`, `news` or
/// `releases`, or not code and in a `release-notes/`, `changelog/` or
/// `changelog.d/`-like folder, is a [`ChangeLog`](Self::ChangeLog); a
/// `tests/` or `test/` folder or `test` in the name is
/// [`Tests`](Self::Tests); a documentation extension (`md`, `rst`, …), a
/// `docs/` folder, or what is not code in a `doc/`, `documentation/`,
/// `site/` or `website/` folder is [`Docs`](Self::Docs); then [`Code`](Self::Code) and
/// [`Config`](Self::Config) by extension; else [`Other`](Self::Other).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileRole {
    /// A README.
    Readme,
    /// Documentation.
    Docs,
    /// Source code.
    Code,
    /// Configuration.
    Config,
    /// Tests.
    Tests,
    /// A change log: what changed in each release.
    ChangeLog,
    /// A licence, copyright or notice file.
    Legal,
    /// Everything else: data, logs, unknown kinds.
    Other,
}

impl FileRole {
    /// The kind of the file at `path` (`/`-separated).
    pub fn of(path: &str) -> Self {
        // Compared without ASCII case and without a lower-case copy: this
        // is asked several times of every file of a tree.
        let name = file_name(path);
        let stem = name.split('.').next().unwrap_or_default();
        let extension = extension(name);
        if starts_with_ignore_case(name, "readme") {
            Self::Readme
        } else if LEGAL_PREFIXES
            .iter()
            .any(|prefix| starts_with_ignore_case(name, prefix))
            && !any_ignore_case(CODE_EXTENSIONS, extension)
        {
            Self::Legal
        } else if CHANGE_LOG_PREFIXES
            .iter()
            .any(|prefix| starts_with_ignore_case(name, prefix))
            || any_ignore_case(&["changes", "history", "news", "releases"], stem)
            || (!any_ignore_case(CODE_EXTENSIONS, extension)
                && in_any_folder(path, CHANGE_LOG_FOLDERS))
        {
            Self::ChangeLog
        } else if in_folder(path, "tests")
            || in_folder(path, "test")
            || contains_ignore_case(name, "test")
        {
            Self::Tests
        } else if any_ignore_case(DOC_EXTENSIONS, extension)
            || in_folder(path, "docs")
            || (!any_ignore_case(CODE_EXTENSIONS, extension) && in_any_folder(path, DOC_FOLDERS))
        {
            Self::Docs
        } else if any_ignore_case(CODE_EXTENSIONS, extension) {
            Self::Code
        } else if any_ignore_case(CONFIG_EXTENSIONS, extension) {
            Self::Config
        } else {
            Self::Other
        }
    }

    /// How much a reader wants this kind of file before knowing anything
    /// else, in `0.0..=1.0`: README 1.0, docs 0.8, code 0.7, configuration
    /// 0.5, tests 0.4, change logs and other files 0.2.
    pub fn prior(self) -> f64 {
        match self {
            Self::Readme => 1.0,
            Self::Docs => 0.8,
            Self::Code => 0.7,
            Self::Config => 0.5,
            Self::Tests => 0.4,
            Self::ChangeLog | Self::Legal | Self::Other => 0.2,
        }
    }
}

/// The last `/`-separated part of `path`.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn extension(name: &str) -> &str {
    name.rsplit_once('.').map_or("", |(_, ext)| ext)
}

/// Whether `text` starts with `prefix`, ASCII case ignored.
fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.as_bytes()
        .get(..prefix.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// Whether `text` holds `part`, ASCII case ignored.
fn contains_ignore_case(text: &str, part: &str) -> bool {
    text.as_bytes()
        .windows(part.len())
        .any(|window| window.eq_ignore_ascii_case(part.as_bytes()))
}

/// Whether `word` is one of `words` (lower case), ASCII case ignored.
fn any_ignore_case(words: &[&str], word: &str) -> bool {
    words.iter().any(|w| w.eq_ignore_ascii_case(word))
}

/// Whether a folder of `path` (a part before its file name) is `folder`,
/// ASCII case ignored.
fn in_folder(path: &str, folder: &str) -> bool {
    in_any_folder(path, &[folder])
}

/// Whether some folder of `path` is one of `folders` (lower-case),
/// compared without ASCII case.
fn in_any_folder(path: &str, folders: &[&str]) -> bool {
    path.rsplit_once('/').is_some_and(|(parents, _)| {
        parents
            .split('/')
            .any(|part| any_ignore_case(folders, part))
    })
}

/// Whether the file at `path`, of `role` ([`FileRole::of`] it), only uses
/// an API rather than defines one: a test ([`FileRole::Tests`]), or a file
/// under an `examples/`, `example/` or `fixtures/` folder.
pub fn uses_only(path: &str, role: FileRole) -> bool {
    role == FileRole::Tests
        || ["examples", "example", "fixtures"]
            .iter()
            .any(|folder| in_folder(path, folder))
}

/// Whether the file at `path` is source code by its extension.
pub fn is_code(path: &str) -> bool {
    any_ignore_case(CODE_EXTENSIONS, extension(file_name(path)))
}

/// Whether the file at `path` is Python source (`.py`, `.pyi`).
pub fn is_python(path: &str) -> bool {
    any_ignore_case(&["py", "pyi"], extension(file_name(path)))
}

/// Whether the file at `path` is Rust source (`.rs`).
pub fn is_rust(path: &str) -> bool {
    any_ignore_case(&["rs"], extension(file_name(path)))
}

/// Whether the file at `path` is where a reader starts: a README or a
/// build manifest at the top, or an entry-point source file (`lib.rs`,
/// `main.go`, `__main__.py`, `index.ts`, …) at most one folder deep.
pub fn is_entry_point(path: &str) -> bool {
    let depth = path.matches('/').count();
    let name = file_name(path);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    (depth == 0 && (starts_with_ignore_case(name, "readme") || any_ignore_case(MANIFESTS, name)))
        || (depth <= 1 && is_code(name) && any_ignore_case(ENTRY_STEMS, stem))
}

/// The stems of the source files a test file at `path` may test, lower
/// case, longest first: its file stem without a `test_` / `test-` /
/// `_test` / `-test` / `unittest` / `test` / `tests` / `spec` affix
/// (`JsonReaderTest.java`, `test_json.py`, `json_test.go`,
/// `json_unittest.cc`, `json-test.js` and `json.spec.ts` give `jsonreader`
/// and `json`), then each shorter start of it that ends where a word of it
/// ends (before a capital that follows a small letter, or
/// before a `_` or `-`): `StringUtilsStripTest.java`, a test of one
/// method of `StringUtils.java`, gives `stringutilsstrip`, `stringutils`
/// and `string`. Empty when nothing is left or there was no affix.
pub fn tested_stems(path: &str) -> Vec<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some(range) = tested_range(name) else {
        return Vec::new();
    };
    let stem = &name.as_bytes()[range.clone()];
    let mut ends: Vec<usize> = (1..stem.len())
        .filter(|&i| {
            let (before, at) = (stem[i - 1], stem[i]);
            (before.is_ascii_lowercase() && at.is_ascii_uppercase())
                || (before.is_ascii_alphanumeric() && matches!(at, b'_' | b'-'))
        })
        .collect();
    ends.push(stem.len());
    ends.iter()
        .rev()
        .map(|&end| name[range.start..range.start + end].to_ascii_lowercase())
        .collect()
}

/// Where in the file `name` the stem a test file tests is, before it is
/// cut at word ends (see [`tested_stems`]).
fn tested_range(name: &str) -> Option<std::ops::Range<usize>> {
    // ASCII lower-casing keeps every byte where it was: the range found in
    // the lower-case name is the original name's.
    let lower = name.to_ascii_lowercase();
    let stem = lower.split('.').next()?;
    let spec = lower.contains(".spec.") || lower.contains(".test.");
    let mut trimmed = stem;
    for affix in ["test_", "tests_", "test-", "tests-"] {
        trimmed = trimmed.strip_prefix(affix).unwrap_or(trimmed);
    }
    let cut_before = stem.len() - trimmed.len();
    // `unittest` before `test`, which would leave `json_unit`.
    for affix in [
        "_unittest",
        "unittest",
        "_tests",
        "-tests",
        "_test",
        "-test",
        "tests",
        "test",
    ] {
        trimmed = trimmed.strip_suffix(affix).unwrap_or(trimmed);
    }
    for affix in ["_spec", "-spec", "spec"] {
        trimmed = trimmed.strip_suffix(affix).unwrap_or(trimmed);
    }
    let kept = trimmed.trim_matches(['_', '-']);
    let start = cut_before + trimmed.len() - trimmed.trim_start_matches(['_', '-']).len();
    let end = start + kept.len();
    (!kept.is_empty() && (kept.len() < stem.len() || spec)).then_some(start..end)
}

#[cfg(test)]
mod tests {
    use super::FileRole::{self, *};
    use super::*;
    use proptest::prelude::*;

    /// The rules as first written, on a lower-case copy of the path: the
    /// oracle for the case-ignoring comparisons.
    fn role_of_lower(path: &str) -> FileRole {
        let lower = path.to_ascii_lowercase();
        let name = lower.rsplit('/').next().unwrap_or(&lower);
        let extension = extension(name);
        let stem = name.split('.').next().unwrap_or_default();
        let in_folder = |folder: &str| {
            lower.starts_with(&format!("{folder}/")) || lower.contains(&format!("/{folder}/"))
        };
        if name.starts_with("readme") {
            Readme
        } else if LEGAL_PREFIXES.iter().any(|p| name.starts_with(p))
            && !CODE_EXTENSIONS.contains(&extension)
        {
            Legal
        } else if CHANGE_LOG_PREFIXES.iter().any(|p| name.starts_with(p))
            || ["changes", "history", "news", "releases"].contains(&stem)
            || (CHANGE_LOG_FOLDERS.iter().any(|folder| in_folder(folder))
                && !CODE_EXTENSIONS.contains(&extension))
        {
            ChangeLog
        } else if in_folder("tests") || in_folder("test") || name.contains("test") {
            Tests
        } else if DOC_EXTENSIONS.contains(&extension)
            || in_folder("docs")
            || (DOC_FOLDERS.iter().any(|folder| in_folder(folder))
                && !CODE_EXTENSIONS.contains(&extension))
        {
            Docs
        } else if CODE_EXTENSIONS.contains(&extension) {
            Code
        } else if CONFIG_EXTENSIONS.contains(&extension) {
            Config
        } else {
            Other
        }
    }

    /// [`is_entry_point`] and [`uses_only`] as first written.
    fn entry_and_uses_of_lower(path: &str) -> (bool, bool) {
        let lower = path.to_ascii_lowercase();
        let depth = lower.matches('/').count();
        let name = lower.rsplit('/').next().unwrap_or(&lower);
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        let code = CODE_EXTENSIONS.contains(&extension(name));
        let entry = (depth == 0 && (name.starts_with("readme") || MANIFESTS.contains(&name)))
            || (depth <= 1 && code && ENTRY_STEMS.contains(&stem));
        let uses = role_of_lower(path) == Tests
            || ["examples", "example", "fixtures"].iter().any(|folder| {
                lower.starts_with(&format!("{folder}/")) || lower.contains(&format!("/{folder}/"))
            });
        (entry, uses)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]
        /// Paths from the parts the rules look at, in any case.
        #[test]
        fn roles_ignore_case_as_the_lower_case_rules_do(
            parts in proptest::collection::vec(
                "(?i)(tests?|docs?|site|examples?|fixtures|src|readme|changelog|changes|history|lib|main|index|cargo\\.toml|makefile|x_test|test_y|a|\\.md|\\.rs|\\.py|\\.json|\\.toml|\\.|/|é)",
                0..8,
            )
        ) {
            let path = parts.concat();
            prop_assert_eq!(FileRole::of(&path), role_of_lower(&path), "{}", path);
            prop_assert_eq!((is_entry_point(&path), uses_only(&path, FileRole::of(&path))), entry_and_uses_of_lower(&path), "{}", path);
            let lower = path.to_ascii_lowercase();
            let lower_name = lower.rsplit('/').next().unwrap_or_default();
            prop_assert_eq!(is_code(&path), CODE_EXTENSIONS.contains(&extension(lower_name)), "{}", path);
        }
    }

    #[test]
    fn kinds_apply_in_order() {
        // README beats the tests folder; change logs beat tests and Markdown;
        // tests beat docs.
        assert_eq!(FileRole::of("tests/README"), Readme);
        assert_eq!(FileRole::of("CHANGELOG.md"), ChangeLog);
        assert_eq!(FileRole::of("docs/NEWS"), ChangeLog);
        assert_eq!(FileRole::of("tests/History.rst"), ChangeLog);
        assert_eq!(FileRole::of("RELEASE-NOTES.md"), ChangeLog);
        assert_eq!(FileRole::of("LICENSE"), Legal);
        assert_eq!(FileRole::of("licenses/COPYING.LIB"), Legal);
        assert_eq!(FileRole::of("src/license.rs"), Code);
        assert_eq!(FileRole::of("release-notes/VERSION-2.x"), ChangeLog);
        assert_eq!(FileRole::of("docs/changelog.d/1234.bugfix.md"), ChangeLog);
        assert_eq!(FileRole::of("src/changelog_parser/lib.rs"), Code);
        assert_eq!(FileRole::of("changelog/src/main.rs"), Code);
        assert_eq!(FileRole::of("src/history_test.go"), Tests);
        assert_eq!(FileRole::of("newsletter.md"), Docs);
        assert_eq!(FileRole::of("docs/test_plan.md"), Tests);
        assert_eq!(FileRole::of("src/test/Main.java"), Tests);
        assert_eq!(FileRole::of("guide.MARKDOWN"), Docs);
        assert_eq!(FileRole::of("docs/diagram.svg"), Docs);
        assert_eq!(FileRole::of("src/site/xdoc/upgradeto2_0.xml"), Docs);
        assert_eq!(FileRole::of("doc/design.txt"), Docs);
        assert_eq!(FileRole::of("website/src/pages/index.js"), Code);
        assert_eq!(FileRole::of("website/guide/intro.txt"), Docs);
        assert_eq!(FileRole::of("Lib/site.py"), Code);
        assert_eq!(FileRole::of("Lib/json/decoder.py"), Code);
        assert_eq!(FileRole::of("package.json"), Config);
        assert_eq!(FileRole::of("Makefile"), Other);
        assert_eq!(FileRole::of(""), Other);
        // Folder names must match whole segments: "latests/" is not "tests/".
        assert_eq!(FileRole::of("latests/x.py"), Code);
        assert_eq!(Readme.prior(), 1.0);
        assert_eq!(Other.prior(), 0.2);
    }

    #[test]
    fn entry_points_are_shallow() {
        assert!(is_entry_point("README.md") && is_entry_point("Cargo.toml"));
        assert!(is_entry_point("src/lib.rs") && is_entry_point("cmd/main.go"));
        assert!(!is_entry_point("a/b/lib.rs") && !is_entry_point("a/README.md"));
        assert!(!is_entry_point("asyncio/__init__.py") && !is_entry_point("crate/Cargo.toml"));
        assert!(!is_entry_point("src/main.txt") && !is_entry_point("src/events.py"));
        // The stem is the name without its last extension.
        assert!(!is_entry_point("test/app.router.js") && is_entry_point("app.js"));
        assert!(is_code("Lib/os.PY") && !is_code("README"));
        let uses = |path: &str| uses_only(path, FileRole::of(path));
        assert!(uses("test/app.engine.js") && uses("examples/auth/index.js"));
        assert!(!uses("lib/application.js") && !uses("src/examples.rs"));
    }

    #[test]
    fn extension_lists_are_sorted() {
        for list in [
            CODE_EXTENSIONS,
            CONFIG_EXTENSIONS,
            DOC_FOLDERS,
            MANIFESTS,
            ENTRY_STEMS,
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }

    #[test]
    fn test_files_name_the_stem_they_test() {
        let first = |path: &str| tested_stems(path).into_iter().next();
        assert_eq!(
            first("src/test/java/com/x/JsonReaderTest.java").as_deref(),
            Some("jsonreader")
        );
        assert_eq!(first("tests/test_json.py").as_deref(), Some("json"));
        assert_eq!(first("io/json_test.go").as_deref(), Some("json"));
        assert_eq!(first("src/json.spec.ts").as_deref(), Some("json"));
        assert_eq!(first("src/json_unittest.cc").as_deref(), Some("json"));
        assert_eq!(first("test/json-test.js").as_deref(), Some("json"));
        assert_eq!(first("test/test-json.js").as_deref(), Some("json"));
        assert_eq!(
            first("src/json_reader_unittest.cc").as_deref(),
            Some("json_reader")
        );
        assert_eq!(first("tests/test.rs").as_deref(), None);
        assert_eq!(first("tests/unittest.cc").as_deref(), None);
        assert_eq!(first("src/json.rs").as_deref(), None);
    }

    #[test]
    fn test_files_may_test_a_start_of_their_stem() {
        assert_eq!(
            tested_stems("src/test/java/org/StringUtilsStripTest.java"),
            ["stringutilsstrip", "stringutils", "string"]
        );
        assert_eq!(
            tested_stems("tests/test_json_decoder.py"),
            ["json_decoder", "json"]
        );
        assert_eq!(tested_stems("io/json_test.go"), ["json"]);
        // Capitals in a row are one word; a word ends before `_`, not after.
        assert_eq!(tested_stems("HTTPServerTest.java"), ["httpserver"]);
        assert_eq!(
            tested_stems("t/json-decoder-test.js"),
            ["json-decoder", "json"]
        );
        assert!(tested_stems("src/json.rs").is_empty());
    }
}
