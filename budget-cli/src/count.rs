//! `budget count`: tokens per file, per content type and per folder.

use std::fmt::Write;

use budget::estimate::ContentType;
use serde_json::json;

use budget_pack::{Counted, Sandbox, count};

use crate::CliError;
use crate::cli::{CountArgs, CountFormat};
use crate::counter::Counter;
use crate::output;
use crate::progress::ProgressBarOnStderr;
use crate::tree::Folder;

/// Runs `budget count`.
pub fn run(args: &CountArgs, sandbox: Option<&Sandbox>) -> Result<(), CliError> {
    let counter = Counter::resolve(args.input.counter, &args.input.model.counter_request())?;
    let label = counter.label();
    let cache_dir = crate::cache::dir(args.input.no_cache);
    let cache = counter.count_cache(cache_dir.as_deref());
    let cached = counter.cached(cache.as_ref());
    let scan = count(
        &args.input.inputs(sandbox),
        &match &cached {
            // Every count is a file's: the cache may give them all.
            Some(cached) => budget_pack::Counting::exact(counter.name(), cached).labelled(&label),
            None => counter.counting(&label, None),
        },
        &ProgressBarOnStderr::on_stderr(),
    )?;
    crate::cache::save(cache.as_ref());
    let tree = args
        .tree
        .then(|| Folder::of(scan.files().map(|(label, _, tokens)| (label, tokens))));
    let text = match args.format {
        CountFormat::Table => table(&scan, &counter, tree.as_ref(), args.depth),
        CountFormat::Json => document(&scan, &counter, tree.as_ref(), args.depth),
    };
    output::write(&text, None)?;
    Ok(())
}

/// Tokens and files of one content type.
fn by_type(scan: &Counted, content_type: ContentType) -> (u64, usize) {
    scan.files()
        .filter(|(_, t, _)| *t == content_type)
        .fold((0, 0), |(sum, files), (_, _, tokens)| {
            (sum.saturating_add(tokens), files + 1)
        })
}

fn table(scan: &Counted, counter: &Counter, tree: Option<&Folder>, depth: usize) -> String {
    let mut out = String::new();
    match tree {
        Some(tree) => {
            let _ = writeln!(
                out,
                "{:>10} {:>7} {:>7}  folder",
                "tokens", "share", "files"
            );
            tree.write_table(&mut out, depth, scan.total_tokens());
        }
        None => {
            let _ = writeln!(out, "{:>10}  {:<8}  path", "tokens", "type");
            for (label, content_type, tokens) in scan.files() {
                let _ = writeln!(out, "{tokens:>10}  {:<8}  {label}", content_type.name());
            }
        }
    }
    out.push('\n');
    for content_type in ContentType::ALL {
        let (tokens, files) = by_type(scan, content_type);
        if files > 0 {
            let _ = writeln!(
                out,
                "{tokens:>10}  {:<8}  {files} files",
                content_type.name()
            );
        }
    }
    let _ = writeln!(
        out,
        "{:>10}  {:<8}  {} files counted with {}; skipped: {}",
        scan.total_tokens(),
        "total",
        scan.tally().counted,
        counter.label(),
        scan.tally(),
    );
    out
}

fn document(scan: &Counted, counter: &Counter, tree: Option<&Folder>, depth: usize) -> String {
    let files: Vec<_> = scan
        .inputs()
        .map(|(label, outcome)| match outcome {
            Ok((content_type, tokens)) => json!({
                "path": label,
                "status": "counted",
                "content_type": content_type.name(),
                "tokens": tokens,
                "reason": null,
            }),
            Err((skip, detail)) => json!({
                "path": label,
                "status": skip.key(),
                "content_type": null,
                "tokens": null,
                "reason": detail,
            }),
        })
        .collect();
    let mut by_content_type = serde_json::Map::new();
    for content_type in ContentType::ALL {
        let (tokens, files) = by_type(scan, content_type);
        by_content_type.insert(
            content_type.name().to_owned(),
            json!({ "tokens": tokens, "files": files }),
        );
    }
    let mut document = json!({
        "counter": counter.name().to_owned(),
        "exact": counter.is_exact(),
        "total_tokens": scan.total_tokens(),
        "by_content_type": by_content_type,
        "counts": scan.tally().json("counted"),
        "files": files,
    });
    if let Some(model) = counter.model() {
        document["model"] = json!({
            "name": model.name,
            "context_window": model.context_window,
            "max_output_tokens": model.max_output_tokens,
            "output_reserve": model.output_reserve(),
            "source": model.source,
        });
    }
    if let Some(tree) = tree {
        document["tree"] = tree.to_json(depth, scan.total_tokens());
    }
    let mut text = serde_json::to_string_pretty(&document).unwrap_or_default();
    text.push('\n');
    text
}
