//! [`ChronologicalPlacer`]: oldest first, undated items last.

use crate::model::ScoredItem;
use crate::placer::Placer;

/// Orders items by ascending timestamp; items without a timestamp follow in
/// their merged order; equal timestamps keep their merged order. Scores are
/// not used. O(n log n).
///
/// ```
/// use budget::{Item, placer::{ChronologicalPlacer, Placer}, model::{ScoredItem, Timestamp}};
///
/// let new = Item::builder("new").tokens(1).timestamp(Timestamp::from_unix_seconds(20)).build()?;
/// let old = Item::builder("old").tokens(1).timestamp(Timestamp::from_unix_seconds(10)).build()?;
/// let undated = Item::new("undated", 1)?;
/// let merged = [
///     ScoredItem::new(&undated, 0, 1.0),
///     ScoredItem::new(&new, 1, 0.9),
///     ScoredItem::new(&old, 2, 0.1),
/// ];
/// assert_eq!(ChronologicalPlacer::new().place(&merged), vec![2, 1, 0]);
/// # Ok::<(), budget::model::ItemError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ChronologicalPlacer;

impl ChronologicalPlacer {
    /// The chronological placer.
    pub const fn new() -> Self {
        Self
    }
}

impl Placer for ChronologicalPlacer {
    fn place(&self, merged: &[ScoredItem<'_>]) -> Vec<usize> {
        let mut dated: Vec<(i128, usize)> = Vec::with_capacity(merged.len());
        let mut undated: Vec<usize> = Vec::new();
        for (pos, candidate) in merged.iter().enumerate() {
            match candidate.item.timestamp() {
                Some(timestamp) => dated.push((timestamp.unix_nanos(), pos)),
                None => undated.push(pos),
            }
        }
        // (instant, position) packed into one integer with the same order
        // when every instant fits i64 nanoseconds (±292 years of 1970).
        let packed: Option<Vec<u128>> = dated
            .iter()
            .map(|&(nanos, pos)| {
                let nanos = i64::try_from(nanos).ok()?;
                let pos = u64::try_from(pos).ok()?;
                Some(u128::from(ordered_bits(nanos)) << 64 | u128::from(pos))
            })
            .collect();
        let mut order: Vec<usize> = match packed {
            Some(mut packed) => {
                packed.sort_unstable();
                packed
                    .into_iter()
                    .filter_map(|key| {
                        let pos = u64::try_from(key & u128::from(u64::MAX)).ok()?;
                        usize::try_from(pos).ok()
                    })
                    .collect()
            }
            None => {
                dated.sort_unstable();
                dated.into_iter().map(|(_, pos)| pos).collect()
            }
        };
        order.extend(undated);
        order
    }
}

/// `nanos` as a `u64` with the same order: the sign bit flipped.
fn ordered_bits(nanos: i64) -> u64 {
    nanos.cast_unsigned() ^ (1 << 63)
}

#[cfg(test)]
mod tests {
    use super::{ChronologicalPlacer, ordered_bits};
    use crate::model::{Item, ScoredItem, Timestamp};
    use crate::placer::Placer;

    fn place(instants: &[Option<i128>]) -> Vec<usize> {
        let items: Vec<Item> = instants
            .iter()
            .map(|&nanos| {
                let builder = Item::builder("x").tokens(1);
                match nanos {
                    Some(nanos) => builder.timestamp(Timestamp::from_unix_nanos(nanos)),
                    None => builder,
                }
                .build()
                .unwrap()
            })
            .collect();
        let merged: Vec<ScoredItem<'_>> = items
            .iter()
            .enumerate()
            .map(|(index, item)| ScoredItem::new(item, index, 0.5))
            .collect();
        ChronologicalPlacer::new().place(&merged)
    }

    #[test]
    fn oldest_first_ties_in_merged_order_undated_last() {
        let order = place(&[Some(30), None, Some(-10), Some(30), None, Some(0)]);
        assert_eq!(order, [2, 5, 0, 3, 1, 4]);
    }

    #[test]
    fn instants_beyond_i64_nanoseconds_keep_their_order() {
        let far = i128::from(i64::MAX) + 1;
        let order = place(&[Some(far), None, Some(-far), Some(5), Some(far)]);
        assert_eq!(order, [2, 3, 0, 4, 1]);
    }

    #[test]
    fn ordered_bits_keep_the_order_of_instants() {
        let instants = [i64::MIN, -1_000, -1, 0, 1, 1_000, i64::MAX];
        for pair in instants.windows(2) {
            assert!(ordered_bits(pair[0]) < ordered_bits(pair[1]), "{pair:?}");
        }
        assert_eq!(ordered_bits(i64::MIN), 0);
        assert_eq!(ordered_bits(i64::MAX), u64::MAX);
    }
}
