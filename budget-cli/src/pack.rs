//! `budget pack`: walk, count, score, select, assemble within the budget,
//! render.
//!
//! With an exact counter (`o200k`, `cl100k`) files are not all counted:
//! each gets its guaranteed upper bound, and the payload assembler counts
//! exactly only the files a tier has room for
//! ([`PayloadAssembler::exact_counts`]); the payload is the one counting
//! every file would give, and its rendered text is counted in full.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use budget::estimate::{ContentType, Estimator, RatioEstimator, guaranteed_upper_bound};

use budget::estimate::{CountingWork, OnDemandCounts};
use budget::model::{ScoredItem, Tier};
use budget::payload::{
    Candidate, Format, HybridPayload, ItemState, OfferOrder, PayloadAssembler, PayloadError,
    PlacementReason, TierBudget,
};
use budget::scorer::ReflexiveScorer;
use budget::{
    ContextBudget, ContextItem, Item, Pipeline, Selection, pipeline::ExclusionReason,
    placer::Placer,
};
use serde_json::json;

use crate::CliError;
use crate::cli::{BudgetArg, Order, PackArgs, PackFormat};
use crate::complexity::Complexity;
use crate::counter::Counter;
use crate::description::description;
use crate::git::{self, GitSection};
use crate::outline::{self, Form};
use crate::output;
use crate::progress::Progress;
use crate::rank::bm25::Query;
use crate::rank::rank;
use crate::sandbox::Sandbox;
use crate::scan::{Scan, ScanOptions, Secrets, scan};
use crate::secrets;
use crate::skip::{FileTally, Skip};
use crate::walk::walk;

