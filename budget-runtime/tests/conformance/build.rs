//! Builds scorers, slicers and placers from a vector's configuration: every
//! type and configuration key of the specification's vector format.

use std::time::Duration;

use budget_runtime::placer::{ChronologicalPlacer, UShapedPlacer};
use budget_runtime::scorer::{
    CompositeScorer, DecayCurve, DecayScorer, FrequencyScorer, KindScorer, MetadataKeyScorer,
    MetadataTrustScorer, PriorityScorer, RecencyScorer, ReflexiveScorer, ScaledScorer, TagScorer,
};
use budget_runtime::slicer::{
    CountConstrainedKnapsackSlicer, CountQuotaEntry, CountQuotaSlicer, GreedySlicer,
    KnapsackSlicer, QuotaEntry, QuotaSlicer, ScarcityBehavior,
};
use budget_runtime::{placer::Placer, scorer::Scorer, slicer::Slicer};
use toml::value::Table;

use super::vector::{self as v, Outcome};

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn seconds(t: &Table, key: &str) -> Outcome<Duration> {
    let secs = v::float(t, key)?;
    Duration::try_from_secs_f64(secs).map_err(|e| format!("`{key}` = {secs}: {e}"))
}

/// Weighted children from `[[...scorers]]` entries (`type`, `weight`, and
/// for nested composites `children`).
fn children(entries: &[&Table]) -> Outcome<Vec<(Box<dyn Scorer>, f64)>> {
    entries
        .iter()
        .map(|entry| {
            let kind = v::string(entry, "type")?;
            let weight = v::opt_float(entry, "weight").unwrap_or(1.0);
            let child = if kind == "composite" {
                let nested = v::array_of_tables(entry, "children");
                Box::new(CompositeScorer::new(children(&nested)?).map_err(err)?) as Box<dyn Scorer>
            } else {
                scorer(kind, entry)?
            };
            Ok((child, weight))
        })
        .collect()
}

fn decay_curve(config: &Table) -> Outcome<DecayCurve> {
    let curve = v::table(config, "curve")?;
    match v::string(curve, "type")? {
        "exponential" => DecayCurve::exponential(seconds(curve, "half_life_secs")?).map_err(err),
        "window" => DecayCurve::window(seconds(curve, "max_age_secs")?).map_err(err),
        "step" => {
            let windows = v::array_of_tables(curve, "windows")
                .into_iter()
                .map(|w| Ok((seconds(w, "max_age_secs")?, v::float(w, "score")?)))
                .collect::<Outcome<Vec<_>>>()?;
            DecayCurve::step(windows).map_err(err)
        }
        other => Err(format!("unknown decay curve {other:?}")),
    }
}

/// A scorer of type `kind`, configured from `config` (the `[config]` table
/// of a scoring vector, or one `[[config.scorers]]` entry).
pub fn scorer(kind: &str, config: &Table) -> Outcome<Box<dyn Scorer>> {
    Ok(match kind {
        "recency" => Box::new(RecencyScorer::new()),
        "priority" => Box::new(PriorityScorer::new()),
        "reflexive" => Box::new(ReflexiveScorer::new()),
        "frequency" => Box::new(FrequencyScorer::new()),
        "kind" => {
            let custom = v::array_of_tables(config, "weights");
            if v::opt_bool(config, "use_default_weights").unwrap_or(custom.is_empty()) {
                Box::new(KindScorer::new())
            } else {
                let weights = custom
                    .into_iter()
                    .map(|w| Ok((v::kind(v::string(w, "kind")?)?, v::float(w, "weight")?)))
                    .collect::<Outcome<Vec<_>>>()?;
                Box::new(KindScorer::with_weights(weights).map_err(err)?)
            }
        }
        "tag" => {
            let weights = v::array_of_tables(config, "tag_weights")
                .into_iter()
                .map(|w| Ok((v::string(w, "tag")?.to_owned(), v::float(w, "weight")?)))
                .collect::<Outcome<Vec<_>>>()?;
            Box::new(TagScorer::new(weights).map_err(err)?)
        }
        "composite" => {
            let entries = v::array_of_tables(config, "scorers");
            Box::new(CompositeScorer::new(children(&entries)?).map_err(err)?)
        }
        "scaled" => {
            let inner = scorer(v::string(config, "inner_scorer")?, config)?;
            Box::new(ScaledScorer::new(inner))
        }
        "metadata_trust" => {
            let default = v::opt_float(config, "default_score").unwrap_or(0.5);
            let mut built = MetadataTrustScorer::new(default).map_err(err)?;
            if let Some(key) = v::opt_string(config, "key") {
                built = built.with_key(key.to_owned());
            }
            Box::new(built)
        }
        "metadata_key" => Box::new(
            MetadataKeyScorer::new(
                v::string(config, "key")?,
                v::string(config, "value")?,
                v::float(config, "boost")?,
            )
            .map_err(err)?,
        ),
        "decay" => {
            let reference = v::opt_timestamp(config, "reference_time")?
                .ok_or("decay scorer needs `reference_time`")?;
            let mut built = DecayScorer::new(reference, decay_curve(config)?);
            if let Some(score) = v::opt_float(config, "null_timestamp_score") {
                built = built.with_null_timestamp_score(score).map_err(err)?;
            }
            Box::new(built)
        }
        other => return Err(format!("unsupported scorer type {other:?}")),
    })
}

