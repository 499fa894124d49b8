//! [`KnapsackSlicer`]: the subset with the highest total score that fits,
//! by 0/1 knapsack dynamic programming over bucketed token counts.

use std::collections::HashMap;

use crate::model::{EffectiveBudget, ScoredItem};
use crate::slicer::SlicerError;
use crate::slicer::{SliceOutcome, Slicer};

/// Scores become integer values as `max(0, floor(score × 10 000))`.
const SCORE_SCALE: f64 = 10_000.0;
/// Bits per keep-table word.
const WORD_BITS: usize = u64::BITS as usize;

/// Selects the candidates with the highest total score within the target,
/// solving a 0/1 knapsack over token counts discretised into buckets.
///
/// Per the specification: zero-token items are always selected and stay out
/// of the programme; negative-token items are never selected; a score is
/// worth `max(0, floor(score × 10 000))` (NaN counts 0); an item weighs
/// `ceil(tokens / bucket_size)` buckets and the capacity is
/// `floor(target_tokens / bucket_size)` buckets, so every solution fits the
/// real target, at the price of possibly under-filling it.
///
/// Cost: O(n × capacity) time, inherent to the dynamic programme, and a
/// keep table of n × capacity **bits** (one `u64` word per 64 capacity
/// buckets per candidate) plus one rolling row of capacity + 1 values
/// (counted at 64 bits each). Here
/// n counts only candidates that could change the answer: those that fit,
/// are worth more than 0, and are not outnumbered by at least as valuable
/// candidates of the same bucketed weight (beyond `capacity / weight` of
/// them, one more can never improve a solution). Leaving the others out
/// changes nothing in the result, but with typical token spreads removes
/// most rows.
/// Both are bounded together by [`KnapsackSlicer::with_max_table_bits`]
/// (default 2²⁸ bits = 32 MiB): no allocation of the programme exceeds it.
/// When a budget would need more, the slicer coarsens the bucket size just
/// enough to fit and logs a `tracing` warning; when even 64 columns are too
/// many, or the allocator refuses the memory (a limit set beyond what the
/// machine has), it returns [`SlicerError::KnapsackTableTooLarge`] instead
/// of aborting the process.
///
/// Output order: zero-token items in input order, then the solution in
/// reverse candidate order (the reconstruction order of the specification).
///
/// ```
/// use budget::{Item, slicer::{KnapsackSlicer, Slicer}, model::{EffectiveBudget, ScoredItem}};
///
/// // Greedy would take "small" (best score per token); the knapsack sees
/// // that "big" alone is worth more.
/// let big = Item::new("big", 250)?;
/// let small = Item::new("small", 150)?;
/// let sorted = [
///     ScoredItem::new(&big, 0, 0.7),
///     ScoredItem::new(&small, 1, 0.5),
/// ];
/// let budget = EffectiveBudget { max_tokens: 300, target_tokens: 300 };
/// let outcome = KnapsackSlicer::new(100)?.slice(&sorted, budget)?;
/// assert_eq!(outcome.selected, vec![0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KnapsackSlicer {
    bucket_size: u64,
    max_table_bits: u64,
}

impl Default for KnapsackSlicer {
    /// Bucket size [`KnapsackSlicer::DEFAULT_BUCKET_SIZE`], table limit
    /// [`KnapsackSlicer::DEFAULT_MAX_TABLE_BITS`].
    fn default() -> Self {
        Self {
            bucket_size: Self::DEFAULT_BUCKET_SIZE,
            max_table_bits: Self::DEFAULT_MAX_TABLE_BITS,
        }
    }
}

impl KnapsackSlicer {
    /// Tokens per bucket when none is given: 100.
    pub const DEFAULT_BUCKET_SIZE: u64 = 100;
    /// Keep-table limit when none is given: 2²⁸ bits (32 MiB).
    pub const DEFAULT_MAX_TABLE_BITS: u64 = 1 << 28;

    /// A knapsack slicer with `bucket_size` tokens per bucket.
    ///
    /// ```
    /// use budget::{slicer::{KnapsackSlicer, SlicerError}};
    ///
    /// assert_eq!(KnapsackSlicer::new(50)?.bucket_size(), 50);
    /// assert_eq!(
    ///     KnapsackSlicer::new(0).unwrap_err(),
    ///     SlicerError::NotPositive { name: "bucket_size", value: 0 },
    /// );
    /// # Ok::<(), SlicerError>(())
    /// ```
    ///
    /// # Errors
    /// [`SlicerError::NotPositive`] if `bucket_size` is 0.
    pub fn new(bucket_size: u64) -> Result<Self, SlicerError> {
        if bucket_size == 0 {
            return Err(SlicerError::NotPositive {
                name: "bucket_size",
                value: bucket_size,
            });
        }
        Ok(Self {
            bucket_size,
            ..Self::default()
        })
    }

