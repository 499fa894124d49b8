//! The account of a pack: one record per input file and the reason it
//! got what it got, the report document, and the summary lines.

use std::collections::HashMap;

use budget_runtime::Item;
use budget_runtime::estimate::{CountingWork, OnDemandCounts};
use budget_runtime::model::Tier;
use budget_runtime::payload::{AssignmentReason, HybridPayload};
use budget_runtime::pipeline::ExclusionReason;
use budget_runtime::{ContextItem, Selection};
use serde_json::json;

use crate::counting::Counting;
use crate::file_items::OutlineNote;
use crate::scan::Scan;
use crate::skip::{FileTally, Skip};
use crate::start::{BEST_WHOLE_PERCENT, Held, WHOLE_PERCENT};

/// How the files' tokens were obtained: the honest account of the work.
#[derive(Debug, PartialEq, Eq)]
pub struct CountAccount {
    /// Files counted exactly, in full.
    exact: usize,
    /// Files counted only until their count passed the room a tier had.
    until_over: usize,
    /// Files never counted: estimated (by the estimator, or by their upper
    /// bound under an exact counter).
    estimated: usize,
}

impl CountAccount {
    /// The account for the `tally.counted` read files, given the on-demand
    /// counts of the assembled ones (files outside the payload's
    /// candidates, such as duplicates, are never counted).
    pub fn of(tally: &FileTally, counts: Option<&OnDemandCounts<'_>>) -> Self {
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

    /// The summary line under an exact counter (an estimator estimates
    /// every file, as the payload line says).
    pub fn summary(&self, counter: &Counting<'_>) -> Option<String> {
        counter.is_exact().then(|| {
            format!(
                "counting ({}): {} files exactly, {} only until shown not to fit, {} by their upper bound alone",
                counter.label(),
                self.exact,
                self.until_over,
                self.estimated,
            )
        })
    }
}

/// One input file's record in the report (`docs/cli.md` documents the
/// keys). Kept typed: a pack of tens of thousands of files makes it JSON
/// only when the report is read.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FileRecord {
    path: String,
    status: &'static str,
    tier: Option<String>,
    tokens: Option<u64>,
    tokens_exact: bool,
    cost: u64,
    score: Option<f64>,
    reason: String,
    /// Secrets redacted: in the records of files that were read.
    #[serde(skip_serializing_if = "Option::is_none")]
    redacted: Option<usize>,
}

/// The records of the input files and the tally of their outcomes.
pub struct FileRecords {
    /// One per input file, in walk order.
    pub records: Vec<FileRecord>,
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
    /// Secrets redacted ([`PackOptions::redact`](crate::PackOptions::redact)), and in how many files.
    redacted: (usize, usize),
}

