//! The pack engine through its public API.

mod caches;
mod invariants;
mod secrets;
// Outlines need the grammars.
#[cfg(feature = "tree-sitter")]
mod oversized;

/// The report's record of the file at `path`.
fn record<'r>(report: &'r serde_json::Value, path: &str) -> &'r serde_json::Value {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == path)
        .unwrap_or_else(|| panic!("no record of {path}"))
}
