//! [`pack`]: walk, count, rank, outline, select, assemble within the
//! budget, check what the payload shows for secrets, render, account.
//!
//! With an exact counter files are not all counted: each gets its
//! guaranteed upper bound, and the payload assembler counts exactly only
//! the files a tier has room for ([`PayloadAssembler::exact_counts`]); the
//! payload is the one counting every file would give, and its rendered
//! text is counted in full.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use budget_runtime::estimate::{ContentType, OnDemandCounts, guaranteed_upper_bound};
use budget_runtime::model::ScoredItem;
use budget_runtime::payload::{HybridPayload, PayloadAssembler, PayloadError, TierBudget};
use budget_runtime::scorer::ReflexiveScorer;
use budget_runtime::{ContextBudget, ContextItem, Item, Pipeline, Selection, placer::Placer};

use crate::complexity::Complexity;
use crate::counting::Counting;
use crate::counts_ahead::{CountsAhead, Listed, likely_listed};
use crate::file_items::{Items, items};
use crate::git::{self, FileChanges, GitError, GitSection};
use crate::options::{Budget, PackOptions};
use crate::packed::Packed;
use crate::parallel::parallel_map_largest_first;
use crate::progress::Progress;
use crate::rank::bm25::Query;
use crate::report::{CountAccount, file_records, report, summary};
use crate::sandbox::SandboxError;
use crate::scan::{Scan, ScanOptions, Secrets, scan};
use crate::secrets;
use crate::stages::StageClock;
use crate::text_cache::TextCache;
use crate::walk::{WalkError, walk};

/// Why `pack` could not produce a payload.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PackError {
    /// The budget is below what the payload's structure needs.
    #[error(
        "a budget of {budget} tokens is below the minimum of {minimum} tokens this payload needs (its structure alone, counted with {counter})"
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
    #[error(
        "no budget fits this payload's structure, {budget} tokens or more (counted with {counter})"
    )]
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
        // Each key once, and its position last: no two keys are equal, so
        // an unstable sort gives the stable order, faster.
        let mut keys: Vec<_> = merged
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let git = item.index < self.first;
                (!git, if git { item.index } else { 0 }, item.item.link(), i)
            })
            .collect();
        keys.sort_unstable();
        keys.into_iter().map(|(.., i)| i).collect()
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
                "`{}` left out: its line {} holds {} (with `redact` on it is packed with each secret replaced)",
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
    let clock = StageClock::start();
    let paths = &options.inputs.paths;
    let root = paths.first().map_or(Path::new("."), PathBuf::as_path);
    // Labels are paths relative to the root only when one directory is
    // walked. The history is read on its own thread while the files are
    // walked, read and parsed: it needs only the root, and only the
    // ranking reads it. Nothing is read of a root outside the sandbox (the
    // walk then fails).
    let inside = |root: &Path| {
        options
            .inputs
            .sandbox
            .as_ref()
            .is_none_or(|sandbox| sandbox.check(root).is_ok())
    };
    let history_root = (paths.len() <= 1 && root.is_dir() && inside(root)).then_some(root);
    std::thread::scope(|scope| {
        let history = scope.spawn(|| history_root.map_or_else(HashMap::new, git::change_weights));
        let history = || {
            history
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        };
        pack_with(options, counting, progress, clock, root, history)
    })
}

