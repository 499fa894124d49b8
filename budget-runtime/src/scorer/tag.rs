//! [`TagScorer`]: the share of configured tag weight an item's tags match.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::model::ContextItem;
use crate::scorer::Scorer;
use crate::scorer::ScorerError;

/// Scores each item by `min(matched / total, 1.0)`, where `total` is the sum
/// of all configured tag weights and `matched` the sum of the weights of the
/// item's tags (a tag listed twice on an item counts twice). Items without
/// tags, or a scorer whose weights are all zero, score 0.0.
///
/// Tags match exactly (case-sensitive), as the specification's default;
/// [`TagScorer::ignoring_ascii_case`] folds ASCII case instead. Weights must
/// be finite and `>= 0`. An absolute scorer: O(total tags).
///
/// ```
/// use budget::{Item, scorer::{TagScorer, Scorer}};
///
/// let scorer = TagScorer::new([("important", 3.0), ("recent", 2.0), ("archived", 1.0)])?;
/// let item = Item::builder("x").tokens(1).tags(["important"]).build()?;
/// let other = Item::builder("y").tokens(1).tags(["Important"]).build()?;
/// assert_eq!(scorer.scores(&[&item, &other]), vec![0.5, 0.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct TagScorer {
    /// Weights in the order given; tags are ASCII-lowercased when `fold_case`.
    weights: Vec<(String, f64)>,
    /// Position in `weights` by tag, only for long lists: a short list is
    /// faster to scan than a tag is to hash.
    index: Option<HashMap<String, usize>>,
    total: f64,
    fold_case: bool,
}

/// Longest weight list that is scanned instead of hashed.
const SCAN_LIMIT: usize = 8;

impl TagScorer {
    /// A scorer matching tags exactly (case-sensitive).
    ///
    /// # Errors
    /// [`ScorerError::TagWeight`] for a negative, NaN or infinite weight,
    /// [`ScorerError::DuplicateTag`] for a tag given twice and
    /// [`ScorerError::WeightSumOverflow`] when the weights add up to infinity.
    pub fn new<I, S>(weights: I) -> Result<Self, ScorerError>
    where
        I: IntoIterator<Item = (S, f64)>,
        S: Into<String>,
    {
        Self::build(weights, false)
    }

    /// A scorer matching tags ASCII case-insensitively (`"Rust"` matches a
    /// weight for `"rust"`).
    ///
    /// ```
    /// use budget::{Item, scorer::{TagScorer, Scorer}};
    ///
    /// let scorer = TagScorer::ignoring_ascii_case([("rust", 1.0), ("async", 1.0)])?;
    /// let item = Item::builder("x").tokens(1).tags(["RUST"]).build()?;
    /// assert_eq!(scorer.scores(&[&item]), vec![0.5]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`TagScorer::new`]; tags differing only in ASCII case are
    /// duplicates.
    pub fn ignoring_ascii_case<I, S>(weights: I) -> Result<Self, ScorerError>
    where
        I: IntoIterator<Item = (S, f64)>,
        S: Into<String>,
    {
        Self::build(weights, true)
    }

    fn build<I, S>(weights: I, fold_case: bool) -> Result<Self, ScorerError>
    where
        I: IntoIterator<Item = (S, f64)>,
        S: Into<String>,
    {
        let mut list: Vec<(String, f64)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut total = 0.0;
        for (tag, value) in weights {
            let tag: String = tag.into();
            if !(value.is_finite() && value >= 0.0) {
                return Err(ScorerError::TagWeight { tag, value });
            }
            let key = if fold_case {
                tag.to_ascii_lowercase()
            } else {
                tag.clone()
            };
            match index.entry(key.clone()) {
                Entry::Occupied(_) => return Err(ScorerError::DuplicateTag { tag }),
                Entry::Vacant(slot) => {
                    slot.insert(list.len());
                }
            }
            list.push((key, value));
            total += value;
        }
        if !total.is_finite() {
            return Err(ScorerError::WeightSumOverflow { count: list.len() });
        }
        Ok(Self {
            index: (list.len() > SCAN_LIMIT).then_some(index),
            weights: list,
            total,
            fold_case,
        })
    }

    /// The sum of all configured weights (the denominator).
    pub fn total_weight(&self) -> f64 {
        self.total
    }

    fn weight_of(&self, tag: &str, folded: &mut String) -> f64 {
        let position = match &self.index {
            None if self.fold_case => self
                .weights
                .iter()
                .position(|(known, _)| known.eq_ignore_ascii_case(tag)),
            None => self.weights.iter().position(|(known, _)| known == tag),
            Some(index) => {
                let key = if self.fold_case && tag.bytes().any(|b| b.is_ascii_uppercase()) {
                    folded.clear();
                    folded.push_str(tag);
                    folded.make_ascii_lowercase();
                    folded.as_str()
                } else {
                    tag
                };
                index.get(key).copied()
            }
        };
        position.map_or(0.0, |i| self.weights[i].1)
    }
}