fn scarcity(config: &Table) -> Outcome<ScarcityBehavior> {
    match v::opt_string(config, "scarcity_behavior").unwrap_or("degrade") {
        "degrade" => Ok(ScarcityBehavior::Degrade),
        "throw" => Ok(ScarcityBehavior::Throw),
        other => Err(format!("unknown scarcity_behavior {other:?}")),
    }
}

fn count_entries(config: &Table) -> Outcome<Vec<CountQuotaEntry>> {
    v::array_of_tables(config, "entries")
        .into_iter()
        .map(|e| {
            let count = |key: &str| -> Outcome<usize> {
                let n = v::opt_int(e, key).unwrap_or(0);
                usize::try_from(n).map_err(|_| format!("`{key}` = {n} must be >= 0"))
            };
            let cap = match v::opt_int(e, "cap_count") {
                Some(_) => count("cap_count")?,
                None => usize::MAX,
            };
            CountQuotaEntry::new(
                v::kind(v::string(e, "kind")?)?,
                count("require_count")?,
                cap,
            )
            .map_err(err)
        })
        .collect()
}

fn knapsack(config: &Table) -> Outcome<KnapsackSlicer> {
    match v::opt_count(config, "bucket_size")? {
        Some(size) => KnapsackSlicer::new(size).map_err(err),
        None => Ok(KnapsackSlicer::default()),
    }
}

/// A slicer of type `kind`, configured from `config`.
pub fn slicer(kind: &str, config: &Table) -> Outcome<Box<dyn Slicer>> {
    Ok(match kind {
        "greedy" => Box::new(GreedySlicer::new()),
        "knapsack" => Box::new(knapsack(config)?),
        "quota" => {
            let inner = slicer(
                v::opt_string(config, "inner_slicer").unwrap_or("greedy"),
                config,
            )?;
            let quotas = v::array_of_tables(config, "quotas")
                .into_iter()
                .map(|q| {
                    QuotaEntry::new(
                        v::kind(v::string(q, "kind")?)?,
                        v::opt_float(q, "require").unwrap_or(0.0),
                        v::opt_float(q, "cap").unwrap_or(100.0),
                    )
                    .map_err(err)
                })
                .collect::<Outcome<Vec<_>>>()?;
            Box::new(QuotaSlicer::new(quotas, inner).map_err(err)?)
        }
        "count_quota" => {
            let inner = slicer(
                v::opt_string(config, "inner_slicer").unwrap_or("greedy"),
                config,
            )?;
            Box::new(
                CountQuotaSlicer::new(count_entries(config)?, inner, scarcity(config)?)
                    .map_err(err)?,
            )
        }
        "count_constrained_knapsack" => Box::new(
            CountConstrainedKnapsackSlicer::new(
                count_entries(config)?,
                knapsack(config)?,
                scarcity(config)?,
            )
            .map_err(err)?,
        ),
        other => return Err(format!("unsupported slicer type {other:?}")),
    })
}

/// A placer of type `kind`.
pub fn placer(kind: &str) -> Outcome<Box<dyn Placer>> {
    Ok(match kind {
        "chronological" => Box::new(ChronologicalPlacer::new()),
        "u-shaped" | "u_shaped" | "ushaped" => Box::new(UShapedPlacer::new()),
        other => return Err(format!("unsupported placer type {other:?}")),
    })
}

/// The scorer of a pipeline vector: its `[[config.scorers]]` entries,
/// combined by weight when there is more than one.
pub fn pipeline_scorer(config: &Table) -> Outcome<Box<dyn Scorer>> {
    let entries = v::array_of_tables(config, "scorers");
    match entries.as_slice() {
        [] => Err("pipeline vector without [[config.scorers]]".into()),
        [single] if v::string(single, "type")? != "composite" => {
            scorer(v::string(single, "type")?, single)
        }
        _ => scorer("composite", config),
    }
}
