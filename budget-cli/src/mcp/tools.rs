//! The three tools: their typed arguments (unknown keys are errors), their
//! JSON schemas and annotations, and the command line each call becomes.
//! No argument names a file to write, a config, a tokenizer or a models
//! file: the allow-list is these structs.

use std::ffi::OsString;

use clap::ValueEnum;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::cli::{CountFormat, Order, PackFormat, PolicyArg};
use crate::counter::CounterChoice;

/// `pack`'s arguments.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackParams {
    #[serde(default)]
    pub paths: Vec<String>,
    #[serde(default)]
    pub files: Vec<String>,
    pub budget: Option<BudgetParam>,
    pub query: Option<String>,
    pub format: Option<String>,
    pub counter: Option<String>,
    pub model: Option<String>,
    #[serde(default)]
    pub include: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    pub diff: Option<String>,
    pub log: Option<u16>,
    #[serde(default)]
    pub redact: bool,
    #[serde(default)]
    pub meta: bool,
    #[serde(default)]
    pub no_tree: bool,
    pub order: Option<String>,
}

/// A `budget` argument: a number, or a string holding one or `auto`.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum BudgetParam {
    /// This many tokens.
    Tokens(u64),
    /// `auto` or digits.
    Text(String),
}

/// `count`'s arguments.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountParams {
    #[serde(default)]
    pub paths: Vec<String>,
    #[serde(default)]
    pub files: Vec<String>,
    pub counter: Option<String>,
    pub model: Option<String>,
    #[serde(default)]
    pub include: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    pub format: Option<String>,
    #[serde(default)]
    pub tree: bool,
    pub depth: Option<u16>,
}

/// `check`'s arguments.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckParams {
    #[serde(default)]
    pub pipelines: Vec<String>,
    pub model_config: String,
    pub prompts: String,
    pub policy: Option<String>,
    pub counter: Option<String>,
    pub model: Option<String>,
    pub format_overhead: Option<u64>,
    pub format: Option<String>,
}

/// A tool call's arguments, parsed; the message says what is wrong.
pub fn parse<T: DeserializeOwned>(tool: &str, arguments: Option<Value>) -> Result<T, String> {
    let arguments = arguments.unwrap_or_else(|| json!({}));
    if !arguments.is_object() {
        return Err(format!("{tool}: `arguments` must be an object"));
    }
    serde_json::from_value(arguments).map_err(|e| format!("{tool}: {e}"))
}

/// A command line under construction: `--name=value` flags, then `--` and
/// the positional paths.
#[derive(Debug, Default)]
pub struct Argv {
    pub args: Vec<OsString>,
}

impl Argv {
    /// Starts `budget SUBCOMMAND`.
    pub fn new(subcommand: &str) -> Self {
        Self {
            args: vec![subcommand.into()],
        }
    }

    /// `--name=value` when `value` is set.
    pub fn opt(&mut self, name: &str, value: Option<impl std::fmt::Display>) {
        if let Some(value) = value {
            self.args.push(format!("--{name}={value}").into());
        }
    }

    /// `--name` when `on`.
    pub fn switch(&mut self, name: &str, on: bool) {
        if on {
            self.args.push(format!("--{name}").into());
        }
    }

    /// `--name=value` for each value.
    pub fn each(&mut self, name: &str, values: &[String]) {
        for value in values {
            self.opt(name, Some(value));
        }
    }

    /// `--name=value` after checking that `value` is one of `T`'s values.
    pub fn choice<T: ValueEnum>(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        if let Some(value) = value {
            if T::from_str(value, false).is_err() {
                let allowed: Vec<String> = T::value_variants()
                    .iter()
                    .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_owned()))
                    .collect();
                return Err(format!(
                    "`{}` must be one of {}, not {value:?}",
                    name.replace('-', "_"),
                    allowed.join(", ")
                ));
            }
            self.opt(name, Some(value));
        }
        Ok(())
    }

    /// `--`, then `paths`.
    pub fn paths(&mut self, paths: &[String]) {
        self.args.push("--".into());
        self.args.extend(paths.iter().map(OsString::from));
    }
}

