//! `budget mcp`: a Model Context Protocol server over stdio exposing
//! `pack`, `count` and `check` as tools, sandboxed by default.
//!
//! * **One root.** The server serves the files under `--root` (default: the
//!   directory it was started in), narrowed to the roots the client declares
//!   (`roots/list`). Each call runs this binary in a child process with
//!   `--sandbox` set to those directories, so every path an argument names,
//!   every listed file and every git repository must resolve inside them,
//!   and only the project's own `budget.toml` is read, with the project's
//!   keys.
//! * **Typed, allow-listed arguments** ([`tools`]): no argument can choose a
//!   file to write, a config, a tokenizer or a models file; unknown keys are
//!   errors.
//! * **Results that fit the host**: no result is larger than
//!   `--max-result-tokens` (Claude Code's default limit, 25,000), counted as
//!   Claude's tokenizer is estimated (o200k_base x 1.5); `pack`'s budget is
//!   capped below it, and `auto` means that cap.
//! * **Any message in any order** gets an answer or is ignored: requests
//!   before `initialize`, unknown methods, batches, oversized or too deeply
//!   nested messages are JSON-RPC errors; the server stops only when stdin
//!   closes.
//!
//! The protocol is the handshake era of MCP (2024-11-05 to 2025-11-25):
//! `initialize`, `ping`, `tools/list`, `tools/call`, and `roots/list` sent
//! to a client that has roots. A client that first probes `server/discover`
//! gets "method not found" and falls back to `initialize`.

mod jsonrpc;
mod roots;
mod tools;

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use budget::Estimator;
use budget::estimate::{ContentType, DefaultCounter};
use serde_json::{Value, json};

use crate::cli::McpArgs;
use jsonrpc::{Incoming, code};
use tools::{BudgetParam, CheckParams, CountParams, PackParams};

/// The protocol versions this server speaks, oldest first.
const VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

/// Host tokens per o200k_base token: the registry's estimate for Claude,
/// whose tokenizer counts more than o200k_base and is not public.
const HOST_TOKENS_PER_O200K: f64 = 1.5;

/// Tokens of the host kept for `pack`'s summary below the payload.
const SUMMARY_ALLOWANCE: u64 = 1_000;

/// How long one tool call may run.
const CALL_TIMEOUT: Duration = Duration::from_secs(300);

/// How long a call waits for the client's answer to `roots/list`.
const ROOTS_TIMEOUT: Duration = Duration::from_secs(10);

/// The most a child's stdout or stderr is read (bytes); more is an error.
const MAX_CHILD_OUTPUT: u64 = 64 * 1024 * 1024;

/// Why the server stopped.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The served root cannot be resolved.
    #[error("mcp: --root {}: cannot resolve it", path.display())]
    Root {
        /// The root as given.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Writing to the client failed.
    #[error("mcp: cannot write to the client")]
    Write(#[source] std::io::Error),
}

/// Serves MCP on stdin/stdout until the client closes stdin.
///
/// # Errors
/// [`McpError`] when the root cannot be resolved or the client cannot be
/// written to.
pub fn serve(args: &McpArgs) -> Result<(), McpError> {
    let given = args.root.clone().unwrap_or_else(|| PathBuf::from("."));
    let root = std::fs::canonicalize(&given).map_err(|source| McpError::Root {
        path: given.clone(),
        source,
    })?;
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || jsonrpc::read_lines(std::io::stdin().lock(), &sender));
    let mut server = Server {
        allowed: vec![root.clone()],
        root,
        max_result_tokens: args.max_result_tokens,
        initialized: false,
        client_has_roots: false,
        roots_request: None,
        requests_sent: 0,
        queue: VecDeque::new(),
        receiver,
        out: std::io::stdout(),
    };
    server.run()
}

/// The server's state.
struct Server {
    /// The root it was started with, resolved.
    root: PathBuf,
    /// The root narrowed to the client's roots.
    allowed: Vec<PathBuf>,
    max_result_tokens: u64,
    initialized: bool,
    client_has_roots: bool,
    /// The id of an unanswered `roots/list`.
    roots_request: Option<Value>,
    requests_sent: u64,
    /// Messages read while waiting for `roots/list`'s answer.
    queue: VecDeque<Incoming>,
    receiver: Receiver<Incoming>,
    out: std::io::Stdout,
}

