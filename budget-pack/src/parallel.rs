//! [`parallel_map`] and [`parallel_map_owned`]: work spread over every
//! core, results in order.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// `f` over `inputs` on every available core, results in input order.
/// Work is handed out one item at a time, so a few large files do not
/// leave a core idle.
pub fn parallel_map<I: Sync, O: Send>(inputs: &[I], f: impl Fn(&I) -> O + Sync) -> Vec<O> {
    let threads = std::thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
        .min(inputs.len())
        .max(1);
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
    let mut indexed: Vec<(usize, O)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        workers
            .into_iter()
            .flat_map(|worker| {
                worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    });
    indexed.sort_unstable_by_key(|&(index, _)| index);
    indexed.into_iter().map(|(_, output)| output).collect()
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
