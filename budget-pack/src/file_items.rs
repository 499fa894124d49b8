//! The files as items, each in the form it starts in: ranked for the
//! query, outlined where an outline can matter, sized for the room RAW and
//! SKELETON share, and refitted where the placement would leave an outline
//! out ([`items`]).

use std::collections::HashMap;

use budget_runtime::Item;
use budget_runtime::estimate::{ContentType, Estimator, OnDemandCounts, TokenCounter};
use budget_runtime::model::Tier;
use budget_runtime::payload::TierBudget;

use crate::counts_ahead::{CountsAhead, Listed, likely_listed};
use crate::file_facts::{CAP_ESTIMATOR, FileFacts, measure};
use crate::git::FileChanges;
use crate::outline::{self, Form};
use crate::parallel::{parallel_map_beside, parallel_map_largest_first};
use crate::rank::bm25::Query;
use crate::rank::role::{FileRole, uses_only};
use crate::rank::{Ranking, rank};
use crate::refit::{Sizes, Turn, frame_tokens, refits};
use crate::scan::Scan;
use crate::stages::StageClock;
use crate::start::{
    Held, MatchingTotal, crowded, outline_room, room_tokens, starts_as_outline, whole_files,
};
use crate::text_cache::{TextCache, TextFacts};

/// The most bytes of source parsed, in all, for the outlines of files
/// that no outline was made for up front ([`on_demand`]; tree-sitter reads
/// a few MB a second): four of the largest files parsed.
const ON_DEMAND_BYTES: usize = 4 * outline::MAX_OUTLINE_BYTES;

/// The most times the placement is replayed to refit outlines.
const REFIT_PASSES: usize = 3;

/// The best-ranked files that, without an outline made up front (ranked
/// past the files parsed then), may be outlined when their turn comes.
/// With [`CLAIM_RANKS`], measured with `scripts/localize.py` (changed
/// files whole or outlined, held-out): 83% with neither, 87% with both
/// (Rust 77% → 86%).
const ON_DEMAND_RANKS: usize = 20;

/// The best-ranked files whose refits claim room at their turn, ahead of
/// later files: the best five's without limit, the next ones' within
/// their rank's room ([`room_tokens`]).
const CLAIM_RANKS: usize = 10;

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
    /// Exact counts of the files likely listed, made while planning.
    pub ahead: CountsAhead,
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

