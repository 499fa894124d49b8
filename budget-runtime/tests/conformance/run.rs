//! Runs one vector of each stage and compares with its expectations.

use std::collections::BTreeSet;

use budget_runtime::{
    ContextBudget, ContextItem, Item, Pipeline,
    model::{EffectiveBudget, ScoredItem},
    pipeline::{ExclusionReason, InclusionReason, OverflowStrategy},
    scorer::Scorer,
};
use toml::value::Table;

use super::build;
use super::vector::{self as v, Outcome};

const DEFAULT_EPSILON: f64 = 1e-9;

/// Runs a vector given as TOML text.
pub fn run_vector(text: &str) -> Outcome<()> {
    let doc: Table = toml::from_str(text).map_err(|e| format!("invalid TOML: {e}"))?;
    let test = v::table(&doc, "test")?;
    match v::string(test, "stage")? {
        "scoring" => scoring(&doc, test),
        "slicing" => slicing(&doc, test),
        "placing" => placing(&doc, test),
        "pipeline" => pipeline(&doc),
        other => Err(format!("unknown stage {other:?}")),
    }
}

fn epsilon(doc: &Table) -> f64 {
    v::opt_table(doc, "tolerance")
        .and_then(|t| v::opt_float(t, "score_epsilon"))
        .unwrap_or(DEFAULT_EPSILON)
}

fn items(doc: &Table, key: &str) -> Outcome<Vec<Item>> {
    v::array_of_tables(doc, key)
        .into_iter()
        .map(v::item)
        .collect()
}

fn close(actual: f64, expected: f64, epsilon: f64) -> bool {
    (actual - expected).abs() < epsilon || actual == expected
}

fn scoring(doc: &Table, test: &Table) -> Outcome<()> {
    let empty = Table::new();
    let config = v::opt_table(doc, "config").unwrap_or(&empty);
    let built = build::scorer(v::string(test, "scorer")?, config);
    if v::opt_bool(test, "expect_construction_error") == Some(true) {
        return match built {
            Err(_) => Ok(()),
            Ok(s) => Err(format!("expected a construction error, got {s:?}")),
        };
    }
    let scorer: Box<dyn Scorer> = built?;
    let items = items(doc, "items")?;
    let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
    let scores = scorer.scores(&views);
    let eps = epsilon(doc);
    for expected in v::array_of_tables(doc, "expected") {
        let content = v::string(expected, "content")?;
        let want = v::float(expected, "score_approx")?;
        let pos = items
            .iter()
            .position(|i| i.content() == content)
            .ok_or_else(|| format!("expected item {content:?} not among the items"))?;
        if !close(scores[pos], want, eps) {
            return Err(format!(
                "{content:?}: score {} but expected {want}",
                scores[pos]
            ));
        }
    }
    Ok(())
}

fn slicing(doc: &Table, test: &Table) -> Outcome<()> {
    let empty = Table::new();
    let config = v::opt_table(doc, "config").unwrap_or(&empty);
    let slicer = build::slicer(v::string(test, "slicer")?, config)?;
    let budget = v::table(doc, "budget")?;
    let target = v::count(budget, "target_tokens")?;
    let effective = EffectiveBudget {
        max_tokens: v::opt_count(budget, "max_tokens")?.unwrap_or(target),
        target_tokens: target,
    };
    let tables = v::array_of_tables(doc, "scored_items");
    let items = items(doc, "scored_items")?;
    let mut sorted = Vec::with_capacity(items.len());
    for (index, (item, t)) in items.iter().zip(&tables).enumerate() {
        sorted.push(ScoredItem::new(item, index, v::float(t, "score")?));
    }
    // Slicers receive candidates sorted by score (stable).
    sorted.sort_by(|a, b| budget_runtime::model::descending_score(a.score, b.score));
    let outcome = slicer
        .slice(&sorted, effective)
        .map_err(|e| format!("slicer error: {e}"))?;
    let chosen: BTreeSet<String> = outcome
        .selected
        .iter()
        .map(|&pos| sorted[pos].item.content().into_owned())
        .collect();
    let expected_table = v::table(doc, "expected")?;
    let expected: BTreeSet<String> = v::strings(expected_table, "selected_contents")
        .into_iter()
        .collect();
    if chosen != expected {
        return Err(format!("selected {chosen:?}, expected {expected:?}"));
    }
    if let Some(want) = v::opt_int(expected_table, "shortfall_count") {
        let got = outcome.shortfalls.len() as i64;
        if got != want {
            return Err(format!("shortfall_count {got}, expected {want}"));
        }
    }
    if let Some(want) = v::opt_int(expected_table, "cap_excluded_count") {
        let got = outcome.cap_excluded.len() as i64;
        if got != want {
            return Err(format!("cap_excluded_count {got}, expected {want}"));
        }
    }
    Ok(())
}

