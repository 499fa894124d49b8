//! Code generation, one module per macro.

mod bound;
pub mod budget;
pub(crate) mod context_item;