    /// This slicer with another limit on the memory of the dynamic
    /// programme (keep table plus rolling row), in bits.
    ///
    /// ```
    /// use budget::slicer::KnapsackSlicer;
    ///
    /// let slicer = KnapsackSlicer::default().with_max_table_bits(1 << 20);
    /// assert_eq!(slicer.max_table_bits(), 1 << 20);
    /// ```
    #[must_use]
    pub const fn with_max_table_bits(mut self, bits: u64) -> Self {
        self.max_table_bits = bits;
        self
    }

    /// Tokens per bucket.
    ///
    /// ```
    /// assert_eq!(budget::slicer::KnapsackSlicer::default().bucket_size(), 100);
    /// ```
    pub const fn bucket_size(&self) -> u64 {
        self.bucket_size
    }

    /// The memory limit of the dynamic programme, in bits.
    ///
    /// ```
    /// use budget::slicer::KnapsackSlicer;
    ///
    /// assert_eq!(KnapsackSlicer::default().max_table_bits(), KnapsackSlicer::DEFAULT_MAX_TABLE_BITS);
    /// ```
    pub const fn max_table_bits(&self) -> u64 {
        self.max_table_bits
    }

    /// The bucket size to use for `candidates` rows under `target_tokens`:
    /// the configured one, or the smallest coarser one (to within a word of
    /// columns) whose keep table and rolling row fit the limit together.
    fn effective_bucket(&self, candidates: usize, target_tokens: u64) -> Result<u64, SlicerError> {
        let rows = u128::try_from(candidates).unwrap_or(u128::MAX);
        let limit = u128::from(self.max_table_bits);
        let capacity = u128::from(target_tokens / self.bucket_size);
        if programme_bits(rows, capacity) <= limit {
            return Ok(self.bucket_size);
        }
        // `w` words of columns cost `64 w` bits per row plus `64 w` values
        // of 64 bits in the rolling row.
        let bits_per_word = WORD_BITS_U128.saturating_mul(rows.saturating_add(WORD_BITS_U128));
        let max_words = limit / bits_per_word;
        if max_words == 0 {
            return Err(SlicerError::KnapsackTableTooLarge {
                candidates,
                needed_bits: bits_per_word,
                limit_bits: self.max_table_bits,
            });
        }
        // floor(target / b) <= columns - 1  ⟺  b > target / columns.
        let columns = max_words.saturating_mul(WORD_BITS_U128);
        let target = u128::from(target_tokens);
        let coarse = u64::try_from(target / columns + 1).unwrap_or(u64::MAX);
        let bucket = coarse.max(self.bucket_size);
        tracing::warn!(
            candidates,
            target_tokens,
            bucket_size = self.bucket_size,
            coarsened_bucket_size = bucket,
            max_table_bits = self.max_table_bits,
            "knapsack tables would exceed their limit; coarsening the bucket size"
        );
        Ok(bucket)
    }
}

/// [`WORD_BITS`] for arithmetic on table sizes.
const WORD_BITS_U128: u128 = u64::BITS as u128;

/// Bits the dynamic programme allocates for `rows` candidates at
/// `capacity` buckets: the keep table (whole 64-bit words per row) plus
/// the rolling row of `capacity + 1` values, counted at 64 bits each.
fn programme_bits(rows: u128, capacity: u128) -> u128 {
    let columns = capacity.saturating_add(1);
    let table = rows
        .saturating_mul(columns.div_ceil(WORD_BITS_U128))
        .saturating_mul(WORD_BITS_U128);
    table.saturating_add(columns.saturating_mul(WORD_BITS_U128))
}

/// Integer value of a score: `max(0, floor(score × 10 000))`, NaN → 0.
fn score_value(score: f64) -> u64 {
    // The conversion saturates and maps NaN to 0.
    budget_rules::convert::saturating_u64_from_f64((score * SCORE_SCALE).floor())
}

