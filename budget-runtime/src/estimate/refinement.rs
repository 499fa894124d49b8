//! [`ExactRefinement`]: fill a token budget in a given order with exact
//! counts, counting exactly only what can change the result.

use crate::estimate::TokenCounter;

/// One item offered to [`ExactRefinement::fill`]: its text and a token
/// count it never exceeds under the refinement's counter (for the OpenAI
/// encodings, [`guaranteed_upper_bound`](crate::estimate::guaranteed_upper_bound)
/// or [`EstimateMode::UpperBound`](crate::estimate::EstimateMode::UpperBound)).
///
/// ```
/// use budget_runtime::estimate::{Candidate, guaranteed_upper_bound};
/// let text = "fn main() {}";
/// let c = Candidate { text, upper_bound: guaranteed_upper_bound(text) };
/// assert_eq!(c.upper_bound, 12);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate<'t> {
    /// The text the counter counts.
    pub text: &'t str,
    /// Tokens the text never exceeds (a bound that is too low can let the
    /// filled budget overrun by the amount it is too low).
    pub upper_bound: u64,
}

/// An item [`ExactRefinement::fill`] included, and what it is charged.
///
/// ```
/// use budget_runtime::estimate::Inclusion;
/// let i = Inclusion { index: 2, tokens: 40, exact: true };
/// assert!(i.exact);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inclusion {
    /// Position of the item in the candidates given to `fill`.
    pub index: usize,
    /// Its exact token count if `exact`, else its upper bound (the exact
    /// count was not needed: everything from here on fit by bounds).
    pub tokens: u64,
    /// Whether `tokens` is the exact count.
    pub exact: bool,
}

/// The result of [`ExactRefinement::fill`].
///
/// ```
/// use budget_runtime::estimate::{Candidate, ExactRefinement};
/// use budget_runtime::estimate::TokenCounter;
///
/// struct Words;
/// impl TokenCounter for Words {
///     fn count_tokens(&self, t: &str) -> u64 { t.split_whitespace().count() as u64 }
/// }
/// let items = [Candidate { text: "a b c", upper_bound: 5 }];
/// let fill = ExactRefinement::new(&Words).fill(&items, 10);
/// assert_eq!(fill.tokens(), 5); // charged its bound: it fit without counting
/// assert_eq!(fill.exact_counts(), 0);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fill {
    included: Vec<Inclusion>,
    exact_counts: usize,
}

impl Fill {
    /// The included items, in the order given.
    ///
    /// ```
    /// # use budget_runtime::estimate::{Candidate, ExactRefinement};
    /// # use budget_runtime::estimate::TokenCounter;
    /// # struct Bytes;
    /// # impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let items = [Candidate { text: "aaaa", upper_bound: 4 }, Candidate { text: "bb", upper_bound: 2 }];
    /// let fill = ExactRefinement::new(&Bytes).fill(&items, 3);
    /// assert_eq!(fill.included().iter().map(|i| i.index).collect::<Vec<_>>(), [1]);
    /// ```
    pub fn included(&self) -> &[Inclusion] {
        &self.included
    }

    /// Tokens charged for the included items (exact counts, and bounds for
    /// the items not counted): at least their exact total, at most the
    /// budget.
    ///
    /// ```
    /// # use budget_runtime::estimate::Fill;
    /// assert_eq!(Fill::default().tokens(), 0);
    /// ```
    pub fn tokens(&self) -> u64 {
        self.included
            .iter()
            .fold(0u64, |sum, i| sum.saturating_add(i.tokens))
    }

    /// How many items were counted exactly (in full or up to the budget
    /// left): the work the refinement did, against one per candidate when
    /// counting everything.
    ///
    /// ```
    /// # use budget_runtime::estimate::Fill;
    /// assert_eq!(Fill::default().exact_counts(), 0);
    /// ```
    pub fn exact_counts(&self) -> usize {
        self.exact_counts
    }
}

/// Fills a token budget greedily in a given order (best item first) and
/// includes exactly the items that counting every item exactly would
/// include, while counting exactly only what can change that outcome.
///
/// The rule counting everything applies: go through the items in order,
/// include an item if its exact count fits in what is left of the budget.
/// The refinement reaches the same set with less counting:
/// - once the upper bounds of all remaining items fit in what is left,
///   every one of them fits whatever its exact count: they are included
///   uncounted, charged their bound;
/// - otherwise the item is counted only up to what is left
///   ([`TokenCounter::count_tokens_up_to`]): an item that does not fit
///   costs about as much as the budget left, not as its length.
///
/// Guarantee: the exact total of the included items is at most `budget`
/// (the included set is the all-exact one, whose total fits), provided the
/// bounds are true bounds.
///
/// Use it where a token-count snapshot of upper bounds is at hand: refine
/// the snapshot of the items in score order before slicing, or use
/// [`ExactRefinement::fill`] as the greedy slice itself. For a payload
/// with tiers, [`PayloadAssembler::exact_counts`](crate::payload::PayloadAssembler::exact_counts)
/// does the same per tier (with [`OnDemandCounts`](crate::estimate::OnDemandCounts));
/// the CLI's `pack` uses that.
///
/// ```
/// use budget_runtime::estimate::{Candidate, ExactRefinement, guaranteed_upper_bound};
/// use budget_runtime::estimate::TokenCounter;
///
/// /// A toy exact counter: one token per word.
/// struct Words;
/// impl TokenCounter for Words {
///     fn count_tokens(&self, t: &str) -> u64 { t.split_whitespace().count() as u64 }
/// }
/// let long = "four five six seven eight nine ten eleven twelve thirteen";
/// let texts = ["one two three", long, "nine", "ten"];
/// let items: Vec<Candidate> = texts
///     .iter()
///     .map(|&text| Candidate { text, upper_bound: guaranteed_upper_bound(text) })
///     .collect();
/// let fill = ExactRefinement::new(&Words).fill(&items, 10);
/// let included: Vec<usize> = fill.included().iter().map(|i| i.index).collect();
/// assert_eq!(included, [0, 2, 3]); // 3 words; the 10-word item does not fit in 7
/// // Counted: the first, and the long one up to 7 words; then "nine" and
/// // "ten" fit by their bounds (4 + 3 bytes) in the 7 left, uncounted.
/// assert_eq!(fill.exact_counts(), 2);
/// ```
#[derive(Clone, Copy)]
pub struct ExactRefinement<'c> {
    counter: &'c dyn TokenCounter,
}

