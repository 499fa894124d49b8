//! Loads the token-count corpus and the multilingual samples, for the
//! tools, and for `budget-runtime`'s tests and `budget-differential`'s
//! benchmarks (which include this file with `#[path]`).
//!
//! The corpus is vendored in `budget-runtime/tests/data/corpus/` (its
//! README states each file's origin and license); `BUDGET_CORPUS_DIR`
//! overrides the location. A missing corpus is an error, never a skip. The
//! multilingual samples ship in `budget-runtime/tests/data/multilingual.toml`.
#![allow(dead_code)]

use std::path::PathBuf;

use budget_runtime::estimate::{ContentType, Encoding};

/// Where a sample comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A file of the token corpus.
    Corpus,
    /// A synthetic multilingual sample.
    Multilingual,
}

/// A text with its exact token counts.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The file path inside the corpus, or the sample's name.
    pub name: String,
    /// The content type it is estimated as.
    pub content_type: ContentType,
    /// The text.
    pub text: String,
    /// Exact `o200k_base` tokens.
    pub o200k_base: u64,
    /// Exact `cl100k_base` tokens.
    pub cl100k_base: u64,
    /// Corpus file or multilingual sample.
    pub origin: Origin,
}

impl Sample {
    /// The exact count under `encoding`.
    pub fn exact(&self, encoding: Encoding) -> u64 {
        match encoding {
            Encoding::O200kBase => self.o200k_base,
            Encoding::Cl100kBase => self.cl100k_base,
            other => panic!("no exact counts recorded for {other}"),
        }
    }
}

/// The vendored test data of `budget-runtime`, found from whichever sibling
/// crate of the workspace includes this file.
const DATA_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../budget-runtime/tests/data");

/// The corpus directory: `$BUDGET_CORPUS_DIR`, or the vendored copy.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("BUDGET_CORPUS_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(DATA_DIR).join("corpus"),
    }
}

/// The corpus files with their exact counts from `tokens.tsv`; an error
/// when the corpus is missing or inconsistent.
pub fn load_corpus() -> Result<Vec<Sample>, String> {
    let dir = corpus_dir();
    let tsv_path = dir.join("tokens.tsv");
    let tsv =
        std::fs::read_to_string(&tsv_path).map_err(|e| format!("{}: {e}", tsv_path.display()))?;
    let mut lines = tsv.lines();
    let header = lines.next().unwrap_or_default();
    if header != "file\tcontent_type\tbytes\tchars\to200k_base\tcl100k_base" {
        return Err(format!("unexpected tokens.tsv header {header:?}"));
    }
    let mut samples = Vec::new();
    for (n, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let [file, content_type, bytes, _chars, o200k, cl100k] = fields[..] else {
            return Err(format!("tokens.tsv line {}: expected 6 fields", n + 2));
        };
        let number = |s: &str| {
            s.parse::<u64>()
                .map_err(|e| format!("tokens.tsv line {}: {s:?}: {e}", n + 2))
        };
        let path = dir.join(file);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if text.len() as u64 != number(bytes)? {
            return Err(format!(
                "{file}: {} bytes, tokens.tsv says {bytes}",
                text.len()
            ));
        }
        samples.push(Sample {
            name: file.to_owned(),
            content_type: content_type.parse().map_err(|e| format!("{file}: {e}"))?,
            text,
            o200k_base: number(o200k)?,
            cl100k_base: number(cl100k)?,
            origin: Origin::Corpus,
        });
    }
    if samples.is_empty() {
        return Err(format!("{}: no rows", tsv_path.display()));
    }
    Ok(samples)
}

/// The path of the multilingual samples file.
pub fn multilingual_path() -> PathBuf {
    PathBuf::from(DATA_DIR).join("multilingual.toml")
}

/// The multilingual samples with their recorded exact counts.
pub fn load_multilingual() -> Result<Vec<Sample>, String> {
    let path = multilingual_path();
    let source = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let table: toml::Table = source
        .parse()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let Some(toml::Value::Array(entries)) = table.get("sample") else {
        return Err("multilingual.toml: no [[sample]] entries".to_owned());
    };
    entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let field = |key: &str| {
                entry
                    .get(key)
                    .ok_or_else(|| format!("multilingual.toml sample {i}: missing {key}"))
            };
            let string = |key: &str| {
                field(key)?
                    .as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("multilingual.toml sample {i}: {key} is not a string"))
            };
            let count = |key: &str| {
                field(key)?
                    .as_integer()
                    .and_then(|n| u64::try_from(n).ok())
                    .ok_or_else(|| format!("multilingual.toml sample {i}: {key} is not a count"))
            };
            let name = string("name")?;
            Ok(Sample {
                content_type: string("content_type")?
                    .parse()
                    .map_err(|e| format!("{name}: {e}"))?,
                text: string("text")?,
                o200k_base: count("o200k_base")?,
                cl100k_base: count("cl100k_base")?,
                origin: Origin::Multilingual,
                name,
            })
        })
        .collect()
}
