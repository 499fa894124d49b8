//! How far `o200k_base` is from each open-model tokenizer, per language:
//! the error of counting with `o200k_base` when the model's own tokenizer
//! file is not at hand, and the factor that covers it (the `margin` of the
//! built-in profiles). Reads the reference counts `scripts/references.sh`
//! writes (`target/references/counts.jsonl`); prints a Markdown table.
//!
//! `cargo run --release -p budget-differential --example family_error`

use std::collections::BTreeMap;

use budget_runtime::estimate::{Encoding, ExactCounter, TokenCounter};

fn main() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../target/references/counts.jsonl"
    );
    let data = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}: run scripts/references.sh first"));
    let o200k = ExactCounter::new(Encoding::O200kBase).expect("o200k compiled in");
    // family -> group -> ratios (reference / o200k)
    let mut ratios: BTreeMap<String, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    for line in data.lines() {
        let sample: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let name = sample["name"].as_str().unwrap_or_default();
        let group = group_of(name);
        let estimate = o200k.count_tokens(sample["text"].as_str().unwrap_or_default());
        if estimate < 20 {
            continue; // ratios of tiny samples say nothing
        }
        for (family, count) in sample["counts"].as_object().into_iter().flatten() {
            let reference = count.as_u64().unwrap_or(0) as f64;
            ratios
                .entry(family.clone())
                .or_default()
                .entry(group.clone())
                .or_default()
                .push(reference / estimate as f64);
        }
    }
    println!("| tokenizer | text | samples | o200k error, mean | worst | factor that covers it |");
    println!("|---|---|---|---|---|---|");
    for (family, groups) in &ratios {
        let mut cover: f64 = 0.0;
        for (group, values) in groups {
            let mean = values.iter().map(|r| 1.0 / r - 1.0).sum::<f64>() / values.len() as f64;
            let worst = values
                .iter()
                .map(|r| 1.0 / r - 1.0)
                .fold(0.0, |w: f64, e| if e.abs() > w.abs() { e } else { w });
            let max = values.iter().copied().fold(0.0, f64::max);
            if group != "random" {
                cover = cover.max(max);
            }
            println!(
                "| {family} | {group} | {} | {:+.1}% | {:+.1}% | {max:.2} |",
                values.len(),
                mean * 100.0,
                worst * 100.0
            );
        }
        println!("| {family} | **all real text** | | | | **{cover:.2}** |");
    }
}

/// The language or kind of a sample, from its name.
fn group_of(name: &str) -> String {
    let mut parts = name.split('/');
    match (parts.next(), parts.next()) {
        (Some("multilingual"), Some(sample)) => {
            sample.split('-').next().unwrap_or(sample).to_owned()
        }
        (Some("corpus"), Some("prose")) => "en".to_owned(),
        (Some("corpus"), Some(kind)) => kind.to_owned(),
        (Some(other), _) => other.to_owned(),
        _ => name.to_owned(),
    }
}
