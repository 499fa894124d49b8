//! [`Rank`]: the total order in which a payload's candidates compete.

use std::cmp::Ordering;

/// The total order in which candidates compete: a greater `Rank` is more
/// relevant. Higher score first, NaN below every number, `-0.0 == 0.0`;
/// ties go to the earlier position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rank {
    score: f64,
    pub(crate) position: usize,
}

impl Rank {
    pub(crate) fn new(score: f64, position: usize) -> Self {
        // Every NaN becomes the one negative NaN, which `total_cmp` orders
        // below -inf; adding 0.0 turns -0.0 into 0.0.
        let score = if score.is_nan() {
            -f64::NAN
        } else {
            score + 0.0
        };
        Self { score, position }
    }
}

impl Ord for Rank {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .total_cmp(&other.score)
            .then_with(|| other.position.cmp(&self.position))
    }
}

impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Rank {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Rank {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn higher_score_ranks_higher() {
        assert!(Rank::new(0.9, 5) > Rank::new(0.1, 0));
    }

    #[test]
    fn ties_go_to_the_earlier_position() {
        assert!(Rank::new(0.5, 1) > Rank::new(0.5, 2));
        assert!(Rank::new(0.0, 1) > Rank::new(-0.0, 2));
        assert!(Rank::new(-0.0, 1) > Rank::new(0.0, 2));
    }

    #[test]
    fn nan_ranks_below_every_number() {
        assert!(Rank::new(f64::NAN, 0) < Rank::new(f64::NEG_INFINITY, 1));
        assert!(Rank::new(f64::NAN, 0) < Rank::new(-1e300, 9));
        assert!(Rank::new(f64::NAN, 0) > Rank::new(f64::NAN, 1));
    }
}