impl Slicer for KnapsackSlicer {
    fn slice(
        &self,
        sorted: &[ScoredItem<'_>],
        budget: EffectiveBudget,
    ) -> Result<SliceOutcome, SlicerError> {
        let target = budget.target_tokens;
        if sorted.is_empty() || target == 0 {
            return Ok(SliceOutcome::default());
        }
        let mut selected: Vec<usize> = Vec::new();
        let mut fitting = 0usize;
        for (pos, candidate) in sorted.iter().enumerate() {
            match candidate.tokens() {
                0 => selected.push(pos),
                tokens if tokens <= target => fitting += 1,
                _ => {}
            }
        }
        if fitting == 0 || target / self.bucket_size == 0 {
            return Ok(SliceOutcome::selected(selected));
        }
        let bucket = self.effective_bucket(fitting, target)?;
        let too_large = |capacity: u64| SlicerError::KnapsackTableTooLarge {
            candidates: fitting,
            needed_bits: programme_bits(
                u128::try_from(fitting).unwrap_or(u128::MAX),
                u128::from(capacity),
            ),
            limit_bits: self.max_table_bits,
        };
        let capacity = target / bucket;
        let Ok(capacity) = usize::try_from(capacity) else {
            return Err(too_large(capacity));
        };

        let rows = Rows::collect(sorted, bucket, capacity);
        if rows.positions.is_empty() {
            return Ok(SliceOutcome::selected(selected));
        }
        let (positions, weights) = (&rows.positions, &rows.weights);

        let Some(table) = KeepTable::solve(weights, &rows.values, capacity) else {
            return Err(too_large(target / bucket));
        };
        let mut remaining = capacity;
        for i in (0..positions.len()).rev() {
            if table.keeps(i, remaining) {
                selected.push(positions[i]);
                remaining -= weights[i];
            }
        }
        Ok(SliceOutcome::selected(selected))
    }

    fn optimizes_globally(&self) -> bool {
        true
    }
}

/// The candidates that get a row in the keep table, in candidate order:
/// position in `sorted`, weight in buckets, integer value.
struct Rows {
    positions: Vec<usize>,
    weights: Vec<usize>,
    values: Vec<u64>,
}

impl Rows {
    /// Leaves out candidates whose row would be all zeros, which changes
    /// neither the best values nor the solution found:
    /// * those heavier than the capacity, or with no tokens;
    /// * those worth 0, since the best value never falls as capacity grows,
    ///   so adding 0 never strictly improves it;
    /// * those preceded by `capacity / weight` kept candidates of the same
    ///   weight that are each worth at least as much: at any capacity, a
    ///   solution holding such a candidate can swap it for one of those
    ///   without losing value, so it never strictly improves a best value.
    ///   (With score-sorted input this keeps the first `capacity / weight`
    ///   candidates of each weight.)
    fn collect(sorted: &[ScoredItem<'_>], bucket: u64, capacity: usize) -> Self {
        let mut rows = Self {
            positions: Vec::new(),
            weights: Vec::new(),
            values: Vec::new(),
        };
        // Per weight: candidates kept so far and the lowest value among them.
        let mut by_weight: HashMap<usize, (usize, u64)> = HashMap::new();
        for (pos, candidate) in sorted.iter().enumerate() {
            let tokens = candidate.tokens();
            if tokens == 0 {
                continue;
            }
            let Ok(weight) = usize::try_from((tokens - 1) / bucket + 1) else {
                continue;
            };
            let value = score_value(candidate.score);
            if weight > capacity || value == 0 {
                continue;
            }
            let (kept, lowest) = by_weight.entry(weight).or_insert((0, u64::MAX));
            if *kept >= capacity / weight && value <= *lowest {
                continue;
            }
            *kept += 1;
            *lowest = (*lowest).min(value);
            rows.positions.push(pos);
            rows.weights.push(weight);
            rows.values.push(value);
        }
        rows
    }
}

/// The knapsack's keep table: bit `w` of row `i` says whether the best
/// value at capacity `w` over candidates `0..=i` takes candidate `i`.
struct KeepTable {
    bits: Vec<u64>,
    words_per_row: usize,
}

impl KeepTable {
    /// Fills the table for `weights` (buckets, each in `1..=capacity`) and
    /// `values`, with a single rolling row of best values.
    ///
    /// Values are summed in `i32` when no sum can exceed it (the usual case:
    /// scores in `0..=1` give at most 10 000 per item, so up to 214 748
    /// candidates), else in `i64` with each value capped at `i64::MAX / n`
    /// so no sum can overflow. Signed lanes compare fastest on baseline x86.
    ///
    /// `None` when the allocator refuses the table or the row.
    fn solve(weights: &[usize], values: &[u64], capacity: usize) -> Option<Self> {
        let n = values.len() as u64;
        let max_value = values.iter().copied().max().unwrap_or(0);
        if max_value
            .checked_mul(n)
            .is_some_and(|sum| sum <= i32::MAX as u64)
        {
            let narrow: Vec<i32> = values
                .iter()
                .map(|&v| i32::try_from(v).unwrap_or(i32::MAX))
                .collect();
            Self::fill(weights, &narrow, capacity)
        } else {
            let ceiling = i64::MAX as u64 / n;
            let capped: Vec<i64> = values
                .iter()
                .map(|&v| i64::try_from(v.min(ceiling)).unwrap_or(i64::MAX))
                .collect();
            Self::fill(weights, &capped, capacity)
        }
    }