impl Server {
    fn run(&mut self) -> Result<(), McpError> {
        loop {
            let incoming = match self.queue.pop_front() {
                Some(incoming) => incoming,
                None => self.receiver.recv().unwrap_or(Incoming::Closed),
            };
            match incoming {
                Incoming::Closed => return Ok(()),
                Incoming::TooLong => self.send(&jsonrpc::error(
                    &Value::Null,
                    code::INVALID_REQUEST,
                    format!(
                        "message larger than {} bytes, dropped",
                        jsonrpc::MAX_MESSAGE_BYTES
                    ),
                ))?,
                Incoming::Line(line) => self.line(&line)?,
            }
        }
    }

    fn send(&mut self, message: &Value) -> Result<(), McpError> {
        jsonrpc::send(&mut self.out.lock(), message).map_err(McpError::Write)
    }

    /// One line from the client.
    fn line(&mut self, line: &[u8]) -> Result<(), McpError> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        let message: Value = match serde_json::from_slice(line) {
            Ok(message) => message,
            Err(error) => {
                let id = jsonrpc::find_id(line).unwrap_or(Value::Null);
                let reply = if error.is_syntax() || error.is_eof() || id.is_null() {
                    jsonrpc::error(&id, code::PARSE_ERROR, format!("not JSON: {error}"))
                } else {
                    jsonrpc::error(&id, code::INVALID_REQUEST, format!("unreadable: {error}"))
                };
                return self.send(&reply);
            }
        };
        let Value::Object(mut message) = message else {
            let text = if message.is_array() {
                "batches are not supported: send one message per line"
            } else {
                "a message must be a JSON object"
            };
            return self.send(&jsonrpc::error(&Value::Null, code::INVALID_REQUEST, text));
        };
        let id = message.remove("id");
        let method = message.remove("method");
        let params = message.remove("params");
        let valid_id = id
            .as_ref()
            .is_none_or(|id| id.is_string() || id.is_number());
        if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || !valid_id {
            return self.send(&jsonrpc::error(
                &id.filter(|_| valid_id).unwrap_or(Value::Null),
                code::INVALID_REQUEST,
                "not a JSON-RPC 2.0 message (`jsonrpc` must be \"2.0\"; `id` a string or number)",
            ));
        }
        match (id, method) {
            (Some(id), Some(Value::String(method))) => {
                let reply = self.request(&id, &method, params);
                self.send(&reply)
            }
            (None, Some(Value::String(method))) => self.notification(&method),
            (Some(id), None) => {
                self.response(&id, &message);
                Ok(())
            }
            _ => self.send(&jsonrpc::error(
                &Value::Null,
                code::INVALID_REQUEST,
                "neither a request, a notification nor a response",
            )),
        }
    }

    fn notification(&mut self, method: &str) -> Result<(), McpError> {
        match method {
            "notifications/initialized" | "notifications/roots/list_changed"
                if self.client_has_roots =>
            {
                self.ask_for_roots()
            }
            // Cancellation, progress and anything unknown: nothing to do
            // (calls run one at a time and are answered).
            _ => Ok(()),
        }
    }

    fn ask_for_roots(&mut self) -> Result<(), McpError> {
        self.requests_sent += 1;
        let id = json!(format!("budget-roots-{}", self.requests_sent));
        self.roots_request = Some(id.clone());
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": "roots/list" }))
    }

    /// A response from the client: only `roots/list`'s is expected.
    fn response(&mut self, id: &Value, message: &serde_json::Map<String, Value>) {
        if self.roots_request.as_ref() != Some(id) {
            return;
        }
        self.roots_request = None;
        if let Some(result) = message.get("result") {
            self.allowed = roots::narrow(&self.root, result);
        }
    }

    /// Waits (a bounded time) for the answer to `roots/list`, keeping what
    /// else arrives for later.
    fn await_roots(&mut self) {
        let deadline = Instant::now() + ROOTS_TIMEOUT;
        while self.roots_request.is_some() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.receiver.recv_timeout(left) {
                Ok(Incoming::Line(line)) => {
                    let answer = serde_json::from_slice::<Value>(&line).ok().filter(|m| {
                        m.get("method").is_none() && m.get("id") == self.roots_request.as_ref()
                    });
                    match answer {
                        Some(Value::Object(message)) => {
                            let id = message.get("id").cloned().unwrap_or(Value::Null);
                            self.response(&id, &message);
                        }
                        _ => self.queue.push_back(Incoming::Line(line)),
                    }
                }
                Ok(other) => {
                    self.queue.push_back(other);
                    return;
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    // The server's own root still bounds every call.
                    self.roots_request = None;
                }
            }
        }
    }

    fn request(&mut self, id: &Value, method: &str, params: Option<Value>) -> Value {
        match method {
            "ping" => jsonrpc::result(id, json!({})),
            "initialize" if self.initialized => {
                jsonrpc::error(id, code::INVALID_REQUEST, "already initialized")
            }
            "initialize" => {
                let params = params.unwrap_or(Value::Null);
                let asked = params.get("protocolVersion").and_then(Value::as_str);
                let version = asked
                    .filter(|v| VERSIONS.contains(v))
                    .unwrap_or(VERSIONS[VERSIONS.len() - 1]);
                self.client_has_roots = params
                    .pointer("/capabilities/roots")
                    .is_some_and(Value::is_object);
                self.initialized = true;
                jsonrpc::result(
                    id,
                    json!({
                        "protocolVersion": version,
                        "capabilities": { "tools": { "listChanged": false } },
                        "serverInfo": { "name": "budget", "title": "budget: token budgets for LLM prompts", "version": env!("CARGO_PKG_VERSION") },
                        "instructions": format!("Token budgets for LLM prompts over the files under {}: `pack` fits files into a payload of at most `budget` tokens (at most {} here), `count` counts tokens, `check` checks pipeline budget contracts. Paths are relative to that root; nothing outside it can be read, and nothing is written.", self.root.display(), self.max_budget()),
                    }),
                )
            }
            "tools/list" | "tools/call" if !self.initialized => jsonrpc::error(
                id,
                code::NOT_INITIALIZED,
                format!("{method} before initialize: send initialize first"),
            ),
            "tools/list" => jsonrpc::result(id, tools::list(self.max_budget())),
            "tools/call" => {
                if self.roots_request.is_some() {
                    self.await_roots();
                }
                let params = params.unwrap_or(Value::Null);
                let name = params.get("name").and_then(Value::as_str);
                let arguments = params.get("arguments").cloned();
                match name {
                    Some(name) => match self.call(name, arguments) {
                        Ok(result) => jsonrpc::result(id, result),
                        Err(message) => jsonrpc::error(id, code::INVALID_PARAMS, message),
                    },
                    None => jsonrpc::error(id, code::INVALID_PARAMS, "tools/call needs `name`"),
                }
            }
            _ => jsonrpc::error(
                id,
                code::METHOD_NOT_FOUND,
                format!("no method {method:?} (this server has tools: tools/list, tools/call)"),
            ),
        }
    }

    /// The largest `pack` budget: the result limit in host tokens, as
    /// o200k_base tokens, less the summary's allowance.
    fn max_budget(&self) -> u64 {
        host_to_o200k(self.max_result_tokens).saturating_sub(SUMMARY_ALLOWANCE)
    }

    /// One tool call: invalid arguments are `Err` (a JSON-RPC error); a
    /// command that fails is a result with `isError`.
    fn call(&self, name: &str, arguments: Option<Value>) -> Result<Value, String> {
        let (mut argv, files, paths) = match name {
            "pack" => {
                let p: PackParams = tools::parse(name, arguments)?;
                let budget = self.pack_budget(p.budget.as_ref())?;
                (tools::pack_argv(&p, budget)?, p.files, p.paths)
            }
            "count" => {
                let p: CountParams = tools::parse(name, arguments)?;
                (tools::count_argv(&p)?, p.files, p.paths)
            }
            "check" => {
                let p: CheckParams = tools::parse(name, arguments)?;
                (tools::check_argv(&p)?, Vec::new(), Vec::new())
            }
            other => {
                return Err(format!(
                    "no tool {other:?} (the tools are pack, count and check)"
                ));
            }
        };
        if self.allowed.is_empty() {
            return Ok(tool_error(format!(
                "none of the client's roots is inside this server's root {}: nothing can be read",
                self.root.display()
            )));
        }
        if name != "check" {
            if !files.is_empty() && !paths.is_empty() {
                return Err(format!("{name}: give `paths` or `files`, not both"));
            }
            if files.is_empty() {
                // By default, everything the server may read.
                let paths = if paths.is_empty() && self.allowed != [self.root.clone()] {
                    self.allowed
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect()
                } else {
                    paths
                };
                argv.paths(&paths);
            } else {
                argv.args.push("--files-from=-".into());
                argv.args.push("--null".into());
            }
        }
        let stdin = files.join("\0");
        Ok(self.spawn(argv.args, &stdin))
    }

    /// `pack`'s budget: `auto` or none is the most this server returns; more
    /// than that is an error that says how much may be asked.
    fn pack_budget(&self, asked: Option<&BudgetParam>) -> Result<u64, String> {
        let most = self.max_budget();
        let tokens = match asked {
            None => return Ok(most),
            Some(BudgetParam::Text(text)) if text == "auto" => return Ok(most),
            Some(BudgetParam::Tokens(n)) => *n,
            Some(BudgetParam::Text(text)) => text
                .chars()
                .filter(|&c| c != '_' && c != ',')
                .collect::<String>()
                .parse()
                .map_err(|_| {
                    format!("pack: `budget` must be a token count or \"auto\", not {text:?}")
                })?,
        };
        if tokens > most {
            return Err(format!(
                "pack: budget {tokens} is more than this server returns: ask for at most {most} tokens, or \"auto\" (results are limited to {} tokens of the host's tokenizer: --max-result-tokens or BUDGET_MCP_MAX_RESULT_TOKENS)",
                self.max_result_tokens
            ));
        }
        Ok(tokens)
    }

    /// Runs this binary with `args` in the sandbox, `stdin` on its stdin;
    /// exit 0 is the result (stdout, then stderr's summary), anything else a
    /// tool error naming the code.
    fn spawn(&self, args: Vec<std::ffi::OsString>, stdin: &str) -> Value {
        let Ok(exe) = std::env::current_exe() else {
            return tool_error("cannot find the budget binary".into());
        };
        let mut command = Command::new(exe);
        for dir in &self.allowed {
            command.arg("--sandbox").arg(dir);
        }
        command
            .args(args)
            .current_dir(&self.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let output = match run_bounded(command, stdin) {
            Ok(output) => output,
            Err(message) => return tool_error(message),
        };
        let (code, stdout, stderr) = output;
        if code != Some(0) {
            let code = code.map_or_else(|| "a signal".to_owned(), |c| c.to_string());
            // The error line first; then what the command printed (`check`'s
            // report of the failing pipelines).
            let mut content = vec![format!("exit code {code}: {}", stderr.trim_end())];
            if !stdout.trim().is_empty() {
                content.push(stdout);
            }
            return self.fitted(content, true);
        }
        let mut content = vec![stdout];
        if !stderr.trim().is_empty() {
            content.push(stderr);
        }
        self.fitted(content, false)
    }

    /// The tool result of `texts`, or an error when it is over the limit.
    fn fitted(&self, texts: Vec<String>, is_error: bool) -> Value {
        let counter = DefaultCounter;
        let o200k: u64 = texts
            .iter()
            .map(|t| counter.estimate(t, ContentType::Prose))
            .sum();
        let host = o200k_to_host(o200k);
        if host > self.max_result_tokens {
            return tool_error(format!(
                "the result would be about {host} tokens of the host's tokenizer, over this server's limit of {}: ask for less (a smaller budget, fewer paths, `tree` with a smaller `depth`)",
                self.max_result_tokens
            ));
        }
        let content: Vec<Value> = texts
            .into_iter()
            .map(|text| json!({ "type": "text", "text": text }))
            .collect();
        json!({ "content": content, "isError": is_error })
    }
}

