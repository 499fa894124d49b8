//! Running an inner slicer on a subset of the candidates, for the slicers
//! that wrap another one.

use crate::model::{EffectiveBudget, ScoredItem};
use crate::slicer::SlicerError;
use crate::slicer::{SliceOutcome, Slicer};

/// Runs `inner` on the candidates of `sorted` at `positions` (which must be
/// in score order) and maps its outcome back to positions in `sorted`.
///
/// # Errors
/// The inner slicer's error, or [`SlicerError::InnerIndexOutOfRange`] /
/// [`SlicerError::InnerDuplicateIndex`] when it breaks its contract.
pub(crate) fn slice_subset(
    inner: &dyn Slicer,
    sorted: &[ScoredItem<'_>],
    positions: &[usize],
    budget: EffectiveBudget,
) -> Result<SliceOutcome, SlicerError> {
    let subset: Vec<ScoredItem<'_>> = positions.iter().map(|&pos| sorted[pos]).collect();
    let outcome = inner.slice(&subset, budget)?;
    let mut seen = vec![false; subset.len()];
    let mut to_outer = |index: usize| match seen.get_mut(index) {
        None => Err(SlicerError::InnerIndexOutOfRange {
            index,
            len: positions.len(),
        }),
        Some(true) => Err(SlicerError::InnerDuplicateIndex { index }),
        Some(slot) => {
            *slot = true;
            Ok(positions[index])
        }
    };
    let selected = outcome
        .selected
        .iter()
        .map(|&index| to_outer(index))
        .collect::<Result<_, _>>()?;
    let cap_excluded = outcome
        .cap_excluded
        .iter()
        .map(|&index| to_outer(index))
        .collect::<Result<_, _>>()?;
    Ok(SliceOutcome {
        selected,
        cap_excluded,
        shortfalls: outcome.shortfalls,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slicer::test_support::{Fixture, budget};

    /// A slicer that returns fixed positions, to break the contract on purpose.
    #[derive(Debug)]
    struct Fixed(Vec<usize>);

    impl Slicer for Fixed {
        fn slice(
            &self,
            _: &[ScoredItem<'_>],
            _: EffectiveBudget,
        ) -> Result<SliceOutcome, SlicerError> {
            Ok(SliceOutcome::selected(self.0.clone()))
        }
    }

    fn fixture() -> Fixture {
        Fixture::new(&[
            ("a", 1, 0.9, "Message"),
            ("b", 1, 0.8, "Message"),
            ("c", 1, 0.7, "Message"),
        ])
    }

    #[test]
    fn positions_map_back_to_the_outer_list() {
        let fixture = fixture();
        let sorted = fixture.candidates();
        let outcome = slice_subset(&Fixed(vec![1, 0]), &sorted, &[0, 2], budget(10)).unwrap();
        assert_eq!(outcome.selected, vec![2, 0]);
    }

    #[test]
    fn out_of_range_and_duplicate_positions_are_errors() {
        let fixture = fixture();
        let sorted = fixture.candidates();
        assert_eq!(
            slice_subset(&Fixed(vec![2]), &sorted, &[0, 2], budget(10)),
            Err(SlicerError::InnerIndexOutOfRange { index: 2, len: 2 })
        );
        assert_eq!(
            slice_subset(&Fixed(vec![1, 1]), &sorted, &[0, 2], budget(10)),
            Err(SlicerError::InnerDuplicateIndex { index: 1 })
        );
    }
}
