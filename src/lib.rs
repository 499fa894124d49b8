//! Token budgets for LLM context windows: describe your context items, give
//! them a budget in tokens, and select, order, render or compact what fits.
//!
//! `budget` is the facade over `budget-runtime` (budgets, counting, the
//! selection pipeline, payload assembly), `budget-prompt` (chat messages,
//! model profiles, compaction, whole prompts) and `budget-derive`
//! (`#[derive(ContextItem)]` and [`budget!`]).
//!
//! # Quick start
//!
//! ```
//! use budget::{ContextBudget, ContextItem, Pipeline, budget};
//!
//! #[derive(ContextItem)]
//! struct Snippet {
//!     #[context(content)]
//!     text: &'static str,
//!     #[context(tokens)]
//!     tokens: u64, // an exact count; without this field the text is estimated
//!     #[context(score)]
//!     relevance: f64,
//! }
//!
//! // An 8k window of which at most 100 tokens go to these snippets,
//! // checked at compile time.
//! const BUDGET: ContextBudget = budget! { max_tokens: 8_192, target_tokens: 100 };
//!
//! let snippets = [
//!     Snippet { text: "fn main() { serve(); }", tokens: 60, relevance: 0.9 },
//!     Snippet { text: "The server answers on port 8080.", tokens: 30, relevance: 0.4 },
//!     Snippet { text: "CHANGELOG: 0.1.0, first release.", tokens: 50, relevance: 0.2 },
//! ];
//! let selection = Pipeline::default().run(&snippets, &BUDGET)?;
//! let kept: Vec<&str> = selection.items().iter().map(|s| s.text).collect();
//! // 60 + 30 tokens fit in 100; the changelog (50 more) does not.
//! assert_eq!(kept, ["fn main() { serve(); }", "The server answers on port 8080."]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Items without a derive: [`Item::builder`]. Token counts are `u64`
//! everywhere, and every entry point counts with one default,
//! [`estimate::DefaultCounter`] (exact `o200k_base`), unless given another
//! [`Estimator`] or a model's counter ([`profile`]).
//!
//! # Which module for which job
//!
//! | job | module | start with |
//! |---|---|---|
//! | describe context items, budgets, kinds, tiers, timestamps | [`model`] (the common ones at the root) | [`ContextItem`](trait@ContextItem), [`Item`], [`ContextBudget`] |
//! | estimate or count tokens | [`estimate`] | [`estimate::DefaultCounter`], [`estimate::ExactCounter`], [`estimate::CalibratedEstimator`] |
//! | know a model's window, tokenizer and chat template | [`profile`] | [`profile::ModelRegistry`], [`prompt::PromptBudget::for_model`] |
//! | select what fits a budget (classify, score, deduplicate, sort, slice, place) | [`pipeline`] | [`Pipeline`], [`Selection`], [`pipeline::SelectionReport`] |
//! | rank items | [`scorer`] | [`scorer::Scorer`], [`scorer::CompositeScorer`] |
//! | choose items under the budget | [`slicer`] | [`slicer::Slicer`], [`slicer::GreedySlicer`], [`slicer::KnapsackSlicer`] |
//! | order the selected items | [`placer`] | [`placer::Placer`], [`placer::UShapedPlacer`] |
//! | render a tiered payload (RAW, LINKED, SUMMARY) with fingerprints | [`payload`] | [`payload::PayloadAssembler`], [`payload::TierBudget`] |
//! | speak chat: messages, tool calls, tool definitions (full JSON schema), what a request costs | [`chat`] | [`chat::Message`], [`chat::ToolDefinition`], [`chat::ChatFormat`] |
//! | compact a chat history with a summarizer | [`compact`] | [`compact::Compactor`], [`compact::CompactionConfig`] |
//! | fit a whole chat prompt (system, tools, history, retrieved items) | [`prompt`] | [`prompt::PromptBudget`], [`prompt::PromptSession`] (prefixes that stay cacheable) |
//! | read a file a user or config names, bounded and regular files only | [`file`](mod@file) | [`file::read_text`] |
//! | check the budget contracts of pipeline configs | `contract` (feature `contract`, crate `budget-contract`) | [`model::ContractTerms`], `contract::Checker` |
//!
//! # Features
//!
//! `o200k` is enabled by default (the exact default counter); the others are
//! opt-in.
//!
//! | feature | adds |
//! |---|---|
//! | `serde` | `Serialize`/`Deserialize` for items, budgets and reports; chat messages and tool definitions in OpenAI's wire format |
//! | `chrono` | `chrono::DateTime<Utc>` as a timestamp (conversions and derive fields) |
//! | `contract` | loading model configs (JSON) and pipelines (YAML) and checking their budget contracts |
//! | `o200k`, `cl100k` | [`estimate::ExactCounter`] for that encoding, vocabulary compiled in |
//! | `exact` | both exact vocabularies |
//! | `async` | `compact::AsyncSummarizer` and `Compactor::compact_async` (no runtime dependency) |
//! | `async-openai` | `integrations::async_openai`: conversions to and from `async-openai`'s chat request types (crate `budget-integrations`) |
//!
//! # Macros
//!
//! - [`derive(ContextItem)`](derive@ContextItem): implements [`ContextItem`](trait@ContextItem)
//!   from `#[context(...)]` attributes; its reference is on the derive.
//! - [`budget!`]: budget constants rejected at compile time when invalid; its
//!   reference is on the macro.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]