/// `count`'s command line, and the files to list on its stdin.
pub fn count_argv(p: &CountParams) -> Result<Argv, String> {
    let mut argv = Argv::new("count");
    argv.choice::<CounterChoice>("counter", p.counter.as_deref())?;
    argv.opt("model", p.model.as_deref());
    argv.each("include", &p.include);
    argv.each("exclude", &p.exclude);
    argv.choice::<CountFormat>("format", p.format.as_deref())?;
    argv.switch("tree", p.tree);
    if p.depth.is_some() && !p.tree {
        return Err("`depth` needs `tree`".into());
    }
    argv.opt("depth", p.depth);
    Ok(argv)
}

/// `pack`'s command line, for a budget already decided.
pub fn pack_argv(p: &PackParams, budget: u64) -> Result<Argv, String> {
    let mut argv = Argv::new("pack");
    argv.opt("budget", Some(budget));
    argv.opt("query", p.query.as_deref());
    argv.choice::<PackFormat>("format", p.format.as_deref())?;
    argv.choice::<CounterChoice>("counter", p.counter.as_deref())?;
    argv.opt("model", p.model.as_deref());
    argv.each("include", &p.include);
    argv.each("exclude", &p.exclude);
    argv.opt("diff", p.diff.as_deref());
    argv.opt("log", p.log);
    argv.switch("redact", p.redact);
    argv.switch("meta", p.meta);
    argv.switch("no-tree", p.no_tree);
    argv.choice::<Order>("order", p.order.as_deref())?;
    Ok(argv)
}

/// `check`'s command line.
pub fn check_argv(p: &CheckParams) -> Result<Argv, String> {
    let mut argv = Argv::new("check");
    argv.opt("model-config", Some(&p.model_config));
    argv.opt("prompts", Some(&p.prompts));
    argv.choice::<PolicyArg>("policy", p.policy.as_deref())?;
    argv.choice::<CounterChoice>("counter", p.counter.as_deref())?;
    argv.opt("model", p.model.as_deref());
    argv.opt("format-overhead", p.format_overhead);
    argv.choice::<CountFormat>("format", p.format.as_deref())?;
    argv.paths(&p.pipelines);
    Ok(argv)
}

/// What every tool does to the world: reads files under the root, writes
/// nothing, and gives the same result for the same files.
fn annotations(title: &str) -> Value {
    json!({
        "title": title,
        "readOnlyHint": true,
        "destructiveHint": false,
        "idempotentHint": true,
        "openWorldHint": false
    })
}

/// The schema of string arrays, booleans and the shared selection keys.
fn strings(description: &str) -> Value {
    json!({ "type": "array", "items": { "type": "string" }, "description": description })
}

fn string(description: &str) -> Value {
    json!({ "type": "string", "description": description })
}

fn boolean(description: &str) -> Value {
    json!({ "type": "boolean", "description": description })
}

const COUNTERS: &str =
    "How tokens are counted: `o200k` (default, exact), `cl100k`, `calibrated`, `ratios`.";
const MODEL: &str = "The model the prompt is for (`gpt-4o`, `claude-sonnet-4-5`, `llama3.1`, ...): counts with its tokenizer; replaces `counter`.";
const PATHS: &str =
    "Files or directories under the server's root, relative to it [default: the root].";
const FILES: &str = "Files to take, as `git ls-files` lists them, relative to the root: they still pass .gitignore and the globs. Replaces `paths`.";

