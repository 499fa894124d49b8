//! The files as items, each in the form it starts in: ranked for the
//! query, outlined where an outline can matter, sized for the room RAW and
//! SKELETON share, and refitted where the placement would leave an outline
//! out ([`items`]).

use std::collections::HashMap;

use budget_runtime::Item;
use budget_runtime::estimate::{
    CalibratedEstimator, ContentType, Encoding, Estimator, OnDemandCounts, TokenCounter,
};
use budget_runtime::model::Tier;
use budget_runtime::payload::TierBudget;

use crate::description::description;
use crate::outline::{self, Form};
use crate::parallel::parallel_map;
use crate::rank::bm25::Query;
use crate::rank::rank;
use crate::refit::{Sizes, Turn, refits};
use crate::scan::Scan;
use crate::text_cache::{TextCache, TextFacts};

/// Estimates a file's size for the cap on one file's share of RAW (a best
/// guess is enough to tell a quarter of RAW).
static CAP_ESTIMATOR: CalibratedEstimator = CalibratedEstimator::new(Encoding::O200kBase);

/// The room for a file's outline, in bytes at the file's own bytes per
/// token: RAW's limit for the best-ranked file ([`BEST_WHOLE_PERCENT`] of
/// it when the other files that match are `crowded` out), the cap on one
/// file's share of RAW (`raw_cap` tokens, a quarter) for the next best
/// ([`outline::FULL_ROOM_RANKS`] in all), a sixth of that for the rest.
/// Measured with `scripts/localize.py`: smaller outlines past the best
/// five let more of the files that matter in (outlined or whole) without
/// fewer changed lines shown; giving the best files' outlines room before
/// any file goes whole carried more files but showed fewer changed
/// lines, so files still go whole first, in rank order, up to
/// [`WHOLE_PERCENT`] of RAW.
fn outline_room(file: &FileFacts, rank: usize, raw_cap: u64, crowded: bool) -> usize {
    let share = room_tokens(rank, raw_cap, crowded);
    let tokens = file.estimate.max(1);
    let bytes = u64::try_from(file.bytes)
        .unwrap_or(u64::MAX)
        .saturating_mul(share)
        / tokens;
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

/// Whether the files that match (`matching`: their estimates' sum) other
/// than `file` would not fit what `file` leaves of RAW's limit
/// (`raw_limit` tokens) when it takes [`BEST_WHOLE_PERCENT`] of it.
fn crowded(matching: u64, file: &FileFacts, raw_limit: u64) -> bool {
    let left = raw_limit - raw_limit / 100 * BEST_WHOLE_PERCENT;
    matching.saturating_sub(file.estimate) > left
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
fn whole_files(
    files: &[FileFacts],
    ranked: &[usize],
    matches: &[bool],
    forms: &[Option<Form>],
    raw_limit: u64,
) -> Vec<Option<Held>> {
    let limit = raw_limit / 100 * WHOLE_PERCENT;
    let raw_cap = raw_limit / 4;
    let matching = matching_estimate(files, matches);
    let mut held = vec![None; files.len()];
    let mut used = 0u64;
    for (rank, &position) in ranked.iter().enumerate() {
        if !matches[position] {
            continue;
        }
        let tokens = files[position].estimate;
        let best = rank < outline::FULL_ROOM_RANKS;
        if best
            && forms[position].is_some()
            && tokens > raw_limit / 100 * BEST_WHOLE_PERCENT
            && crowded(matching, &files[position], raw_limit)
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

/// Why a file starts as its SKELETON form rather than whole, if it does:
/// [`whole_files`] held it back (`held`), or, without a query, it
/// has a form and would take more than `raw_cap` tokens (`tokens`, asked
/// only then), so that one large file does not crowd out the rest of an
/// overview. (With a query the files that match are wanted whole: that cap
/// cost 11 points of changed files in RAW for 4 more in RAW or SKELETON,
/// in scripts/localize.py.)
fn starts_as_outline(
    held: Option<Held>,
    query: bool,
    has_form: bool,
    raw_cap: u64,
    tokens: impl FnOnce() -> u64,
) -> Option<Held> {
    held.or_else(|| (!query && has_form && tokens() > raw_cap).then_some(Held::Overview))
}

/// What the packer needs of a file's text beyond the text, found once for
/// every file on every core ([`measure`]).
struct FileFacts {
    /// Its length in bytes.
    bytes: usize,
    /// Its lines ([`str::lines`]).
    lines: usize,
    /// Its tokens as code, estimated with [`CAP_ESTIMATOR`].
    estimate: u64,
    /// Its one-line [`description`].
    description: Option<String>,
}

impl FileFacts {
    /// The facts of `text`, which [`measure`] (or the cache) found to be
    /// `facts`.
    fn of(text: &str, facts: TextFacts) -> Self {
        Self {
            bytes: text.len(),
            lines: usize::try_from(facts.lines).unwrap_or(usize::MAX),
            estimate: facts.estimate,
            // A cache entry's range is checked against the text.
            description: facts
                .description
                .and_then(|(start, end)| text.get(start as usize..end as usize))
                .map(str::to_owned),
        }
    }
}

/// The lines of `text`, its tokens as code, estimated with
/// [`CAP_ESTIMATOR`], and where its [`description`] is: the passes over a
/// whole text [`FileFacts`] needs, which a [`TextCache`] keeps.
fn measure(text: &str) -> TextFacts {
    let start = text.as_ptr() as usize;
    TextFacts {
        lines: line_count(text) as u64,
        estimate: CAP_ESTIMATOR.estimate(text, ContentType::Code),
        // A slice of `text`; offsets past 4 GiB give no description.
        description: description(text).and_then(|found| {
            let from = u32::try_from(found.as_ptr() as usize - start).ok()?;
            Some((from, from.checked_add(u32::try_from(found.len()).ok()?)?))
        }),
    }
}

/// The number of lines [`str::lines`] yields, by counting line feeds.
fn line_count(text: &str) -> usize {
    // Blocks of 255 bytes: the compiler sums each one in byte-wide vector
    // lanes (at most 255, no overflow), many bytes per instruction.
    let feeds: usize = text
        .as_bytes()
        .chunks(255)
        .map(|block| {
            let in_block = block.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n'));
            usize::from(in_block)
        })
        .sum();
    feeds + usize::from(!text.is_empty() && !text.ends_with('\n'))
}

/// The estimated tokens of the files that match, in all.
fn matching_estimate(files: &[FileFacts], matches: &[bool]) -> u64 {
    files
        .iter()
        .zip(matches)
        .filter(|(_, matches)| **matches)
        .fold(0u64, |sum, (file, _)| sum.saturating_add(file.estimate))
}

/// The room for the outline of the file ranked `rank`, in tokens (see
/// [`outline_room`]).
fn room_tokens(rank: usize, raw_cap: u64, crowded: bool) -> u64 {
    match rank {
        0 if crowded => raw_cap.saturating_mul(4) / 100 * BEST_WHOLE_PERCENT,
        0 => raw_cap.saturating_mul(4),
        rank if rank < outline::FULL_ROOM_RANKS => raw_cap,
        _ => raw_cap / 6,
    }
}

/// The most bytes of source parsed, in all, for the outlines of files
/// larger than the whole budget that no outline was made for up front
/// (tree-sitter reads a few MB a second): four of the largest files
/// parsed.
const ONDEMAND_OUTLINE_BYTES: usize = 4 * outline::MAX_OUTLINE_BYTES;

/// The files as items.
pub(crate) struct Items<'c> {
    /// One per file that has text, in `scan.files` order.
    pub items: Vec<Item>,
    /// The index in `scan.files` of each item's file.
    pub file_of_item: Vec<Option<usize>>,
    /// For each file (by index in `scan.files`) with a SKELETON form,
    /// what the report says of it.
    pub outlines: HashMap<usize, OutlineNote>,
    /// Under an exact counter, the files' texts counted while planning, by
    /// index in `scan.files`.
    pub counts: Option<OnDemandCounts<'c>>,
}

/// What the report says of a file's SKELETON form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct OutlineNote {
    /// Why the file starts as it rather than whole, if it does.
    pub held: Option<Held>,
    /// For a focused outline, the definitions it shows in full.
    pub shown: Option<Vec<String>>,
}

/// How each file with text starts, by position in [`Scan::texts`].
struct Plan {
    /// Its score ([`rank`]), in `0.0..=1.0`.
    score: f64,
    /// Whether it matches the query (every file, without one).
    matches: bool,
    /// Its SKELETON form, if it gets one.
    form: Option<Form>,
    /// Why it starts as that form rather than whole, if it does.
    outlined: Option<Held>,
    facts: FileFacts,
}

/// Ranks the files of `scan` for `query` with the git `history`
/// ([`rank`]) and plans each one's start: the best-ranked source files get
/// their SKELETON forms for a `budget`-token payload ([`outline::forms`]),
/// focused on the query (without one, on the most used definitions)
/// within [`outline_room`], refitted where the placement would leave them
/// out ([`refits`]), where a file larger than the whole budget without one
/// is outlined too; which start as that form is [`starts_as_outline`].
fn plan<'c>(
    scan: &Scan,
    query: Option<&Query>,
    history: &HashMap<String, f64>,
    budget: u64,
    exact: Option<&'c dyn TokenCounter>,
    cache: &TextCache,
) -> (Vec<Plan>, Option<OnDemandCounts<'c>>) {
    let raw_cap = TierBudget::with_total(budget).map_or(u64::MAX, |b| b.effective(Tier::Raw) / 4);
    // Each text with its file's index in `scan.files`, which the counts go by.
    let (files, texts): (Vec<usize>, Vec<(&str, &str)>) = scan
        .files
        .iter()
        .enumerate()
        .filter_map(|(index, file)| {
            let text = file.outcome.as_ref().ok()?.text.as_deref()?;
            Some((index, (file.label.as_str(), text)))
        })
        .unzip();
    let (measured, names): (Vec<TextFacts>, Vec<_>) =
        cache.texts(&texts, &measure).into_iter().unzip();
    let facts: Vec<FileFacts> = texts
        .iter()
        .zip(measured)
        .map(|(&(_, text), measured)| FileFacts::of(text, measured))
        .collect();
    let mut outlines = outline::for_ranking(&texts, cache);
    let ranking = rank(&texts, &names, cache.hasher(), &outlines, query, history);
    drop(names);
    let query = query.filter(|_| ranking.by_query);
    let mut ranked: Vec<usize> = (0..texts.len()).collect();
    ranked.sort_by(|&a, &b| {
        ranking.scores[b]
            .total_cmp(&ranking.scores[a])
            .then(a.cmp(&b))
    });
    let definitions = query.map(Query::definitions);
    let relevance = |spans: &[(&str, &str)]| match &definitions {
        Some(matcher) => matcher.scores(spans),
        None => spans
            .iter()
            .map(|(name, _)| f64::from(ranking.references.get(name).copied().unwrap_or(0)))
            .collect(),
    };
    // A file's outline gets at most the cap on one file's share of RAW,
    // in bytes at the file's own bytes per token.
    let matching = matching_estimate(&facts, &ranking.matches);
    let room = |position: usize, rank: usize| {
        let crowded = crowded(matching, &facts[position], raw_cap.saturating_mul(4));
        outline_room(&facts[position], rank, raw_cap, crowded)
    };
    let focus = outline::Focus {
        relevance: &relevance,
        expand: query.is_some(),
        room: &room,
    };
    let mut forms = outline::forms(&texts, &ranked, budget, &mut outlines, &focus, cache);
    let held = whole_files(
        &facts,
        &ranked,
        &ranking.matches,
        &forms,
        raw_cap.saturating_mul(4),
    );
    // Decided before any refit: a file that a refit alone gives an outline
    // is offered whole first, and falls to that outline.
    let outlined: Vec<Option<Held>> = (0..texts.len())
        .map(|position| {
            starts_as_outline(
                held[position],
                query.is_some(),
                forms[position].is_some(),
                raw_cap,
                || facts[position].estimate,
            )
        })
        .collect();
    // Larger than the whole budget, it would be a LINKED line: it may be
    // outlined when no outline was made for it, best-ranked first while
    // their bytes add up to ONDEMAND_OUTLINE_BYTES. A file that defines
    // no more than its module and one name (a data table such as pydoc's
    // 700 KB `topics.py`) has no outline worth the parse.
    let mut oversized = vec![false; texts.len()];
    let mut bytes = 0usize;
    for &position in &ranked {
        let (path, text) = texts[position];
        if forms[position].is_none()
            && ranking.matches[position]
            && ranking.defined[position] > 2
            && facts[position].estimate > budget
            && outline::may_outline(path, text)
            && bytes + text.len() <= ONDEMAND_OUTLINE_BYTES
        {
            bytes += text.len();
            oversized[position] = true;
        }
    }
    let oversized = |position: usize| oversized[position];
    let turns: Vec<Turn> = ranked
        .iter()
        .enumerate()
        .map(|(rank, &position)| Turn {
            position,
            offered: ranking.matches[position],
            whole_first: outlined[position].is_none(),
            whole: texts[position].1,
            outline: forms[position].as_ref().map(Form::text),
            may_outline: oversized(position),
            // The best files' outlines before lower-ranked whole files
            // (scripts/localize.py: held-out changed files whole or
            // outlined 71%, 68% without; the tuning set 54% either way),
            // and a file that only an outline can carry within its rank's
            // room.
            claim: if rank < outline::FULL_ROOM_RANKS {
                Some(u64::MAX)
            } else if oversized(position) {
                Some(room_tokens(rank, raw_cap, true))
            } else {
                None
            },
        })
        .collect();
    // Counted exactly when the payload is: the calibrated estimate runs a
    // fifth high on some code, more than an outline's room.
    let tokens = |text: &str, at_most: u64| match exact {
        Some(exact) => exact.count_tokens_up_to(text, at_most),
        None => Some(CAP_ESTIMATOR.estimate(text, ContentType::Code)).filter(|&n| n <= at_most),
    };
    let limit = raw_cap.saturating_mul(4);
    let counts = exact.map(|exact| OnDemandCounts::new(exact, scan.files.len()));
    if let Some(counts) = &counts {
        counts.prefetch(&likely_whole(&turns, &facts, limit, &files));
    }
    let whole_tokens = |position: usize, at_most: u64| match &counts {
        Some(counts) => counts.up_to(files[position], texts[position].1, at_most),
        None => tokens(texts[position].1, at_most),
    };
    let sizes = Sizes {
        whole: &whole_tokens,
        outline: &tokens,
    };
    let to_refit = refits(&turns, limit, &sizes);
    let refitted = parallel_map(&to_refit, |&(position, room_tokens)| {
        let (path, text) = texts[position];
        let facts = &facts[position];
        let bytes = room_tokens.saturating_mul(facts.bytes as u64) / facts.estimate.max(1);
        let room = usize::try_from(bytes).unwrap_or(usize::MAX);
        // The room is at bytes per token of the whole file; an outline
        // past the room left (before the tenth held back) could take a
        // later file's place.
        let form =
            outline::form_within(path, text, outlines[position].as_ref(), &focus, room, cache)
                .filter(|form| tokens(form.text(), room_tokens / 9 * 10).is_some());
        (position, form)
    });
    for (position, form) in refitted {
        let Some(new) = form else { continue };
        if forms[position]
            .as_ref()
            .is_none_or(|old| new.text().len() < old.text().len())
        {
            forms[position] = Some(new);
        }
    }
    let plans = forms
        .into_iter()
        .zip(facts)
        .zip(outlined)
        .enumerate()
        .map(|(position, ((form, facts), outlined))| Plan {
            score: ranking.scores[position],
            matches: ranking.matches[position],
            form,
            outlined,
            facts,
        })
        .collect();
    (plans, counts)
}

/// The whole texts (with their index in `scan.files`, from `files`) that
/// replaying `turns` will count in full, to count them on every core
/// first: those offered whole, in turn order, while their `facts`'
/// estimates add up to `limit` and a quarter more (past it they are
/// counted only until they fail to fit), each no larger than `limit`.
fn likely_whole<'t>(
    turns: &[Turn<'t>],
    facts: &[FileFacts],
    limit: u64,
    files: &[usize],
) -> Vec<(usize, &'t str)> {
    let mut estimated = 0u64;
    let mut likely = Vec::new();
    for turn in turns.iter().filter(|turn| turn.offered && turn.whole_first) {
        if estimated > limit.saturating_add(limit / 4) {
            break;
        }
        let estimate = facts[turn.position].estimate;
        if estimate <= limit {
            estimated += estimate;
            likely.push((files[turn.position], turn.whole));
        }
    }
    likely
}

/// Items for every counted file (their text moves into the item), as
/// [`plan`] starts them, with the score as their relevance hint, and the
/// index in `scan.files` of each item. Under a query, a file that matches
/// nothing starts in LINKED: it never takes RAW room ahead of one that
/// matches.
pub(crate) fn items<'c>(
    scan: &mut Scan,
    query: Option<&Query>,
    history: &HashMap<String, f64>,
    budget: u64,
    exact: Option<&'c dyn TokenCounter>,
    cache: &TextCache,
) -> Items<'c> {
    let (plans, counts) = plan(scan, query, history, budget, exact, cache);
    let mut plans = plans.into_iter();
    let mut items = Vec::new();
    let mut file_of_item = Vec::new();
    let mut outlines = HashMap::new();
    for (index, file) in scan.files.iter_mut().enumerate() {
        let Ok(text_file) = &mut file.outcome else {
            continue;
        };
        let Some(text) = text_file.text.take() else {
            continue;
        };
        let Some(plan) = plans.next() else {
            continue;
        };
        let mut builder = Item::builder(text)
            .tokens(text_file.tokens)
            .content_type(text_file.content_type)
            .link(file.label.clone())
            .lines(1..=u64::try_from(plan.facts.lines).unwrap_or(u64::MAX).max(1))
            .relevance_hint(plan.score);
        if !plan.matches {
            builder = builder.tier(Tier::Linked);
        }
        if let Some(description) = plan.facts.description {
            builder = builder.description(description);
        }
        if let Some(form) = plan.form {
            if plan.outlined.is_some() {
                builder = builder.tier(Tier::Skeleton);
            }
            let shown = match &form {
                Form::Focused(focused) => Some(focused.shown.clone()),
                Form::Skeleton(_) => None,
            };
            let held = plan.outlined;
            outlines.insert(index, OutlineNote { held, shown });
            builder = builder.skeleton(form.into_text());
        }
        // Only empty content fails to build, and empty files were skipped.
        if let Ok(item) = builder.build() {
            items.push(item);
            file_of_item.push(Some(index));
        }
    }
    Items {
        items,
        file_of_item,
        outlines,
        counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn line_count_counts_past_a_block() {
        let text = format!("{}x", "\n".repeat(1_000));
        assert_eq!(line_count(&text), 1_001);
        assert_eq!(line_count(&"ab\r\n".repeat(700)), 700);
    }

    proptest! {
        #[test]
        fn line_count_is_what_lines_yields(text in "(a|\r|\n|é| ){0,40}") {
            prop_assert_eq!(line_count(&text), text.lines().count());
        }
    }

    /// Whether each file may go whole, from what [`whole_files`] held back.
    fn goes_whole(held: Vec<Option<Held>>) -> Vec<bool> {
        held.iter().map(Option::is_none).collect()
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
        let whole = goes_whole(whole_files(&facts, &ranked, &matches, &forms, each * 10));
        assert!(whole.iter().all(|&w| w), "{whole:?}");
        // A limit of five large files: 85% holds four. The fifth is among
        // the best five and may still go whole; the sixth to eighth start
        // as outlines; the small file stays whole (smaller than its room).
        let held = whole_files(&facts, &ranked, &matches, &forms, each * 5);
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
        let whole = goes_whole(whole_files(&facts, &ranked, &no_match, &no_form, each * 5));
        assert_eq!(
            whole,
            [true, true, true, true, true, false, true, true, true]
        );
        // Under a limit of one and a half large files, each of the best
        // five would take two thirds of it: past BEST_WHOLE_PERCENT, it
        // starts as its outline, unless it has none.
        let mut forms = no_form;
        forms[1] = None;
        let held = whole_files(&facts, &ranked, &matches, &forms, each * 3 / 2);
        let best = Some(Held::Best);
        assert_eq!(&held[..5], [best, None, best, best, best]);
        // Not when the others would fit what it leaves: with the small
        // file alone beside it, it goes whole.
        let two = [0, 8];
        let only: Vec<bool> = (0..texts.len()).map(|i| two.contains(&i)).collect();
        let whole = goes_whole(whole_files(&facts, &two, &only, &forms, each * 3 / 2));
        assert!(whole[0] && whole[8], "{whole:?}");
    }
}
