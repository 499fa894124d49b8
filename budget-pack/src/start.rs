//! How each file starts: whole, or as its outline, and the room its
//! outline is made for.

use std::sync::{Mutex, PoisonError};

use crate::outline::{self, Form};

/// The room for a file's outline, in bytes at the file's own bytes per
/// token: RAW's limit for the best-ranked file ([`BEST_WHOLE_PERCENT`] of
/// it when the other files that match are [`crowded`] out), the cap on one
/// file's share of RAW (`raw_cap` tokens, a quarter) for the next best
/// ([`outline::FULL_ROOM_RANKS`] in all), a sixth of that for the rest.
/// Measured with `scripts/localize.py`: smaller outlines past the best
/// five let more of the files that matter in (outlined or whole) without
/// fewer changed lines shown; giving the best files' outlines room before
/// any file goes whole carried more files but showed fewer changed
/// lines, so files still go whole first, in rank order, up to
/// [`WHOLE_PERCENT`] of RAW.
/// `bytes` and `tokens` are the file's length and estimate.
pub(crate) fn outline_room(
    bytes: usize,
    tokens: u64,
    rank: usize,
    raw_cap: u64,
    crowded: bool,
) -> usize {
    let share = room_tokens(rank, raw_cap, crowded);
    let bytes = u64::try_from(bytes)
        .unwrap_or(u64::MAX)
        .saturating_mul(share)
        / tokens.max(1);
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

/// The share of RAW's limit, in percent, that whole files may fill in
/// rank order before the files ranked past the best five that are larger
/// than their outline's room start as that outline. Measured with
/// `scripts/localize.py` (changed files whole or outlined / changed hunks
/// shown): on its tuning repositories 60% / 64.1% without the share, 62% /
/// 64.6% with it; capping the best five too moved more files (68%) but
/// showed fewer hunks on the held-out repositories (Rust 58% → 44%).
pub(crate) const WHOLE_PERCENT: u64 = 85;

/// The most of RAW's limit, in percent, that one of the best
/// [`outline::FULL_ROOM_RANKS`] files may take whole, and the best file's
/// outline at all, when the other files that match would not fit what is
/// left ([`crowded`]): a larger file that has a SKELETON form starts as it
/// (with a query, focused on the bodies that match), so that one central
/// file does not leave the next ones a line each. Measured with
/// `scripts/localize.py` (changed files whole or outlined / changed hunks
/// shown), with change logs set aside: held-out 77% / 72% without the cap,
/// 78% / 73% with it; the tuning set 55% / 52% and 59% / 53%. At 50%:
/// 79% / 67% and 60% / 52%.
pub(crate) const BEST_WHOLE_PERCENT: u64 = 65;

/// Whether the files that match (`matching`) other than a file of
/// `tokens` (its estimate) would not fit what it leaves of RAW's limit
/// (`raw_limit` tokens) when it takes [`BEST_WHOLE_PERCENT`] of it.
pub(crate) fn crowded(matching: &MatchingTotal<'_>, tokens: u64, raw_limit: u64) -> bool {
    let left = raw_limit - raw_limit / 100 * BEST_WHOLE_PERCENT;
    matching.exceeds(left.saturating_add(tokens))
}

/// Why a file starts as its SKELETON form rather than whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Held {
    /// One of the best [`outline::FULL_ROOM_RANKS`], whole it would take
    /// over [`BEST_WHOLE_PERCENT`] of RAW's limit and leave the files
    /// that match after it [`crowded`].
    Best,
    /// Past the whole files' share ([`WHOLE_PERCENT`] of RAW's limit, in
    /// rank order) and larger than its outline's room.
    PastShare,
    /// Without a query, whole it would take over a quarter of RAW.
    Overview,
    /// Under a query, it matches nothing: never carried whole, and ranked
    /// below every file that matches, its outline fills the room they
    /// leave as a map of the rest.
    Unmatched,
}

