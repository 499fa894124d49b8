//! `budget mcp` driven over raw JSON-RPC on the binary's stdin and stdout:
//! a normal session, and every attack of a hostile client (reading or
//! writing outside the root, oversized results, messages out of order,
//! malformed, batched or nested 10,000 deep) answered with an error and
//! nothing written. `scripts/mcp_client.py` drives the same server with
//! the official Python SDK (`mcp_sdk.rs`).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

use crate::common::project;

/// A running `budget mcp` and its pipes.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Session {
    fn start(dir: &Path, args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_budget"))
            .arg("mcp")
            .args(args)
            .current_dir(dir)
            .env("HF_HUB_CACHE", dir.join(".no-hf-cache"))
            .env("XDG_CONFIG_HOME", dir.join(".no-user-config"))
            .env("BUDGET_CACHE_DIR", crate::common::cache_dir())
            .env_remove("BUDGET_MCP_MAX_RESULT_TOKENS")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("budget mcp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdin,
            stdout,
            next_id: 100,
        }
    }

    /// Starts a session and initializes it (without roots).
    fn initialized(dir: &Path) -> Self {
        let mut session = Self::start(dir, &[]);
        let reply = session.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": { "name": "test", "version": "1" }
            }),
        );
        assert_eq!(reply["result"]["protocolVersion"], "2025-06-18", "{reply}");
        session.send_line(
            &json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }).to_string(),
        );
        session
    }

    fn send_line(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut line = String::new();
        assert!(
            self.stdout.read_line(&mut line).unwrap() > 0,
            "the server closed stdout"
        );
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send_line(
            &json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string(),
        );
        let reply = self.receive();
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request(
            "tools/call",
            json!({ "name": tool, "arguments": arguments }),
        )
    }

    fn close(mut self) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// The text of a tool result, and whether it is an error.
fn text(reply: &Value) -> (String, bool) {
    let result = &reply["result"];
    let text = result["content"]
        .as_array()
        .unwrap_or_else(|| panic!("not a tool result: {reply}"))
        .iter()
        .map(|c| c["text"].as_str().unwrap().to_owned())
        .collect::<Vec<_>>()
        .join("\n");
    (text, result["isError"] == true)
}

#[test]
fn a_session_lists_packs_counts_and_checks() {
    let dir = project();
    let mut session = Session::initialized(dir.path());
    let tools = session.request("tools/list", json!({}));
    let mut names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["check", "count", "pack"]);
    for tool in tools["result"]["tools"].as_array().unwrap() {
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
        assert_eq!(tool["annotations"]["destructiveHint"], false, "{tool}");
        assert_eq!(tool["inputSchema"]["additionalProperties"], false, "{tool}");
    }

    let (output, error) = text(&session.call(
        "pack",
        json!({ "budget": 2000, "counter": "ratios", "query": "station" }),
    ));
    assert!(!error, "{output}");
    assert!(output.starts_with("## TREE\n"), "{output}");
    assert!(output.contains("### `src/station.rs`"), "{output}");
    assert!(output.contains("of a 2000-token budget"), "{output}");

    // Exit 2 (a budget below the minimum) is a tool error with its code.
    let (message, error) =
        text(&session.call("pack", json!({ "budget": "10", "counter": "ratios" })));
    assert!(error);
    assert!(
        message.starts_with(
            "exit code 2: error: --budget: a budget of 10 tokens is below the minimum"
        ),
        "{message}"
    );

    // count over listed files: only those.
    let (output, error) = text(&session.call(
        "count",
        json!({ "files": ["src/station.rs", "README.md"], "format": "json" }),
    ));
    assert!(!error, "{output}");
    let end = output.rfind('}').unwrap() + 1;
    let report: Value = serde_json::from_str(&output[..end]).unwrap();
    let mut paths: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    paths.sort_unstable();
    assert_eq!(paths, ["README.md", "src/station.rs"], "{report}");

    // check: a missing model config is an input error.
    let (message, error) = text(&session.call(
        "check",
        json!({ "model_config": "missing.json", "prompts": "." }),
    ));
    assert!(error);
    assert!(message.starts_with("exit code 2: "), "{message}");
    session.close();
}

