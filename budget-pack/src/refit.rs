//! Outlines refitted to the room the assembler will leave them. RAW and
//! SKELETON share one limit, filled in rank order; a file's outline is
//! made for its rank's share of that room before anything is placed, so
//! when its turn comes less may be left than the outline needs, and the
//! file would fall to a one-line LINKED entry. [`refits`] replays the
//! placement and names the files whose outline should be made again,
//! smaller: the best-ranked within the room left at their turn, the rest
//! within what the placement leaves unused.

use budget_runtime::estimate::{ContentType, Estimator};

use crate::file_facts::CAP_ESTIMATOR;

/// The tokens an entry's own lines take around its content, estimated as
/// the assembler does: its Markdown heading with `source` and a line
/// range, its `description` and the fences (13 to 40 on real files), and
/// [`FRAME_SLACK_TOKENS`].
pub(crate) fn frame_tokens(source: &str, description: Option<&str>) -> u64 {
    let description = description.unwrap_or_default();
    let frame = format!("### `{source}` (lines 1-99999)\n\n{description}\n\n```rust\n```\n");
    CAP_ESTIMATOR.estimate(&frame, ContentType::Markdown) + FRAME_SLACK_TOKENS
}

/// Tokens added to each entry's estimated frame: the assembler's estimate
/// of a frame differs from this one by a few tokens either way, and an
/// outline planned to fit exactly would fall to a LINKED line for one.
const FRAME_SLACK_TOKENS: u64 = 4;

/// The least room, in tokens of outline, worth refitting an outline into:
/// below it an outline shows little more than the LINKED line would.
pub(crate) const MIN_REFIT_TOKENS: u64 = 128;

/// A file as the assembler will see it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn<'t> {
    /// Its position among the files.
    pub position: usize,
    /// Whether it matches the query (every file, without one). Those that
    /// do not come after every file that does, and only get what the
    /// others leave, refits included.
    pub matches: bool,
    /// Whether it is offered to RAW whole first (else it starts as its
    /// outline, or in LINKED when it has none and `may_outline` is false).
    pub whole_first: bool,
    /// The tokens its entry's own lines take ([`frame_tokens`]).
    pub frame: u64,
    /// Its whole text.
    pub whole: &'t str,
    /// Its outline, if it has one.
    pub outline: Option<&'t str>,
    /// Whether, without one, it may be given an outline (parsed only for
    /// a refit).
    pub may_outline: bool,
    /// The most tokens a refit of its outline may take of the room left at
    /// its turn, ahead of later files; `None`: only what they leave.
    pub claim: Option<u64>,
}

/// How [`refits`] tells a text's tokens: each function gives them when
/// they are at most its second argument (`None` past it).
pub(crate) struct Sizes<'a> {
    /// The whole text of the file at a position ([`Turn::position`]).
    pub whole: &'a dyn Fn(usize, u64) -> Option<u64>,
    /// An outline's text.
    pub outline: &'a dyn Fn(&str, u64) -> Option<u64>,
}

/// A file whose outline did not fit at its turn.
enum Misfit {
    /// It claimed this many tokens at its turn.
    Claimed(u64),
    /// It waits for what is left at the end, at most this many tokens
    /// (what was left at its turn).
    Waiting(u64),
}