pub use budget_prompt::{chat, compact, profile, prompt};
pub use budget_runtime::{
    ContextBudget, ContextItem, ContextKind, Estimator, Item, ItemBuilder, Pipeline, Selection,
};
pub use budget_runtime::{estimate, file, model, payload, pipeline, placer, scorer, slicer};

/// Budget contracts of prompt pipelines: the `budget-contract` crate.
#[cfg(feature = "contract")]
#[cfg_attr(docsrs, doc(cfg(feature = "contract")))]
pub use budget_contract as contract;

/// Integrations with other crates, each behind the facade feature of its
/// name: the `budget-integrations` crate.
#[cfg(feature = "async-openai")]
#[cfg_attr(docsrs, doc(cfg(feature = "async-openai")))]
pub use budget_integrations as integrations;

/// Builds a budget constant — a [`ContextBudget`], a
/// [`ContractTerms`](model::ContractTerms) or a
/// [`TierBudget`](payload::TierBudget) — and rejects an invalid one at
/// compile time.
///
/// It works under any name the crate is imported as
/// (`use budget as my_budget;`, a renamed dependency): it hands the crate's
/// own path to the procedural macro.
///
/// ```
/// use budget::{ContextBudget, budget};
///
/// const BUDGET: ContextBudget = budget! { max_tokens: 8_192, target_tokens: 6_000 };
/// assert_eq!(BUDGET.target_tokens(), 6_000);
/// ```
///
#[doc = include_str!("docs/budget_macro.md")]
#[macro_export]
macro_rules! budget {
    ($($input:tt)*) => {
        $crate::__private_v0_1::budget! { $crate; $($input)* }
    };
}