impl<'c> ExactRefinement<'c> {
    /// A refinement that counts with `counter`.
    ///
    /// ```
    /// use budget_runtime::estimate::ExactRefinement;
    /// use budget_runtime::estimate::TokenCounter;
    /// struct Bytes;
    /// impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let _refinement = ExactRefinement::new(&Bytes);
    /// ```
    pub fn new(counter: &'c dyn TokenCounter) -> Self {
        Self { counter }
    }

    /// Fills `budget` tokens with `candidates` in the order given; see the
    /// type's documentation for the rule and the guarantee. O(n) bound
    /// arithmetic plus the exact counting it cannot avoid.
    ///
    /// ```
    /// use budget_runtime::estimate::{Candidate, ExactRefinement};
    /// use budget_runtime::estimate::TokenCounter;
    /// struct Bytes;
    /// impl TokenCounter for Bytes { fn count_tokens(&self, t: &str) -> u64 { t.len() as u64 } }
    /// let items = [Candidate { text: "abc", upper_bound: 3 }];
    /// assert!(ExactRefinement::new(&Bytes).fill(&items, 2).included().is_empty());
    /// ```
    pub fn fill(&self, candidates: &[Candidate<'_>], budget: u64) -> Fill {
        // bounds_after[i]: the sum of the bounds of candidates i.. (in u128:
        // n sums of u64 cannot overflow it).
        let mut bounds_after = vec![0u128; candidates.len() + 1];
        for (i, c) in candidates.iter().enumerate().rev() {
            bounds_after[i] = bounds_after[i + 1] + u128::from(c.upper_bound);
        }
        let mut fill = Fill::default();
        let mut left = budget;
        for (index, candidate) in candidates.iter().enumerate() {
            if bounds_after[index] <= u128::from(left) {
                fill.included
                    .extend(
                        candidates[index..]
                            .iter()
                            .zip(index..)
                            .map(|(c, index)| Inclusion {
                                index,
                                tokens: c.upper_bound,
                                exact: false,
                            }),
                    );
                break;
            }
            fill.exact_counts += 1;
            if let Some(tokens) = self.counter.count_tokens_up_to(candidate.text, left) {
                left -= tokens;
                fill.included.push(Inclusion {
                    index,
                    tokens,
                    exact: true,
                });
            }
        }
        fill
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One token per byte: easy to work out by hand.
    struct Bytes;
    impl TokenCounter for Bytes {
        fn count_tokens(&self, text: &str) -> u64 {
            text.len() as u64
        }
    }

    fn candidates<'t>(texts: &[&'t str], slack: u64) -> Vec<Candidate<'t>> {
        texts
            .iter()
            .map(|&text| Candidate {
                text,
                upper_bound: text.len() as u64 + slack,
            })
            .collect()
    }

    fn indices(fill: &Fill) -> Vec<usize> {
        fill.included().iter().map(|i| i.index).collect()
    }

    #[test]
    fn greedy_in_the_order_given() {
        let items = candidates(&["aaaa", "bbbbbb", "cc", "d"], 1);
        // budget 7: aaaa (4, left 3), bbbbbb no, cc (2, left 1), d by bound? 2 > 1: counted, 1 fits.
        let fill = ExactRefinement::new(&Bytes).fill(&items, 7);
        assert_eq!(indices(&fill), [0, 2, 3]);
        assert_eq!(fill.tokens(), 7);
        assert_eq!(fill.exact_counts(), 4);
    }

    #[test]
    fn a_tail_that_fits_by_bounds_is_not_counted() {
        let items = candidates(&["aaaa", "b", "c"], 1);
        // budget 10: bounds 5 + 2 + 2 = 9 fit at once.
        let fill = ExactRefinement::new(&Bytes).fill(&items, 10);
        assert_eq!(indices(&fill), [0, 1, 2]);
        assert_eq!(fill.exact_counts(), 0);
        assert_eq!(fill.tokens(), 9);
        assert!(fill.included().iter().all(|i| !i.exact));
    }

    #[test]
    fn empty_input_and_zero_budget() {
        assert_eq!(ExactRefinement::new(&Bytes).fill(&[], 0), Fill::default());
        let items = candidates(&["", "a"], 0);
        let fill = ExactRefinement::new(&Bytes).fill(&items, 0);
        assert_eq!(indices(&fill), [0]); // the empty text costs 0
    }

    #[test]
    fn saturating_bounds_do_not_overflow() {
        let items = [
            Candidate {
                text: "a",
                upper_bound: u64::MAX,
            },
            Candidate {
                text: "b",
                upper_bound: u64::MAX,
            },
        ];
        let fill = ExactRefinement::new(&Bytes).fill(&items, u64::MAX);
        // The bounds' true sum exceeds the budget: both are counted.
        assert_eq!(indices(&fill), [0, 1]);
        assert_eq!(fill.tokens(), 2);
        assert_eq!(fill.exact_counts(), 2);
    }
}
