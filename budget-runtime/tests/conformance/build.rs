//! Builds scorers, slicers and placers from a vector's configuration.

use budget_runtime::placer::ChronologicalPlacer;
use budget_runtime::scorer::{PriorityScorer, RecencyScorer};
use budget_runtime::slicer::GreedySlicer;
use budget_runtime::{Placer, Scorer, Slicer};
use toml::value::Table;

use super::vector::Outcome;

/// A scorer of type `kind`, configured from `config` (the `[config]` table
/// of a scoring vector, or one `[[config.scorers]]` entry).
pub fn scorer(kind: &str, config: &Table) -> Outcome<Box<dyn Scorer>> {
    let _ = config;
    Ok(match kind {
        "recency" => Box::new(RecencyScorer::new()),
        "priority" => Box::new(PriorityScorer::new()),
        other => return Err(format!("unsupported scorer type {other:?}")),
    })
}

/// A slicer of type `kind`, configured from `config`.
pub fn slicer(kind: &str, config: &Table) -> Outcome<Box<dyn Slicer>> {
    let _ = config;
    Ok(match kind {
        "greedy" => Box::new(GreedySlicer::new()),
        other => return Err(format!("unsupported slicer type {other:?}")),
    })
}

/// A placer of type `kind`.
pub fn placer(kind: &str) -> Outcome<Box<dyn Placer>> {
    Ok(match kind {
        "chronological" => Box::new(ChronologicalPlacer::new()),
        other => return Err(format!("unsupported placer type {other:?}")),
    })
}

/// The scorer of a pipeline vector: its `[[config.scorers]]` entries,
/// combined by weight when there is more than one.
pub fn pipeline_scorer(config: &Table) -> Outcome<Box<dyn Scorer>> {
    let entries = super::vector::array_of_tables(config, "scorers");
    match entries.as_slice() {
        [] => Err("pipeline vector without [[config.scorers]]".into()),
        [single] => scorer(super::vector::string(single, "type")?, single),
        _ => scorer("composite", config),
    }
}
