//! The command line: subcommands, flags and their values (clap derive).

use std::path::PathBuf;
use std::str::FromStr;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::counter::{CounterChoice, CounterRequest};
use budget_pack::{Inputs, MAX_FILE_BYTES, Sandbox};

/// Exit codes, shown at the end of `--help`.
const EXIT_CODES: &str = "\
Exit codes:
  0  success
  1  budget or contract violation: the payload exceeds --fail-over, or a pipeline fails its contract
  2  usage or input error: bad flag or value, missing path, bad glob, --budget below the minimum, unreadable config, a pipeline file that cannot be read or understood (it is reported first)";

/// Token budgets for LLM prompts: pack files into a prompt that fits, count
/// tokens, check pipeline budget contracts.
#[derive(Debug, Parser)]
#[command(
    name = "budget",
    version,
    after_help = EXIT_CODES,
    propagate_version = true,
    args_override_self = true
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// Read flag defaults from FILE (TOML: a [pack], [count] or [check]
    /// table of long flags) instead of your own config
    /// (`~/.config/budget/budget.toml`) and the project's `budget.toml`;
    /// flags on the command line win.
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Read no config file: neither your own nor the project's `budget.toml`.
    #[arg(long, global = true, conflicts_with = "config")]
    pub no_config: bool,
    /// Stay inside DIR (repeatable: inside any of them): every path, listed
    /// file, pipeline, prompt folder and git repository must resolve
    /// (symbolic links included) to a place inside; flags that name a file
    /// to write or to read elsewhere (--output, --report, --tokenizer,
    /// --models, --config) are refused; only the project's `budget.toml` is
    /// read, with the project's keys. `budget mcp` runs every tool this way.
    #[arg(long, global = true, value_name = "DIR")]
    pub sandbox: Vec<PathBuf>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Pack files into one prompt payload that fits a token budget.
    ///
    /// Walks the paths (honouring .gitignore, skipping hidden files), ranks
    /// each file by --query (BM25 over text, path and defined names) or, without
    /// one, by how central it is (which files use the names it defines), and
    /// spreads them over RAW (full text), LINKED (path, lines, description,
    /// size) and SUMMARY (a mention) under a tree of the packed paths, so the
    /// rendered payload, counted with --counter, stays within --budget. Every
    /// input file is packed, omitted for room, or counted under one skip
    /// reason (duplicate, binary, too large, unreadable, empty, symlink,
    /// special file, excluded by a glob, secret).
    #[command(after_help = EXIT_CODES)]
    Pack(PackArgs),
    /// Count the tokens of files, like `wc` for tokens.
    ///
    /// Prints tokens per file and totals per content type, with the same
    /// skip accounting as `pack`; --tree shows where the tokens are.
    #[command(after_help = EXIT_CODES)]
    Count(CountArgs),
    /// Check the budget contract of prompt pipelines (LocalAI-RAG format).
    ///
    /// Every `call_model` step must satisfy: fixed prompt, history, context,
    /// output and safety margin add up to at most the model's context
    /// window. PIPELINES are YAML files or folders (every *.yaml / *.yml
    /// below them). Exits 1 when a pipeline fails its contract, 2 when a
    /// pipeline file cannot be read or understood.
    #[command(after_help = EXIT_CODES)]
    Check(CheckArgs),
    /// Serve `pack`, `count` and `check` as tools over MCP (stdio).
    ///
    /// A Model Context Protocol server for agents and editors, sandboxed:
    /// it serves the files under one root (--root, default the current
    /// directory), narrowed to the roots the client declares; every path a
    /// tool names must resolve inside, no tool can write a file or choose a
    /// config, tokenizer or models file, and no result is larger than
    /// --max-result-tokens. Each tool takes the command's options as typed
    /// JSON and runs the command; exit 1 and 2 come back as tool errors
    /// with the exit code and the error line. Stops when the client closes
    /// stdin.
    #[cfg(feature = "mcp")]
    Mcp(McpArgs),
}

