//! The pack engine through its public API.

mod invariants;
// Outlines need the grammars.
#[cfg(feature = "tree-sitter")]
mod oversized;