/// Why `pack` could not produce a payload.
#[derive(Debug, thiserror::Error)]
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
    /// `--fail-over` was exceeded.
    #[error("payload is {tokens} tokens ({counter}), over --fail-over {limit} by {excess}")]
    OverFailLimit {
        /// The payload's tokens.
        tokens: u64,
        /// The limit.
        limit: u64,
        /// `tokens − limit`.
        excess: u64,
        /// The counter's name.
        counter: String,
    },
    /// A git section could not become an item (it cannot happen: its text
    /// is never empty).
    #[error("git section rejected")]
    GitItem(#[source] budget::model::ItemError),
    /// The payload could not be assembled.
    #[error("payload assembly failed")]
    Payload(#[source] PayloadError),
    /// The selection pipeline failed.
    #[error("selection failed")]
    Pipeline(#[from] budget::pipeline::PipelineError),
    /// The selection budget could not be built.
    #[error("selection budget rejected")]
    SelectionBudget(#[from] budget::model::ContextBudgetError),
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

/// The sections `--diff` and `--log` ask for, from the repository holding
/// `root`.
fn git_sections(
    args: &PackArgs,
    root: &Path,
    sandbox: Option<&Sandbox>,
) -> Result<Vec<GitSection>, CliError> {
    let mut sections = Vec::new();
    if args.diff.is_some() || args.log.is_some() {
        // A repository that holds more than the sandbox would show files
        // outside it.
        if let (Some(sandbox), Some(repository)) = (sandbox, git::repository_root(root)) {
            sandbox.check(&repository)?;
        }
    }
    if let Some(rev) = &args.diff {
        sections.push(git::diff(root, rev, args.input.max_file_bytes)?);
    }
    if let Some(count) = args.log {
        sections.push(git::log(root, usize::from(count))?);
    }
    Ok(sections
        .into_iter()
        .filter_map(|section| without_secrets(section, args.redact))
        .collect())
}

/// A git section as files are treated: with `--redact` its secrets
/// replaced, else, when it holds one, left out (a warning says so).
fn without_secrets(mut section: GitSection, redact: bool) -> Option<GitSection> {
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
            eprintln!(
                "warning: `{}` left out: its line {} holds {} (--redact packs it with each secret replaced)",
                section.source, found.line, found.rule
            );
            None
        }
        None => Some(section),
    }
}

/// A git section as an item that ranks first (relevance 1.0), counted as
/// the files are (its upper bound under an exact counter).
fn git_item(section: GitSection, counter: &Counter) -> Result<Item, PackError> {
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

/// Runs `budget pack`.
pub fn run(args: &PackArgs, sandbox: Option<&Sandbox>) -> Result<(), CliError> {
    let progress = Progress::on_stderr();
    let entries = walk(&args.input.walk_options(sandbox), &progress)?;
    let counter = Counter::resolve(args.input.counter, &args.input.model.counter_request())?;
    let exact = counter.exact();
    let mut scan = scan(
        entries,
        &ScanOptions {
            counter: &counter,
            keep_text: true,
            max_file_bytes: args.input.max_file_bytes,
            upper_bounds: exact.is_some(),
            secrets: if args.redact {
                Secrets::Redact
            } else {
                Secrets::Skip
            },
        },
        &progress,
    );
    // Counted, or (exact counter) upper bounds: it only sizes the
    // selection budget, which must hold every file.
    let demand = scan.total_tokens();
    let budget = match args.budget {
        BudgetArg::Tokens(n) => n,
        BudgetArg::Auto if counter.model().is_some() => counter
            .model()
            .map_or(0, budget::profile::ModelProfile::input_budget),
        BudgetArg::Auto => match exact {
            Some(exact) => Complexity::for_counted_demand(
                exact,
                scan.texts().filter_map(|(_, file)| file.text.as_deref()),
            ),
            None => Complexity::for_demand(demand),
        }
        .budget()
        .total(),
    };
    let query = args.query.as_deref().and_then(Query::parse);
    let root = args
        .input
        .paths
        .first()
        .map_or(Path::new("."), PathBuf::as_path);
    let git = git_sections(args, root, sandbox)?;
    // Labels are paths relative to the root only when one directory is walked.
    let history = if args.input.paths.len() <= 1 && root.is_dir() {
        git::change_weights(root)
    } else {
        HashMap::new()
    };
    let Items {
        mut items,
        mut file_of_item,
        shown_in_full,
    } = items(&mut scan, query.as_ref(), &history, budget);
    // Git sections go first: the placer keeps them ahead of the files.
    let git_items = git.len();
    for section in git.into_iter().rev() {
        items.insert(0, git_item(section, &counter)?);
        file_of_item.insert(0, None);
    }

    let pipeline = Pipeline::builder()
        .scorer(ReflexiveScorer::new())
        .placer(PathOrder { first: git_items })
        .build();
    // The selection budget holds every item: it only ranks and deduplicates.
    let everything = items
        .iter()
        .map(ContextItem::tokens)
        .fold(0u64, u64::saturating_add)
        .max(1);
    let selection = pipeline
        .run(
            &items,
            &ContextBudget::new(everything, everything).map_err(PackError::from)?,
        )
        .map_err(PackError::from)?;

    let counts = exact.map(|exact| OnDemandCounts::new(exact, selection.items().len()));
    if let Some(counts) = &counts {
        prefetch_best(counts, &selection, budget);
    }
    let payload = assemble(&selection, &counter, counts.as_ref(), args, budget)?;
    let tokens = payload.rendered_tokens();
    if let Some(limit) = args.fail_over.filter(|&limit| tokens > limit) {
        return Err(PackError::OverFailLimit {
            tokens,
            limit,
            excess: tokens - limit,
            counter: counter.label(),
        }
        .into());
    }
    let records = file_records(
        &scan,
        &file_of_item,
        &shown_in_full,
        &selection,
        &payload,
        counts.as_ref(),
    );
    let counting = Counting::of(&scan.tally, counts.as_ref());
    if let Some(report_path) = &args.report {
        let text = report(&records, &counting, &payload, budget, &counter);
        output::write(
            &text,
            (report_path.as_os_str() != "-").then_some(report_path.as_path()),
        )?;
    }
    if args
        .report
        .as_deref()
        .is_none_or(|path| path.as_os_str() != "-")
        || args.output.is_some()
    {
        output::write(payload.text(), args.output.as_deref())?;
    }
    summary(&records, &payload, tokens, budget, &counter);
    counting.summary(&counter);
    Ok(())
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
    let candidates = Candidate::from_selection(selection);
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
    counter: &Counter,
    counts: Option<&OnDemandCounts<'_>>,
    args: &PackArgs,
    budget: u64,
) -> Result<HybridPayload<'a, Item>, PackError> {
    let assembler = |tiers: TierBudget| {
        let assembler = PayloadAssembler::new(tiers)
            .estimator(counter.estimator())
            .format(match args.format {
                PackFormat::Markdown => Format::Markdown,
                PackFormat::Xml => Format::Xml,
                PackFormat::Json => Format::Json,
            })
            .order(match args.order {
                Order::Rank => OfferOrder::Rank,
                Order::Arrival => OfferOrder::Arrival,
            })
            .meta(args.meta)
            .tree(!args.no_tree)
            .fetch_tool(args.fetch_tool);
        match counts {
            Some(counts) => assembler.exact_counts(counts),
            None => assembler,
        }
    };
    let candidates = Candidate::from_selection(selection);
    let minimum = match TierBudget::with_total(budget) {
        Ok(tiers) => match assembler(tiers).assemble(candidates) {
            Ok(payload) => return Ok(payload),
            Err(PayloadError::StructureExceedsTotal { minimum_total, .. }) => minimum_total,
            Err(other) => return Err(PackError::Payload(other)),
        },
        // Too small to split into tiers: the minimum is the same from any total.
        Err(_) => assembler(TierBudget::with_total_const(25_000)).minimum_total(&candidates),
    };
    let counter = counter.label();
    Err(match minimum {
        Some(minimum) => PackError::BudgetBelowMinimum {
            budget,
            minimum,
            counter,
        },
        None => PackError::NothingFits { budget, counter },
    })
}

/// How the files' tokens were obtained: the honest account of the work.
#[derive(Debug, PartialEq, Eq)]
struct Counting {
    /// Files counted exactly, in full.
    exact: usize,
    /// Files counted only until their count passed the room a tier had.
    until_over: usize,
    /// Files never counted: estimated (by the estimator, or by their upper
    /// bound under an exact counter).
    estimated: usize,
}

impl Counting {
    /// The account for the `tally.counted` read files, given the on-demand
    /// counts of the assembled ones (files outside the payload's
    /// candidates, such as duplicates, are never counted).
    fn of(tally: &FileTally, counts: Option<&OnDemandCounts<'_>>) -> Self {
        let CountingWork {
            exact, at_least, ..
        } = counts.map(OnDemandCounts::work).unwrap_or_default();
        Self {
            exact,
            until_over: at_least,
            estimated: tally.counted.saturating_sub(exact + at_least),
        }
    }

    fn json(&self) -> serde_json::Value {
        json!({
            "exact": self.exact,
            "until_over": self.until_over,
            "estimated": self.estimated,
        })
    }

    /// The line on stderr under an exact counter (an estimator estimates
    /// every file, as the payload line says).
    fn summary(&self, counter: &Counter) {
        if counter.is_exact() {
            eprintln!(
                "counting ({}): {} files exactly, {} only until shown not to fit, {} by their upper bound alone",
                counter.label(),
                self.exact,
                self.until_over,
                self.estimated,
            );
        }
    }
}

/// Estimates a file's size for the cap on one file's share of RAW (a best
/// guess is enough to tell a quarter of RAW).
static CAP_ESTIMATOR: budget::estimate::CalibratedEstimator =
    budget::estimate::CalibratedEstimator::new(budget::estimate::Encoding::O200kBase);

/// The room for a file's outline, in bytes at the file's own bytes per
/// token: all of RAW's limit for the best-ranked file, the cap on one
/// file's share of RAW (`raw_cap` tokens, a quarter) for the next best
/// ([`outline::FULL_ROOM_RANKS`] in all), a sixth of that for the rest.
/// Measured with `scripts/localize.py`: smaller outlines past the best
/// five let more of the files that matter in (outlined or whole) without
/// fewer changed lines shown; giving the best files' outlines room before
/// any file goes whole carried more files but showed fewer changed
/// lines, so files still go whole first, in rank order.
fn outline_room(text: &str, rank: usize, raw_cap: u64) -> usize {
    let share = match rank {
        0 => raw_cap.saturating_mul(4),
        rank if rank < outline::FULL_ROOM_RANKS => raw_cap,
        _ => raw_cap / 6,
    };
    let tokens = CAP_ESTIMATOR.estimate(text, ContentType::Code).max(1);
    let bytes = u64::try_from(text.len())
        .unwrap_or(u64::MAX)
        .saturating_mul(share)
        / tokens;
    usize::try_from(bytes).unwrap_or(usize::MAX)
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
) -> Items {
    let raw_cap = TierBudget::with_total(budget).map_or(u64::MAX, |b| b.effective(Tier::Raw) / 4);
    let (scores, matches, forms, query) = {
        let texts: Vec<(&str, &str)> = scan
            .texts()
            .filter_map(|(label, file)| Some((label, file.text.as_deref()?)))
            .collect();
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
        let room = |text: &str, rank: usize| outline_room(text, rank, raw_cap);
        let focus = outline::Focus {
            relevance: &relevance,
            expand: query.is_some(),
            room: &room,
        };
        let forms = outline::forms(&texts, &ranked, budget, &mut outlines, &focus);
        (ranking.scores, ranking.matches, forms, query)
    };
    let mut ranked = scores.iter().zip(&matches).zip(forms);
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
        let Some(((&score, &matches), form)) = ranked.next() else {
            continue;
        };
        let lines = text.lines().count();
        // Without a query, a file that would take more than a quarter of
        // RAW starts as its skeleton, so that one large file does not crowd
        // out the rest of an overview. (With a query the files that match
        // are wanted whole: the cap cost 11 points of changed files in RAW
        // for 4 more in RAW or SKELETON, in scripts/localize.py.)
        let capped = query.is_none()
            && form.is_some()
            && CAP_ESTIMATOR.estimate(&text, text_file.content_type) > raw_cap;
        let description = description(&text);
        let mut builder = Item::builder(text)
            .tokens(text_file.tokens)
            .content_type(text_file.content_type)
            .link(file.label.clone())
            .lines(1..=u64::try_from(lines).unwrap_or(u64::MAX).max(1))
            .relevance_hint(score);
        if !matches {
            builder = builder.tier(Tier::Linked);
        }
        if let Some(description) = description {
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

/// The JSON records of the input files and the tally of their outcomes.
struct FileRecords {
    records: Vec<serde_json::Value>,
    /// `counted`: files that appear in the payload (RAW, LINKED, SUMMARY).
    tally: FileTally,
    /// Files read and ranked that the payload had no room for.
    omitted: usize,
    /// The tokens of the read files: exact counts where known, else their
    /// estimates (saturating).
    material_tokens: u64,
    /// Whether every one of those counts is exact.
    material_exact: bool,
    /// The git sections: source, tier (`null` when omitted), cost, reason.
    git: Vec<serde_json::Value>,
    /// Secrets redacted (`--redact`), and in how many files.
    redacted: (usize, usize),
}

/// One JSON record per input file, and the tally of outcomes: packed
/// files carry their tier, cost, score and placement reason; duplicates
/// name the file they repeat; skipped files their reason. `tokens` is the
/// exact count where the file was counted on demand (`tokens_exact`), else
/// its estimate (or upper bound, under an exact counter).
fn file_records(
    scan: &Scan,
    file_of_item: &[Option<usize>],
    shown_in_full: &HashMap<usize, Vec<String>>,
    selection: &Selection<'_, Item>,
    payload: &HybridPayload<'_, Item>,
    counts: Option<&OnDemandCounts<'_>>,
) -> FileRecords {
    // A placement's position is its item's position in the selection,
    // whose report entry of that position names the item's input index.
    let report = selection.report();
    let mut placement_of_file = HashMap::new();
    let mut git = Vec::new();
    for placement in payload.placements() {
        let item = report.included[placement.position].index;
        match file_of_item[item] {
            Some(file) => {
                placement_of_file.insert(file, placement);
            }
            None => git.push(json!({
                "source": placement.item.link(),
                "tier": (placement.state != ItemState::Omitted).then(|| placement.state.to_string()),
                "cost": placement.tokens,
                "reason": reason(placement.reason, counts.is_some()),
            })),
        }
    }
    let mut exclusion_of_file = HashMap::new();
    for excluded in &report.excluded {
        if let Some(file) = file_of_item[excluded.index] {
            exclusion_of_file.insert(file, &excluded.reason);
        }
    }
    let mut tally = FileTally::default();
    let mut omitted = 0;
    let redacted = scan
        .texts()
        .filter(|(_, f)| f.redacted > 0)
        .fold((0, 0), |(secrets, files), (_, f)| {
            (secrets + f.redacted, files + 1)
        });
    let mut material_tokens: u64 = 0;
    let mut material_exact = true;
    let mut material = |tokens: u64, exact: bool| {
        material_tokens = material_tokens.saturating_add(tokens);
        material_exact &= exact;
    };
    let records = scan
        .files
        .iter()
        .enumerate()
        .map(|(index, file)| {
            let (status, tokens, reason) = match &file.outcome {
                Err((skip, detail)) => (*skip, None, detail.clone()),
                Ok(text) => {
                    if let Some(placement) = placement_of_file.get(&index) {
                        let in_payload = placement.state != ItemState::Omitted;
                        if in_payload {
                            tally.counted += 1;
                        } else {
                            omitted += 1;
                        }
                        let counted = counts.and_then(|c| c.known_exact(placement.position));
                        let tokens = counted.unwrap_or(text.tokens);
                        material(tokens, counted.is_some());
                        let mut reason = reason(placement.reason, counts.is_some());
                        let focused = shown_in_full.get(&index);
                        if let (Some(shown), ItemState::Skeleton) = (focused, placement.state) {
                            reason.push_str(&focused_reason(shown));
                        }
                        return json!({
                            "path": file.label,
                            "status": if in_payload { "packed" } else { "omitted" },
                            "tier": in_payload.then(|| placement.state.to_string()),
                            "tokens": tokens,
                            "tokens_exact": counted.is_some(),
                            "cost": placement.tokens,
                            "score": placement.score,
                            "reason": reason,
                            "redacted": text.redacted,
                        });
                    }
                    // The selection budget holds every file, so deduplication
                    // is the only exclusion; anything else is reported as is.
                    let reason = match exclusion_of_file.get(&index) {
                        Some(ExclusionReason::Deduplicated {
                            deduplicated_against,
                        }) => match file_of_item[*deduplicated_against] {
                            Some(file) => format!("identical to {}", scan.files[file].label),
                            None => "identical to a git section".to_owned(),
                        },
                        other => format!("excluded by selection: {other:?}"),
                    };
                    material(text.tokens, false);
                    (Skip::Duplicate, Some(text.tokens), reason)
                }
            };
            tally.skip(status);
            json!({
                "path": file.label,
                "status": status.key(),
                "tier": null,
                "tokens": tokens,
                "tokens_exact": false,
                "cost": 0,
                "score": null,
                "reason": reason,
            })
        })
        .collect();
    FileRecords {
        records,
        tally,
        omitted,
        material_tokens,
        material_exact,
        git,
        redacted,
    }
}

/// A placement's reason as the report gives it. With `at_least` (counts
/// on demand: a count stops once the file is shown not to fit), the figure
/// a tier rejected it on is a lower bound and is printed as one:
/// `RAW full: at least 14343 tokens, 14342 free`.
fn reason(reason: PlacementReason, at_least: bool) -> String {
    match reason {
        PlacementReason::TierFull {
            tier,
            needed,
            available,
        } if at_least => format!("{tier} full: at least {needed} tokens, {available} free"),
        PlacementReason::TooLarge {
            tier,
            needed,
            limit,
        } if at_least => format!("too large for {tier}: at least {needed} tokens, limit {limit}"),
        // Only the cap on one file's share of RAW asks for SKELETON.
        PlacementReason::Fitted {
            requested: Tier::Skeleton,
        } => "fits SKELETON (without a query, a file over a quarter of RAW's limit starts as its skeleton)".to_owned(),
        other => other.to_string(),
    }
}

/// What a focused outline adds to its file's reason.
fn focused_reason(shown: &[String]) -> String {
    if shown.is_empty() {
        return "; a focused outline, no definition in full".to_owned();
    }
    let names: Vec<String> = shown.iter().take(5).map(|n| format!("`{n}`")).collect();
    let more = shown.len().saturating_sub(names.len());
    format!(
        "; a focused outline with {} in full{}",
        names.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

/// The `--report` document.
fn report(
    records: &FileRecords,
    counting: &Counting,
    payload: &HybridPayload<'_, Item>,
    budget: u64,
    counter: &Counter,
) -> String {
    let mut counts = records.tally.json("packed");
    counts["omitted"] = records.omitted.into();
    let document = json!({
        "budget": budget,
        "counter": counter.name().to_owned(),
        "exact": counter.is_exact(),
        "format": payload.format().to_string(),
        "payload_tokens": payload.rendered_tokens(),
        "meta": meta(payload),
        "fingerprint": fingerprint(payload),
        "material_tokens": records.material_tokens,
        "material_tokens_exact": records.material_exact,
        "counting": counting.json(),
        "files": records.records,
        "git": records.git,
        "counts": counts,
        "payload": payload.text(),
    });
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}

/// The payload's tier figures (its META section's numbers): tokens used,
/// the tier's limit, and items, per tier (RAW and SKELETON share one
/// limit).
fn meta(payload: &HybridPayload<'_, Item>) -> serde_json::Value {
    let tally = payload.tally();
    let tier = |tier: Tier, state: ItemState| {
        let t = tally.tier(tier);
        json!({ "used": t.used, "limit": t.limit, "items": payload.in_state(state).count() })
    };
    json!({
        "RAW": tier(Tier::Raw, ItemState::Raw),
        "SKELETON": tier(Tier::Skeleton, ItemState::Skeleton),
        "LINKED": tier(Tier::Linked, ItemState::Linked),
        "SUMMARY": tier(Tier::Summary, ItemState::Summary),
    })
}

/// The payload's SHA-256 digests (its fingerprint section's), in hex.
fn fingerprint(payload: &HybridPayload<'_, Item>) -> serde_json::Value {
    let f = payload.fingerprint();
    json!({
        "meta": f.meta.to_string(),
        "summary": f.summary.to_string(),
        "raw": f.raw.to_string(),
        "linked": f.linked.to_string(),
        "sources": f.sources.to_string(),
        "payload": f.payload.to_string(),
    })
}

/// The summary on stderr: `packed` counts the files that appear in the
/// payload; files read but left out for room are `omitted`.
fn summary(
    records: &FileRecords,
    payload: &HybridPayload<'_, Item>,
    tokens: u64,
    budget: u64,
    counter: &Counter,
) {
    use budget::payload::ItemState::{Linked, Raw, Skeleton, Summary};
    // Files only: the git sections have their own lines.
    let state = |s: budget::payload::ItemState| {
        let git = records
            .git
            .iter()
            .filter(|g| g["tier"].as_str() == Some(&s.to_string()))
            .count();
        payload.in_state(s).count() - git
    };
    let kind = if counter.is_exact() {
        "exact"
    } else {
        "estimated"
    };
    let tally = &records.tally;
    eprintln!(
        "packed {} of {} files: RAW {}, SKELETON {}, LINKED {}, SUMMARY {}; omitted (no room) {}; skipped: {tally}",
        tally.counted,
        tally.inputs() + records.omitted,
        state(Raw),
        state(Skeleton),
        state(Linked),
        state(Summary),
        records.omitted,
    );
    if records.redacted.0 > 0 {
        eprintln!(
            "secrets: {} redacted in {} files (--redact)",
            records.redacted.0, records.redacted.1
        );
    }
    for section in &records.git {
        eprintln!(
            "git: {} {}",
            section["source"].as_str().unwrap_or_default(),
            section["tier"].as_str().unwrap_or("OMITTED (no room)"),
        );
    }
    eprintln!(
        "payload: {tokens} tokens ({kind}, {}) of a {budget}-token budget",
        counter.label(),
    );
}
