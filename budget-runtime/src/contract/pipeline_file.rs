//! One pipeline YAML file as written, before `extends` is resolved.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_saphyr::Spanned;
use sha2::{Digest, Sha256};

use crate::contract::{Policy, Settings, SourceLocation, Sourced, Step};
use crate::error::ContractError;

/// A parsed pipeline file: its own settings and steps, its `extends`
/// reference, and the SHA-256 of its bytes.
#[derive(Debug)]
pub(crate) struct PipelineFile {
    pub(crate) path: PathBuf,
    pub(crate) sha256: [u8; 32],
    pub(crate) extends: Option<Sourced<String>>,
    pub(crate) settings: Settings,
    pub(crate) steps: Vec<Step>,
}

#[derive(Deserialize)]
struct RawPipeline {
    extends: Option<Spanned<String>>,
    settings: Option<RawSettings>,
    steps: Option<Vec<Spanned<RawStep>>>,
}

#[derive(Deserialize)]
struct RawSettings {
    max_context_tokens: Option<Spanned<i64>>,
    max_history_tokens: Option<Spanned<i64>>,
    budget_safety_margin_tokens: Option<Spanned<i64>>,
    limits_policy: Option<Spanned<Policy>>,
}

#[derive(Deserialize)]
struct RawStep {
    name: Option<String>,
    #[serde(rename = "type")]
    kind: Option<Spanned<String>>,
    prompt_key: Option<Spanned<String>>,
    max_output_tokens: Option<Spanned<i64>>,
    max_tokens: Option<Spanned<i64>>,
    use_history: Option<bool>,
    user_parts: Option<Vec<Spanned<String>>>,
}

impl PipelineFile {
    /// Reads and parses the pipeline file at `path`.
    pub(crate) fn read(path: &Path) -> Result<Self, ContractError> {
        let text = std::fs::read_to_string(path).map_err(|source| ContractError::Read {
            path: path.to_owned(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses pipeline YAML; `path` names the file in errors and locations.
    pub(crate) fn parse(yaml: &str, path: &Path) -> Result<Self, ContractError> {
        let raw: Option<RawPipeline> =
            serde_saphyr::from_str(yaml).map_err(|e| yaml_error(&e, path))?;
        let raw = raw.unwrap_or(RawPipeline {
            extends: None,
            settings: None,
            steps: None,
        });
        let number = |s: Spanned<i64>| sourced(s, path);
        let settings = raw.settings.map_or_else(Settings::default, |s| Settings {
            max_context_tokens: s.max_context_tokens.map(number),
            max_history_tokens: s.max_history_tokens.map(number),
            budget_safety_margin_tokens: s.budget_safety_margin_tokens.map(number),
            limits_policy: s.limits_policy.map(|p| sourced(p, path)),
        });
        let mut steps: Vec<Step> = Vec::new();
        for spanned in raw.steps.unwrap_or_default() {
            let location = location(&spanned, path);
            let raw = spanned.value;
            if let Some(name) = &raw.name
                && steps.iter().any(|s| s.name.as_ref() == Some(name))
            {
                return Err(ContractError::DuplicateStep {
                    location,
                    step: name.clone(),
                });
            }
            steps.push(Step {
                name: raw.name,
                location,
                kind: raw.kind.map(|k| sourced(k, path)),
                prompt_key: raw.prompt_key.map(|k| sourced(k, path)),
                max_output_tokens: raw.max_output_tokens.map(number),
                max_tokens: raw.max_tokens.map(number),
                use_history: raw.use_history,
                user_parts: raw
                    .user_parts
                    .map(|parts| parts.into_iter().map(|p| sourced(p, path)).collect()),
            });
        }
        Ok(Self {
            path: path.to_owned(),
            sha256: Sha256::digest(yaml.as_bytes()).into(),
            extends: raw.extends.map(|e| sourced(e, path)),
            settings,
            steps,
        })
    }
}

fn location<T>(spanned: &Spanned<T>, path: &Path) -> SourceLocation {
    SourceLocation::at(path, spanned.referenced.line(), spanned.referenced.column())
}

fn sourced<T>(spanned: Spanned<T>, path: &Path) -> Sourced<T> {
    let location = location(&spanned, path);
    Sourced {
        value: spanned.value,
        location,
    }
}

/// A [`ContractError::Yaml`] with the file, line and column of the problem.
fn yaml_error(error: &serde_saphyr::Error, path: &Path) -> ContractError {
    let plain = error.render_with_options(serde_saphyr::render_options! {
        snippets: serde_saphyr::SnippetMode::Off,
    });
    let (location, message) = match error.location() {
        Some(at) => {
            let suffix = format!(" at line {}, column {}", at.line(), at.column());
            let message = plain.strip_suffix(&suffix).unwrap_or(&plain).to_owned();
            (SourceLocation::at(path, at.line(), at.column()), message)
        }
        None => (SourceLocation::file(path), plain),
    };
    ContractError::Yaml { location, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(yaml: &str) -> Result<PipelineFile, ContractError> {
        PipelineFile::parse(yaml, Path::new("p.yaml"))
    }

    #[test]
    fn values_carry_their_line() {
        let file =
            parse("settings:\n  max_context_tokens: 6000\n  max_history_tokens: 2000\n").unwrap();
        let ctx = file.settings.max_context_tokens.unwrap();
        assert_eq!(ctx.value, 6000);
        assert_eq!(ctx.location.to_string(), "p.yaml:2:23");
        assert_eq!(
            file.settings.max_history_tokens.unwrap().location.line,
            Some(3)
        );
    }

    #[test]
    fn empty_file_has_nothing() {
        let file = parse("").unwrap();
        assert!(file.extends.is_none() && file.steps.is_empty());
        assert_eq!(file.settings, Settings::default());
    }

    #[test]
    fn malformed_yaml_names_file_and_line() {
        let err = parse("settings:\n  max_context_tokens: [1\nsteps: []\n").unwrap_err();
        let ContractError::Yaml { location, .. } = &err else {
            panic!("{err:?}")
        };
        assert_eq!(location.path, Path::new("p.yaml"));
        assert!(location.line.is_some(), "{err}");
        assert!(err.to_string().starts_with("p.yaml:"), "{err}");
    }

    #[test]
    fn wrong_type_names_line_and_column() {
        let err = parse("settings:\n  max_context_tokens: lots\n").unwrap_err();
        assert_eq!(err.to_string(), "p.yaml:2:23: invalid YAML: invalid i64");
    }

    #[test]
    fn unknown_policy_in_file_is_a_yaml_error() {
        let err = parse("settings:\n  limits_policy: clamp_hard\n").unwrap_err();
        let ContractError::Yaml { location, .. } = &err else {
            panic!("{err:?}")
        };
        assert_eq!(location.line, Some(2), "{err}");
    }

    #[test]
    fn duplicate_step_names_in_one_file() {
        let err =
            parse("steps:\n  - name: a\n    type: call_model\n  - name: a\n    type: call_model\n")
                .unwrap_err();
        assert!(
            matches!(&err, ContractError::DuplicateStep { step, location } if step == "a" && location.line == Some(4)),
            "{err}"
        );
    }

    #[test]
    fn digest_is_sha256_of_the_bytes() {
        // SHA-256 of the empty string.
        let file = parse("").unwrap();
        assert_eq!(file.sha256[..4], [0xe3, 0xb0, 0xc4, 0x42]);
    }
}
