//! [`FileRelevanceScorer`]: how relevant a file is to a query, from the
//! query's words in the file's path and text, or (without a query) from the
//! kind of file its path names.

use budget::ContextItem;
use budget::scorer::Scorer;

/// Scores files for packing into a prompt. Each item's path is its
/// [`link`](ContextItem::link) (`/`-separated; an item without a link has
/// the empty path), its text its [`content`](ContextItem::content).
///
/// **With a query** (at least one word): the query is split on whitespace
/// and lower-cased (duplicate words count once). Each word found in the
/// lower-cased path earns 2 points, and found in the lower-cased text
/// 1 point; the score is the points over `3 × words`, in `0.0..=1.0`. A
/// path hit outweighs a text hit because a file *named* after the topic is
/// usually about it.
///
/// **Without a query**: the path prior of [`path_prior`](Self::path_prior),
/// which ranks READMEs over docs over code over configuration over tests
/// over everything else.
///
/// Scores are absolute (an item's score does not depend on the others).
/// Cost: O(path + text) per item and word; the text is lower-cased once per
/// item, and only when there is a query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileRelevanceScorer {
    /// Lower-cased, distinct query words in the order given.
    words: Vec<String>,
}

/// Source-code file extensions (lower case) for the path prior.
const CODE_EXTENSIONS: &[&str] = &[
    "rs", "py", "js", "ts", "c", "h", "cc", "cpp", "hpp", "go", "java", "kt", "rb", "sh", "html",
    "css", "sql",
];
/// Configuration file extensions (lower case) for the path prior.
const CONFIG_EXTENSIONS: &[&str] = &["toml", "yaml", "yml", "json"];
/// Documentation file extensions (lower case) for the path prior.
const DOC_EXTENSIONS: &[&str] = &["md", "markdown"];

impl FileRelevanceScorer {
    /// Path prior of a README (`README`, `README.md`, `readme.txt`, …).
    pub const README: f64 = 1.0;
    /// Path prior of documentation: Markdown files and anything under a
    /// `docs/` folder.
    pub const DOCS: f64 = 0.8;
    /// Path prior of source code (by extension: `rs`, `py`, `js`, `c`, …).
    pub const CODE: f64 = 0.7;
    /// Path prior of configuration (`toml`, `yaml`, `yml`, `json`).
    pub const CONFIG: f64 = 0.5;
    /// Path prior of tests: under a `tests/` or `test/` folder, or a file
    /// name containing `test`.
    pub const TESTS: f64 = 0.4;
    /// Path prior of everything else: changelogs, data, logs, unknown kinds.
    pub const OTHER: f64 = 0.2;

    /// A scorer without a query: every item gets its
    /// [`path_prior`](Self::path_prior).
    pub fn new() -> Self {
        Self::default()
    }

    /// A scorer for `query`. A query with no words (empty or only
    /// whitespace) scores like [`new`](Self::new).
    pub fn with_query(query: &str) -> Self {
        let mut words: Vec<String> = Vec::new();
        for word in query.split_whitespace().map(str::to_lowercase) {
            if !words.contains(&word) {
                words.push(word);
            }
        }
        Self { words }
    }

    /// The prior relevance of a file from its path alone, in `0.0..=1.0`:
    /// the first of these rules that applies, comparing without ASCII case
    /// ([`README`](Self::README) 1.0, changelogs [`OTHER`](Self::OTHER) 0.2,
    /// [`TESTS`](Self::TESTS) 0.4, [`DOCS`](Self::DOCS) 0.8,
    /// [`CODE`](Self::CODE) 0.7, [`CONFIG`](Self::CONFIG) 0.5, else
    /// [`OTHER`](Self::OTHER) 0.2).
    pub fn path_prior(path: &str) -> f64 {
        let lower = path.to_ascii_lowercase();
        let name = lower.rsplit('/').next().unwrap_or(&lower);
        let extension = name.rsplit_once('.').map_or("", |(_, ext)| ext);
        let in_folder = |folder: &str| {
            lower.starts_with(&format!("{folder}/")) || lower.contains(&format!("/{folder}/"))
        };
        if name.starts_with("readme") {
            Self::README
        } else if name.starts_with("changelog") {
            Self::OTHER
        } else if in_folder("tests") || in_folder("test") || name.contains("test") {
            Self::TESTS
        } else if DOC_EXTENSIONS.contains(&extension) || in_folder("docs") {
            Self::DOCS
        } else if CODE_EXTENSIONS.contains(&extension) {
            Self::CODE
        } else if CONFIG_EXTENSIONS.contains(&extension) {
            Self::CONFIG
        } else {
            Self::OTHER
        }
    }

    /// The query score of a file with this `path` and `text`, in
    /// `0.0..=1.0`; 0.0 without a query. See the type documentation.
    pub fn query_score(&self, path: &str, text: &str) -> f64 {
        if self.words.is_empty() {
            return 0.0;
        }
        let path = path.to_lowercase();
        let text = text.to_lowercase();
        let points: usize = self
            .words
            .iter()
            .map(|word| {
                2 * usize::from(path.contains(word.as_str()))
                    + usize::from(text.contains(word.as_str()))
            })
            .sum();
        // Both counts are tiny (points <= 3 × words), so f64 is exact.
        points as f64 / (3 * self.words.len()) as f64
    }
}