/// Ranks the files of `scan` for `query` with the git `history`, asked
/// for when the ranking starts ([`rank`]), and plans each one's start: the
/// best-ranked source files get their SKELETON forms for a
/// `budget`-token payload ([`outline::forms`]), focused on the query
/// (without one, on the most used definitions) within [`outline_room`],
/// refitted where the placement would leave them out ([`refits`]), where
/// a file with none may be outlined too ([`on_demand`]); which start as
/// that form is [`starts_as_outline`].
fn plan<'c>(
    scan: &Scan,
    query: Option<&Query>,
    history: impl FnOnce() -> HashMap<String, FileChanges>,
    budget: u64,
    exact: Option<&'c dyn TokenCounter>,
    cache: &TextCache,
    clock: &mut StageClock,
) -> (Vec<Plan>, Option<OnDemandCounts<'c>>, CountsAhead) {
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
    // Where the ranking parses, Python's definitions are scanned for as
    // its outlines have them, and not parsed ([`outline::for_ranking`]).
    let mut known = cache.texts(&texts, outline::ranking_parses(&texts));
    let names = std::mem::take(&mut known.names);
    clock.lap("names");
    let defines = |path: &str| !uses_only(path, FileRole::of(path));
    let mut outlines = outline::for_ranking(&texts, &defines, budget, cache);
    clock.lap("parse");
    // The ranking keeps one core busy most of its time; the texts' sizes
    // and descriptions, which it does not need, are measured on the others.
    let unmeasured: Vec<usize> = (0..texts.len())
        .filter(|&position| known.facts[position].is_none())
        .collect();
    let (ranking, measured) = parallel_map_beside(
        &unmeasured,
        |&position| (position, measure(texts[position].1)),
        || rank(&texts, &names, cache.hasher(), &outlines, query, &history()),
    );
    drop(names);
    cache.learn_facts(&known, &measured);
    for (position, facts) in measured {
        known.facts[position] = Some(facts);
    }
    let facts: Vec<FileFacts> = texts
        .iter()
        .zip(&known.facts)
        .map(|(&(_, text), facts)| FileFacts::of(text, facts.unwrap_or_default()))
        .collect();
    // Made only for the files that need one (most never do).
    let estimate = |position: usize| facts[position].estimate(texts[position].1);
    clock.lap("rank");
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
            .map(|(name, _)| f64::from(ranking.references.of(name)))
            .collect(),
    };
    // A file's outline gets at most the cap on one file's share of RAW,
    // in bytes at the file's own bytes per token.
    let matching = MatchingTotal::new(&ranking.matches, &estimate);
    let room = |position: usize, rank: usize| {
        let tokens = estimate(position);
        let crowded = crowded(&matching, tokens, raw_cap.saturating_mul(4));
        outline_room(facts[position].bytes, tokens, rank, raw_cap, crowded)
    };
    let focus = outline::Focus {
        relevance: &relevance,
        expand: query.is_some(),
        room: &room,
    };
    // While the outlines are made, a spare core counts the files the
    // payload will likely list, as the count stage would.
    let listed: Vec<(usize, &str)> = match exact {
        Some(_) => {
            let ranked = ranked.iter().map(|&position| {
                let tokens = scan.files[files[position]]
                    .outcome
                    .as_ref()
                    .map_or(0, |file| file.tokens);
                let facts = &facts[position];
                let file = Listed {
                    link: texts[position].0,
                    lines: u64::try_from(facts.lines).unwrap_or(u64::MAX).max(1),
                    description: facts.description.as_deref().unwrap_or_default(),
                    tokens,
                };
                (position, file)
            });
            likely_listed(ranked, budget)
                .into_iter()
                .map(|position| (files[position], texts[position].1))
                .collect()
        }
        None => Vec::new(),
    };
    let ((forms, outlined, counts), ahead) =
        CountsAhead::while_doing(scan.files.len(), exact, &listed, || {
            let mut forms = outline::forms(&texts, &ranked, budget, &mut outlines, &focus, cache);
            clock.lap("outlines");
            let held = whole_files(&matching, &ranked, &forms, raw_cap.saturating_mul(4));
            // Decided before any refit: a file that a refit alone gives an outline
            // is offered whole first, and falls to that outline.
            let outlined: Vec<Option<Held>> = (0..texts.len())
                .map(|position| {
                    starts_as_outline(
                        held[position],
                        query.is_some(),
                        ranking.matches[position],
                        forms[position].is_some(),
                        raw_cap,
                        || estimate(position),
                    )
                })
                .collect();
            let on_demand = on_demand(&texts, &estimate, &ranked, &ranking, &forms, budget);
            // Counted exactly when the payload is: the calibrated estimate runs a
            // fifth high on some code, more than an outline's room.
            let tokens = |text: &str, at_most: u64| match exact {
                Some(exact) => exact.count_tokens_up_to(text, at_most),
                None => {
                    Some(CAP_ESTIMATOR.estimate(text, ContentType::Code)).filter(|&n| n <= at_most)
                }
            };
            let limit = raw_cap.saturating_mul(4);
            let counts = exact.map(|exact| OnDemandCounts::new(exact, scan.files.len()));
            let whole_tokens = |position: usize, at_most: u64| match &counts {
                Some(counts) => counts.up_to(files[position], texts[position].1, at_most),
                None => tokens(texts[position].1, at_most),
            };
            let sizes = Sizes {
                whole: &whole_tokens,
                outline: &tokens,
            };
            let replay = Replay {
                texts: &texts,
                ranked: &ranked,
                matches: &ranking.matches,
                outlined: &outlined,
                on_demand: &on_demand,
                frames: &frames(&texts, &facts, &ranking.matches, &forms),
                raw_cap,
            };
            // A refit is made for the room the replay gives it and may take less:
            // the placement is replayed again with the refitted outlines, so that
            // a later file gets what they leave.
            let mut no_outline = vec![false; texts.len()];
            for pass in 0..REFIT_PASSES {
                let turns = replay.turns(&forms, &no_outline);
                if pass == 0
                    && let Some(counts) = &counts
                {
                    counts.prefetch(&likely_whole(&turns, &estimate, limit, &files));
                }
                let to_refit = refits(&turns, limit, &sizes);
                drop(turns);
                if to_refit.is_empty() {
                    break;
                }
                let size = |&(position, _): &(usize, u64)| texts[position].1.len();
                let refitted =
                    parallel_map_largest_first(&to_refit, size, |&(position, room_tokens)| {
                        let (path, text) = texts[position];
                        let bytes = room_tokens.saturating_mul(text.len() as u64)
                            / estimate(position).max(1);
                        let room = usize::try_from(bytes).unwrap_or(usize::MAX);
                        // The room is at bytes per token of the whole file; an outline
                        // past the room left (before the tenth held back) could take a
                        // later file's place.
                        let form = outline::form_within(
                            path,
                            text,
                            outlines[position].as_ref(),
                            &focus,
                            room,
                            cache,
                        )
                        .filter(|form| tokens(form.text(), room_tokens / 9 * 10).is_some());
                        (position, form)
                    });
                for (position, form) in refitted {
                    let Some(new) = form else {
                        // No outline fits: the next replay leaves its room to others.
                        no_outline[position] = true;
                        continue;
                    };
                    if forms[position]
                        .as_ref()
                        .is_none_or(|old| new.text().len() < old.text().len())
                    {
                        forms[position] = Some(new);
                    }
                }
            }
            clock.lap("refits");
            (forms, outlined, counts)
        });
    // The estimates made this run, for the cache: a later run of the
    // same texts makes none again.
    let estimated: Vec<(usize, TextFacts)> = known
        .facts
        .iter()
        .enumerate()
        .filter_map(|(position, known)| {
            let known = (*known).filter(|known| known.estimate.is_none())?;
            let estimate = facts[position].estimated()?;
            Some((
                position,
                TextFacts {
                    estimate: Some(estimate),
                    ..known
                },
            ))
        })
        .collect();
    cache.learn_facts(&known, &estimated);
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
    (plans, counts, ahead)
}