/// [`pack`], given its `clock`, the `root` of its inputs and the git
/// `history` the ranking reads, to wait for when it is needed.
fn pack_with(
    options: &PackOptions,
    counting: &Counting<'_>,
    progress: &dyn Progress,
    mut clock: StageClock,
    root: &Path,
    history: impl FnOnce() -> HashMap<String, FileChanges>,
) -> Result<Packed, PackError> {
    let entries = walk(&options.inputs, progress)?;
    clock.lap("walk");
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
                Secrets::Names
            },
            deduplicate: true,
        },
        progress,
    );
    clock.lap("read");
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
    let mut warnings = Vec::new();
    let git = git_sections(options, root, &mut warnings)?;
    clock.lap("git");
    let cache = text_cache(options);
    let Items {
        mut items,
        mut file_of_item,
        outlines,
        counts: planned,
        ahead,
    } = items(
        &mut scan,
        query.as_ref(),
        history,
        budget,
        exact,
        &cache,
        &mut clock,
    );
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
    // Only what the payload shows is checked for secrets (the scan looked
    // at paths alone): a file that holds one is left out, and the payload
    // made again without it.
    let mut checked = vec![options.redact; scan.files.len()];
    let Assembled {
        selection,
        counts,
        payload,
    } = loop {
        // The selection budget holds every item: it only ranks them.
        let everything = items
            .iter()
            .map(ContextItem::tokens)
            .fold(0u64, u64::saturating_add)
            .max(1);
        let selection = pipeline.run(&items, &ContextBudget::new(everything, everything)?)?;
        let candidates = selection.scored();
        let best = best_ranked(&candidates, budget);
        clock.lap("select");
        // The files the payload will most likely show, before it is made
        // (a payload made again costs as much as the first).
        let likely = best.iter().map(|&position| candidates[position]);
        let mut secrets = secrets_among(likely, &file_of_item, &scan, &mut checked, &cache);
        clock.lap("secrets");
        if secrets.is_empty() {
            let counts =
                candidate_counts(&candidates, &best, &file_of_item, planned.as_ref(), &ahead);
            clock.lap("count");
            let payload = assemble(&selection, counting, counts.as_ref(), options, budget)?;
            clock.lap("assemble");
            let assembled = Assembled {
                selection,
                counts,
                payload,
            };
            let shown = assembled
                .payload
                .assignments()
                .iter()
                .filter(|assignment| assignment.tier.is_some())
                .map(|assignment| candidates[assignment.position]);
            secrets = secrets_among(shown, &file_of_item, &scan, &mut checked, &cache);
            clock.lap("secrets");
            if secrets.is_empty() {
                break assembled;
            }
        }
        for (file, detail) in &secrets {
            scan.leave_out_secret(*file, detail);
        }
        let left_out =
            |file: &Option<usize>| file.is_some_and(|f| secrets.iter().any(|s| s.0 == f));
        (items, file_of_item) = items
            .into_iter()
            .zip(file_of_item)
            .filter(|(_, file)| !left_out(file))
            .unzip();
    };
    if let Err(error) = cache.save() {
        tracing::debug!(%error, "text cache not saved");
    }
    let tokens = payload.rendered_tokens();
    let records = file_records(
        &scan,
        &file_of_item,
        &outlines,
        &selection,
        &payload,
        counts.as_ref(),
    );
    let account = CountAccount::of(&scan.tally, counts.as_ref());
    let report_head = report(&records, &account, &payload, budget, counting);
    let mut summary = summary(&records, &payload, tokens, budget, counting);
    summary.extend(account.summary(counting));
    clock.lap("report");
    Ok(Packed {
        text: payload.text().to_owned(),
        tokens,
        budget,
        report_head,
        files: records.records,
        report: std::sync::OnceLock::new(),
        summary,
        warnings,
        stages: clock.stages(),
    })
}

/// The cache of what is learned of the texts `options` packs, if it
/// keeps one ([`PackOptions::cache`]).
fn text_cache(options: &PackOptions) -> TextCache {
    let Some(dir) = &options.cache else {
        return TextCache::none();
    };
    let inputs: Vec<String> = options
        .inputs
        .paths
        .iter()
        .map(|path| {
            let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.clone());
            path.display().to_string()
        })
        .collect();
    // The rules that fill it (every source they are made from, hashed
    // when this crate is built) and the secret rules too: a text found
    // free of secrets is searched again when they change.
    let identity = format!(
        "texts budget-pack {} {} {:016x} {}",
        env!("CARGO_PKG_VERSION"),
        env!("BUDGET_PACK_RULES"),
        secrets::rules_fingerprint(),
        inputs.join("\n")
    );
    TextCache::open(dir, &identity)
}