impl Scorer for FileRelevanceScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        for (item, score) in items.iter().zip(scores.iter_mut()) {
            let path = item.link().unwrap_or("");
            *score = if self.words.is_empty() {
                Self::path_prior(path)
            } else {
                self.query_score(path, &item.content())
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::FileRelevanceScorer as F;
    use budget::scorer::Scorer;
    use budget::{ContextItem, Item};

    fn file(path: &str, text: &str) -> Item {
        Item::builder(text).tokens(1).link(path).build().unwrap()
    }

    #[test]
    fn prior_rules_apply_in_order() {
        // README beats the tests folder; changelog beats Markdown; tests beat docs.
        assert_eq!(F::path_prior("tests/README"), F::README);
        assert_eq!(F::path_prior("CHANGELOG.md"), F::OTHER);
        assert_eq!(F::path_prior("docs/test_plan.md"), F::TESTS);
        assert_eq!(F::path_prior("src/test/Main.java"), F::TESTS);
        assert_eq!(F::path_prior("guide.MARKDOWN"), F::DOCS);
        assert_eq!(F::path_prior("docs/diagram.svg"), F::DOCS);
        assert_eq!(F::path_prior("Lib/json/decoder.py"), F::CODE);
        assert_eq!(F::path_prior("package.json"), F::CONFIG);
        assert_eq!(F::path_prior("Makefile"), F::OTHER);
        assert_eq!(F::path_prior(""), F::OTHER);
        // Folder names must match whole segments: "latests/" is not "tests/".
        assert_eq!(F::path_prior("latests/x.py"), F::CODE);
    }

    #[test]
    fn query_points_are_path_two_text_one() {
        let scorer = F::with_query("Tide harmonics");
        let items = [
            file("src/harmonics.rs", "fn tide() {}"), // 2 + 1 (harmonics path, tide text) → 3/6
            file("src/Tide.rs", "TIDE and Harmonics"), // tide 2 + 1, harmonics 1 → 4/6
            file("src/units.rs", "metres"),           // 0
        ];
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        assert_eq!(scorer.scores(&views), vec![0.5, 4.0 / 6.0, 0.0]);
    }

    #[test]
    fn item_without_link_scores_on_text_alone() {
        let item = Item::new("tide", 1).unwrap();
        assert_eq!(F::with_query("tide").scores(&[&item]), vec![1.0 / 3.0]);
        assert_eq!(F::new().scores(&[&item]), vec![F::OTHER]);
    }

    #[test]
    fn non_ascii_words_fold_case() {
        let scorer = F::with_query("ÉTÉ");
        assert_eq!(scorer.query_score("notes/été.md", ""), 2.0 / 3.0);
    }

    proptest! {
        /// Scores stay in 0..=1 and a path hit never scores below a text-only hit.
        #[test]
        fn scores_in_unit_range(query in "[a-zA-Z ]{0,20}", path in "[a-z/._]{0,30}", text in "\\PC{0,80}") {
            let scorer = F::with_query(&query);
            let item = file(&path, &format!("x{text}"));
            let score = scorer.scores(&[&item])[0];
            prop_assert!((0.0..=1.0).contains(&score), "{score}");
            if let Some(word) = scorer.words.first() {
                let in_path = scorer.query_score(word, "");
                let in_text = scorer.query_score("", word);
                prop_assert!(in_path > in_text);
            }
        }
    }

    /// The example that documented `filerelevancescorer`.
    #[test]
    fn example_type() -> Result<(), Box<dyn std::error::Error>> {
        let lib = Item::builder("pub fn tide() {}")
            .tokens(5)
            .link("src/tide.rs")
            .build()?;
        let notes = Item::builder("The tide table.")
            .tokens(4)
            .link("NOTES.txt")
            .build()?;
        let readme = Item::builder("# Tidewater")
            .tokens(3)
            .link("README.md")
            .build()?;

        // "tide" is in lib's path (2) and text (1): 3 of 3 points.
        // notes has it only in its text: 1 of 3.
        let query = F::with_query("tide");
        assert_eq!(query.scores(&[&lib, &notes]), vec![1.0, 1.0 / 3.0]);

        // No query: the path prior, READMEs first.
        let prior = F::new();
        assert_eq!(prior.scores(&[&readme, &lib, &notes]), vec![1.0, 0.7, 0.2]);
        Ok(())
    }

    /// The example that documented `with_query`.
    #[test]
    fn example_with_query() {
        let scorer = F::with_query("Tide  tide TABLE");
        assert_eq!(scorer.words, ["tide", "table"]);
        assert_eq!(F::with_query("  "), F::new());
    }

    /// The example that documented `path_prior`.
    #[test]
    fn example_path_prior() {
        assert_eq!(F::path_prior("README.md"), F::README);
        assert_eq!(F::path_prior("CHANGELOG.md"), F::OTHER);
        assert_eq!(F::path_prior("tests/predict.rs"), F::TESTS);
        assert_eq!(F::path_prior("docs/design.txt"), F::DOCS);
        assert_eq!(F::path_prior("src/lib.rs"), F::CODE);
        assert_eq!(F::path_prior("config/stations.yaml"), F::CONFIG);
        assert_eq!(F::path_prior("data/stations.csv"), F::OTHER);
    }

    /// The example that documented `query_score`.
    #[test]
    fn example_query_score() {
        let scorer = F::with_query("tide station");
        // tide: path 2 + text 1; station: text 1 → 4 of 6 points.
        assert_eq!(scorer.query_score("src/tide.rs", "Station tide"), 4.0 / 6.0);
    }
}
