//! [`FrequencyScorer`]: the share of peers that share a tag with an item.

use std::collections::HashMap;
use std::ops::Range;

use crate::model::ContextItem;
use crate::scorer::Scorer;

/// Scores each item by the fraction of the *other* items that share at
/// least one tag with it (tags compared ASCII case-insensitively):
/// `sharing peers / (n − 1)`, where `n` counts every item, tagged or not.
/// Items without tags, and a lone item, score 0.0.
///
/// The specification describes a pairwise comparison (quadratic). This
/// implementation gives the same numbers without comparing pairs: it groups
/// items with equal tag sets (a sort, O(n·t·log n) for at most t tags per
/// item), then counts for each group the items whose tag set meets it,
/// either by inclusion–exclusion over tag subsets (O(n·2^t·log n), used when
/// t ≤ 8) or through per-tag postings (Σ over tags of the squared number of
/// distinct tag sets carrying it), whichever is cheaper for the batch. With
/// up to 8 tags per item the scorer is therefore O(n log n). Only batches
/// with many *distinct* tag sets of more than 8 tags that share tags cost
/// more; for unbounded tag counts no exact subquadratic method is known.
///
/// ```
/// use budget::{Item, scorer::{FrequencyScorer, Scorer}};
///
/// let a = Item::builder("a").tokens(1).tags(["web", "api"]).build()?;
/// let b = Item::builder("b").tokens(1).tags(["WEB"]).build()?;
/// let c = Item::builder("c").tokens(1).tags(["db"]).build()?;
/// // a shares with b; b with a; c with nobody. Denominator n − 1 = 2.
/// assert_eq!(FrequencyScorer::new().scores(&[&a, &b, &c]), vec![0.5, 0.5, 0.0]);
/// # Ok::<(), budget::model::ItemError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct FrequencyScorer;

impl FrequencyScorer {
    /// The frequency scorer.
    pub const fn new() -> Self {
        Self
    }
}

impl Scorer for FrequencyScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        scores.fill(0.0);
        if items.len() <= 1 {
            return;
        }
        let sets = TagSets::collect(items);
        let sharing = match sets.cheaper_method() {
            Method::InclusionExclusion => sets.sharing_by_inclusion_exclusion(),
            Method::Postings => sets.sharing_by_postings(),
        };
        let peers = (items.len() - 1) as f64;
        for (group, score) in sets.item_group.iter().zip(scores.iter_mut()) {
            if let Some(group) = *group {
                // `sharing` counts the item itself; take it out.
                *score = sharing[group].saturating_sub(1) as f64 / peers;
            }
        }
    }
}

/// Largest tag-set size for which inclusion–exclusion is considered
/// (2^8 = 256 subsets per distinct tag set; 8 ids of 16 bits fill a `u128`).
const MAX_SUBSET_TAGS: usize = 8;

/// Inclusion–exclusion packs tag ids in 16 bits: it needs fewer distinct tags.
const MAX_SUBSET_TAG_ID: usize = u16::MAX as usize;

/// Relative cost of one subset-table update against one postings step.
const SUBSET_COST_FACTOR: u128 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    InclusionExclusion,
    Postings,
}

/// The batch's distinct (case-folded, deduplicated) tag sets.
struct TagSets {
    /// For each item, its tag set's group, or `None` when it has no tags.
    item_group: Vec<Option<usize>>,
    /// Sorted tag ids of all items, back to back.
    flat: Vec<usize>,
    /// Each group's tag ids, as a range of `flat`.
    group_range: Vec<Range<usize>>,
    /// Number of items in each group.
    group_size: Vec<u64>,
    /// Number of items carrying each tag.
    tag_items: Vec<u64>,
}

