//! Model profiles from a TOML file (feature `toml`).

use std::path::Path;

use crate::chat::ChatTemplate;
use crate::profile::{ModelProfile, ModelRegistry, ProfileError, TokenizerSpec};
use budget_runtime::estimate::{Encoding, SplitPattern};

/// The keys a `[models."name"]` table may have.
const KEYS: &[&str] = &[
    "base",
    "aliases",
    "provider",
    "context_window",
    "max_output_tokens",
    "template",
    "tokenizer",
    "tokenizer_pattern",
    "encoding",
    "estimate_margin",
    "source",
];

impl ModelRegistry {
    /// Adds or replaces the profiles of a TOML file's `[models."name"]`
    /// tables (feature `toml`). A table may start from a known profile
    /// (`base = "llama-3.1-8b-instruct"`) and change any value; without
    /// `base` it needs `context_window`, `max_output_tokens` and one of
    /// `tokenizer` (a file, relative to the TOML file; with
    /// `tokenizer_pattern` for a rank file), `encoding` (`o200k_base`,
    /// `cl100k_base`) or `estimate_margin` (a factor over `o200k_base`).
    /// `template` names a [`ChatTemplate`] (default `estimate`).
    ///
    /// ```
    /// use budget::profile::ModelRegistry;
    ///
    /// let mut registry = ModelRegistry::builtin();
    /// registry.extend_from_toml(r#"
    /// [models."our-llama"]
    /// base = "llama-3.1-8b-instruct"
    /// context_window = 16384        # the server's --max-model-len
    /// aliases = ["llama-small"]
    ///
    /// [models."in-house"]
    /// context_window = 32768
    /// max_output_tokens = 4096
    /// estimate_margin = 1.4
    /// template = "chatml"
    /// "#, "models.toml".as_ref())?;
    /// assert_eq!(registry.get("llama-small").unwrap().context_window, 16_384);
    /// assert_eq!(registry.get("in-house").unwrap().template.name(), "chatml");
    ///
    /// let err = registry.extend_from_toml("[models.x]\ncontext_windw = 1\n", "m.toml".as_ref()).unwrap_err();
    /// assert_eq!(err.to_string(), "m.toml:1: model `x`: unknown key `context_windw` (did you mean `context_window`?)");
    /// # Ok::<(), budget::profile::ProfileError>(())
    /// ```
    ///
    /// # Errors
    /// [`ProfileError::File`] naming the file, the line of the model's
    /// table and what is wrong: invalid TOML, an unknown key (with the
    /// closest one), a value of the wrong type, an unknown `base`,
    /// template, encoding or pattern, a missing value.
    pub fn extend_from_toml(&mut self, text: &str, path: &Path) -> Result<(), ProfileError> {
        let file_error = |line: usize, message: String| ProfileError::File {
            path: path.to_path_buf(),
            line,
            message,
        };
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let line = e.span().map_or(0, |s| {
                text[..s.start.min(text.len())].matches('\n').count() + 1
            });
            file_error(line, format!("invalid TOML: {}", e.message()))
        })?;
        if let Some(key) = table.keys().find(|k| *k != "models") {
            return Err(file_error(
                header_line(text, key),
                format!("unknown table `{key}` (profiles go in `[models.\"name\"]`)"),
            ));
        }
        let Some(models) = table.get("models") else {
            return Ok(());
        };
        let models = models
            .as_table()
            .ok_or_else(|| file_error(0, "`models` is not a table".into()))?;
        let dir = path.parent().unwrap_or_else(|| Path::new(""));
        let mut entries = Vec::new();
        for (name, value) in models {
            let line = header_line(text, name);
            let entry = value
                .as_table()
                .ok_or_else(|| file_error(line, format!("model `{name}`: not a table")))?;
            entries.push((name.as_str(), line, entry));
        }
        // A profile may be the `base` of another in the same file, whatever
        // their order: each is read once its base is; the file's profiles
        // join the registry only when all of them are read.
        let in_file = |name: &str| entries.iter().position(|(n, _, _)| *n == name);
        let mut registry = self.clone();
        let mut read = vec![false; entries.len()];
        let mut pending: Vec<usize> = (0..entries.len()).collect();
        while !pending.is_empty() {
            let before = pending.len();
            let mut waiting = Vec::new();
            for index in pending {
                let (name, line, entry) = entries[index];
                // A profile based on its own name overrides the registry's.
                let waits = base_of(entry)
                    .and_then(in_file)
                    .is_some_and(|base| base != index && !read[base]);
                if waits {
                    waiting.push(index);
                    continue;
                }
                let profile = registry
                    .read_profile(name, entry, dir)
                    .map_err(|message| file_error(line, format!("model `{name}`: {message}")))?;
                registry.insert(profile);
                read[index] = true;
            }
            if waiting.len() == before {
                // Every profile left waits for another one left: a cycle.
                let (name, line, _) = entries[waiting[0]];
                let mut chain = vec![name];
                let mut at = waiting[0];
                while let Some(base) = base_of(entries[at].2)
                    .and_then(in_file)
                    .filter(|&base| base != at)
                {
                    chain.push(entries[base].0);
                    if chain[..chain.len() - 1].contains(&entries[base].0) {
                        break;
                    }
                    at = base;
                }
                return Err(file_error(
                    line,
                    format!(
                        "model `{name}`: `base` forms a cycle: {}",
                        chain.join(" -> ")
                    ),
                ));
            }
            pending = waiting;
        }
        *self = registry;
        Ok(())
    }

    /// One `[models."name"]` table, or what is wrong with it.
    fn read_profile(
        &self,
        name: &str,
        entry: &toml::Table,
        dir: &Path,
    ) -> Result<ModelProfile, String> {
        if let Some(key) = entry.keys().find(|k| !KEYS.contains(&k.as_str())) {
            let suggestion = budget_rules::closest(key, KEYS.iter().copied())
                .map(|k| format!(" (did you mean `{k}`?)"))
                .unwrap_or_default();
            return Err(format!("unknown key `{key}`{suggestion}"));
        }
        let text = |key: &str| -> Result<Option<&str>, String> {
            entry
                .get(key)
                .map(|v| {
                    v.as_str()
                        .ok_or_else(|| format!("`{key}` must be a string"))
                })
                .transpose()
        };
        let count = |key: &str| -> Result<Option<u64>, String> {
            entry
                .get(key)
                .map(|v| {
                    v.as_integer()
                        .and_then(|n| u64::try_from(n).ok())
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("`{key}` must be a positive integer"))
                })
                .transpose()
        };
        let mut profile = match text("base")? {
            Some(base) => {
                let mut profile = self.lookup(base).map_err(|e| format!("base: {e}"))?.clone();
                profile.aliases.clear();
                profile
            }
            None => ModelProfile::new(
                name,
                0,
                0,
                TokenizerSpec::Estimate { margin: 1.0 },
                ChatTemplate::Estimate,
            ),
        };
        profile.name = name.to_owned();
        if let Some(window) = count("context_window")? {
            profile.context_window = window;
        }
        if let Some(output) = count("max_output_tokens")? {
            profile.max_output_tokens = output;
        }
        if profile.context_window == 0 || profile.max_output_tokens == 0 {
            return Err("needs `context_window` and `max_output_tokens` (or a `base`)".into());
        }
        if profile.max_output_tokens > profile.context_window {
            return Err(format!(
                "max_output_tokens {} exceeds context_window {}",
                profile.max_output_tokens, profile.context_window
            ));
        }
        if let Some(aliases) = entry.get("aliases") {
            profile.aliases = aliases
                .as_array()
                .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_owned)).collect())
                .ok_or("`aliases` must be an array of strings")?;
        }
        if let Some(provider) = text("provider")? {
            profile.provider = provider.to_owned();
        }
        if let Some(source) = text("source")? {
            profile.source = source.to_owned();
        }
        if let Some(template) = text("template")? {
            profile.template = template.parse()?;
        }
        let pattern = text("tokenizer_pattern")?
            .map(|p| {
                SplitPattern::from_name(p).ok_or_else(|| {
                    let names: Vec<_> = SplitPattern::NAMED
                        .iter()
                        .map(|p| p.name().to_owned())
                        .collect();
                    format!(
                        "unknown tokenizer_pattern `{p}`: expected one of {}",
                        names.join(", ")
                    )
                })
            })
            .transpose()?;
        let margin = entry
            .get("estimate_margin")
            .map(|v| {
                v.as_float()
                    .or_else(|| v.as_integer().map(|n| n as f64))
                    .filter(|m| m.is_finite() && *m >= 1.0)
                    .ok_or("`estimate_margin` must be a number of at least 1.0")
            })
            .transpose()?;
        let chosen = [
            entry.contains_key("tokenizer"),
            entry.contains_key("encoding"),
            margin.is_some(),
        ];
        if chosen.iter().filter(|&&c| c).count() > 1 {
            return Err("give one of `tokenizer`, `encoding` and `estimate_margin`".into());
        }
        if let Some(file) = text("tokenizer")? {
            let fallback = match &profile.tokenizer {
                TokenizerSpec::File { margin, .. } | TokenizerSpec::Estimate { margin } => *margin,
                _ => 1.0,
            };
            profile.tokenizer = TokenizerSpec::File {
                hf_repo: String::new(),
                files: Vec::new(),
                path: Some(dir.join(file)),
                pattern: pattern.or_else(|| match &profile.tokenizer {
                    TokenizerSpec::File { pattern, .. } => pattern.clone(),
                    _ => None,
                }),
                shipped: None,
                margin: fallback,
            };
        } else if let Some(encoding) = text("encoding")? {
            profile.tokenizer =
                TokenizerSpec::OpenAi(encoding.parse::<Encoding>().map_err(|e| e.to_string())?);
        } else if let Some(margin) = margin {
            profile.tokenizer = TokenizerSpec::Estimate { margin };
        } else if let (Some(p), TokenizerSpec::File { pattern, .. }) =
            (pattern, &mut profile.tokenizer)
        {
            *pattern = Some(p);
        }
        Ok(profile)
    }
}

