//! [`parallel_map`], [`parallel_map_beside`], [`parallel_map_largest_first`]
//! and [`parallel_map_owned`]: work spread over every core, results in
//! order.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// `f` over `inputs` on every available core, results in input order.
/// Work is handed out one item at a time, so a few large files do not
/// leave a core idle.
pub fn parallel_map<I: Sync, O: Send>(inputs: &[I], f: impl Fn(&I) -> O + Sync) -> Vec<O> {
    parallel_map_beside(inputs, f, || ()).1
}

/// [`parallel_map`] while `beside` runs on this thread: `f` runs on every
/// other core until `beside` returns, then on this one too; `beside`'s
/// result, and `f`'s in input order. For a stage that keeps one core busy
/// (`beside`) and work that does not depend on it.
pub fn parallel_map_beside<I: Sync, O: Send, R>(
    inputs: &[I],
    f: impl Fn(&I) -> O + Sync,
    beside: impl FnOnce() -> R,
) -> (R, Vec<O>) {
    let others = std::thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .saturating_sub(1)
        .min(inputs.len())
        .max(usize::from(!inputs.is_empty()));
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(input) = inputs.get(index) else {
                return done;
            };
            done.push((index, f(input)));
        }
    };
    let (result, mut indexed): (R, Vec<(usize, O)>) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..others).map(|_| scope.spawn(work)).collect();
        let result = beside();
        let mut indexed = work();
        for worker in workers {
            indexed.extend(
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        (result, indexed)
    });
    indexed.sort_unstable_by_key(|&(index, _)| index);
    (
        result,
        indexed.into_iter().map(|(_, output)| output).collect(),
    )
}

/// [`parallel_map`] that hands the inputs out largest first by `size`
/// (ties in input order), results still in input order: for work whose
/// cost grows with its input (a parse), so that a large one handed out
/// last does not run alone while the other cores wait.
pub fn parallel_map_largest_first<I: Sync, O: Send>(
    inputs: &[I],
    size: impl Fn(&I) -> usize,
    f: impl Fn(&I) -> O + Sync,
) -> Vec<O> {
    let mut done = parallel_map(&largest_first(inputs.iter().map(size)), |&index| {
        (index, f(&inputs[index]))
    });
    done.sort_unstable_by_key(|&(index, _)| index);
    done.into_iter().map(|(_, output)| output).collect()
}

/// The positions of `sizes`, largest first, ties in input order.
fn largest_first(sizes: impl Iterator<Item = usize>) -> Vec<usize> {
    let sizes: Vec<usize> = sizes.collect();
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    // Stable: ties keep their input order.
    order.sort_by_key(|&index| std::cmp::Reverse(sizes[index]));
    order
}

/// [`parallel_map`] that hands each input to `f` by value (a file's text
/// that `f` keeps moves instead of being copied).
pub fn parallel_map_owned<I: Send, O: Send>(inputs: Vec<I>, f: impl Fn(I) -> O + Sync) -> Vec<O> {
    let slots: Vec<Mutex<Option<I>>> = inputs.into_iter().map(|i| Mutex::new(Some(i))).collect();
    // Each slot is handed out once, so each is taken once.
    parallel_map(&slots, |slot| {
        slot.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .map(&f)
    })
    .into_iter()
    .flatten()
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_map_keeps_input_order() {
        let inputs: Vec<u64> = (0..1_000).collect();
        let squares = parallel_map(&inputs, |&n| n * n);
        assert_eq!(squares.len(), 1_000);
        assert!(
            squares
                .iter()
                .enumerate()
                .all(|(i, &s)| s == (i as u64) * (i as u64))
        );
        assert!(parallel_map(&[] as &[u64], |&n| n).is_empty());
    }

    #[test]
    fn parallel_map_beside_runs_both_and_keeps_input_order() {
        let inputs: Vec<u64> = (0..1_000).collect();
        let (answer, doubled) = parallel_map_beside(&inputs, |&n| 2 * n, || 6 * 7);
        assert_eq!(answer, 42);
        assert_eq!(doubled, inputs.iter().map(|n| 2 * n).collect::<Vec<_>>());
        let (answer, none) = parallel_map_beside(&[] as &[u64], |&n| n, || "alone");
        assert_eq!((answer, none.len()), ("alone", 0));
    }

    #[test]
    fn parallel_map_largest_first_hands_out_the_largest_first_and_keeps_input_order() {
        let inputs: Vec<usize> = vec![3, 40, 7, 40, 1, 900, 12];
        assert_eq!(
            largest_first(inputs.iter().copied()),
            vec![5, 1, 3, 6, 2, 0, 4]
        );
        let doubled = parallel_map_largest_first(&inputs, |&n| n, |&n| 2 * n);
        assert_eq!(doubled, vec![6, 80, 14, 80, 2, 1800, 24]);
        assert!(parallel_map_largest_first(&[] as &[usize], |&n| n, |&n| n).is_empty());
    }

    #[test]
    fn parallel_map_owned_moves_each_input_once_in_order() {
        let inputs: Vec<String> = (0..500).map(|n| n.to_string()).collect();
        let lengths = parallel_map_owned(inputs, |s: String| s + "!");
        assert_eq!(lengths.len(), 500);
        assert!(
            lengths
                .iter()
                .enumerate()
                .all(|(i, s)| *s == format!("{i}!"))
        );
    }
}
