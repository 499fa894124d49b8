//! The compile-time behaviour of `budget!` and `#[derive(ContextItem)]`,
//! checked with trybuild (`tests/ui.rs`, cases in `tests/ui/`).
//!
//! Unpublished. A crate of its own so that trybuild builds the facade with
//! only what the cases need (the facade and, with the `chrono` feature, its
//! timestamps), not every feature and dev-dependency of the workspace.
