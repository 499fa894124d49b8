//! The integration tests of the `budget` binary, one module per command,
//! linked into one test binary. Each test runs the built binary.

mod common;

mod check;
mod config;
mod count;
mod exit_codes;
#[cfg(feature = "git")]
mod git;
#[cfg(feature = "mcp")]
mod mcp;
#[cfg(feature = "mcp")]
mod mcp_sdk;
mod model;
mod pack;
#[cfg(all(feature = "exact", feature = "tree-sitter"))]
mod pack_props;
#[cfg(feature = "tree-sitter")]
mod skeleton;
mod skips;
mod untrusted;
