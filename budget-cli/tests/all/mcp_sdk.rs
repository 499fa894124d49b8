//! `budget mcp` driven by the official MCP Python SDK
//! (`scripts/mcp_client.py`, installed by `scripts/references.sh`): the
//! SDK's own negotiation, roots, tool listing, calls, and refusals.

use std::path::Path;
use std::process::Command;

use crate::common::project;

#[test]
fn the_python_sdk_connects_packs_and_is_refused_outside_the_root() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let python = workspace.join("target/references/venv/bin/python");
    assert!(
        python.exists(),
        "run scripts/references.sh first: it installs the MCP Python SDK"
    );
    let dir = project();
    let output = Command::new(python)
        .arg(workspace.join("scripts/mcp_client.py"))
        .arg(env!("CARGO_BIN_EXE_budget"))
        .arg(dir.path())
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(seen["tools"], serde_json::json!(["check", "count", "pack"]));
    assert_eq!(seen["failures"], serde_json::json!([]));
    assert!(
        seen["outside"]
            .as_str()
            .unwrap()
            .contains("outside the sandbox")
    );
}
