//! `budget mcp`: a Model Context Protocol server over stdio (the official
//! Rust SDK, `rmcp`) exposing `pack`, `count` and `check` as tools.
//!
//! Each call runs this same binary with the tool's options as command-line
//! flags, in a child process: the options, defaults, config file and
//! errors are exactly the command's. Exit 0 is the tool's result (stdout,
//! then the summary from stderr); exit 1 (budget or contract violation) and
//! exit 2 (usage or input error) are tool errors carrying the exit code
//! and the error line.

use std::ffi::OsString;

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{CallToolResult, Content, Implementation, ServerCapabilities, ServerInfo};
use rmcp::{ErrorData, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use schemars::JsonSchema;
use serde::Deserialize;

/// `pack`'s options.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct PackParams {
    /// Files or directories to pack [default: the server's current directory].
    #[serde(default)]
    pub paths: Vec<String>,
    /// Tokens the whole payload may use (a number), or `auto` [default: 25000].
    pub budget: Option<String>,
    /// Rank files by how well they match this text.
    pub query: Option<String>,
    /// `markdown` (default), `xml` or `json`.
    pub format: Option<String>,
    /// `o200k` (default), `cl100k`, `calibrated` or `ratios`.
    pub counter: Option<String>,
    /// The model the prompt is for (`gpt-4o`, `llama3.1`, …): its
    /// tokenizer counts, and `budget: "auto"` fills its window. Replaces
    /// `counter`.
    pub model: Option<String>,
    /// Only files matching these globs (gitignore syntax).
    #[serde(default)]
    pub include: Vec<String>,
    /// Leave out files matching these globs.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Put the diff of the working tree against this revision first (`HEAD`).
    pub diff: Option<String>,
    /// Put the last N commit messages first.
    pub log: Option<u64>,
    /// Pack files holding secrets with the secrets replaced.
    #[serde(default)]
    pub redact: bool,
    /// Any other `budget pack` flags, e.g. `["--meta", "--no-tree"]`.
    #[serde(default)]
    pub args: Vec<String>,
}

/// `count`'s options.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct CountParams {
    /// Files or directories to count [default: the server's current directory].
    #[serde(default)]
    pub paths: Vec<String>,
    /// `o200k` (default), `cl100k`, `calibrated` or `ratios`.
    pub counter: Option<String>,
    /// The model the prompt is for (`gpt-4o`, `llama3.1`, …): its
    /// tokenizer counts, and `budget: "auto"` fills its window. Replaces
    /// `counter`.
    pub model: Option<String>,
    /// `table` (default) or `json`.
    pub format: Option<String>,
    /// Any other `budget count` flags, e.g. `["--tree", "--depth", "2"]`.
    #[serde(default)]
    pub args: Vec<String>,
}

/// `check`'s options.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct CheckParams {
    /// Pipeline files or folders [default: the server's current directory].
    #[serde(default)]
    pub pipelines: Vec<String>,
    /// The model config (JSON with `model_context_window`).
    pub model_config: String,
    /// The folder prompt keys are looked up in.
    pub prompts: String,
    /// `table` (default) or `json`.
    pub format: Option<String>,
    /// Any other `budget check` flags, e.g. `["--policy", "clamp"]`.
    #[serde(default)]
    pub args: Vec<String>,
}

/// The server: its tools.
#[derive(Debug, Clone)]
pub struct BudgetServer {
    tool_router: ToolRouter<Self>,
}

/// `--name value` when `value` is set.
fn flag(argv: &mut Vec<OsString>, name: &str, value: Option<String>) {
    if let Some(value) = value {
        argv.push(format!("--{name}={value}").into());
    }
}

/// `--name value` for each value.
fn flags(argv: &mut Vec<OsString>, name: &str, values: Vec<String>) {
    for value in values {
        flag(argv, name, Some(value));
    }
}

