//! The pack engine through its public API.

mod invariants;
mod secrets;
// Outlines need the grammars.
#[cfg(feature = "tree-sitter")]
mod oversized;