/// `budget mcp`.
#[cfg(feature = "mcp")]
#[derive(Debug, Args)]
pub struct McpArgs {
    /// The directory served [default: the current directory].
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// The largest tool result, in tokens of the host's likely tokenizer
    /// (Claude's: o200k_base counts x 1.5, the registry's Anthropic
    /// estimate). Claude Code refuses results over 25,000 by default
    /// (MAX_MCP_OUTPUT_TOKENS). `pack`'s budget is capped so the payload and
    /// its summary fit.
    #[arg(
        long,
        value_name = "N",
        env = "BUDGET_MCP_MAX_RESULT_TOKENS",
        default_value_t = 25_000,
        value_parser = clap::value_parser!(u64).range(2_000..)
    )]
    pub max_result_tokens: u64,
}

/// Paths and globs, shared by `pack` and `count`.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Files or directories to read [default: the current directory].
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Read the files to take from FILE (`-`: stdin), one path per line
    /// (relative to the current directory), as `git ls-files` or `find`
    /// print them; they still pass the ignore rules and the globs.
    #[arg(long, value_name = "FILE|-", conflicts_with = "paths")]
    pub files_from: Option<PathBuf>,
    /// With --files-from: paths are separated by NUL bytes (`find
    /// -print0`, `git ls-files -z`), not lines.
    #[arg(short = '0', long = "null", requires = "files_from")]
    pub null: bool,
    /// Only read files matching GLOB (gitignore syntax, relative to each
    /// PATH); repeatable.
    #[arg(long, value_name = "GLOB")]
    pub include: Vec<String>,
    /// Leave out files matching GLOB (gitignore syntax, relative to each
    /// PATH); repeatable; wins over --include.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// How tokens are counted.
    #[arg(long, value_enum, value_name = "COUNTER", default_value_t = CounterChoice::DEFAULT)]
    pub counter: CounterChoice,
    #[command(flatten)]
    pub model: ModelArgs,
    /// Skip files larger than BYTES as too large.
    #[arg(long, value_name = "BYTES", default_value_t = MAX_FILE_BYTES)]
    pub max_file_bytes: u64,
    /// Neither read nor write the caches. By a hash of each text (never
    /// the text), `pack` keeps the names each source file defines and uses
    /// and its outline's offsets, and with a built-in exact counter
    /// (o200k, cl100k, or a model counted with one) `pack` and `count` keep
    /// exact counts, in $BUDGET_CACHE_DIR, else
    /// $XDG_CACHE_HOME/context-budget or ~/.cache/context-budget, so that
    /// packing the same tree again scans, parses and counts only what
    /// changed.
    #[arg(long)]
    pub no_cache: bool,
}

/// `--model`, `--tokenizer` and `--models`, shared by `pack`, `count` and
/// `check`.
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// The model the prompt is for (`gpt-4o`, `claude-sonnet-4-5`,
    /// `llama3.1`, `Qwen/Qwen2.5-7B-Instruct`, …): counts with its tokenizer
    /// (exact for OpenAI models and for open models whose tokenizer file is
    /// in the local Hugging Face cache or whose GGUF is in Ollama's store,
    /// else a documented estimate; the report names the file used), and
    /// `pack --budget auto` becomes its window minus its output reserve. Replaces
    /// --counter.
    #[arg(long, value_name = "NAME", conflicts_with = "counter")]
    pub model: Option<String>,
    /// Count exactly with this tokenizer file: a Hugging Face
    /// tokenizer.json, a SentencePiece .model, a GGUF model file (only its
    /// metadata is read), Mistral's tekken.json, or a tiktoken rank file
    /// (Llama 3 and 4, Qwen; its split pattern from --model or its size).
    /// Never downloaded. Replaces --counter.
    #[arg(long, value_name = "FILE", conflicts_with = "counter")]
    pub tokenizer: Option<PathBuf>,
    /// A LocalAI models folder: --model NAME is found there first, by its
    /// YAML config (`NAME.yaml`, or the config whose `name` is NAME; its
    /// `parameters.model` file, inside the folder, is the tokenizer and
    /// its `context_size` the window) or as `NAME.gguf`. Only the GGUF's
    /// metadata is read.
    #[arg(long, value_name = "DIR", requires = "model")]
    pub models_dir: Option<PathBuf>,
    /// Model profiles of your own (TOML, `[models."name"]` tables: `base`,
    /// `context_window`, `max_output_tokens`, `tokenizer`, `template`, …),
    /// added to the built-in ones or replacing them, for --model.
    #[arg(long, value_name = "FILE", requires = "model")]
    pub models: Option<PathBuf>,
}