/// The tokens of each file's entry lines ([`frame_tokens`]), by position
/// in `texts`; 0 for a file that matches nothing and has no outline: it
/// never takes room in a replay (nor gains an outline there).
fn frames(
    texts: &[(&str, &str)],
    facts: &[FileFacts],
    matches: &[bool],
    forms: &[Option<Form>],
) -> Vec<u64> {
    (0..texts.len())
        .map(|position| {
            if matches[position] || forms[position].is_some() {
                frame_tokens(texts[position].0, facts[position].description.as_deref())
            } else {
                0
            }
        })
        .collect()
}

/// What a replay of the placement knows of the files (by position in
/// `texts`), besides their outlines so far.
struct Replay<'a, 't> {
    texts: &'a [(&'t str, &'t str)],
    /// Positions, best-ranked first.
    ranked: &'a [usize],
    matches: &'a [bool],
    /// Why each starts as its outline, if it does ([`starts_as_outline`]).
    outlined: &'a [Option<Held>],
    /// Whether each may be outlined at its turn without one ([`on_demand`]).
    on_demand: &'a [bool],
    frames: &'a [u64],
    /// The cap on one file's share of RAW, in tokens.
    raw_cap: u64,
}

impl<'a, 't> Replay<'a, 't> {
    /// The files in rank order as the assembler will see them, with the
    /// outlines `forms` (none for a file marked `no_outline`).
    fn turns<'f>(&self, forms: &'f [Option<Form>], no_outline: &[bool]) -> Vec<Turn<'f>>
    where
        't: 'f,
    {
        self.ranked
            .iter()
            .enumerate()
            .map(|(rank, &position)| Turn {
                position,
                matches: self.matches[position],
                whole_first: self.matches[position] && self.outlined[position].is_none(),
                frame: self.frames[position],
                whole: self.texts[position].1,
                outline: forms[position]
                    .as_ref()
                    .filter(|_| !no_outline[position])
                    .map(Form::text),
                may_outline: self.on_demand[position] && !no_outline[position],
                // The best files' outlines before lower-ranked whole files
                // (scripts/localize.py: held-out changed files whole or
                // outlined 71%, 68% without; the tuning set 54% either
                // way), the next ones' within their rank's room, as for a
                // file that only an outline can carry.
                claim: if rank < outline::FULL_ROOM_RANKS {
                    Some(u64::MAX)
                } else if rank < CLAIM_RANKS || self.on_demand[position] {
                    Some(room_tokens(rank, self.raw_cap, true))
                } else {
                    None
                },
            })
            .collect()
    }
}

