//! The pack engine through its public API.

mod invariants;
mod oversized;