impl ModelArgs {
    /// What these arguments ask to count with.
    pub fn counter_request(&self) -> CounterRequest<'_> {
        CounterRequest {
            model: self.model.as_deref(),
            tokenizer: self.tokenizer.as_deref(),
            models: self.models.as_deref(),
            models_dir: self.models_dir.as_deref(),
        }
    }
}

impl InputArgs {
    /// The inputs these arguments ask for, inside `sandbox` if there is
    /// one.
    pub fn inputs(&self, sandbox: Option<&Sandbox>) -> Inputs {
        Inputs {
            paths: self.paths.clone(),
            include: self.include.clone(),
            exclude: self.exclude.clone(),
            files_from: self.files_from.clone().map(|list| (list, self.null)),
            sandbox: sandbox.cloned(),
            max_file_bytes: self.max_file_bytes,
        }
    }
}

/// `budget pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Tokens the whole rendered payload may use, or `auto`: with --model,
    /// the model's window minus its output reserve; else sized from the
    /// material (25,000, 70,000 or 100,000).
    #[arg(long, value_name = "N|auto", default_value = "25000")]
    pub budget: BudgetArg,
    /// Rank files by how well they match TEXT (BM25 over their text, path and
    /// defined names; rare words weigh more; `snake_case`, `camelCase` and
    /// paths are split into words). Files matching nothing never go RAW.
    #[arg(long, value_name = "TEXT")]
    pub query: Option<String>,
    /// Add the META section (budget and tier figures) and the SHA-256
    /// fingerprint to the payload. The --report document always has them.
    #[arg(long)]
    pub meta: bool,
    /// Put the diff of the working tree (with staged changes) against REV
    /// (default HEAD) first in the payload, counted within --budget.
    #[arg(long, value_name = "REV", num_args = 0..=1, default_missing_value = "HEAD")]
    pub diff: Option<String>,
    /// Put the last N commit messages first in the payload, counted within
    /// --budget.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub log: Option<u16>,
    /// Pack files holding secrets with each secret replaced by `[REDACTED]`
    /// instead of skipping them.
    #[arg(long)]
    pub redact: bool,
    /// Leave out the tree of packed paths at the top of the payload.
    #[arg(long)]
    pub no_tree: bool,
    /// The model has a tool to fetch files: LINKED lines say `Fetch: N
    /// tokens.` instead of `N tokens.`.
    #[arg(long)]
    pub fetch_tool: bool,
    /// The payload's format. Every format carries the same sections and
    /// numbers, and each is fitted to --budget as rendered.
    #[arg(long, value_enum, default_value_t = PackFormat::Markdown)]
    pub format: PackFormat,
    /// Also write a JSON report to FILE (`-`: stdout, in place of the
    /// payload unless --output is given): every input file with its status,
    /// tier, tokens, score and reason, the counts, and the payload itself.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// The order files are offered to the tiers: `rank` (best first) or
    /// `arrival` (path order; a full tier demotes its lowest-ranked file
    /// for a better newcomer).
    #[arg(long, value_enum, default_value_t = Order::Rank)]
    pub order: Order,
    /// Write the payload to FILE instead of stdout (`-`: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Exit 1, writing nothing, if the payload exceeds N tokens as counted.
    #[arg(long, value_name = "N")]
    pub fail_over: Option<u64>,
    /// Print on stderr how long each stage of the pack took (walk, read,
    /// names, rank, outlines, …; wall time in milliseconds): where the
    /// time goes.
    #[arg(long)]
    pub timings: bool,
}

