//! Procedural macros of the `budget` crate. Use them through `budget`.