/// Implements [`ContextItem`](trait@ContextItem) for a struct or an enum
/// from `#[context(...)]` attributes. The impl reads the fields in place:
/// nothing is copied, and a single content field is returned borrowed.
///
/// ```
/// use budget::{ContextItem, ContextKind, Estimator, estimate::{ContentType, DefaultCounter}, model::Tier};
///
/// #[derive(ContextItem)]
/// #[context(kind = "Document", tiers(raw = 0.8, linked = 0.5))]
/// struct SearchHit<'a> {
///     #[context(content, content_type = "prose")]
///     title: &'a str,
///     #[context(content)]
///     body: String,
///     #[context(score)]
///     similarity: f64,
///     #[context(link)]
///     url: &'a str,
///     cache_key: u64, // no attribute: ignored
/// }
///
/// let hit = SearchHit {
///     title: "Ownership",
///     body: "Each value has one owner.".into(),
///     similarity: 0.6,
///     url: "book/ch04-01.html",
///     cache_key: 7,
/// };
/// assert_eq!(hit.content(), "Ownership\n\nEach value has one owner.");
/// // Each part by the default counter (exact o200k_base), 1 per separator.
/// let count = |text: &str| DefaultCounter.estimate(text, ContentType::Prose);
/// assert_eq!(hit.tokens(), count("Ownership") + 1 + count("Each value has one owner."));
/// assert_eq!(*hit.kind(), ContextKind::DOCUMENT);
/// assert_eq!(hit.tier(), Some(Tier::Linked));
/// assert_eq!(hit.link(), Some("book/ch04-01.html"));
/// ```
///
/// # Container attributes
///
/// On the struct, or on an enum variant with fields:
///
/// | attribute | meaning | default |
/// |---|---|---|
/// | `kind = "ToolOutput"` | the [`ContextKind`]: one word; the well-known kinds are `Message`, `Document`, `ToolOutput`, `Memory`, `SystemPrompt` | `Message` |
/// | `content_type = "code"` | the [`ContentType`] (`code`, `prose`, `yaml`, `markdown`) of the content fields (it selects the fixed ratio under `estimator = "ratios"`) | `markdown` |
/// | `tier = "raw"` | a fixed [`Tier`] (`raw`, `skeleton`, `linked`, `summary`) | from the score |
/// | `tiers(raw = 0.7, linked = 0.4)` | score thresholds, within `0.0..=1.0`, `raw >= linked`: a score `>= raw` is RAW, `>= linked` LINKED, else SUMMARY; needs a `score` field | `raw = 0.7, linked = 0.4` |
/// | `estimator = "calibrated"` | how `tokens()` estimates the content: `"ratios"`, `"calibrated"`, or a path to an [`Estimator`] value; see [Token estimate](#token-estimate) | [`DefaultCounter`](estimate::DefaultCounter) |
/// | `crate = "path"` | where the `budget` crate is, if renamed (struct or enum only; `budget!` finds it by itself) | `::budget` |
///
/// # Field attributes
///
/// A field has at most one role; unannotated fields are ignored.
///
/// | attribute | field type | accessor |
/// |---|---|---|
/// | `content` | any `AsRef<str>`: `String`, `&str`, `Cow<str>`, … (`TextField`) | `content()`, `tokens()` |
/// | `content, content_type = "code"` | as above, estimated at its own ratio | |
/// | `tokens` | an unsigned integer or `Option` of one (`TokenCountField`): an exact count that replaces the estimate when present | `tokens()` |
/// | `score` | `f64`, `f32` or `Option` of them (`FloatField`); NaN counts as no score | `relevance()`, `tier()` |
/// | `score, scale = 10` | a score on a 0–10 scale, divided by 10 | |
/// | `pinned` | `bool` (`FlagField`) | `pinned()` |
/// | `timestamp` | `SystemTime`, [`Timestamp`], `chrono::DateTime<Utc>` (feature `chrono`), optional (`TimestampField`) | `timestamp()` |
/// | `priority` | an integer or `Option` of one (`IntegerField`) | `priority()` |
/// | `tags` | a `Vec`, array, slice or set of strings ([`TagList`]) | `tags()` |
/// | `hint` | `f64` or `Option<f64>` | `relevance_hint()` |
/// | `metadata` | a `HashMap` or `BTreeMap` with `str`-like keys and `String`, `&str`, `f64`, `i64`, `bool` or [`MetadataValue`](model::MetadataValue) values, or an `Option` of one | `metadata(key)` |
/// | `link` | a path or URL, optional (`OptionalTextField`) | `link()` |
/// | `description` | a one-line description, optional | `description()` |
/// | `skeleton` | the item's outline without bodies, optional; empty is none (`OptionalTextField`) | `skeleton()` |
/// | `group` | `u64` or `Option<u64>` (also `u32`, `u16`, `u8`; `GroupField`): the atomic group id, see [Atomic groups](#atomic-groups) | `group()` |
/// | `skip` | anything: the field is ignored | |
///
/// # Token estimate
///
/// Without a `tokens` field (or when it is `None`) the count is computed on
/// each call by [`estimate_parts`] with the library's one default counter,
/// [`DefaultCounter`](estimate::DefaultCounter): exact `o200k_base` (feature
/// `o200k`, on by default), else the UTF-8 length, which never undercounts.
/// Each content field is counted at its own content type, and each blank
/// line joining two content fields costs [`PART_SEPARATOR_TOKENS`] (1).
/// Several content fields are joined in declaration order by
/// [`join_parts`]. The same text counts the same through `Item::build`, the
/// payload assembler, `PromptBudget` and the contract checker.
///
/// | `estimator = ...` | estimate |
/// |---|---|
/// | (none) | [`DefaultCounter`](estimate::DefaultCounter), as above |
/// | `"ratios"` | the token-budget rules' fixed ratios, [`ratio_estimate_parts`]: `ratio_estimate(count_chars(field), its content type)`; fast, but 58–66% under on Chinese, Japanese and Korean prose against `o200k_base` (a 145-character Chinese paragraph: 37 tokens estimated, 107 exact) |
/// | `"calibrated"` | [`CalibratedEstimator::new`]`(Encoding::O200kBase)`: about 2% off on average on the project's corpus, but up to 43% under on held-out text in other languages |
/// | a path, like `estimator = MY_ESTIMATOR` | a unit struct, `const` or `static` whose type implements [`Estimator`]: [`CalibratedEstimator::upper_bound`] for a bound, another encoding, or an exact counter |
///
/// An exact `tokens` count still replaces the estimate when present; with a
/// `tokens` field of a plain integer type no estimate is ever made, and
/// `estimator` is a compile error.
///
/// ```
/// use budget::{ContextItem, Estimator, estimate::{CalibratedEstimator, ContentType, DefaultCounter, Encoding}};
///
/// #[derive(ContextItem)]
/// #[context(content_type = "prose")]
/// struct Default {
///     #[context(content)]
///     text: String,
/// }
///
/// #[derive(ContextItem)]
/// #[context(estimator = "ratios", content_type = "prose")]
/// struct Ratios {
///     #[context(content)]
///     text: String,
/// }
///
/// const UPPER: CalibratedEstimator = CalibratedEstimator::upper_bound(Encoding::O200kBase);
///
/// #[derive(ContextItem)]
/// #[context(estimator = UPPER, content_type = "prose")]
/// struct Bounded {
///     #[context(content)]
///     text: String,
/// }
///
/// let text = "今日は良い天気ですね。散歩に行きましょう。"; // 21 characters
/// let default = Default { text: text.into() }.tokens();
/// assert_eq!(default, DefaultCounter.estimate(text, ContentType::Prose));
/// assert_eq!(Ratios { text: text.into() }.tokens(), 6); // 21 / 4.0, rounded up
/// assert!(Bounded { text: text.into() }.tokens() >= default);
/// ```
///
/// # Atomic groups
///
/// Items whose `group()` returns the same id are selected whole or not at
/// all, by every slicer, and never deduplicated against each other (see
/// [`ContextItem::group`](trait@ContextItem)). Give an assistant message that
/// calls a tool and the result of that call the same id: a chat API rejects
/// a call without its result. An `Option<u64>` field leaves items that are
/// not part of a tool exchange alone (`None`).
///
/// ```
/// use budget::{ContextBudget, ContextItem, Pipeline};
///
/// #[derive(ContextItem)]
/// struct Message {
///     #[context(content)]
///     text: &'static str,
///     #[context(tokens)]
///     tokens: u64,
///     #[context(group)]
///     tool_call: Option<u64>,
/// }
///
/// let history = [
///     Message { text: "What does src/lib.rs export?", tokens: 8, tool_call: None },
///     Message { text: r#"read_file({"path":"src/lib.rs"})"#, tokens: 12, tool_call: Some(1) },
///     Message { text: "pub mod model;\npub mod pipeline;", tokens: 40, tool_call: Some(1) },
/// ];
/// assert_eq!(history[1].group(), Some(1));
///
/// // The call and its result are one unit of 12 + 40 = 52 tokens: with a
/// // 30-token target neither is kept, although the call alone would fit.
/// let selection = Pipeline::default().run(&history, &ContextBudget::new(100, 30)?)?;
/// let texts: Vec<&str> = selection.items().iter().map(|m| m.text).collect();
/// assert_eq!(texts, ["What does src/lib.rs export?"]);
/// assert_eq!(selection.report().groups[0].tokens, 52);
///
/// // With 8 + 52 = 60 tokens, everything fits.
/// let selection = Pipeline::default().run(&history, &ContextBudget::new(100, 60)?)?;
/// assert_eq!(selection.items().len(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Enums
///
/// A newtype variant without attributes forwards every accessor (`group()`
/// too) to the value it wraps; a variant with `#[context]` fields is read like a struct.
///
/// ```
/// use budget::{ContextItem, ContextKind};
///
/// #[derive(ContextItem)]
/// struct Note {
///     #[context(content)]
///     text: String,
/// }
///
/// #[derive(ContextItem)]
/// enum Entry {
///     Note(Note),
///     #[context(kind = "ToolOutput", content_type = "code")]
///     Tool(#[context(content)] String, #[context(tokens)] Option<u32>),
/// }
///
/// let tool = Entry::Tool("exit status 1".into(), Some(5));
/// assert_eq!(*tool.kind(), ContextKind::TOOL_OUTPUT);
/// assert_eq!(tool.tokens(), 5);
/// let note = Entry::Note(Note { text: "hello".into() });
/// # #[cfg(feature = "o200k")]
/// assert_eq!(note.tokens(), 1); // exact o200k_base
/// ```
///
/// # Errors
///
/// Misuse is a compile error at the offending token, with every bad
/// attribute of the item reported at once: unknown keys (with the closest
/// valid one), duplicates, a missing `content` field, bad kinds, content
/// types, tiers or thresholds, and field types that do not fit their role.
/// Generic field types get the matching bound (`T: TextField`, …).
///
/// [`ContentType`]: estimate::ContentType
/// [`RatioEstimator`]: estimate::RatioEstimator
/// [`CalibratedEstimator::new`]: estimate::CalibratedEstimator::new
/// [`CalibratedEstimator::upper_bound`]: estimate::CalibratedEstimator::upper_bound
/// [`Tier`]: model::Tier
/// [`Timestamp`]: model::Timestamp
/// [`TagList`]: model::TagList
/// [`ratio_estimate_parts`]: model::ratio_estimate_parts
/// [`estimate_parts`]: model::estimate_parts
/// [`join_parts`]: model::join_parts
/// [`PART_SEPARATOR_TOKENS`]: model::PART_SEPARATOR_TOKENS
#[doc(inline)]
pub use budget_derive::ContextItem;

/// What generated code names, and nothing else: the derive and `budget!`
/// spell every path through this module. Not public API. The version in its
/// name is the contract between this crate and `budget-derive`: a mismatched
/// pair fails to resolve it instead of miscompiling.
#[doc(hidden)]
pub mod __private_v0_1 {
    pub use budget_derive::budget;
    pub use budget_runtime;
    pub use std;
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The manual's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryDoctests;

/// The manual's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/models.md")]
struct ModelsDoctests;