#[tool_router]
impl BudgetServer {
    /// A server with the three tools.
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }

    /// `budget pack`.
    #[tool(
        description = "Pack files into one prompt payload that fits a token budget: ranks files by the query (or by how central they are), carries the best in full, lists the rest with path, lines, description and size, under a tree of the packed paths. Returns the payload, then the summary."
    )]
    async fn pack(
        &self,
        Parameters(p): Parameters<PackParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut argv: Vec<OsString> = vec!["pack".into()];
        flag(&mut argv, "budget", p.budget);
        flag(&mut argv, "query", p.query);
        flag(&mut argv, "format", p.format);
        flag(&mut argv, "counter", p.counter);
        flag(&mut argv, "model", p.model);
        flags(&mut argv, "include", p.include);
        flags(&mut argv, "exclude", p.exclude);
        flag(&mut argv, "diff", p.diff);
        flag(&mut argv, "log", p.log.map(|n| n.to_string()));
        if p.redact {
            argv.push("--redact".into());
        }
        run(argv, p.args, p.paths).await
    }

    /// `budget count`.
    #[tool(
        description = "Count the tokens of files, like wc for tokens: per file and per content type (or a folder tree with --tree), with the reason each skipped file was skipped."
    )]
    async fn count(
        &self,
        Parameters(p): Parameters<CountParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut argv: Vec<OsString> = vec!["count".into()];
        flag(&mut argv, "counter", p.counter);
        flag(&mut argv, "model", p.model);
        flag(&mut argv, "format", p.format);
        run(argv, p.args, p.paths).await
    }

    /// `budget check`.
    #[tool(
        description = "Check the budget contract of prompt pipelines (LocalAI-RAG format): every call_model step's fixed prompt, history, context, output and safety margin must fit the model's context window. A violation is a tool error with exit code 1."
    )]
    async fn check(
        &self,
        Parameters(p): Parameters<CheckParams>,
    ) -> Result<CallToolResult, ErrorData> {
        let mut argv: Vec<OsString> = vec!["check".into()];
        flag(&mut argv, "model-config", Some(p.model_config));
        flag(&mut argv, "prompts", Some(p.prompts));
        flag(&mut argv, "format", p.format);
        run(argv, p.args, p.pipelines).await
    }
}

impl Default for BudgetServer {
    fn default() -> Self {
        Self::new()
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for BudgetServer {
    fn get_info(&self) -> ServerInfo {
        ServerInfo::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("budget", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Token budgets for LLM prompts: `pack` fits files into a payload of at most `budget` tokens, `count` counts tokens, `check` checks pipeline budget contracts. Paths are relative to the server's working directory.",
            )
    }
}

/// Runs this binary with `argv`, then the caller's extra `args`, then
/// `--` and the `positional` paths; exit 0 is a result (stdout, then
/// stderr), any other exit a tool error naming the code.
async fn run(
    mut argv: Vec<OsString>,
    args: Vec<String>,
    positional: Vec<String>,
) -> Result<CallToolResult, ErrorData> {
    argv.extend(args.into_iter().map(OsString::from));
    argv.push("--".into());
    argv.extend(positional.into_iter().map(OsString::from));
    let exe = std::env::current_exe().map_err(|e| {
        ErrorData::internal_error(format!("cannot find the budget binary: {e}"), None)
    })?;
    let output = tokio::process::Command::new(exe)
        .args(&argv)
        .stdin(std::process::Stdio::null())
        .output()
        .await
        .map_err(|e| ErrorData::internal_error(format!("cannot run budget: {e}"), None))?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    match output.status.code() {
        Some(0) => {
            let mut content = vec![Content::text(stdout)];
            if !stderr.trim().is_empty() {
                content.push(Content::text(stderr));
            }
            Ok(CallToolResult::success(content))
        }
        code => {
            let code = code.map_or_else(|| "a signal".to_owned(), |c| c.to_string());
            Ok(CallToolResult::error(vec![Content::text(format!(
                "exit code {code}: {}",
                stderr.trim_end()
            ))]))
        }
    }
}

/// Serves MCP on stdin/stdout until the client closes the connection.
///
/// # Errors
/// The I/O or protocol error that ended the session.
pub fn serve() -> Result<(), McpError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(McpError::Runtime)?;
    runtime.block_on(async {
        let service = BudgetServer::new()
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| McpError::Session(e.to_string()))?;
        service
            .waiting()
            .await
            .map_err(|e| McpError::Session(e.to_string()))?;
        Ok(())
    })
}

/// Why the MCP server stopped.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The async runtime could not start.
    #[error("mcp: cannot start the runtime")]
    Runtime(#[source] std::io::Error),
    /// The session failed.
    #[error("mcp: {0}")]
    Session(String),
}