/// The `tools/list` result; `max_budget` is the largest `pack` budget.
pub fn list(max_budget: u64) -> Value {
    json!({ "tools": [
        {
            "name": "pack",
            "title": "Pack files into a prompt",
            "description": format!("Pack files under the server's root into one prompt payload that fits a token budget: ranks files by the query (or by how central they are), carries the best in full or as outlines, lists the rest with path, lines, description and size, under a tree of the packed paths. Files holding secrets are left out (or redacted). Returns the payload, then the summary. At most {max_budget} tokens."),
            "inputSchema": {
                "type": "object",
                "properties": {
                    "paths": strings(PATHS),
                    "files": strings(FILES),
                    "budget": {
                        "type": ["integer", "string"],
                        "description": format!("Tokens the whole payload may use, or `auto` for the most this server returns ({max_budget}) [default: auto].")
                    },
                    "query": string("Rank files by how well they match this text."),
                    "format": { "type": "string", "enum": ["markdown", "xml", "json"], "description": "The payload's format [default: markdown]." },
                    "counter": string(COUNTERS),
                    "model": string(MODEL),
                    "include": strings("Only files matching these globs (gitignore syntax)."),
                    "exclude": strings("Leave out files matching these globs."),
                    "diff": string("Put the diff of the working tree against this revision (`HEAD`) first."),
                    "log": { "type": "integer", "minimum": 1, "maximum": 65535, "description": "Put the last N commit messages first." },
                    "redact": boolean("Pack files holding secrets with each secret replaced by [REDACTED] instead of leaving them out."),
                    "meta": boolean("Add the META section and the fingerprint."),
                    "no_tree": boolean("Leave out the tree of packed paths."),
                    "order": { "type": "string", "enum": ["rank", "arrival"], "description": "The order files are offered to the tiers [default: rank]." }
                },
                "additionalProperties": false
            },
            "annotations": annotations("Pack files into a prompt")
        },
        {
            "name": "count",
            "title": "Count tokens",
            "description": "Count the tokens of files under the server's root, like wc for tokens: per file and per content type (or a folder tree), with the reason each skipped file was skipped.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "paths": strings(PATHS),
                    "files": strings(FILES),
                    "counter": string(COUNTERS),
                    "model": string(MODEL),
                    "include": strings("Only files matching these globs (gitignore syntax)."),
                    "exclude": strings("Leave out files matching these globs."),
                    "format": { "type": "string", "enum": ["table", "json"], "description": "[default: table]" },
                    "tree": boolean("Show the folder tree with each folder's tokens instead of one line per file."),
                    "depth": { "type": "integer", "minimum": 0, "description": "Deepest folder level `tree` shows [default: 3]." }
                },
                "additionalProperties": false
            },
            "annotations": annotations("Count tokens")
        },
        {
            "name": "check",
            "title": "Check pipeline budget contracts",
            "description": "Check the budget contract of prompt pipelines (LocalAI-RAG format) under the server's root: every call_model step's fixed prompt, history, context, output and safety margin must fit the model's context window. A violation is a tool error with exit code 1.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "pipelines": strings("Pipeline files or folders under the root [default: the root]."),
                    "model_config": string("The model config (JSON with `model_context_window`), under the root."),
                    "prompts": string("The folder prompt keys are looked up in, under the root."),
                    "policy": { "type": "string", "enum": ["fail_fast", "auto_clamp"], "description": "What a violation does." },
                    "counter": string(COUNTERS),
                    "model": string(MODEL),
                    "format_overhead": { "type": "integer", "minimum": 0, "description": "Tokens added to each step's fixed prompt for roles and separators." },
                    "format": { "type": "string", "enum": ["table", "json"], "description": "[default: table]" }
                },
                "required": ["model_config", "prompts"],
                "additionalProperties": false
            },
            "annotations": annotations("Check pipeline budget contracts")
        }
    ]})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_values_are_refused_by_name() {
        let error = parse::<PackParams>("pack", Some(json!({ "budgett": 5 }))).unwrap_err();
        assert!(error.contains("unknown field `budgett`"), "{error}");
        let error = parse::<PackParams>("pack", Some(json!({ "args": ["-o", "/x"] }))).unwrap_err();
        assert!(error.contains("unknown field `args`"), "{error}");
        let p: PackParams = parse("pack", Some(json!({ "format": "yaml" }))).unwrap();
        let error = pack_argv(&p, 1000).unwrap_err();
        assert!(
            error.contains("`format` must be one of markdown, xml, json"),
            "{error}"
        );
        assert!(parse::<PackParams>("pack", Some(json!([1]))).is_err());
    }

    #[test]
    fn arguments_become_flags_and_paths_follow_the_separator() {
        let p: CheckParams = parse(
            "check",
            Some(json!({ "model_config": "m.json", "prompts": "p", "pipelines": ["-rf"] })),
        )
        .unwrap();
        let argv = check_argv(&p).unwrap();
        let args: Vec<String> = argv
            .args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            args,
            ["check", "--model-config=m.json", "--prompts=p", "--", "-rf"]
        );
    }
}
