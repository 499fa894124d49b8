//! Scorers: each assigns every candidate a relevance score (one file per scorer).
//!
//! Which scorer for which content:
//!
//! | content | scorer | why |
//! |---|---|---|
//! | retrieved documents with a similarity (`#[context(score)]`) | [`RelevanceScorer`] (the pipeline default) | ranks by the retriever's score; items without one fall back to recency |
//! | chat history | none: give it to `budget::prompt::PromptBudget`, which compacts it; in a pipeline, [`RecencyScorer`] with tool calls grouped ([`ContextItem::group`]) | the newest turns matter most, and calls must keep their results |
//! | files of a repository | [`PriorityScorer`], [`KindScorer`] or [`TagScorer`], combined with [`CompositeScorer`] | files carry no similarity; the caller's priorities and kinds do |
//!
//! Scorers see the whole candidate list at once, so rank-based scorers sort
//! once (O(n log n)) instead of comparing every pair.

mod composite;
mod decay;
mod error;
mod frequency;
mod kind;
mod metadata_key;
mod metadata_trust;
mod priority;
#[cfg(test)]
mod proptests;
mod rank;
mod recency;
mod reflexive;
mod relevance;
mod scaled;
mod tag;
mod time_provider;

pub use composite::{CompositeScorer, CompositeScorerBuilder};
pub use decay::{DecayCurve, DecayScorer};
pub use error::ScorerError;
pub use frequency::FrequencyScorer;
pub use kind::KindScorer;
pub use metadata_key::MetadataKeyScorer;
pub use metadata_trust::MetadataTrustScorer;
pub use priority::PriorityScorer;
pub use recency::RecencyScorer;
pub use reflexive::ReflexiveScorer;
pub use relevance::RelevanceScorer;
pub use scaled::ScaledScorer;
pub use tag::TagScorer;
pub use time_provider::{SystemClock, TimeProvider};

use std::fmt::Debug;

use crate::model::ContextItem;

/// Assigns relevance scores, conventionally in `0.0..=1.0`.
///
/// `score_all` receives every scoreable item and writes `scores[i]` for
/// `items[i]`; both slices have the same length. A scorer never drops or
/// reorders items.
///
/// ```
/// use budget::{ContextItem, Item, scorer::Scorer};
///
/// /// Prefers short items: 1 / (1 + tokens / 100).
/// #[derive(Debug)]
/// struct Brevity;
/// impl Scorer for Brevity {
///     fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
///         for (item, score) in items.iter().zip(scores.iter_mut()) {
///             *score = 1.0 / (1.0 + item.tokens() as f64 / 100.0);
///         }
///     }
/// }
/// let item = Item::new("x", 100)?;
/// assert_eq!(Brevity.scores(&[&item]), vec![0.5]);
/// # Ok::<(), budget::model::ItemError>(())
/// ```
pub trait Scorer: Send + Sync + Debug {
    /// Writes one score per item into `scores` (same order, same length).
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]);

    /// The scores of `items` as a new vector.
    fn scores(&self, items: &[&dyn ContextItem]) -> Vec<f64> {
        let mut scores = vec![0.0; items.len()];
        self.score_all(items, &mut scores);
        scores
    }
}

impl<S: Scorer + ?Sized> Scorer for Box<S> {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        (**self).score_all(items, scores);
    }
}