impl Scorer for TagScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        let mut folded = String::new();
        for (item, score) in items.iter().zip(scores.iter_mut()) {
            if self.total == 0.0 {
                *score = 0.0;
                continue;
            }
            let mut matched = 0.0;
            item.tags()
                .for_each_tag(&mut |tag| matched += self.weight_of(tag, &mut folded));
            // `matched` may overflow to +inf with many repeated tags; the
            // ratio is then +inf and the clamp still gives 1.0.
            *score = (matched / self.total).min(1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TagScorer;
    use crate::model::{ContextItem, Item};
    use crate::scorer::Scorer;
    use crate::scorer::ScorerError;

    fn score(scorer: &TagScorer, tag_lists: &[&[&str]]) -> Vec<f64> {
        let items: Vec<Item> = tag_lists
            .iter()
            .map(|tags| {
                Item::builder("x")
                    .tokens(100)
                    .tags(tags.iter().copied())
                    .build()
                    .unwrap()
            })
            .collect();
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        scorer.scores(&views)
    }

    /// Vector `tag-basic`: total 6.0; 6/6, 3/6, 1/6, 0/6.
    #[test]
    fn vector_tag_basic() {
        let scorer =
            TagScorer::new([("important", 3.0), ("recent", 2.0), ("archived", 1.0)]).unwrap();
        let scores = score(
            &scorer,
            &[
                &["important", "recent", "archived"],
                &["important"],
                &["archived"],
                &["other"],
            ],
        );
        let expected = [1.0, 0.5, 0.166666666666667, 0.0];
        for (got, want) in scores.iter().zip(expected) {
            assert!((got - want).abs() < 1e-9, "{got} vs {want}");
        }
    }

    /// Vector `tag-no-tags`.
    #[test]
    fn vector_tag_no_tags() {
        let scorer = TagScorer::new([("important", 5.0)]).unwrap();
        assert_eq!(score(&scorer, &[&["important"], &[]]), vec![1.0, 0.0]);
    }

    #[test]
    fn default_matching_is_case_sensitive() {
        let scorer = TagScorer::new([("rust", 1.0)]).unwrap();
        assert_eq!(score(&scorer, &[&["Rust"], &["rust"]]), vec![0.0, 1.0]);
    }

    #[test]
    fn ignoring_case_folds_both_sides() {
        let scorer = TagScorer::ignoring_ascii_case([("Rust", 1.0), ("go", 3.0)]).unwrap();
        assert_eq!(
            score(&scorer, &[&["rust"], &["RUST"], &["Go"]]),
            vec![0.25, 0.25, 0.75]
        );
        let err = TagScorer::ignoring_ascii_case([("Rust", 1.0), ("rust", 1.0)]).unwrap_err();
        assert_eq!(
            err,
            ScorerError::DuplicateTag {
                tag: "rust".to_owned()
            }
        );
        // The same two tags are distinct when matching is case-sensitive.
        assert!(TagScorer::new([("Rust", 1.0), ("rust", 1.0)]).is_ok());
    }

    #[test]
    fn repeated_item_tags_count_each_time_and_clamp() {
        let scorer = TagScorer::new([("a", 1.0), ("b", 3.0)]).unwrap();
        // 1 + 1 = 2 of 4.
        assert_eq!(score(&scorer, &[&["a", "a"]]), vec![0.5]);
        // 3 + 3 = 6 of 4, clamped.
        assert_eq!(score(&scorer, &[&["b", "b"]]), vec![1.0]);
    }

    #[test]
    fn all_zero_or_no_weights_score_zero() {
        let zero = TagScorer::new([("a", 0.0)]).unwrap();
        assert_eq!(score(&zero, &[&["a"]]), vec![0.0]);
        let none = TagScorer::new(Vec::<(String, f64)>::new()).unwrap();
        assert_eq!(score(&none, &[&["a"]]), vec![0.0]);
    }

    #[test]
    fn invalid_weights_are_typed_errors() {
        for bad in [-1.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = TagScorer::new([("a", bad)]).unwrap_err();
            assert!(matches!(err, ScorerError::TagWeight { ref tag, .. } if tag == "a"));
        }
        assert_eq!(
            TagScorer::new([("a", -1.0)]).unwrap_err().to_string(),
            "weight for tag \"a\" must be finite and >= 0, got -1"
        );
        assert_eq!(
            TagScorer::new([("a", 1.0), ("a", 2.0)]).unwrap_err(),
            ScorerError::DuplicateTag {
                tag: "a".to_owned()
            }
        );
        assert_eq!(
            TagScorer::new([("a", f64::MAX), ("b", f64::MAX)]).unwrap_err(),
            ScorerError::WeightSumOverflow { count: 2 }
        );
    }

    #[test]
    fn long_weight_lists_are_indexed() {
        let names: Vec<String> = (0..12).map(|i| format!("Tag{i}")).collect();
        let weights = names.iter().map(|n| (n.clone(), 1.0));
        let exact = TagScorer::new(weights.clone()).unwrap();
        assert!(exact.index.is_some());
        // Each match is 1 of 12.
        assert_eq!(
            score(&exact, &[&["Tag3"], &["tag3"], &["Tag3", "Tag11", "x"]]),
            vec![1.0 / 12.0, 0.0, 2.0 / 12.0]
        );
        let folded = TagScorer::ignoring_ascii_case(weights).unwrap();
        assert_eq!(
            score(&folded, &[&["TAG3"], &["tag3"], &["tAg11"]]),
            vec![1.0 / 12.0; 3]
        );
    }

    #[test]
    fn huge_weights_stay_finite() {
        let scorer = TagScorer::new([("a", f64::MAX / 2.0), ("b", f64::MAX / 2.0)]).unwrap();
        // matched overflows to +inf with three MAX/2 tags; the clamp holds.
        assert_eq!(score(&scorer, &[&["a"], &["a", "a", "b"]]), vec![0.5, 1.0]);
    }
}