fn placing(doc: &Table, test: &Table) -> Outcome<()> {
    let placer = build::placer(v::string(test, "placer")?)?;
    let tables = v::array_of_tables(doc, "items");
    let items = items(doc, "items")?;
    let mut merged = Vec::with_capacity(items.len());
    for (index, (item, t)) in items.iter().zip(&tables).enumerate() {
        merged.push(ScoredItem::new(item, index, v::float(t, "score")?));
    }
    let order = placer.place(&merged);
    let got: Vec<String> = order
        .iter()
        .map(|&pos| merged[pos].item.content().into_owned())
        .collect();
    let want = v::strings(v::table(doc, "expected")?, "ordered_contents");
    if got != want {
        return Err(format!("placed {got:?}, expected {want:?}"));
    }
    Ok(())
}

fn overflow_strategy(name: Option<&str>) -> Outcome<OverflowStrategy> {
    Ok(match name.unwrap_or("throw") {
        "throw" => OverflowStrategy::Throw,
        "truncate" => OverflowStrategy::Truncate,
        "proceed" => OverflowStrategy::Proceed,
        other => return Err(format!("unknown overflow_strategy {other:?}")),
    })
}

fn pipeline(doc: &Table) -> Outcome<()> {
    let budget_table = v::table(doc, "budget")?;
    let budget = ContextBudget::builder(
        v::count(budget_table, "max_tokens")?,
        v::count(budget_table, "target_tokens")?,
    )
    .output_reserve(v::opt_count(budget_table, "output_reserve")?.unwrap_or(0))
    .build()
    .map_err(|e| format!("budget: {e}"))?;
    let config = v::table(doc, "config")?;
    let pipeline = Pipeline::builder()
        .scorer(build::pipeline_scorer(config)?)
        .slicer(build::slicer(v::string(config, "slicer")?, config)?)
        .placer(build::placer(v::string(config, "placer")?)?)
        .deduplicate(v::opt_bool(config, "deduplication").unwrap_or(true))
        .overflow_strategy(overflow_strategy(v::opt_string(
            config,
            "overflow_strategy",
        ))?)
        .build();
    let items = items(doc, "items")?;
    let selection = pipeline
        .run(&items, &budget)
        .map_err(|e| format!("pipeline error: {e}"))?;
    let got: Vec<String> = selection
        .items()
        .iter()
        .map(|i| i.content().into_owned())
        .collect();
    let want: Vec<String> = v::array_of_tables(doc, "expected_output")
        .into_iter()
        .map(|t| v::string(t, "content").map(str::to_owned))
        .collect::<Outcome<_>>()?;
    if got != want {
        return Err(format!("output {got:?}, expected {want:?}"));
    }
    if let Some(diagnostics) =
        v::opt_table(doc, "expected").and_then(|e| v::opt_table(e, "diagnostics"))
    {
        check_diagnostics(diagnostics, &items, selection.report(), epsilon(doc))?;
    }
    Ok(())
}

