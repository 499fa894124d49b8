//! [`pack`]: walk, count, rank, outline, select, assemble within the
//! budget, render, account.
//!
//! With an exact counter files are not all counted: each gets its
//! guaranteed upper bound, and the payload assembler counts exactly only
//! the files a tier has room for ([`PayloadAssembler::exact_counts`]); the
//! payload is the one counting every file would give, and its rendered
//! text is counted in full.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use budget_runtime::estimate::{
    ContentType, Estimator, OnDemandCounts, RatioEstimator, TokenCounter, guaranteed_upper_bound,
};
use budget_runtime::model::{ScoredItem, Tier};
use budget_runtime::payload::{HybridPayload, PayloadAssembler, PayloadError, TierBudget};
use budget_runtime::scorer::ReflexiveScorer;
use budget_runtime::{ContextBudget, ContextItem, Item, Pipeline, Selection, placer::Placer};

use crate::complexity::Complexity;
use crate::counting::Counting;
use crate::description::description;
use crate::git::{self, GitError, GitSection};
use crate::options::{Budget, PackOptions};
use crate::outline::{self, Form};
use crate::packed::Packed;
use crate::parallel::parallel_map;
use crate::progress::Progress;
use crate::rank::bm25::Query;
use crate::rank::rank;
use crate::refit::{Turn, refits};
use crate::report::{CountAccount, file_records, report, summary};
use crate::sandbox::SandboxError;
use crate::scan::{Scan, ScanOptions, Secrets, scan};
use crate::secrets;
use crate::walk::{WalkError, walk};