/// Which files (by position in `texts`) may be outlined when their turn
/// comes though no outline was made for them up front (they ranked past
/// the files parsed then): those that match, among the best
/// [`ON_DEMAND_RANKS`] in `ranked` or larger than the whole `budget` (else
/// a LINKED line), best-ranked first while their bytes add up to
/// [`ON_DEMAND_BYTES`]. A file that defines no more than its module
/// and one name has no outline worth the parse, nor has a table of
/// strings ([`outline::may_outline`]).
fn on_demand(
    texts: &[(&str, &str)],
    estimate: &dyn Fn(usize) -> u64,
    ranked: &[usize],
    ranking: &Ranking,
    forms: &[Option<Form>],
    budget: u64,
) -> Vec<bool> {
    let mut on_demand = vec![false; texts.len()];
    let mut bytes = 0usize;
    for (rank, &position) in ranked.iter().enumerate() {
        let (path, text) = texts[position];
        if forms[position].is_none()
            && ranking.matches[position]
            && ranking.defined[position] > 2
            // An estimate is never more than its text's bytes: a smaller
            // text needs none.
            && (rank < ON_DEMAND_RANKS
                || text.len() as u64 > budget && estimate(position) > budget)
            && bytes + text.len() <= ON_DEMAND_BYTES
            && outline::may_outline(path, text)
        {
            bytes += text.len();
            on_demand[position] = true;
        }
    }
    on_demand
}

/// The whole texts (with their index in `scan.files`, from `files`) that
/// replaying `turns` will count in full, to count them on every core
/// first: those offered whole, in turn order, while their `facts`'
/// estimates add up to `limit` and a quarter more (past it they are
/// counted only until they fail to fit), each no larger than `limit`.
fn likely_whole<'t>(
    turns: &[Turn<'t>],
    estimate: &dyn Fn(usize) -> u64,
    limit: u64,
    files: &[usize],
) -> Vec<(usize, &'t str)> {
    let mut estimated = 0u64;
    let mut likely = Vec::new();
    for turn in turns.iter().filter(|turn| turn.whole_first) {
        if estimated > limit.saturating_add(limit / 4) {
            break;
        }
        let tokens = estimate(turn.position);
        if tokens <= limit {
            estimated += tokens;
            likely.push((files[turn.position], turn.whole));
        }
    }
    likely
}

/// Items for every counted file (their text moves into the item), as
/// [`plan`] starts them, with the score as their relevance hint, and the
/// index in `scan.files` of each item. Under a query, a file that matches
/// nothing is never carried whole: it starts as its outline, which ranks
/// below every file that matches and so only fills the room they leave,
/// or in LINKED when it has none.
pub(crate) fn items<'c>(
    scan: &mut Scan,
    query: Option<&Query>,
    history: impl FnOnce() -> HashMap<String, FileChanges>,
    budget: u64,
    exact: Option<&'c dyn TokenCounter>,
    cache: &TextCache,
    clock: &mut StageClock,
) -> Items<'c> {
    let (plans, counts, ahead) = plan(scan, query, history, budget, exact, cache, clock);
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
        if !plan.matches && plan.outlined.is_none() {
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
    clock.lap("items");
    Items {
        items,
        file_of_item,
        outlines,
        counts,
        ahead,
    }
}