/// The files (from `turns`, in the order the assembler offers them) whose
/// outline will not fit the room RAW and SKELETON (`limit` tokens between
/// them) have left at their turn, and the tokens of outline each should be
/// made within, best-ranked first, when that is at least
/// [`MIN_REFIT_TOKENS`]: for a file with a [`Turn::claim`], nine tenths of
/// what is left at its turn up to the claim (later files get what it
/// leaves); for the others, nine tenths of what every file placed leaves
/// at the end (so that no later file loses its place), which also grows
/// the claims; files that match nothing ([`Turn::matches`]) only after
/// the refits of those that match. `sizes` tells the texts' tokens. A
/// refitted outline is taken to fill its room.
pub(crate) fn refits(turns: &[Turn<'_>], limit: u64, sizes: &Sizes<'_>) -> Vec<(usize, u64)> {
    let mut left = limit;
    // What an entry costs, from its content's tokens (if they fit
    // `at_most`), if it fits what is left.
    let fits = |content: &dyn Fn(u64) -> Option<u64>, frame: u64, left: u64| {
        Some(content(left.checked_sub(frame)?)? + frame)
    };
    let mut misfits: Vec<(usize, u64, Misfit)> = Vec::new();
    let mut refits = Vec::new();
    let mut matching = true;
    for turn in turns {
        if matching && !turn.matches {
            matching = false;
            settle(std::mem::take(&mut misfits), &mut left, &mut refits);
        }
        if turn.whole_first
            && let Some(cost) = fits(
                &|at_most| (sizes.whole)(turn.position, at_most),
                turn.frame,
                left,
            )
        {
            left -= cost;
            continue;
        }
        let fitted = match turn.outline {
            Some(outline) => fits(
                &|at_most| (sizes.outline)(outline, at_most),
                turn.frame,
                left,
            ),
            None if turn.may_outline => None,
            None => continue,
        };
        if let Some(cost) = fitted {
            left -= cost;
            continue;
        }
        let claimed = turn
            .claim
            .map(|claim| (left.saturating_sub(turn.frame) / 10 * 9).min(claim))
            .filter(|&room| room >= MIN_REFIT_TOKENS);
        let misfit = match claimed {
            Some(room) => {
                left -= room + turn.frame;
                Misfit::Claimed(room)
            }
            None => Misfit::Waiting(left),
        };
        misfits.push((turn.position, turn.frame, misfit));
    }
    settle(misfits, &mut left, &mut refits);
    refits
}

/// Adds to `refits` the room each of `misfits` is refitted within, from
/// what every file placed leaves (`left`, less what they take), best-ranked
/// first: a claim grows by it, another misfit is refitted within it;
/// neither takes room from a later file that fits.
fn settle(misfits: Vec<(usize, u64, Misfit)>, left: &mut u64, refits: &mut Vec<(usize, u64)>) {
    for (position, frame, misfit) in misfits {
        match misfit {
            Misfit::Claimed(claimed) => {
                let more = *left / 10 * 9;
                *left -= more;
                refits.push((position, claimed + more));
            }
            Misfit::Waiting(at_turn) => {
                let room = (*left).min(at_turn).saturating_sub(frame) / 10 * 9;
                if room >= MIN_REFIT_TOKENS {
                    refits.push((position, room));
                    *left -= room + frame;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text of `n` tokens, one per byte.
    fn text(n: usize) -> &'static str {
        Box::leak("x".repeat(n).into_boxed_str())
    }

    fn bytes(text: &str, at_most: u64) -> Option<u64> {
        Some(text.len() as u64).filter(|&n| n <= at_most)
    }

    /// [`refits`] with every text one token per byte.
    fn refits_of(turns: &[Turn<'_>], limit: u64) -> Vec<(usize, u64)> {
        let whole = |position: usize, at_most: u64| {
            let turn = turns.iter().find(|turn| turn.position == position)?;
            bytes(turn.whole, at_most)
        };
        refits(
            turns,
            limit,
            &Sizes {
                whole: &whole,
                outline: &bytes,
            },
        )
    }

    fn turn(position: usize, whole: usize, outline: Option<usize>) -> Turn<'static> {
        Turn {
            position,
            matches: true,
            whole_first: true,
            frame: 32,
            whole: text(whole),
            outline: outline.map(text),
            may_outline: false,
            claim: None,
        }
    }

    #[test]
    fn an_outline_too_large_for_what_is_left_is_refitted_to_it() {
        // 10,000 tokens: the first file takes 6,032 whole; the second does
        // not fit whole and its 5,000-token outline not in the 3,968 left:
        // it is refitted to 9/10 of 3,936.
        let turns = [turn(0, 6_000, None), turn(1, 9_000, Some(5_000))];
        assert_eq!(refits_of(&turns, 10_000), [(1, 3_537)]);
    }

    #[test]
    fn outlines_that_fit_and_files_without_one_are_left_alone() {
        let turns = [
            turn(0, 2_000, Some(500)),
            turn(1, 20_000, None),
            turn(2, 20_000, Some(1_000)),
        ];
        assert!(refits_of(&turns, 10_000).is_empty());
    }

    #[test]
    fn files_that_match_nothing_fill_what_the_refits_leave() {
        // The second file's outline does not fit the 3,968 tokens left at
        // its turn; a later outline of a file that matches nothing would
        // fit but does not take them first: the misfit is refitted to 9/10
        // of 3,936, and the last within the 399 tokens then left.
        let unmatched = Turn {
            matches: false,
            whole_first: false,
            ..turn(2, 3_000, Some(3_000))
        };
        let turns = [turn(0, 6_000, None), turn(1, 9_000, Some(5_000)), unmatched];
        assert_eq!(refits_of(&turns, 10_000), [(1, 3_537), (2, 324)]);
    }

    #[test]
    fn a_refitted_outline_leaves_later_ones_less() {
        // Neither outline fits; the first is refitted to 9/10 of 968, and
        // what is left after it (104 tokens) is too little for the second.
        let outline_first = |position| Turn {
            whole_first: false,
            ..turn(position, 5_000, Some(2_000))
        };
        let turns = [outline_first(0), outline_first(1)];
        assert_eq!(refits_of(&turns, 1_000), [(0, 864)]);
    }

    #[test]
    fn a_refit_takes_only_what_later_files_leave() {
        // The first outline misses the 1,000 tokens; the second (532 with
        // its frame) fits and keeps its place: the first is refitted to
        // 9/10 of the 468 left at the end, less its frame.
        let turns = [
            Turn {
                whole_first: false,
                ..turn(0, 5_000, Some(2_000))
            },
            Turn {
                whole_first: false,
                ..turn(1, 5_000, Some(500))
            },
        ];
        assert_eq!(refits_of(&turns, 1_000), [(0, 387)]);
    }

    #[test]
    fn a_first_claim_takes_the_room_at_its_turn() {
        // As above, but the first file claims the room at its turn: 9/10
        // of the 1,000 tokens less its frame (864), then 9/10 of the 104
        // left at the end (90); the second no longer fits and is not
        // refitted (14 tokens are left).
        let turns = [
            Turn {
                whole_first: false,
                claim: Some(u64::MAX),
                ..turn(0, 5_000, Some(2_000))
            },
            Turn {
                whole_first: false,
                ..turn(1, 5_000, Some(500))
            },
        ];
        assert_eq!(refits_of(&turns, 1_000), [(0, 954)]);
    }

    #[test]
    fn a_file_without_an_outline_that_may_have_one_is_given_the_room_left() {
        // The second file is too large whole and has no outline yet: it
        // gets 9/10 of the 3,968 left after the first, less its frame; the
        // third may not have one and gets nothing.
        let turns = [
            turn(0, 6_000, None),
            Turn {
                may_outline: true,
                ..turn(1, 9_000, None)
            },
            turn(2, 9_000, None),
        ];
        assert_eq!(refits_of(&turns, 10_000), [(1, 3_537)]);
    }

    #[test]
    fn a_claim_takes_no_more_than_its_bound() {
        let turns = [
            Turn {
                may_outline: true,
                claim: Some(300),
                ..turn(0, 5_000, None)
            },
            turn(1, 500, None),
        ];
        // 300 of the 1,000 tokens at its turn; the second file still fits
        // whole (532 with its frame), and the claim grows by 9/10 of the
        // 136 left at the end.
        assert_eq!(refits_of(&turns, 1_000), [(0, 417)]);
    }

    #[test]
    fn too_little_room_refits_nothing() {
        let turns = [turn(0, 5_000, Some(2_000))];
        assert!(refits_of(&turns, MIN_REFIT_TOKENS).is_empty());
    }
}