/// A tool result that is an error.
fn tool_error(message: String) -> Value {
    json!({ "content": [{ "type": "text", "text": message }], "isError": true })
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
fn host_to_o200k(host: u64) -> u64 {
    (host as f64 / HOST_TOKENS_PER_O200K).floor() as u64
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss
)]
fn o200k_to_host(o200k: u64) -> u64 {
    (o200k as f64 * HOST_TOKENS_PER_O200K).ceil() as u64
}

/// Runs `command` with `stdin`, reading at most [`MAX_CHILD_OUTPUT`] of
/// each output and killing it after [`CALL_TIMEOUT`]: the exit code (none
/// for a signal), stdout and stderr.
fn run_bounded(mut command: Command, stdin: &str) -> Result<(Option<i32>, String, String), String> {
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot run budget: {e}"))?;
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(pipe) = pipe {
                let _ = pipe.take(MAX_CHILD_OUTPUT + 1).read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    if let Some(mut pipe) = child.stdin.take() {
        let stdin = stdin.to_owned();
        std::thread::spawn(move || {
            let _ = pipe.write_all(stdin.as_bytes());
        });
    }
    let deadline = Instant::now() + CALL_TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "the call took more than {} s and was stopped",
                    CALL_TIMEOUT.as_secs()
                ));
            }
            Err(e) => return Err(format!("cannot wait for budget: {e}")),
        }
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    if stdout.len() as u64 > MAX_CHILD_OUTPUT || stderr.len() as u64 > MAX_CHILD_OUTPUT {
        return Err(format!(
            "the result is larger than {MAX_CHILD_OUTPUT} bytes"
        ));
    }
    Ok((
        status.code(),
        String::from_utf8_lossy(&stdout).into_owned(),
        String::from_utf8_lossy(&stderr).into_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_capped_by_the_result_limit() {
        assert_eq!(host_to_o200k(25_000), 16_666);
        assert_eq!(o200k_to_host(16_666), 24_999);
    }
}
