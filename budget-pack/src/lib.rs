//! Pack a repository into one prompt that fits a token budget: the engine
//! of `budget pack`, as a library.
//!
//! [`pack`](fn@pack) walks the inputs (`.gitignore` honoured, hidden files left
//! out, globs on top, an optional [`Sandbox`]), leaves out or redacts
//! files holding secrets, ranks the files for a query (BM25F over text,
//! path and defined names, PageRank over the reference graph, git
//! history), outlines source files with tree-sitter (focused on the
//! definitions the query is about), and assembles a hybrid payload within
//! the budget: whole files (RAW), outlines (SKELETON), link lines (LINKED)
//! and mentions (SUMMARY). The [`Packed`] result carries the payload and a
//! report with one record per input file.
//!
//! ```
//! use budget_pack::{Budget, Counting, PackOptions, pack};
//! use budget_runtime::estimate::RatioEstimator;
//!
//! # let dir = tempfile::tempdir()?;
//! # std::fs::write(dir.path().join("lib.rs"), "pub fn tide() {}\n")?;
//! let mut options = PackOptions::new([dir.path()]);
//! options.budget = Budget::Tokens(10_000);
//! options.query = Some("tide".into());
//! let packed = pack(&options, &Counting::estimated("ratios", &RatioEstimator), &())?;
//! assert!(packed.tokens() <= 10_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! For exact counts, give [`Counting::exact`] a tokenizer: files then get
//! their guaranteed upper bound and only what the payload can hold is
//! counted exactly.
//!
//! ```
//! use budget_pack::{Budget, Counting, PackOptions, pack};
//! use budget_runtime::estimate::{Encoding, ExactCounter};
//!
//! # let dir = tempfile::tempdir()?;
//! # std::fs::write(dir.path().join("lib.rs"), "pub fn tide() {}\n")?;
//! let o200k = ExactCounter::new(Encoding::O200kBase)?;
//! let mut options = PackOptions::new([dir.path()]);
//! options.budget = Budget::Tokens(2_000);
//! let packed = pack(&options, &Counting::exact("o200k", &o200k), &())?;
//! assert!(packed.tokens() <= 2_000);
//! assert!(packed.text().contains("pub fn tide() {}"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Cargo features: `git` (git sections and ranking by history, libgit2
//! vendored) and `tree-sitter` (outlines), both on by default.

#![forbid(unsafe_code)]
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cache_file;
mod complexity;
mod count_cache;
mod counting;
mod counts_ahead;
mod description;
mod file_facts;
mod file_items;
mod git;
mod options;
mod outline;
mod pack;
mod packed;
mod parallel;
mod progress;
mod python_lines;
mod rank;
mod refit;
mod report;
mod sandbox;
mod scan;
mod secrets;
mod skip;
mod stages;
mod start;
#[cfg(all(test, feature = "tree-sitter"))]
mod test_corpus;
mod text_cache;
mod walk;

pub use count_cache::{CachedCounter, CountCache};
pub use counting::Counting;
pub use git::GitError;
pub use options::{Budget, PackOptions};
pub use pack::{PackError, pack};
pub use packed::Packed;
pub use progress::Progress;
pub use sandbox::{Sandbox, SandboxError};
pub use scan::{Counted, count};
pub use skip::{FileTally, Skip};
pub use stages::Stage;
pub use walk::{Inputs, WalkError};

/// The name of budget's config file, which a walk leaves out at the root
/// it walks (it configures the tool, it is not material).
pub const CONFIG_FILE: &str = "budget.toml";

/// The largest file read by default, in bytes (4 MiB); larger ones are
/// skipped ([`Inputs::max_file_bytes`]).
pub const MAX_FILE_BYTES: u64 = scan::MAX_FILE_BYTES;

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