/// Under an exact counter, the exact counts of `candidates` (their items'
/// files by `file_of_item`, as indices in `scan.files`): starting from
/// what `planned` learned (by file), the `best` ([`best_ranked`]) counted
/// first, on every core, or taken from the counts made `ahead`.
fn candidate_counts<'c>(
    candidates: &[ScoredItem<'_, Item>],
    best: &[usize],
    file_of_item: &[Option<usize>],
    planned: Option<&OnDemandCounts<'c>>,
    ahead: &CountsAhead,
) -> Option<OnDemandCounts<'c>> {
    let planned = planned?;
    let from: Vec<Option<usize>> = candidates
        .iter()
        .map(|candidate| file_of_item[candidate.index])
        .collect();
    let counts = planned.reordered(&from);
    let contents: Vec<_> = best
        .iter()
        .map(|&position| (position, candidates[position].item.content()))
        .collect();
    let mut texts: Vec<(usize, &str)> = Vec::new();
    for (position, text) in &contents {
        match from[*position].and_then(|file| ahead.get(file)) {
            Some(exact) => counts.remember_exact(*position, text, exact),
            None => texts.push((*position, text)),
        }
    }
    counts.prefetch(&texts);
    Some(counts)
}

/// A payload, the selection it was made of and the counts it was made
/// with.
struct Assembled<'a, 'c> {
    selection: Selection<'a, Item>,
    counts: Option<OnDemandCounts<'c>>,
    payload: HybridPayload<'a, Item>,
}

/// The files among `candidates` (by `file_of_item`, as indices in
/// `scan.files`; git sections are passed over) that hold a secret and
/// were not `checked` before, with where and which: each file's text is
/// searched once, on every core.
fn secrets_among<'a>(
    candidates: impl Iterator<Item = ScoredItem<'a, Item>>,
    file_of_item: &[Option<usize>],
    scan: &Scan,
    checked: &mut [bool],
    cache: &TextCache,
) -> Vec<(usize, String)> {
    let mut unchecked = Vec::new();
    for candidate in candidates {
        if let Some(file) = file_of_item[candidate.index]
            && !checked[file]
        {
            checked[file] = true;
            unchecked.push((file, candidate.item));
        }
    }
    let size = |(_, item): &(usize, &Item)| item.content().len();
    parallel_map_largest_first(&unchecked, size, |&(file, item)| {
        // A text an earlier run found free of secrets is not searched again.
        let found = cache.find_secret(&item.content(), &scan.files[file].label)?;
        Some((file, format!("line {}: {}", found.line, found.rule)))
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The positions among `candidates` of the best-ranked files, which the
/// payload is likely to carry or list: in rank order, as many as have
/// LINKED lines (estimated with the fixed ratios, from the path, line
/// count, description and the file's upper bound) that fill the LINKED
/// tier's limit at `budget`, and a fortieth more. They are searched for
/// secrets before the payload is made and, under an exact counter, counted
/// in parallel (each RAW or LINKED file needs its exact count); a file
/// past them that is shown after all is handled when the assembler gets
/// to it.
fn best_ranked(candidates: &[ScoredItem<'_, Item>], budget: u64) -> Vec<usize> {
    let mut ranked: Vec<usize> = (0..candidates.len()).collect();
    ranked.sort_by(|&a, &b| {
        candidates[b]
            .score
            .total_cmp(&candidates[a].score)
            .then(a.cmp(&b))
    });
    let ranked = ranked.into_iter().map(|position| {
        let item = candidates[position].item;
        let file = Listed {
            link: item.link().unwrap_or_default(),
            lines: item.lines().map_or(0, |l| *l.end()),
            description: item.description().unwrap_or_default(),
            tokens: candidates[position].tokens,
        };
        (position, file)
    });
    likely_listed(ranked, budget)
}

/// The payload of the selected files within `budget`, rendered in
/// [`PackOptions::format`]: the assembler fits the rendered text to the budget.
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