impl PackArgs {
    /// The file --output names; `None` for stdout (no --output, or `-`).
    pub fn output_file(&self) -> Option<&std::path::Path> {
        self.output
            .as_deref()
            .filter(|path| path.as_os_str() != "-")
    }
}

/// `budget count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CountFormat::Table)]
    pub format: CountFormat,
    /// Show the directory tree with each folder's tokens and share instead
    /// of one line per file.
    #[arg(long)]
    pub tree: bool,
    /// Deepest folder level --tree shows (the top is level 0).
    #[arg(long, value_name = "N", default_value_t = 3, requires = "tree")]
    pub depth: usize,
}

/// `budget check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Pipeline files or folders [default: the current directory].
    #[arg(value_name = "PIPELINES")]
    pub pipelines: Vec<PathBuf>,
    /// The model config (JSON with `model_context_window`, optional
    /// `model_max_tokens`).
    #[arg(long, value_name = "FILE")]
    pub model_config: PathBuf,
    /// The folder prompt keys are looked up in, for every pipeline: it wins
    /// over a pipeline's own `settings.prompts_dir` (a warning names each
    /// one it overrides).
    #[arg(long, value_name = "DIR")]
    pub prompts: PathBuf,
    /// What a violation does [default: PIPELINE_LIMITS_POLICY, else each
    /// pipeline's `limits_policy`, else fail_fast].
    #[arg(long, value_enum)]
    pub policy: Option<PolicyArg>,
    /// How prompt tokens are counted.
    #[arg(long, value_enum, value_name = "COUNTER", default_value_t = CounterChoice::DEFAULT)]
    pub counter: CounterChoice,
    #[command(flatten)]
    pub model: ModelArgs,

    /// Tokens added to each step's fixed prompt for roles and separators
    /// [default: the library's 64].
    #[arg(long, value_name = "N")]
    pub format_overhead: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CountFormat::Table)]
    pub format: CountFormat,
}

/// `check --policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    /// The first violating step fails the pipeline.
    #[value(name = "fail_fast")]
    FailFast,
    /// Lower max_context_tokens (then a step's output limit) until it fits.
    #[value(name = "auto_clamp")]
    AutoClamp,
}

/// A `--budget` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetArg {
    /// This many tokens.
    Tokens(u64),
    /// Sized from the material's total tokens.
    Auto,
}

impl FromStr for BudgetArg {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s == "auto" {
            return Ok(Self::Auto);
        }
        let digits: String = s.chars().filter(|&c| c != '_' && c != ',').collect();
        digits
            .parse()
            .map(Self::Tokens)
            .map_err(|_| format!("expected a token count or `auto`, got {s:?}"))
    }
}

/// `pack --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PackFormat {
    /// Markdown sections META, SUMMARY, RAW, LINKED and a fingerprint.
    Markdown,
    /// One `payload` element: `meta`, `summary`, `raw` (files in CDATA),
    /// `linked` and `fingerprint`.
    Xml,
    /// One JSON object: `meta`, `summary`, `raw`, `linked`, `fingerprint`.
    Json,
}

/// `pack --order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Order {
    /// Best score first.
    Rank,
    /// Path order.
    Arrival,
}

/// `count --format` and `check --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CountFormat {
    /// Aligned columns.
    Table,
    /// One JSON document.
    Json,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn budget_values() {
        assert_eq!("auto".parse(), Ok(BudgetArg::Auto));
        assert_eq!("25_000".parse(), Ok(BudgetArg::Tokens(25_000)));
        assert_eq!("100,000".parse(), Ok(BudgetArg::Tokens(100_000)));
        assert!("-5".parse::<BudgetArg>().is_err());
        assert!("lots".parse::<BudgetArg>().is_err());
    }
}
