//! Expansion of each macro, one module per macro.

pub mod budget;