/// Why `pack` could not produce a payload.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PackError {
    /// `--budget` is below what the payload's structure needs.
    #[error(
        "--budget {budget} is below the minimum of {minimum} tokens this payload needs (its structure alone, counted with {counter})"
    )]
    BudgetBelowMinimum {
        /// The budget asked for.
        budget: u64,
        /// The smallest budget that fits.
        minimum: u64,
        /// The counter's name.
        counter: String,
    },
    /// No budget fits at all (cannot happen with a sane counter).
    #[error("--budget {budget}: no budget fits this payload's structure (counted with {counter})")]
    NothingFits {
        /// The budget asked for.
        budget: u64,
        /// The counter's name.
        counter: String,
    },
    /// A path or glob is unusable.
    #[error(transparent)]
    Walk(#[from] WalkError),
    /// A git section cannot be made.
    #[error(transparent)]
    Git(#[from] GitError),
    /// The repository of a git section is outside the sandbox.
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    /// A git section could not become an item (it cannot happen: its text
    /// is never empty).
    #[error("git section rejected")]
    GitItem(#[source] budget_runtime::model::ItemError),
    /// The payload could not be assembled.
    #[error("payload assembly failed")]
    Payload(#[source] PayloadError),
    /// The selection pipeline failed.
    #[error("selection failed")]
    Pipeline(#[from] budget_runtime::pipeline::PipelineError),
    /// The selection budget could not be built.
    #[error("selection budget rejected")]
    SelectionBudget(#[from] budget_runtime::model::ContextBudgetError),
}

/// Presents the first `first` items (the git sections) in input order,
/// then the files in path order.
#[derive(Debug)]
struct PathOrder {
    first: usize,
}

impl Placer for PathOrder {
    fn place(&self, merged: &[ScoredItem<'_>]) -> Vec<usize> {
        let mut order: Vec<usize> = (0..merged.len()).collect();
        order.sort_by_key(|&i| {
            let item = &merged[i];
            let git = item.index < self.first;
            (!git, if git { item.index } else { 0 }, item.item.link())
        });
        order
    }
}

/// The sections `diff` and `log` ask for, from the repository holding
/// `root`; a section left out for a secret adds a warning.
fn git_sections(
    options: &PackOptions,
    root: &Path,
    warnings: &mut Vec<String>,
) -> Result<Vec<GitSection>, PackError> {
    let mut sections = Vec::new();
    if options.diff.is_some() || options.log.is_some() {
        // A repository that holds more than the sandbox would show files
        // outside it.
        if let (Some(sandbox), Some(repository)) =
            (&options.inputs.sandbox, git::repository_root(root))
        {
            sandbox.check(&repository)?;
        }
    }
    if let Some(rev) = &options.diff {
        sections.push(git::diff(root, rev, options.inputs.max_file_bytes)?);
    }
    if let Some(count) = options.log {
        sections.push(git::log(root, usize::from(count))?);
    }
    Ok(sections
        .into_iter()
        .filter_map(|section| without_secrets(section, options.redact, warnings))
        .collect())
}

/// A git section as files are treated: with `redact` its secrets
/// replaced, else, when it holds one, left out with a warning.
fn without_secrets(
    mut section: GitSection,
    redact: bool,
    warnings: &mut Vec<String>,
) -> Option<GitSection> {
    if redact {
        let (text, findings) = secrets::redact(&section.text, "");
        if !findings.is_empty() {
            section.text = text;
            section.description = format!(
                "{}; {} secrets redacted",
                section.description,
                findings.len()
            );
        }
        return Some(section);
    }
    match secrets::find_secret(&section.text, "") {
        Some(found) => {
            warnings.push(format!(
                "`{}` left out: its line {} holds {} (--redact packs it with each secret replaced)",
                section.source, found.line, found.rule
            ));
            None
        }
        None => Some(section),
    }
}

/// A git section as an item that ranks first (relevance 1.0), counted as
/// the files are (its upper bound under an exact counter).
fn git_item(section: GitSection, counter: &Counting<'_>) -> Result<Item, PackError> {
    // An empty diff still says so.
    let text = if section.text.is_empty() {
        "(no changes)\n".to_owned()
    } else {
        section.text
    };
    let tokens = if counter.is_exact() {
        guaranteed_upper_bound(&text)
    } else {
        counter.count(&text, ContentType::Code)
    };
    Item::builder(text)
        .tokens(tokens.max(1))
        .content_type(ContentType::Code)
        .link(section.source)
        .description(section.description)
        .relevance_hint(1.0)
        .build()
        .map_err(PackError::GitItem)
}

/// Packs the files of `options.inputs` into one payload of at most the
/// budget's tokens, counted with `counting`, ranked for `options.query`,
/// every input file accounted for in the report.
///
/// ```
/// use budget_pack::{Budget, Counting, PackOptions, pack};
/// use budget_runtime::estimate::RatioEstimator;
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("tides.rs"), "pub fn high_tide() -> u32 { 6 }\n")?;
/// std::fs::write(dir.path().join("README.md"), "# Tides\n")?;
///
/// let mut options = PackOptions::new([dir.path()]);
/// options.budget = Budget::Tokens(2_000);
/// options.query = Some("high tide".into());
/// let packed = pack(&options, &Counting::estimated("ratios", &RatioEstimator), &())?;
///
/// assert!(packed.tokens() <= 2_000);
/// assert!(packed.text().contains("pub fn high_tide()"));
/// assert_eq!(packed.report()["files"].as_array().unwrap().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`PackError`]: a missing path or bad glob, a git section that cannot
/// be made, or a budget below what the payload's structure needs.
pub fn pack(
    options: &PackOptions,
    counting: &Counting<'_>,
    progress: &dyn Progress,
) -> Result<Packed, PackError> {
    let entries = walk(&options.inputs, progress)?;
    let exact = counting.exact_counter();
    let mut scan = scan(
        entries,
        &ScanOptions {
            counter: counting,
            keep_text: true,
            max_file_bytes: options.inputs.max_file_bytes,
            upper_bounds: exact.is_some(),
            secrets: if options.redact {
                Secrets::Redact
            } else {
                Secrets::Skip
            },
            deduplicate: true,
        },
        progress,
    );
    // Counted, or (exact counter) upper bounds: it only sizes the
    // selection budget, which must hold every file.
    let demand = scan.total_tokens();
    let budget = match options.budget {
        Budget::Tokens(n) => n,
        Budget::Auto => match exact {
            Some(exact) => Complexity::for_counted_demand(
                exact,
                scan.texts().filter_map(|(_, file)| file.text.as_deref()),
            ),
            None => Complexity::for_demand(demand),
        }
        .budget()
        .total(),
    };
    let query = options.query.as_deref().and_then(Query::parse);
    let paths = &options.inputs.paths;
    let root = paths.first().map_or(Path::new("."), PathBuf::as_path);
    let mut warnings = Vec::new();
    let git = git_sections(options, root, &mut warnings)?;
    // Labels are paths relative to the root only when one directory is walked.
    let history = if paths.len() <= 1 && root.is_dir() {
        git::change_weights(root)
    } else {
        HashMap::new()
    };
    let Items {
        mut items,
        mut file_of_item,
        shown_in_full,
    } = items(&mut scan, query.as_ref(), &history, budget, exact);
    // Git sections go first: the placer keeps them ahead of the files.
    let git_items = git.len();
    for section in git.into_iter().rev() {
        items.insert(0, git_item(section, counting)?);
        file_of_item.insert(0, None);
    }

    // The scan dropped byte-identical files already: hashing every text
    // again would find none.
    let pipeline = Pipeline::builder()
        .scorer(ReflexiveScorer::new())
        .placer(PathOrder { first: git_items })
        .deduplicate(false)
        .build();
    // The selection budget holds every item: it only ranks them.
    let everything = items
        .iter()
        .map(ContextItem::tokens)
        .fold(0u64, u64::saturating_add)
        .max(1);
    let selection = pipeline.run(&items, &ContextBudget::new(everything, everything)?)?;

    let counts = exact.map(|exact| OnDemandCounts::new(exact, selection.items().len()));
    if let Some(counts) = &counts {
        prefetch_best(counts, &selection, budget);
    }
    let payload = assemble(&selection, counting, counts.as_ref(), options, budget)?;
    let tokens = payload.rendered_tokens();
    let records = file_records(
        &scan,
        &file_of_item,
        &shown_in_full,
        &selection,
        &payload,
        counts.as_ref(),
    );
    let account = CountAccount::of(&scan.tally, counts.as_ref());
    let report_head = report(&records, &account, &payload, budget, counting);
    let mut summary = summary(&records, &payload, tokens, budget, counting);
    summary.extend(account.summary(counting));
    Ok(Packed {
        text: payload.text().to_owned(),
        tokens,
        budget,
        report_head,
        files: records.records,
        report: std::sync::OnceLock::new(),
        summary,
        warnings,
    })
}

/// Counts in parallel, exactly and in full, the best-ranked files the
/// payload is likely to carry or list (each RAW or LINKED file needs its
/// exact count): in rank order, as many as have LINKED lines (estimated
/// with the fixed ratios, from the path, line count, description and the
/// file's upper bound) that fill the LINKED tier's limit at `budget`, and
/// a tenth more. The assembler then finds them counted; a file past them
/// that is listed after all is counted when the assembler gets to it.
fn prefetch_best(counts: &OnDemandCounts<'_>, selection: &Selection<'_, Item>, budget: u64) {
    let linked = TierBudget::with_total(budget).map_or(0, |b| b.effective(Tier::Linked));
    let wanted = linked.saturating_add(linked / 10);
    let candidates = selection.scored();
    let mut ranked: Vec<usize> = (0..candidates.len()).collect();
    ranked.sort_by(|&a, &b| {
        candidates[b]
            .score
            .total_cmp(&candidates[a].score)
            .then(a.cmp(&b))
    });
    let mut lines: u64 = 0;
    let mut texts = Vec::new();
    for position in ranked {
        if lines > wanted {
            break;
        }
        let item = candidates[position].item;
        let line = format!(
            "- `{}` (lines 1-{}): {}. {} tokens.",
            item.link().unwrap_or_default(),
            item.lines().map_or(0, |l| *l.end()),
            item.description().unwrap_or_default(),
            candidates[position].tokens,
        );
        lines = lines.saturating_add(RatioEstimator.estimate(&line, ContentType::Code));
        texts.push((position, item.content()));
    }
    let texts: Vec<(usize, &str)> = texts.iter().map(|(p, t)| (*p, t.as_ref())).collect();
    counts.prefetch(&texts);
}

/// The payload of the selected files within `budget`, rendered in
/// `--format`: the assembler fits the rendered text to the budget.
fn assemble<'a>(
    selection: &Selection<'a, Item>,
    counter: &Counting<'_>,
    counts: Option<&OnDemandCounts<'_>>,
    options: &PackOptions,
    budget: u64,
) -> Result<HybridPayload<'a, Item>, PackError> {
    let assembler = |tiers: TierBudget| {
        let assembler = PayloadAssembler::new(tiers)
            .estimator(counter.estimator())
            .format(options.format)
            .order(options.order)
            .meta(options.meta)
            .tree(options.tree)
            .fetch_tool(options.fetch_tool);
        match counts {
            Some(counts) => assembler.exact_counts(counts),
            None => assembler,
        }
    };
    let candidates = selection.scored();
    let minimum = match TierBudget::with_total(budget) {
        Ok(tiers) => match assembler(tiers).assemble(candidates) {
            Ok(payload) => return Ok(payload),
            Err(PayloadError::StructureExceedsTotal { minimum_total, .. }) => minimum_total,
            Err(other) => return Err(PackError::Payload(other)),
        },
        // Too small to split into tiers: the minimum is the same from any total.
        Err(_) => assembler(TierBudget::with_total_const(25_000)).minimum_total(&candidates),
    };
    let counter = counter.label().to_owned();
    Err(match minimum {
        Some(minimum) => PackError::BudgetBelowMinimum {
            budget,
            minimum,
            counter,
        },
        None => PackError::NothingFits { budget, counter },
    })
}

/// Estimates a file's size for the cap on one file's share of RAW (a best
/// guess is enough to tell a quarter of RAW).
static CAP_ESTIMATOR: budget_runtime::estimate::CalibratedEstimator =
    budget_runtime::estimate::CalibratedEstimator::new(
        budget_runtime::estimate::Encoding::O200kBase,
    );

/// The room for a file's outline, in bytes at the file's own bytes per
/// token: all of RAW's limit for the best-ranked file, the cap on one
/// file's share of RAW (`raw_cap` tokens, a quarter) for the next best
/// ([`outline::FULL_ROOM_RANKS`] in all), a sixth of that for the rest.
/// Measured with `scripts/localize.py`: smaller outlines past the best
/// five let more of the files that matter in (outlined or whole) without
/// fewer changed lines shown; giving the best files' outlines room before
/// any file goes whole carried more files but showed fewer changed
/// lines, so files still go whole first, in rank order, up to
/// [`WHOLE_PERCENT`] of RAW.
fn outline_room(file: &FileFacts, rank: usize, raw_cap: u64) -> usize {
    let share = room_tokens(rank, raw_cap);
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

/// For each file (by position in `files`), whether it may go whole: in
/// rank order, the files that match fill at most [`WHOLE_PERCENT`] of
/// RAW's limit (`raw_limit` tokens, at a best-guess estimate); past that,
/// a file ranked after the best [`outline::FULL_ROOM_RANKS`] that has a
/// SKELETON form and is larger than its outline's room starts as that form
/// (a smaller one is worth more whole).
fn whole_files(
    files: &[FileFacts],
    ranked: &[usize],
    matches: &[bool],
    forms: &[Option<Form>],
    raw_limit: u64,
) -> Vec<bool> {
    let limit = raw_limit / 100 * WHOLE_PERCENT;
    let raw_cap = raw_limit / 4;
    let mut whole = vec![true; files.len()];
    let mut used = 0u64;
    for (rank, &position) in ranked.iter().enumerate() {
        if !matches[position] {
            continue;
        }
        let tokens = files[position].estimate;
        if used.saturating_add(tokens) <= limit {
            used += tokens;
        } else if rank >= outline::FULL_ROOM_RANKS
            && forms[position].is_some()
            && tokens > room_tokens(rank, raw_cap)
        {
            whole[position] = false;
        }
    }
    whole
}

/// Whether a file starts as its SKELETON form rather than whole: past the
/// whole files' share of RAW (`whole` false), or, without a query, when it
/// has a form and would take more than `raw_cap` tokens (`tokens`, asked
/// only then), so that one large file does not crowd out the rest of an
/// overview. (With a query the files that match are wanted whole: that cap
/// cost 11 points of changed files in RAW for 4 more in RAW or SKELETON,
/// in scripts/localize.py.)
fn starts_as_outline(
    whole: bool,
    query: bool,
    has_form: bool,
    raw_cap: u64,
    tokens: impl FnOnce() -> u64,
) -> bool {
    !whole || !query && has_form && tokens() > raw_cap
}

/// What the packer needs of a file's text beyond the text, found once for
/// every file on every core (each is a pass over the whole text).
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
    fn of(text: &str) -> Self {
        Self {
            bytes: text.len(),
            lines: line_count(text),
            estimate: CAP_ESTIMATOR.estimate(text, ContentType::Code),
            description: description(text),
        }
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

/// The room for the outline of the file ranked `rank`, in tokens (see
/// [`outline_room`]).
fn room_tokens(rank: usize, raw_cap: u64) -> u64 {
    match rank {
        0 => raw_cap.saturating_mul(4),
        rank if rank < outline::FULL_ROOM_RANKS => raw_cap,
        _ => raw_cap / 6,
    }
}

/// The files as items.
struct Items {
    items: Vec<Item>,
    /// The index in `scan.files` of each item's file.
    file_of_item: Vec<Option<usize>>,
    /// For each file (by index in `scan.files`) whose SKELETON form is a
    /// focused outline, the definitions it shows in full.
    shown_in_full: HashMap<usize, Vec<String>>,
}

/// Items for every counted file (their text moves into the item), ranked
/// for `query` with the git `history` ([`rank`]) with the score as their
/// relevance hint, and the index in `scan.files` of each item; the
/// best-ranked source files carry their SKELETON forms for a
/// `budget`-token payload ([`outline::forms`]), focused on the query
/// (without one, on the most used definitions) within
/// [`outline_room`]. Under a query, a file that matches nothing starts in
/// LINKED: it never takes RAW room ahead of one that matches. Without
/// one, a file with an outline that would take more than a quarter of RAW
/// starts in SKELETON.
fn items(
    scan: &mut Scan,
    query: Option<&Query>,
    history: &HashMap<String, f64>,
    budget: u64,
    exact: Option<&dyn TokenCounter>,
) -> Items {
    let raw_cap = TierBudget::with_total(budget).map_or(u64::MAX, |b| b.effective(Tier::Raw) / 4);
    let (scores, matches, forms, whole, query, facts) = {
        let texts: Vec<(&str, &str)> = scan
            .texts()
            .filter_map(|(label, file)| Some((label, file.text.as_deref()?)))
            .collect();
        let facts = parallel_map(&texts, |&(_, text)| FileFacts::of(text));
        let mut outlines = outline::for_ranking(&texts);
        let ranking = rank(&texts, &outlines, query, history);
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
        let room = |position: usize, rank: usize| outline_room(&facts[position], rank, raw_cap);
        let focus = outline::Focus {
            relevance: &relevance,
            expand: query.is_some(),
            room: &room,
        };
        let mut forms = outline::forms(&texts, &ranked, budget, &mut outlines, &focus);
        let whole = whole_files(
            &facts,
            &ranked,
            &ranking.matches,
            &forms,
            raw_cap.saturating_mul(4),
        );
        let turns: Vec<Turn> = ranked
            .iter()
            .map(|&position| {
                let form = forms[position].as_ref();
                Turn {
                    position,
                    offered: ranking.matches[position],
                    whole_first: !starts_as_outline(
                        whole[position],
                        query.is_some(),
                        form.is_some(),
                        raw_cap,
                        || facts[position].estimate,
                    ),
                    whole: texts[position].1,
                    outline: form.map(Form::text),
                }
            })
            .collect();
        // Counted exactly when the payload is: the calibrated estimate runs
        // a fifth high on some code, more than an outline's room.
        let tokens = |text: &str, at_most: u64| match exact {
            Some(exact) => exact.count_tokens_up_to(text, at_most),
            None => Some(CAP_ESTIMATOR.estimate(text, ContentType::Code)).filter(|&n| n <= at_most),
        };
        let plan = refits(&turns, raw_cap.saturating_mul(4), &tokens);
        let refitted = parallel_map(&plan, |&(position, tokens)| {
            let (path, text) = texts[position];
            let facts = &facts[position];
            let bytes = tokens.saturating_mul(facts.bytes as u64) / facts.estimate.max(1);
            let room = usize::try_from(bytes).unwrap_or(usize::MAX);
            (position, outline::form_within(path, text, &focus, room))
        });
        for (position, form) in refitted {
            let smaller = |old: &Form, new: &Form| new.text().len() < old.text().len();
            if let (Some(old), Some(new)) = (&forms[position], &form)
                && smaller(old, new)
            {
                forms[position] = form;
            }
        }
        (ranking.scores, ranking.matches, forms, whole, query, facts)
    };
    let mut ranked = scores.iter().zip(&matches).zip(forms).zip(whole).zip(facts);
    let mut items = Vec::new();
    let mut file_of_item = Vec::new();
    let mut shown_in_full = HashMap::new();
    for (index, file) in scan.files.iter_mut().enumerate() {
        let Ok(text_file) = &mut file.outcome else {
            continue;
        };
        let Some(text) = text_file.text.take() else {
            continue;
        };
        let Some(((((&score, &matches), form), whole), facts)) = ranked.next() else {
            continue;
        };
        let capped = starts_as_outline(whole, query.is_some(), form.is_some(), raw_cap, || {
            CAP_ESTIMATOR.estimate(&text, text_file.content_type)
        });
        let mut builder = Item::builder(text)
            .tokens(text_file.tokens)
            .content_type(text_file.content_type)
            .link(file.label.clone())
            .lines(1..=u64::try_from(facts.lines).unwrap_or(u64::MAX).max(1))
            .relevance_hint(score);
        if !matches {
            builder = builder.tier(Tier::Linked);
        }
        if let Some(description) = facts.description {
            builder = builder.description(description);
        }
        if let Some(form) = form {
            if capped {
                builder = builder.tier(Tier::Skeleton);
            }
            if let Form::Focused(focused) = &form {
                shown_in_full.insert(index, focused.shown.clone());
            }
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
        shown_in_full,
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
        let facts: Vec<FileFacts> = texts.iter().map(|(_, text)| FileFacts::of(text)).collect();
        let whole = whole_files(&facts, &ranked, &matches, &forms, each * 10);
        assert!(whole.iter().all(|&w| w), "{whole:?}");
        // A limit of five large files: 85% holds four. The fifth is among
        // the best five and may still go whole; the sixth to eighth start
        // as outlines; the small file stays whole (smaller than its room).
        let whole = whole_files(&facts, &ranked, &matches, &forms, each * 5);
        assert_eq!(
            whole,
            [true, true, true, true, true, false, false, false, true]
        );
        // A file without a SKELETON form is never capped, nor one that
        // does not match the query.
        let mut no_form = forms;
        no_form[6] = None;
        let mut no_match = matches.clone();
        no_match[7] = false;
        let whole = whole_files(&facts, &ranked, &no_match, &no_form, each * 5);
        assert_eq!(
            whole,
            [true, true, true, true, true, false, true, true, true]
        );
    }
}
