//! Messages and tool definitions in OpenAI's chat wire format: a request
//! read and written back is the same JSON value, nested parameter schemas
//! included; what cannot be kept is an error, never dropped.
#![cfg(feature = "serde")]

use budget_prompt::chat::{Message, Role, SUMMARY_HEADER, ToolCall, ToolDefinition};
use serde_json::{Value, json};

/// The `messages` and `tools` of a chat completion request as an agent
/// sends it: a system prompt, a user turn, an assistant turn that calls two
/// tools (no text: `content` is null), their results, and tools whose
/// schemas nest objects in arrays, use enums, `$defs` and `$ref`, and a
/// tool without parameters.
fn request() -> Value {
    json!({
        "messages": [
            {"role": "system", "content": "You are a coding agent. Use the tools."},
            {"role": "user", "content": "Rename `fit` to `fit_prompt` in src/prompt.rs.", "name": "ann"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_a1", "type": "function",
                 "function": {"name": "read_file", "arguments": "{\"path\":\"src/prompt.rs\"}"}},
                {"id": "call_a2", "type": "function",
                 "function": {"name": "list_dir", "arguments": "{}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_a1", "content": "pub fn fit() {}"},
            {"role": "tool", "tool_call_id": "call_a2", "content": "src/\nCargo.toml"},
            {"role": "assistant", "content": "Done: one occurrence renamed."}
        ],
        "tools": [
            {"type": "function", "function": {
                "name": "edit_file",
                "description": "Apply edits to a file.",
                "strict": true,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "path": {"type": "string", "description": "Relative path."},
                        "edits": {"type": "array", "items": {"$ref": "#/$defs/edit"}},
                        "mode": {"type": "string", "enum": ["replace", "insert"]}
                    },
                    "required": ["path", "edits", "mode"],
                    "additionalProperties": false,
                    "$defs": {"edit": {"type": "object", "properties": {
                        "line": {"type": "integer", "minimum": 1},
                        "text": {"type": ["string", "null"]}
                    }, "required": ["line", "text"], "additionalProperties": false}}
                }
            }},
            {"type": "function", "function": {"name": "list_dir"}}
        ]
    })
}

#[test]
fn a_request_round_trips_to_the_same_json() {
    let request = request();
    let messages: Vec<Message> = serde_json::from_value(request["messages"].clone()).unwrap();
    let tools: Vec<ToolDefinition> = serde_json::from_value(request["tools"].clone()).unwrap();

    assert_eq!(messages.len(), 6);
    assert_eq!(messages[1].name.as_deref(), Some("ann"));
    assert_eq!(messages[2].content, "");
    assert_eq!(
        messages[2].tool_calls,
        [
            ToolCall::new("call_a1", "read_file", r#"{"path":"src/prompt.rs"}"#),
            ToolCall::new("call_a2", "list_dir", "{}"),
        ]
    );
    assert_eq!(messages[3].role, Role::Tool);
    assert_eq!(messages[3].tool_call_id.as_deref(), Some("call_a1"));
    assert_eq!(tools[0].strict, Some(true));
    assert_eq!(
        tools[0].parameters["$defs"]["edit"]["properties"]["line"]["minimum"],
        1
    );
    assert_eq!(tools[1].parameters, Value::Null);

    let written = json!({
        "messages": serde_json::to_value(&messages).unwrap(),
        "tools": serde_json::to_value(&tools).unwrap(),
    });
    assert_eq!(written, request);
}

#[test]
fn text_parts_are_joined_and_other_parts_are_errors() {
    let parts: Message = serde_json::from_value(json!({"role": "user", "content": [
        {"type": "text", "text": "Look at "},
        {"type": "text", "text": "this."}
    ]}))
    .unwrap();
    assert_eq!(parts.content, "Look at this.");

    let image = serde_json::from_value::<Message>(json!({"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
    ]}));
    let error = image.unwrap_err().to_string();
    assert!(
        error.contains("content part of type `image_url`"),
        "{error}"
    );
}

#[test]
fn unknown_fields_are_errors_not_silent_loss() {
    for message in [
        json!({"role": "assistant", "content": "hi", "refusal": "no"}),
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}", "extra": 1}}
        ]}),
    ] {
        let error = serde_json::from_value::<Message>(message)
            .unwrap_err()
            .to_string();
        assert!(error.contains("unknown field"), "{error}");
    }
    let tool =
        json!({"type": "function", "function": {"name": "f", "parameters": {}, "examples": []}});
    assert!(serde_json::from_value::<ToolDefinition>(tool).is_err());
}

#[test]
fn a_compaction_summary_stays_reference_only_through_json() {
    let summary = Message::user(format!("{SUMMARY_HEADER}The user asked for a rename."))
        .with_reference_only(true);
    let json = serde_json::to_value(&summary).unwrap();
    assert_eq!(
        json.as_object().unwrap().len(),
        2,
        "no library field on the wire: {json}"
    );
    let back: Message = serde_json::from_value(json).unwrap();
    assert_eq!(back, summary);
    let plain: Message = serde_json::from_value(json!({"role": "user", "content": "hi"})).unwrap();
    assert!(!plain.reference_only);
}