/// The 1-based line of the `[models.<name>]` header (quoted or bare), or 0.
/// The `base` a profile's table names, if any.
fn base_of(entry: &toml::Table) -> Option<&str> {
    entry.get("base").and_then(toml::Value::as_str)
}

fn header_line(text: &str, name: &str) -> usize {
    text.lines()
        .position(|line| {
            let line = line.trim();
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .map(str::trim);
            inner.is_some_and(|h| {
                h == name
                    || h.strip_prefix("models.")
                        .is_some_and(|n| n.trim().trim_matches('"') == name)
            })
        })
        .map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<ModelRegistry, String> {
        let mut registry = ModelRegistry::builtin();
        registry
            .extend_from_toml(text, Path::new("conf/models.toml"))
            .map(|()| registry)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn overrides_keep_what_they_do_not_change() {
        let registry =
            load("[models.\"gpt-4o\"]\nbase = \"gpt-4o\"\ncontext_window = 64000\n").unwrap();
        let gpt4o = registry.get("gpt-4o").unwrap();
        assert_eq!(
            (gpt4o.context_window, gpt4o.max_output_tokens),
            (64_000, 16_384)
        );
        assert_eq!(gpt4o.tokenizer, TokenizerSpec::OpenAi(Encoding::O200kBase));
    }

    #[test]
    fn a_base_may_be_defined_later_in_the_file_but_not_in_a_cycle() {
        let registry = load(
            "[models.a-child]\nbase = \"z-parent\"\nmax_output_tokens = 100\n\n[models.z-parent]\nbase = \"gpt-4o\"\ncontext_window = 50000\n",
        )
        .unwrap();
        let child = registry.get("a-child").unwrap();
        assert_eq!(
            (child.context_window, child.max_output_tokens),
            (50_000, 100)
        );
        assert_eq!(
            load(
                "[models.a]\nbase = \"b\"\n\n[models.b]\nbase = \"c\"\n\n[models.c]\nbase = \"a\"\n"
            )
            .unwrap_err(),
            "conf/models.toml:1: model `a`: `base` forms a cycle: a -> b -> c -> a"
        );
        // A failed file adds nothing.
        let mut registry = ModelRegistry::builtin();
        let text = "[models.ok]\nbase = \"gpt-4o\"\n\n[models.x]\nbase = \"x2\"\n\n[models.x2]\nbase = \"x\"\n";
        assert!(
            registry
                .extend_from_toml(text, Path::new("m.toml"))
                .is_err()
        );
        assert!(registry.get("ok").is_none());
    }

    #[test]
    fn a_tokenizer_path_is_relative_to_the_file() {
        let registry =
            load("[models.local]\nbase = \"llama3.1\"\ntokenizer = \"tok/tokenizer.model\"\n")
                .unwrap();
        let TokenizerSpec::File { path, pattern, .. } = &registry.get("local").unwrap().tokenizer
        else {
            panic!("a file");
        };
        assert_eq!(path.as_deref(), Some(Path::new("conf/tok/tokenizer.model")));
        assert_eq!(pattern, &Some(SplitPattern::LLAMA3)); // from the base
    }

    #[test]
    fn mistakes_name_the_file_line_and_model() {
        let cases = [
            (
                "[models.a]\ncontext_window = 10\n",
                "conf/models.toml:1: model `a`: needs `context_window` and `max_output_tokens`",
            ),
            ("x = 1\n", "conf/models.toml:0: unknown table `x`"),
            (
                "\n[models.b]\nbase = \"gpt-4oo\"\n",
                "conf/models.toml:2: model `b`: base: unknown model \"gpt-4oo\" (did you mean \"gpt-4o\"?)",
            ),
            (
                "[models.c]\nbase = \"gpt-4o\"\ntemplate = \"chatm\"\n",
                "unknown chat template \"chatm\"",
            ),
            (
                "[models.d]\nbase = \"gpt-4o\"\nencoding = \"p50k\"\n",
                "unknown encoding \"p50k\"",
            ),
            (
                "[models.e]\ncontext_window = 10\nmax_output_tokens = 20\n",
                "max_output_tokens 20 exceeds context_window 10",
            ),
            (
                "[models.f]\nbase = \"gpt-4o\"\nestimate_margin = 0.5\n",
                "at least 1.0",
            ),
            (
                "[models.g]\nbase = \"gpt-4o\"\nencoding = \"o200k_base\"\nestimate_margin = 2\n",
                "give one of",
            ),
            ("[models.h\n", "conf/models.toml:1: invalid TOML"),
        ];
        for (text, expected) in cases {
            let err = load(text).unwrap_err();
            assert!(err.contains(expected), "{text:?}: {err}");
        }
    }
}