impl TagSets {
    /// Interns every tag (ASCII-lowercased), then groups items with equal
    /// tag sets by sorting them. O(n·t·log(n·t)).
    fn collect(items: &[&dyn ContextItem]) -> Self {
        let mut tag_ids: HashMap<String, usize> = HashMap::new();
        let mut flat = Vec::new();
        let mut item_range = Vec::with_capacity(items.len());
        let mut folded = String::new();
        for item in items {
            let start = flat.len();
            item.tags().for_each_tag(&mut |tag| {
                let key = if tag.bytes().any(|b| b.is_ascii_uppercase()) {
                    folded.clear();
                    folded.push_str(tag);
                    folded.make_ascii_lowercase();
                    folded.as_str()
                } else {
                    tag
                };
                let id = match tag_ids.get(key) {
                    Some(&id) => id,
                    None => {
                        let id = tag_ids.len();
                        tag_ids.insert(key.to_owned(), id);
                        id
                    }
                };
                flat.push(id);
            });
            let own = &mut flat[start..];
            own.sort_unstable();
            let mut len = 0;
            for i in 0..own.len() {
                if i == 0 || own[i] != own[len - 1] {
                    own[len] = own[i];
                    len += 1;
                }
            }
            flat.truncate(start + len);
            item_range.push(start..start + len);
        }

        let mut tagged: Vec<usize> = (0..items.len())
            .filter(|&i| !item_range[i].is_empty())
            .collect();
        tagged.sort_unstable_by(|&a, &b| {
            flat[item_range[a].clone()].cmp(&flat[item_range[b].clone()])
        });
        let mut item_group = vec![None; items.len()];
        let mut group_range: Vec<Range<usize>> = Vec::new();
        let mut group_size: Vec<u64> = Vec::new();
        for &item in &tagged {
            let range = item_range[item].clone();
            let same = group_range
                .last()
                .is_some_and(|last| flat[last.clone()] == flat[range.clone()]);
            if !same {
                group_range.push(range);
                group_size.push(0);
            }
            let group = group_range.len() - 1;
            group_size[group] += 1;
            item_group[item] = Some(group);
        }

        let mut tag_items = vec![0u64; tag_ids.len()];
        for (range, &size) in group_range.iter().zip(&group_size) {
            for &tag in &flat[range.clone()] {
                tag_items[tag] += size;
            }
        }
        Self {
            item_group,
            flat,
            group_range,
            group_size,
            tag_items,
        }
    }

    fn tags(&self, group: usize) -> &[usize] {
        &self.flat[self.group_range[group].clone()]
    }

    fn groups(&self) -> impl Iterator<Item = &[usize]> {
        (0..self.group_range.len()).map(|group| self.tags(group))
    }

    fn cheaper_method(&self) -> Method {
        if self.tag_items.len() > MAX_SUBSET_TAG_ID {
            return Method::Postings;
        }
        let mut subset_cost: u128 = 0;
        for tags in self.groups() {
            if tags.len() > MAX_SUBSET_TAGS {
                return Method::Postings;
            }
            subset_cost += 1u128 << tags.len();
        }
        let mut groups_per_tag = vec![0u128; self.tag_items.len()];
        for tags in self.groups() {
            for &tag in tags {
                groups_per_tag[tag] += 1;
            }
        }
        let postings_cost: u128 = groups_per_tag.iter().map(|g| g * g).sum();
        if subset_cost.saturating_mul(SUBSET_COST_FACTOR) < postings_cost {
            Method::InclusionExclusion
        } else {
            Method::Postings
        }
    }

    /// For each group, the number of items (itself included) whose tag set
    /// intersects the group's, by walking the postings of its tags and
    /// marking each group reached once.
    fn sharing_by_postings(&self) -> Vec<u64> {
        let mut postings = vec![Vec::new(); self.tag_items.len()];
        for (group, tags) in self.groups().enumerate() {
            for &tag in tags {
                postings[tag].push(group);
            }
        }
        let mut seen_by = vec![usize::MAX; self.group_range.len()];
        self.groups()
            .enumerate()
            .map(|(group, tags)| {
                let mut total = 0u64;
                for &tag in tags {
                    for &other in &postings[tag] {
                        if seen_by[other] != group {
                            seen_by[other] = group;
                            total += self.group_size[other];
                        }
                    }
                }
                total
            })
            .collect()
    }

