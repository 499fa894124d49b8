//! Code generation, one file per macro.

mod bound;
pub(crate) mod context_item;
