//! History trimming: drop the oldest turns until the rest fits
//! `max_history_tokens`.

/// The newest turns of `turns` (ordered oldest first) whose summed cost fits
/// `max_history_tokens`: the oldest turns are dropped until the remainder
/// fits. The result is always a suffix of `turns`, so turns are never
/// reordered and never skipped in the middle; if the newest turn alone is too
/// large, nothing is kept. `cost` returns a turn's tokens.
///
/// Turns here are opaque: for chat [`Message`](crate::chat::Message)s
/// use [`trim_messages`](super::trim_messages), the same
/// trimming that also never separates a tool call from its results.
///
/// ```
/// use budget::compact::trim_history;
///
/// let turns = ["hello", "how can I help?", "my build fails", "which error?"];
/// // One token per character, to keep the arithmetic visible.
/// let kept = trim_history(&turns, 30, |t| t.len() as u64);
/// // 12 + 14 = 26 fits; adding 15 more would make 41 > 30.
/// assert_eq!(kept, ["my build fails", "which error?"]);
/// assert_eq!(turns.len() - kept.len(), 2); // dropped
/// ```
pub fn trim_history<T>(turns: &[T], max_history_tokens: u64, cost: impl FnMut(&T) -> u64) -> &[T] {
    let start = super::fitting_suffix_start(turns, max_history_tokens, cost, |_| true);
    &turns[start..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn keeps_everything_when_it_fits() {
        let turns = [3u64, 4, 5];
        assert_eq!(trim_history(&turns, 12, |&t| t), [3, 4, 5]);
    }

    #[test]
    fn drops_oldest_first() {
        let turns = [3u64, 4, 5];
        assert_eq!(trim_history(&turns, 11, |&t| t), [4, 5]);
        assert_eq!(trim_history(&turns, 8, |&t| t), [5]);
    }

    #[test]
    fn newest_turn_too_large_keeps_nothing() {
        let turns = [1u64, 1, 9];
        assert!(trim_history(&turns, 8, |&t| t).is_empty());
    }

    #[test]
    fn stops_at_first_turn_that_does_not_fit_even_if_older_ones_would() {
        // 1 would still fit after 10 + 5 = 15 <= 16, but turns are never skipped.
        let turns = [1u64, 5, 10];
        assert_eq!(trim_history(&turns, 15, |&t| t), [5, 10]);
    }

    #[test]
    fn empty_history_and_zero_budget() {
        let empty: [u64; 0] = [];
        assert!(trim_history(&empty, 100, |&t| t).is_empty());
        assert_eq!(trim_history(&[0u64, 0], 0, |&t| t), [0, 0]);
    }

    #[test]
    fn huge_costs_do_not_overflow() {
        let turns = [u64::MAX, u64::MAX];
        assert_eq!(trim_history(&turns, u64::MAX, |&t| t), [u64::MAX]);
    }

    proptest! {
        #[test]
        fn result_is_the_longest_fitting_suffix(
            costs in proptest::collection::vec(0u64..1_000, 0..30),
            max in 0u64..10_000,
        ) {
            let kept = trim_history(&costs, max, |&c| c);
            let sum: u64 = kept.iter().sum();
            prop_assert!(sum <= max);
            prop_assert_eq!(kept, &costs[costs.len() - kept.len()..]);
            if kept.len() < costs.len() {
                let one_more = costs[costs.len() - kept.len() - 1];
                prop_assert!(sum + one_more > max);
            }
        }
    }
}