    /// The same counts by inclusion–exclusion: the number of items whose tag
    /// set meets `T` is `Σ (−1)^(|U|+1) · c(U)` over non-empty `U ⊆ T`, where
    /// `c(U)` counts the items whose tag set contains `U`. Single-tag counts
    /// come from `tag_items`; for larger subsets, every (subset, group) pair
    /// is listed and sorted by subset, so each run of equal subsets yields
    /// `c(U)` for all groups containing it. Only for groups of at most
    /// [`MAX_SUBSET_TAGS`] tags with ids below [`MAX_SUBSET_TAG_ID`].
    fn sharing_by_inclusion_exclusion(&self) -> Vec<u64> {
        let mut totals: Vec<i128> = self
            .groups()
            .map(|tags| {
                tags.iter()
                    .map(|&tag| i128::from(self.tag_items[tag]))
                    .sum()
            })
            .collect();
        let pairs: usize = self
            .groups()
            .map(|tags| (1usize << tags.len()) - 1 - tags.len())
            .sum();
        let mut subsets: Vec<(u128, usize)> = Vec::with_capacity(pairs);
        for (group, tags) in self.groups().enumerate() {
            subsets.extend(multi_tag_masks(tags.len()).map(|mask| (subset_key(tags, mask), group)));
        }
        subsets.sort_unstable_by_key(|&(key, _)| key);
        for run in subsets.chunk_by(|a, b| a.0 == b.0) {
            let containing: u64 = run.iter().map(|&(_, group)| self.group_size[group]).sum();
            let containing = i128::from(containing);
            // Each tag fills 16 bits of the key, the first one the top bits.
            let len = (128 - run[0].0.leading_zeros()).div_ceil(16);
            for &(_, group) in run {
                if len % 2 == 1 {
                    totals[group] += containing;
                } else {
                    totals[group] -= containing;
                }
            }
        }
        totals
            .into_iter()
            .map(|total| u64::try_from(total).unwrap_or(0))
            .collect()
    }
}

/// Bit masks over `len` tags selecting two or more of them.
fn multi_tag_masks(len: usize) -> impl Iterator<Item = u32> {
    (3..(1u32 << len)).filter(|mask| mask.count_ones() >= 2)
}