/// For each file (by position in `files`), whether it may go whole (`None`)
/// or why it starts as its SKELETON form: in
/// rank order, one of the best [`outline::FULL_ROOM_RANKS`] that has a
/// SKELETON form goes whole only within [`BEST_WHOLE_PERCENT`] of RAW's
/// limit (`raw_limit` tokens, at a best-guess estimate) when it would
/// leave the others [`crowded`], and the files
/// that match fill at most [`WHOLE_PERCENT`] of it; past that, a file
/// ranked after the best [`outline::FULL_ROOM_RANKS`] that has a SKELETON
/// form and is larger than its outline's room starts as that form (a
/// smaller one is worth more whole).
///
/// The files' estimates are `matching`'s; only those of the files that
/// match up to the last that has a form are asked for (no later file can
/// be held back).
pub(crate) fn whole_files(
    matching: &MatchingTotal<'_>,
    ranked: &[usize],
    forms: &[Option<Form>],
    raw_limit: u64,
) -> Vec<Option<Held>> {
    let limit = raw_limit / 100 * WHOLE_PERCENT;
    let raw_cap = raw_limit / 4;
    let matches = matching.matches;
    let mut held = vec![None; forms.len()];
    let Some(last) = ranked
        .iter()
        .rposition(|&position| matches[position] && forms[position].is_some())
    else {
        return held;
    };
    let mut used = 0u64;
    for (rank, &position) in ranked[..=last].iter().enumerate() {
        if !matches[position] {
            continue;
        }
        let tokens = (matching.estimate)(position);
        let best = rank < outline::FULL_ROOM_RANKS;
        if best
            && forms[position].is_some()
            && tokens > raw_limit / 100 * BEST_WHOLE_PERCENT
            && crowded(matching, tokens, raw_limit)
        {
            held[position] = Some(Held::Best);
        } else if used.saturating_add(tokens) <= limit {
            used += tokens;
        } else if !best && forms[position].is_some() && tokens > room_tokens(rank, raw_cap, true) {
            held[position] = Some(Held::PastShare);
        }
    }
    held
}

/// Why a file that has a SKELETON form (`has_form`) starts as it rather
/// than whole, if it does: [`whole_files`] held it back (`held`); under a
/// query it matches nothing (`matches`), so the room the files that match
/// leave goes to outlines of the rest, more files for the same tokens; or,
/// without a query, it would take more than `raw_cap` tokens (`tokens`,
/// asked only then), so that one large file does not crowd out the rest of
/// an overview. (With a query the files that match are wanted whole: that
/// cap cost 11 points of changed files in RAW for 4 more in RAW or
/// SKELETON, in scripts/localize.py.)
pub(crate) fn starts_as_outline(
    held: Option<Held>,
    query: bool,
    matches: bool,
    has_form: bool,
    raw_cap: u64,
    tokens: impl FnOnce() -> u64,
) -> Option<Held> {
    if !has_form {
        return None;
    }
    held.or_else(|| match (query, matches) {
        (true, false) => Some(Held::Unmatched),
        (true, true) => None,
        (false, _) => (tokens() > raw_cap).then_some(Held::Overview),
    })
}

/// The estimated tokens of the files that match, in all, summed only as
/// far as a question needs: a sum past the question's number answers it
/// (estimates are never negative), and each estimate costs a pass over
/// its text.
pub(crate) struct MatchingTotal<'a> {
    /// Whether each file, by position, matches.
    matches: &'a [bool],
    /// A file's estimate, by position.
    estimate: &'a (dyn Fn(usize) -> u64 + Sync),
    /// The sum so far, and the position it has reached.
    summed: Mutex<(u64, usize)>,
}

impl<'a> MatchingTotal<'a> {
    /// The total of the files `matches` says match, by `estimate`.
    pub(crate) fn new(matches: &'a [bool], estimate: &'a (dyn Fn(usize) -> u64 + Sync)) -> Self {
        Self {
            matches,
            estimate,
            summed: Mutex::new((0, 0)),
        }
    }

    /// Whether the total is more than `tokens`.
    pub(crate) fn exceeds(&self, tokens: u64) -> bool {
        let mut summed = self.summed.lock().unwrap_or_else(PoisonError::into_inner);
        let (sum, next) = &mut *summed;
        while *sum <= tokens && *next < self.matches.len() {
            if self.matches[*next] {
                *sum = sum.saturating_add((self.estimate)(*next));
            }
            *next += 1;
        }
        *sum > tokens
    }
}