    fn fill<V: DpValue>(weights: &[usize], values: &[V], capacity: usize) -> Option<Self> {
        let columns = capacity.checked_add(1)?;
        let words_per_row = columns.div_ceil(WORD_BITS);
        let mut bits = zeroed(weights.len().checked_mul(words_per_row)?)?;
        let mut best: Vec<V> = zeroed(columns)?;
        for ((&weight, &value), row) in weights
            .iter()
            .zip(values)
            .zip(bits.chunks_exact_mut(words_per_row))
        {
            // Capacities `weight..=capacity`, from the top down in blocks
            // that each fill one word of the row. A block copies the values
            // at `w - weight` before writing any `w`, and lower blocks are
            // not written yet, so every read sees the previous row's value.
            let mut high = capacity;
            loop {
                let word = high / WORD_BITS;
                let low = (word * WORD_BITS).max(weight);
                let len = high - low + 1;
                let source = low - weight;
                let mut window = [V::default(); WORD_BITS];
                let mask = if len == WORD_BITS {
                    // A whole word: fixed sizes let the compiler vectorise.
                    window.copy_from_slice(&best[source..source + WORD_BITS]);
                    let (blocks, _) = best.as_chunks_mut::<WORD_BITS>();
                    update_full_block(&mut blocks[word], &window, value)
                } else {
                    window[..len].copy_from_slice(&best[source..source + len]);
                    update_partial_block(&mut best[low..=high], &window[..len], value)
                };
                row[word] = mask << (low - word * WORD_BITS);
                if low == weight {
                    break;
                }
                high = low - 1;
            }
        }
        Some(Self {
            bits,
            words_per_row,
        })
    }

    fn keeps(&self, row: usize, capacity: usize) -> bool {
        let word = self.bits[row * self.words_per_row + capacity / WORD_BITS];
        word >> (capacity % WORD_BITS) & 1 == 1
    }
}

/// `len` default values, or `None` when the allocator refuses them (so
/// that an oversized table is an error, not a process abort).
fn zeroed<V: Copy + Default>(len: usize) -> Option<Vec<V>> {
    let mut values = Vec::new();
    values.try_reserve_exact(len).ok()?;
    values.resize(len, V::default());
    Some(values)
}

/// Raises each `slots[j]` to `window[j] + value` where that is larger;
/// bit `j` of the result says whether it was. At most [`WORD_BITS`] slots.
fn update_partial_block<V: DpValue>(slots: &mut [V], window: &[V], value: V) -> u64 {
    let mut mask = 0u64;
    for (bit, (slot, &before)) in slots.iter_mut().zip(window).enumerate() {
        let with_item = before + value;
        mask |= u64::from(with_item > *slot) << bit;
        *slot = (*slot).max(with_item);
    }
    mask
}

/// [`update_partial_block`] for exactly [`WORD_BITS`] slots.
#[inline(always)]
fn update_full_block<V: DpValue>(
    slots: &mut [V; WORD_BITS],
    window: &[V; WORD_BITS],
    value: V,
) -> u64 {
    const HALF: usize = WORD_BITS / 2;
    const BIT: [u32; HALF] = {
        let mut bits = [0u32; HALF];
        let mut j = 0;
        while j < HALF {
            bits[j] = 1 << j;
            j += 1;
        }
        bits
    };
    let mut halves = [0u32; 2];
    let (slot_halves, _) = slots.as_chunks_mut::<HALF>();
    let (window_halves, _) = window.as_chunks::<HALF>();
    for ((bits, slots), window) in halves.iter_mut().zip(slot_halves).zip(window_halves) {
        for ((slot, &before), &bit) in slots.iter_mut().zip(window).zip(&BIT) {
            let with_item = before + value;
            // All ones when raised: keeps the compare mask, no shifts.
            *bits |= bit & u32::from(with_item > *slot).wrapping_neg();
            *slot = (*slot).max(with_item);
        }
    }
    u64::from(halves[1]) << HALF | u64::from(halves[0])
}

/// A value type for the rolling row (sums never overflow, see `solve`).
trait DpValue: Copy + Default + Ord + std::ops::Add<Output = Self> {}
impl DpValue for i32 {}
impl DpValue for i64 {}

#[cfg(test)]
mod tests;