/// One JSON record per input file, and the tally of outcomes: packed
/// files carry their tier, cost, score and assignment reason; duplicates
/// name the file they repeat; skipped files their reason. `tokens` is the
/// exact count where the file was counted on demand (`tokens_exact`), else
/// its estimate (or upper bound, under an exact counter).
pub fn file_records(
    scan: &Scan,
    file_of_item: &[Option<usize>],
    outlines: &HashMap<usize, OutlineNote>,
    selection: &Selection<'_, Item>,
    payload: &HybridPayload<'_, Item>,
    counts: Option<&OnDemandCounts<'_>>,
) -> FileRecords {
    // An assignment's position is its item's position in the selection,
    // whose report entry of that position names the item's input index.
    let report = selection.report();
    let mut assignment_of_file = HashMap::new();
    let mut git = Vec::new();
    for assignment in payload.assignments() {
        let item = report.included[assignment.position].index;
        match file_of_item[item] {
            Some(file) => {
                assignment_of_file.insert(file, assignment);
            }
            None => git.push(json!({
                "source": assignment.item.link(),
                "tier": assignment.tier.map(|tier| tier.to_string()),
                "cost": assignment.tokens,
                "reason": reason(assignment.reason, counts.is_some(), None),
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
                    if let Some(assignment) = assignment_of_file.get(&index) {
                        let in_payload = assignment.tier.is_some();
                        if in_payload {
                            tally.counted += 1;
                        } else {
                            omitted += 1;
                        }
                        let counted = counts.and_then(|c| c.known_exact(assignment.position));
                        let tokens = counted.unwrap_or(text.tokens);
                        material(tokens, counted.is_some());
                        let note = outlines.get(&index);
                        let held = note.and_then(|note| note.held);
                        let mut reason = reason(assignment.reason, counts.is_some(), held);
                        let shown = note.and_then(|note| note.shown.as_ref());
                        if let (Some(shown), Some(Tier::Skeleton)) = (shown, assignment.tier) {
                            reason.push_str(&focused_reason(shown));
                        }
                        return FileRecord {
                            path: file.label.clone(),
                            status: if in_payload { "packed" } else { "omitted" },
                            tier: assignment.tier.map(|tier| tier.to_string()),
                            tokens: Some(tokens),
                            tokens_exact: counted.is_some(),
                            cost: assignment.tokens,
                            score: Some(assignment.score),
                            reason,
                            redacted: Some(text.redacted),
                        };
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
            FileRecord {
                path: file.label.clone(),
                status: status.key(),
                tier: None,
                tokens,
                tokens_exact: false,
                cost: 0,
                score: None,
                reason,
                redacted: None,
            }
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

/// An assignment's reason as the report gives it. With `at_least` (counts
/// on demand: a count stops once the file is shown not to fit), the figure
/// a tier rejected it on is a lower bound and is printed as one:
/// `RAW full: at least 14343 tokens, 14342 free`. A file that starts as
/// its outline says why (`held`).
fn reason(reason: AssignmentReason, at_least: bool, held: Option<Held>) -> String {
    match reason {
        AssignmentReason::TierFull {
            tier,
            needed,
            available,
        } if at_least => format!("{tier} full: at least {needed} tokens, {available} free"),
        AssignmentReason::TooLarge {
            tier,
            needed,
            limit,
        } if at_least => format!("too large for {tier}: at least {needed} tokens, limit {limit}"),
        // Only a file held back from RAW (`held`) asks for SKELETON.
        AssignmentReason::Fitted {
            requested: Tier::Skeleton,
        } => match held {
            Some(Held::Best) => format!(
                "fits SKELETON (starts as its outline: among the best five, whole it would take over {BEST_WHOLE_PERCENT}% of RAW's limit and crowd out the files that match after it)"
            ),
            Some(Held::PastShare) => format!(
                "fits SKELETON (starts as its outline: past the whole files' share, {WHOLE_PERCENT}% of RAW's limit in rank order, and larger than its outline's room)"
            ),
            Some(Held::Overview) => "fits SKELETON (starts as its outline: without a query, whole it would take over a quarter of RAW)".to_owned(),
            Some(Held::Unmatched) => "fits SKELETON (starts as its outline: it matches nothing in the query, so it fills what the files that match leave)".to_owned(),
            None => "fits SKELETON".to_owned(),
        },
        other => other.to_string(),
    }
}

/// What a focused outline adds to its file's reason.
fn focused_reason(shown: &[String]) -> String {
    if shown.is_empty() {
        return "; a focused outline, no definition in full".to_owned();
    }
    // Overloads and macro-made definitions (`TEST(…)`) share a name.
    let mut distinct: Vec<&str> = Vec::new();
    for name in shown {
        if !distinct.contains(&name.as_str()) {
            distinct.push(name);
        }
    }
    let names: Vec<String> = distinct.iter().take(5).map(|n| format!("`{n}`")).collect();
    let more = shown.len() - distinct.len().min(5);
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

/// The report document ([`Packed::report`](crate::Packed::report)) but for its `files` (the records) and its
/// `payload` (the text), which [`Packed::report`](crate::Packed::report)
/// adds when it is read.
pub fn report(
    records: &FileRecords,
    account: &CountAccount,
    payload: &HybridPayload<'_, Item>,
    budget: u64,
    counter: &Counting<'_>,
) -> serde_json::Value {
    let mut counts = records.tally.json("packed");
    counts["omitted"] = records.omitted.into();
    json!({
        "budget": budget,
        "counter": counter.name().to_owned(),
        "exact": counter.is_exact(),
        "format": payload.format().to_string(),
        "payload_tokens": payload.rendered_tokens(),
        "meta": meta(payload),
        "fingerprint": fingerprint(payload),
        "material_tokens": records.material_tokens,
        "material_tokens_exact": records.material_exact,
        "counting": account.json(),
        "git": records.git,
        "counts": counts,
    })
}

/// The payload's tier figures (its META section's numbers): tokens used,
/// the tier's limit, and items, per tier (RAW and SKELETON share one
/// limit).
fn meta(payload: &HybridPayload<'_, Item>) -> serde_json::Value {
    let tally = payload.tally();
    let tier = |tier: Tier| {
        let t = tally.tier(tier);
        json!({ "used": t.used, "limit": t.limit, "items": payload.in_tier(tier).count() })
    };
    json!({
        "RAW": tier(Tier::Raw),
        "SKELETON": tier(Tier::Skeleton),
        "LINKED": tier(Tier::Linked),
        "SUMMARY": tier(Tier::Summary),
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

/// The summary lines: `packed` counts the files that appear in the
/// payload; files read but left out for room are `omitted`.
pub fn summary(
    records: &FileRecords,
    payload: &HybridPayload<'_, Item>,
    tokens: u64,
    budget: u64,
    counter: &Counting<'_>,
) -> Vec<String> {
    // Files only: the git sections have their own lines.
    let files_in = |tier: Tier| {
        let git = records
            .git
            .iter()
            .filter(|g| g["tier"].as_str() == Some(tier.name()))
            .count();
        payload.in_tier(tier).count() - git
    };
    let kind = if counter.is_exact() {
        "exact"
    } else {
        "estimated"
    };
    let tally = &records.tally;
    let mut lines = vec![format!(
        "packed {} of {} files: RAW {}, SKELETON {}, LINKED {}, SUMMARY {}; omitted (no room) {}; skipped: {tally}",
        tally.counted,
        tally.inputs() + records.omitted,
        files_in(Tier::Raw),
        files_in(Tier::Skeleton),
        files_in(Tier::Linked),
        files_in(Tier::Summary),
        records.omitted,
    )];
    if records.redacted.0 > 0 {
        lines.push(format!(
            "secrets: {} redacted in {} files",
            records.redacted.0, records.redacted.1
        ));
    }
    for section in &records.git {
        lines.push(format!(
            "git: {} {}",
            section["source"].as_str().unwrap_or_default(),
            section["tier"].as_str().unwrap_or("OMITTED (no room)"),
        ));
    }
    lines.push(format!(
        "payload: {tokens} tokens ({kind}, {}) of a {budget}-token budget",
        counter.label(),
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::focused_reason;

    #[test]
    fn a_focused_reason_names_each_definition_once() {
        let shown: Vec<String> = ["TEST", "TEST", "parse", "TEST"].map(String::from).to_vec();
        assert_eq!(
            focused_reason(&shown),
            "; a focused outline with `TEST`, `parse` in full and 2 more"
        );
        assert_eq!(
            focused_reason(&[]),
            "; a focused outline, no definition in full"
        );
    }
}