/// The room for the outline of the file ranked `rank`, in tokens (see
/// [`outline_room`]).
pub(crate) fn room_tokens(rank: usize, raw_cap: u64, crowded: bool) -> u64 {
    match rank {
        0 if crowded => raw_cap.saturating_mul(4) / 100 * BEST_WHOLE_PERCENT,
        0 => raw_cap.saturating_mul(4),
        rank if rank < outline::FULL_ROOM_RANKS => raw_cap,
        _ => raw_cap / 6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file_facts::{CAP_ESTIMATOR, FileFacts, measure};
    use budget_runtime::estimate::{ContentType, Estimator};

    /// Whether each file may go whole, from what [`whole_files`] held back.
    fn goes_whole(held: Vec<Option<Held>>) -> Vec<bool> {
        held.iter().map(Option::is_none).collect()
    }

    #[test]
    fn files_that_match_nothing_start_outlined_and_never_whole() {
        let never = || -> u64 { unreachable!("asked only without a query") };
        // Under a query: an outline for a file that matches nothing, none
        // without a form (it starts in LINKED), whole for one that matches.
        let unmatched = starts_as_outline(None, true, false, true, 100, never);
        assert_eq!(unmatched, Some(Held::Unmatched));
        assert_eq!(
            starts_as_outline(None, true, false, false, 100, never),
            None
        );
        assert_eq!(starts_as_outline(None, true, true, true, 100, never), None);
        // What `whole_files` held back stays held back.
        let best = Some(Held::Best);
        assert_eq!(starts_as_outline(best, true, true, true, 100, never), best);
        // Without a query, a file past the cap starts outlined.
        let overview = starts_as_outline(None, false, true, true, 100, || 101);
        assert_eq!(overview, Some(Held::Overview));
        assert_eq!(
            starts_as_outline(None, false, true, true, 100, || 100),
            None
        );
    }

    #[test]
    fn the_matching_total_answers_as_the_whole_sum_and_sums_no_further() {
        let estimates = [5u64, 7, 11, 13];
        let matches = [true, false, true, true];
        let asked = std::sync::atomic::AtomicUsize::new(0);
        let estimate = |position: usize| {
            asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            estimates[position]
        };
        let total = MatchingTotal::new(&matches, &estimate);
        // 5 alone is past 4: one estimate asked.
        assert!(total.exceeds(4));
        assert_eq!(asked.load(std::sync::atomic::Ordering::Relaxed), 1);
        // The whole sum of the files that match is 5 + 11 + 13 = 29.
        assert!(total.exceeds(28));
        assert!(!total.exceeds(29));
        assert!(!total.exceeds(u64::MAX));
        // Each estimate asked once; the file that does not match never.
        assert_eq!(asked.load(std::sync::atomic::Ordering::Relaxed), 3);
        assert!(!MatchingTotal::new(&[false; 4], &estimate).exceeds(0));
    }

    #[test]
    fn whole_files_fill_their_share_then_later_large_files_start_outlined() {
        // Eight large files of the same size, one small one ranked last.
        let large = "let value = compute(first, second);\n".repeat(200);
        let small = "fn f() {}\n";
        let mut texts: Vec<(&str, &str)> = (0..8).map(|_| ("a.rs", large.as_str())).collect();
        texts.push(("b.rs", small));
        let each = CAP_ESTIMATOR.estimate(&large, ContentType::Code);
        // Whole files may fill 85% of a limit of ten large files: eight and
        // a half, so all eight fit and none is capped.
        let ranked: Vec<usize> = (0..texts.len()).collect();
        let matches = vec![true; texts.len()];
        let forms: Vec<Option<Form>> = texts
            .iter()
            .map(|_| Some(Form::Skeleton("fn f();".to_owned())))
            .collect();
        let facts: Vec<FileFacts> = texts
            .iter()
            .map(|(_, text)| FileFacts::of(text, measure(text)))
            .collect();
        let estimate = |position: usize| facts[position].estimate(texts[position].1);
        let held_back = |matches: &[bool], ranked: &[usize], forms: &[Option<Form>], limit| {
            whole_files(
                &MatchingTotal::new(matches, &estimate),
                ranked,
                forms,
                limit,
            )
        };
        let whole = goes_whole(held_back(&matches, &ranked, &forms, each * 10));
        assert!(whole.iter().all(|&w| w), "{whole:?}");
        // A limit of five large files: 85% holds four. The fifth is among
        // the best five and may still go whole; the sixth to eighth start
        // as outlines; the small file stays whole (smaller than its room).
        let held = held_back(&matches, &ranked, &forms, each * 5);
        assert_eq!(
            goes_whole(held.clone()),
            [true, true, true, true, true, false, false, false, true]
        );
        assert_eq!(held[5], Some(Held::PastShare));
        // A file without a SKELETON form is never capped, nor one that
        // does not match the query.
        let mut no_form = forms;
        no_form[6] = None;
        let mut no_match = matches.clone();
        no_match[7] = false;
        let whole = goes_whole(held_back(&no_match, &ranked, &no_form, each * 5));
        assert_eq!(
            whole,
            [true, true, true, true, true, false, true, true, true]
        );
        // Under a limit of one and a half large files, each of the best
        // five would take two thirds of it: past BEST_WHOLE_PERCENT, it
        // starts as its outline, unless it has none.
        let mut forms = no_form;
        forms[1] = None;
        let held = held_back(&matches, &ranked, &forms, each * 3 / 2);
        let best = Some(Held::Best);
        assert_eq!(&held[..5], [best, None, best, best, best]);
        // Not when the others would fit what it leaves: with the small
        // file alone beside it, it goes whole.
        let two = [0, 8];
        let only: Vec<bool> = (0..texts.len()).map(|i| two.contains(&i)).collect();
        let whole = goes_whole(held_back(&only, &two, &forms, each * 3 / 2));
        assert!(whole[0] && whole[8], "{whole:?}");
    }
}