fn check_diagnostics(
    expected: &Table,
    items: &[Item],
    report: &budget_runtime::pipeline::SelectionReport,
    eps: f64,
) -> Outcome<()> {
    let content = |index: usize| items[index].content().into_owned();
    if let Some(summary) = v::opt_table(expected, "summary") {
        let candidates = v::opt_int(summary, "total_candidates");
        if candidates.is_some_and(|want| report.total_candidates as i64 != want) {
            return Err(format!(
                "total_candidates {} expected {candidates:?}",
                report.total_candidates
            ));
        }
        let tokens = v::opt_int(summary, "total_tokens_considered");
        if tokens.is_some_and(|want| report.total_tokens_considered != i128::from(want)) {
            return Err(format!(
                "total_tokens_considered {} expected {tokens:?}",
                report.total_tokens_considered
            ));
        }
    }
    let included = v::array_of_tables(expected, "included");
    if !included.is_empty() {
        if included.len() != report.included.len() {
            return Err(format!(
                "{} included, expected {}",
                report.included.len(),
                included.len()
            ));
        }
        for (want, got) in included.iter().zip(&report.included) {
            let name = content(got.index);
            if name != v::string(want, "content")? {
                return Err(format!(
                    "included {name:?} where {:?} was expected",
                    v::string(want, "content")?
                ));
            }
            if let Some(score) = v::opt_float(want, "score_approx")
                && !close(got.score, score, eps)
            {
                return Err(format!(
                    "included {name:?} score {} expected {score}",
                    got.score
                ));
            }
            if let Some(reason) = v::opt_string(want, "inclusion_reason") {
                let actual = match got.reason {
                    InclusionReason::Scored => "Scored",
                    InclusionReason::Pinned => "Pinned",
                    InclusionReason::ZeroToken => "ZeroToken",
                    other => {
                        return Err(format!(
                            "included {name:?} reason {other:?} unknown to the vectors"
                        ));
                    }
                };
                if actual != reason {
                    return Err(format!(
                        "included {name:?} reason {actual} expected {reason}"
                    ));
                }
            }
        }
    }
    let excluded = v::array_of_tables(expected, "excluded");
    if !excluded.is_empty() && excluded.len() != report.excluded.len() {
        return Err(format!(
            "{} excluded, expected {}",
            report.excluded.len(),
            excluded.len()
        ));
    }
    for (want, got) in excluded.iter().zip(&report.excluded) {
        let name = content(got.index);
        if name != v::string(want, "content")? {
            return Err(format!(
                "excluded {name:?} where {:?} was expected",
                v::string(want, "content")?
            ));
        }
        if let Some(score) = v::opt_float(want, "score_approx")
            && !close(got.score, score, eps)
        {
            return Err(format!(
                "excluded {name:?} score {} expected {score}",
                got.score
            ));
        }
        let reason = v::opt_string(want, "exclusion_reason").unwrap_or_default();
        let matches = match &got.reason {
            ExclusionReason::BudgetExceeded {
                item_tokens,
                available_tokens,
            } => {
                reason == "BudgetExceeded"
                    && v::opt_int(want, "item_tokens")
                        .is_none_or(|w| i128::from(w) == i128::from(*item_tokens))
                    && v::opt_int(want, "available_tokens")
                        .is_none_or(|w| i128::from(w) == i128::from(*available_tokens))
            }
            ExclusionReason::Deduplicated {
                deduplicated_against,
            } => {
                reason == "Deduplicated"
                    && v::opt_string(want, "deduplicated_against")
                        .is_none_or(|w| w == content(*deduplicated_against))
            }
            ExclusionReason::NegativeTokens { tokens } => {
                reason == "NegativeTokens"
                    && v::opt_int(want, "tokens").is_none_or(|w| w == *tokens)
            }
            ExclusionReason::PinnedOverride { displaced_by } => {
                reason == "PinnedOverride"
                    && v::opt_string(want, "displaced_by")
                        .is_none_or(|w| w == content(*displaced_by))
            }
            other => {
                return Err(format!(
                    "excluded {name:?} with unexpected reason {other:?}"
                ));
            }
        };
        if !matches {
            return Err(format!(
                "excluded {name:?} with {:?}, expected {reason} {want:?}",
                got.reason
            ));
        }
    }
    Ok(())
}