/// The tags of `tags` selected by `mask`, packed 16 bits per tag as
/// `id + 1` (so shorter subsets never collide with longer ones). Exact for
/// at most [`MAX_SUBSET_TAGS`] tags with ids below [`MAX_SUBSET_TAG_ID`].
fn subset_key(tags: &[usize], mask: u32) -> u128 {
    let mut key = 0u128;
    for (bit, &tag) in tags.iter().enumerate() {
        if mask & (1 << bit) != 0 {
            key = (key << 16) | (tag as u128 + 1);
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::{FrequencyScorer, Method, TagSets};
    use crate::model::{ContextItem, Item};
    use crate::scorer::Scorer;
    use proptest::prelude::*;

    fn items(tag_lists: &[&[&str]]) -> Vec<Item> {
        tag_lists
            .iter()
            .enumerate()
            .map(|(i, tags)| {
                Item::builder(format!("item {i}"))
                    .tokens(100)
                    .tags(tags.iter().copied())
                    .build()
                    .unwrap()
            })
            .collect()
    }

    fn views(items: &[Item]) -> Vec<&dyn ContextItem> {
        items.iter().map(|i| i as &dyn ContextItem).collect()
    }

    /// The specification's pairwise algorithm, as an oracle.
    fn pairwise(tag_lists: &[Vec<String>]) -> Vec<f64> {
        let n = tag_lists.len();
        (0..n)
            .map(|i| {
                if tag_lists[i].is_empty() || n <= 1 {
                    return 0.0;
                }
                let matching = (0..n)
                    .filter(|&j| j != i)
                    .filter(|&j| {
                        tag_lists[i]
                            .iter()
                            .any(|a| tag_lists[j].iter().any(|b| a.eq_ignore_ascii_case(b)))
                    })
                    .count();
                matching as f64 / (n - 1) as f64
            })
            .collect()
    }

    /// Vector `frequency-basic`: 2/3, 1/3, 1/3, 0.
    #[test]
    fn vector_frequency_basic() {
        let items = items(&[&["web", "api"], &["web"], &["api", "db"], &["cli"]]);
        let scores = FrequencyScorer::new().scores(&views(&items));
        let expected = [0.666666666666667, 0.333333333333333, 0.333333333333333, 0.0];
        for (got, want) in scores.iter().zip(expected) {
            assert!((got - want).abs() < 1e-9, "{got} vs {want}");
        }
    }

    #[test]
    fn overlapping_tags_count_a_peer_once() {
        // b shares two tags with a but is one peer; c is tagless but counts
        // in the denominator (n − 1 = 2).
        let items = items(&[&["x", "y"], &["Y", "x"], &[]]);
        assert_eq!(
            FrequencyScorer::new().scores(&views(&items)),
            vec![0.5, 0.5, 0.0]
        );
    }

    #[test]
    fn duplicates_within_an_item_do_not_matter() {
        let items = items(&[&["a", "A", "a"], &["a"]]);
        assert_eq!(
            FrequencyScorer::new().scores(&views(&items)),
            vec![1.0, 1.0]
        );
    }

    #[test]
    fn lone_and_empty_batches() {
        let one = items(&[&["a"]]);
        assert_eq!(FrequencyScorer::new().scores(&views(&one)), vec![0.0]);
        assert!(FrequencyScorer::new().scores(&[]).is_empty());
    }

    #[test]
    fn the_same_item_twice_is_its_own_peer() {
        let item = Item::builder("x").tokens(1).tags(["t"]).build().unwrap();
        let scores = FrequencyScorer::new().scores(&[&item, &item]);
        assert_eq!(scores, vec![1.0, 1.0]);
    }

    #[test]
    fn many_tags_per_item_take_the_postings_path() {
        let wide: Vec<String> = (0..20).map(|i| format!("t{i}")).collect();
        let wide_refs: Vec<&str> = wide.iter().map(String::as_str).collect();
        let items = items(&[&wide_refs, &["t19"], &["other"]]);
        let sets = TagSets::collect(&views(&items));
        assert_eq!(sets.cheaper_method(), Method::Postings);
        assert_eq!(
            FrequencyScorer::new().scores(&views(&items)),
            vec![0.5, 0.5, 0.0]
        );
    }

    #[test]
    fn one_shared_tag_over_many_distinct_sets_takes_subsets() {
        // 200 distinct sets {common, own_i}: postings cost 200², subsets 200·4.
        let own: Vec<String> = (0..200).map(|i| format!("own{i}")).collect();
        let lists: Vec<Vec<&str>> = own.iter().map(|o| vec!["common", o.as_str()]).collect();
        let list_refs: Vec<&[&str]> = lists.iter().map(Vec::as_slice).collect();
        let items = items(&list_refs);
        let sets = TagSets::collect(&views(&items));
        assert_eq!(sets.cheaper_method(), Method::InclusionExclusion);
        assert!(
            FrequencyScorer::new()
                .scores(&views(&items))
                .iter()
                .all(|&s| s == 1.0)
        );
    }

    proptest! {
        /// Wide tag sets (more than 8 tags) take the postings path; it still
        /// equals the pairwise algorithm.
        #[test]
        fn wide_tag_sets_match_pairwise(
            lists in prop::collection::vec(
                prop::collection::vec(0u8..14, 0..13),
                0..16,
            )
        ) {
            let owned: Vec<Vec<String>> = lists
                .iter()
                .map(|l| l.iter().map(|t| format!("T{t}")).collect())
                .collect();
            let refs: Vec<Vec<&str>> = owned
                .iter()
                .map(|l| l.iter().map(String::as_str).collect())
                .collect();
            let slices: Vec<&[&str]> = refs.iter().map(Vec::as_slice).collect();
            let items = items(&slices);
            prop_assert_eq!(FrequencyScorer::new().scores(&views(&items)), pairwise(&owned));
        }

        /// Both counting methods equal the specification's pairwise algorithm.
        #[test]
        fn both_methods_match_pairwise(
            lists in prop::collection::vec(
                prop::collection::vec(prop::sample::select(vec!["a", "B", "b", "c", "D", "e", "f"]), 0..5),
                0..24,
            )
        ) {
            let owned: Vec<Vec<String>> = lists
                .iter()
                .map(|l| l.iter().map(|t| t.to_string()).collect())
                .collect();
            let refs: Vec<&[&str]> = lists.iter().map(Vec::as_slice).collect();
            let items = items(&refs);
            let views = views(&items);
            let expected = pairwise(&owned);
            prop_assert_eq!(FrequencyScorer::new().scores(&views), expected.clone());
            if views.len() > 1 {
                let sets = TagSets::collect(&views);
                let by_postings = sets.sharing_by_postings();
                let by_subsets = sets.sharing_by_inclusion_exclusion();
                prop_assert_eq!(&by_postings, &by_subsets);
            }
        }
    }
}
