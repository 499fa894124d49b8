//! `budget mcp`, driven end to end by the official SDK's client over the
//! binary's stdin and stdout.

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::transport::TokioChildProcess;
use serde_json::json;

use crate::common::project;

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

fn arguments(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    value.as_object().unwrap().clone()
}

#[tokio::test(flavor = "current_thread")]
async fn tools_run_the_commands_with_their_exit_semantics() {
    let dir = project();
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_budget"));
    command.arg("mcp").current_dir(dir.path());
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();

    let info = client.peer_info().unwrap();
    assert_eq!(info.server_info.name, "budget");
    let mut names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    names.sort();
    assert_eq!(names, ["check", "count", "pack"]);

    // pack: the payload, then the summary; within the budget.
    let packed = client
        .call_tool(
            CallToolRequestParams::new("pack").with_arguments(arguments(json!({
                "budget": "2000", "counter": "ratios", "query": "station"
            }))),
        )
        .await
        .unwrap();
    assert_ne!(packed.is_error, Some(true), "{}", text(&packed));
    let output = text(&packed);
    assert!(output.starts_with("## TREE\n"), "{output}");
    assert!(output.contains("### `src/station.rs`"), "{output}");
    assert!(output.contains("of a 2000-token budget"), "{output}");

    // Exit 2 (a budget below the minimum) is a tool error with its code.
    let below = client
        .call_tool(
            CallToolRequestParams::new("pack").with_arguments(arguments(json!({
                "budget": "10", "counter": "ratios"
            }))),
        )
        .await
        .unwrap();
    assert_eq!(below.is_error, Some(true));
    let message = text(&below);
    assert!(
        message.starts_with("exit code 2: error: --budget 10 is below the minimum"),
        "{message}"
    );

    // Exit 1 (--fail-over exceeded) too.
    let over = client
        .call_tool(
            CallToolRequestParams::new("pack").with_arguments(arguments(json!({
                "counter": "ratios", "args": ["--fail-over", "5"]
            }))),
        )
        .await
        .unwrap();
    assert_eq!(over.is_error, Some(true));
    assert!(text(&over).starts_with("exit code 1: "), "{}", text(&over));

    // count: JSON with every file.
    let counted = client
        .call_tool(
            CallToolRequestParams::new("count").with_arguments(arguments(json!({
                "counter": "ratios", "format": "json", "paths": ["src"]
            }))),
        )
        .await
        .unwrap();
    let output = text(&counted);
    let json_end = output.rfind('}').unwrap() + 1;
    let report: serde_json::Value = serde_json::from_str(&output[..json_end]).unwrap();
    assert_eq!(report["files"].as_array().unwrap().len(), 2, "{report}");

    // check: missing files are input errors.
    let checked = client
        .call_tool(
            CallToolRequestParams::new("check").with_arguments(arguments(json!({
                "model_config": "missing.json", "prompts": "prompts"
            }))),
        )
        .await
        .unwrap();
    assert_eq!(checked.is_error, Some(true));
    assert!(
        text(&checked).starts_with("exit code 2: "),
        "{}",
        text(&checked)
    );

    client.cancel().await.unwrap();
}