#[test]
fn nothing_outside_the_root_is_read_or_written() {
    let outer = tempfile::tempdir().unwrap();
    let root = outer.path().join("root");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "pub fn inside() {}\n").unwrap();
    std::fs::write(outer.path().join("outside.txt"), "OUTSIDE-SECRET-42\n").unwrap();
    std::fs::create_dir_all(outer.path().join("dir")).unwrap();
    std::fs::write(outer.path().join("dir/x.txt"), "OUTSIDE-SECRET-42\n").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outer.path().join("outside.txt"), root.join("link.txt"))
            .unwrap();
        std::os::unix::fs::symlink(outer.path().join("dir"), root.join("linkdir")).unwrap();
    }
    let mut session = Session::initialized(&root);
    for arguments in [
        json!({ "paths": ["/etc"] }),
        json!({ "paths": ["../outside.txt"] }),
        json!({ "paths": ["src/../../outside.txt"] }),
        json!({ "paths": ["link.txt"] }),
        json!({ "paths": ["linkdir"] }),
        json!({ "files": ["../outside.txt"] }),
        json!({ "files": ["/etc/passwd"] }),
        json!({ "files": ["link.txt"] }),
    ] {
        for tool in ["pack", "count"] {
            let reply = session.call(tool, arguments.clone());
            let (message, error) = text(&reply);
            assert!(error, "{tool} {arguments}: {message}");
            assert!(
                !message.contains("OUTSIDE-SECRET") && !message.contains("root:x:"),
                "{message}"
            );
        }
    }
    // Arguments that would choose a file to write or read are not arguments.
    for arguments in [
        json!({ "args": ["-o", "../victim.txt"] }),
        json!({ "output": "../victim.txt" }),
        json!({ "report": "../victim.txt" }),
        json!({ "tokenizer": "/etc/passwd" }),
        json!({ "models": "/etc/passwd" }),
        json!({ "config": "../evil.toml" }),
    ] {
        let reply = session.call("pack", arguments.clone());
        assert_eq!(reply["error"]["code"], -32602, "{arguments}: {reply}");
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("unknown field"),
            "{reply}"
        );
    }
    // check's files too.
    let (message, error) = text(&session.call(
        "check",
        json!({ "model_config": "/etc/passwd", "prompts": "." }),
    ));
    assert!(
        error && message.contains("outside the sandbox"),
        "{message}"
    );
    // Nor can a pipeline inside, through `extends` or a linked file.
    std::fs::create_dir_all(root.join("pipes")).unwrap();
    std::fs::write(
        outer.path().join("base.yaml"),
        "YAMLpipeline: {name: OUTSIDE-SECRET-42, settings: {max_context_tokens: 10}}\n",
    )
    .unwrap();
    std::fs::write(
        root.join("pipes/p.yaml"),
        "YAMLpipeline: {name: p, extends: ../../base.yaml}\n",
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(outer.path().join("base.yaml"), root.join("pipes/q.yaml")).unwrap();
    std::fs::write(root.join("model.json"), r#"{"model_context_window": 8192}"#).unwrap();
    let (message, error) = text(&session.call(
        "check",
        json!({ "pipelines": ["pipes"], "model_config": "model.json", "prompts": ".", "format": "json" }),
    ));
    assert!(error, "{message}");
    assert!(message.contains("outside the sandbox"), "{message}");
    assert!(!message.contains("OUTSIDE-SECRET"), "{message}");
    // A project config cannot steer the tool outside the root either.
    std::fs::write(
        root.join("budget.toml"),
        "[pack]\noutput = \"../victim.txt\"\n",
    )
    .unwrap();
    let (message, error) = text(&session.call("pack", json!({})));
    assert!(
        error && message.contains("may not set `output`"),
        "{message}"
    );
    std::fs::remove_file(root.join("budget.toml")).unwrap();
    // The symlinks inside are not followed by a walk of the root.
    let (output, error) = text(&session.call("pack", json!({ "counter": "ratios" })));
    assert!(!error, "{output}");
    assert!(!output.contains("OUTSIDE-SECRET"), "{output}");
    session.close();
    assert!(!outer.path().join("victim.txt").exists());
}

#[test]
fn results_fit_the_host_and_auto_is_the_largest_that_fits() {
    let dir = project();
    // Enough text that an uncapped budget would return far more.
    for i in 0..40 {
        let body = format!("/// Module {i}.\npub fn f{i}() -> u64 {{ {i} }}\n").repeat(200);
        std::fs::write(dir.path().join(format!("src/m{i}.rs")), body).unwrap();
    }
    let mut session = Session::start(dir.path(), &["--max-result-tokens", "6000"]);
    session.request("initialize", json!({ "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }));
    let refused = session.call("pack", json!({ "budget": 1_000_000 }));
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("ask for at most 3000 tokens"), "{message}");
    let (output, error) = text(&session.call("pack", json!({ "budget": "auto" })));
    assert!(!error, "{output}");
    assert!(output.contains("of a 3000-token budget"), "{output}");
    let tokens = crate::common::o200k(&output);
    assert!(tokens * 3 / 2 <= 6000, "{tokens} o200k tokens");
    // A count whose table would be too large is refused, not truncated.
    let (message, error) = text(&session.call("count", json!({ "format": "json" })));
    assert!(
        !error || message.contains("over this server's limit of 6000"),
        "{message}"
    );
    session.close();
}

#[test]
fn any_message_in_any_order_is_answered_or_ignored() {
    let dir = project();
    let mut session = Session::start(dir.path(), &[]);
    // A call before initialize.
    let reply = session.call("pack", json!({}));
    assert_eq!(reply["error"]["code"], -32002, "{reply}");
    // Unknown notifications are ignored; ping works at any time.
    session.send_line(r#"{"jsonrpc":"2.0","method":"notifications/whatever"}"#);
    assert_eq!(session.request("ping", json!({}))["result"], json!({}));
    // A discovery probe of a newer protocol: method not found.
    assert_eq!(
        session.request("server/discover", json!({}))["error"]["code"],
        -32601
    );
    session.request("initialize", json!({ "protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": { "name": "t", "version": "1" } }));
    // Not JSON, not an object, a batch, a bad version, a null id.
    for (line, code) in [
        ("{not json", -32700),
        ("42", -32600),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, -32600),
        (r#"{"jsonrpc":"1.0","id":5,"method":"ping"}"#, -32600),
        (r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, -32600),
    ] {
        session.send_line(line);
        let reply = session.receive();
        assert_eq!(reply["error"]["code"], code, "{line}: {reply}");
    }
    // 10,000 levels of nesting: answered, with the request's id.
    let deep = format!(
        r#"{{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{{"name":"pack","arguments":{{"query":{}1{}}}}}}}"#,
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    session.send_line(&deep);
    let reply = session.receive();
    assert_eq!(reply["id"], "deep", "{reply}");
    assert!(reply["error"]["code"].is_i64(), "{reply}");
    // A message over the size limit: answered, and the session goes on.
    session.send_line(&"x".repeat(9 * 1024 * 1024));
    assert_eq!(session.receive()["error"]["code"], -32600);
    // Wrong argument types and unknown tools.
    assert_eq!(
        session.call("pack", json!({ "log": "many" }))["error"]["code"],
        -32602
    );
    assert_eq!(session.call("rm", json!({}))["error"]["code"], -32602);
    assert_eq!(
        session.request("tools/call", json!({ "arguments": {} }))["error"]["code"],
        -32602
    );
    assert_eq!(session.request("nope", json!({}))["error"]["code"], -32601);
    // A FIFO is refused, not read (and nothing blocks).
    #[cfg(unix)]
    {
        crate::common::mkfifo(&dir.path().join("pipe"));
        let (message, error) =
            text(&session.call("pack", json!({ "paths": ["pipe"], "counter": "ratios" })));
        assert!(error, "{message}");
        assert!(
            message.contains("special file") || message.contains("FIFO"),
            "{message}"
        );
    }
    // Still alive.
    assert_eq!(session.request("ping", json!({}))["result"], json!({}));
    session.close();
}

#[test]
fn client_roots_narrow_the_root() {
    let dir = project();
    let mut session = Session::start(dir.path(), &[]);
    session.request("initialize", json!({ "protocolVersion": "2025-06-18", "capabilities": { "roots": { "listChanged": true } }, "clientInfo": { "name": "t", "version": "1" } }));
    session.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let ask = session.receive();
    assert_eq!(ask["method"], "roots/list", "{ask}");
    let src = std::fs::canonicalize(dir.path().join("src")).unwrap();
    session.send_line(&json!({ "jsonrpc": "2.0", "id": ask["id"], "result": { "roots": [{ "uri": format!("file://{}", src.display()) }] } }).to_string());
    let (message, error) = text(&session.call("count", json!({ "paths": ["README.md"] })));
    assert!(
        error && message.contains("outside the sandbox"),
        "{message}"
    );
    let (output, error) = text(&session.call("count", json!({ "format": "json" })));
    assert!(!error, "{output}");
    assert!(
        output.contains("station.rs") && !output.contains("README.md"),
        "{output}"
    );
    session.close();
}

/// A hostile client's random session: 300 messages of random methods,
/// versions, ids and argument trees (paths out of the root, huge numbers,
/// NULs, wrong types), with broken and deeply nested lines among them.
/// Every request with an id is answered with that id, nothing of the
/// system leaks, and the server exits cleanly when stdin closes.
#[test]
fn a_random_hostile_session_is_answered_in_full() {
    let dir = project();
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut next = move |n: u64| {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    };
    fn value(next: &mut dyn FnMut(u64) -> u64, depth: u32) -> Value {
        const KEYS: [&str; 12] = [
            "paths",
            "files",
            "budget",
            "query",
            "format",
            "counter",
            "include",
            "log",
            "tree",
            "model_config",
            "prompts",
            "x",
        ];
        match next(if depth > 2 { 6 } else { 8 }) {
            0 => Value::Null,
            1 => json!(true),
            2 => json!(1e300),
            3 => json!("../../etc/passwd"),
            4 => json!("/dev/zero"),
            5 => json!("\u{0}auto"),
            6 => Value::Array((0..next(3)).map(|_| value(next, depth + 1)).collect()),
            _ => Value::Object(
                (0..next(4))
                    .map(|_| (KEYS[next(12) as usize].to_owned(), value(next, depth + 1)))
                    .collect(),
            ),
        }
    }
    let mut session = Session::initialized(dir.path());
    let mut expected = Vec::new();
    for id in 0..300u64 {
        let line = match next(10) {
            0 => ["{", "[]", "null", "\"s\""][next(4) as usize].to_owned(),
            1 => format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{}}}"#,
                "[".repeat(3_000)
            ),
            _ => {
                let method = [
                    "tools/call",
                    "tools/call",
                    "tools/list",
                    "ping",
                    "initialize",
                    "nope",
                ][next(6) as usize];
                let params = if method == "tools/call" {
                    {
                        let name = ["pack", "count", "check", "zzz"][next(4) as usize];
                        json!({ "name": name, "arguments": value(&mut next, 0) })
                    }
                } else {
                    value(&mut next, 0)
                };
                json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params })
                    .to_string()
            }
        };
        if line.contains(&format!(r#""id":{id}"#)) {
            expected.push(id);
        }
        session.send_line(&line);
    }
    drop(session.stdin);
    let mut answered = Vec::new();
    let mut line = String::new();
    while session.stdout.read_line(&mut line).unwrap() > 0 {
        let reply: Value = serde_json::from_str(&line).unwrap();
        assert!(!line.contains("root:x:"), "{line}");
        if let Some(id) = reply["id"].as_u64() {
            answered.push(id);
        }
        line.clear();
    }
    for id in &expected {
        assert!(answered.contains(id), "request {id} unanswered");
    }
    assert!(session.child.wait().unwrap().success());
}
