//! A merged pipeline's budget-relevant settings and steps, each value with
//! the file and line it came from.

use std::path::{Path, PathBuf};

use crate::loader::{check_unique_ids, shape, step_id, steps_of};
use crate::yaml::{Node, Value};
use crate::{
    CALL_MODEL, CALL_MODEL_KEYS, ContractError, PIPELINE_KEYS, PipelineLoader, PipelineSource,
    Policy, SETTINGS_KEYS, SourceLocation, Sourced, Typo,
};

/// The budget settings of a pipeline, merged over its `extends` chain. Other
/// settings (the real format has many) are ignored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// Tokens of retrieved context per model call; required, > 0.
    pub max_context_tokens: Option<Sourced<i64>>,
    /// Tokens of conversation history; counted in every `call_model` step
    /// (0 when unset), required when a step has `use_history: true`.
    pub max_history_tokens: Option<Sourced<i64>>,
    /// Tokens kept free per call; 128 when unset.
    pub budget_safety_margin_tokens: Option<Sourced<i64>>,
    /// The policy asked for by the configuration.
    pub limits_policy: Option<Sourced<Policy>>,
    /// Folder of the prompt files; `prompts` when unset.
    pub prompts_dir: Option<Sourced<String>>,
}

/// One user-message part of a `call_model` step: `{source, template}`, the
/// template holding one `{}` where the runtime puts the source's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserPart {
    /// The part's key in `user_parts`.
    pub name: String,
    /// The template, if the part has one.
    pub template: Option<Sourced<String>>,
    /// Where the part is written.
    pub location: SourceLocation,
}

/// One merged step. Only `call_model` steps carry budget fields; every other
/// action is accepted and not checked.
///
/// ```
/// use budget::contract::PipelineConfig;
///
/// let yaml = "YAMLpipeline:\n  name: p\n  steps:\n    - id: answer\n      action: call_model\n      prompt_key: answer\n      max_tokens: 512\n";
/// let p = PipelineConfig::from_yaml_str(yaml, "p.yaml")?;
/// let step = &p.steps()[0];
/// assert_eq!(step.id, "answer");
/// assert!(step.is_call_model());
/// assert_eq!(step.max_tokens.as_ref().map(|m| m.value), Some(512));
/// # Ok::<(), budget::contract::ContractError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// The step's `id`.
    pub id: String,
    /// Where the step is written (in the last file that defines it).
    pub location: SourceLocation,
    /// The step's `action`.
    pub action: Sourced<String>,
    /// The key of the system prompt.
    pub prompt_key: Option<Sourced<String>>,
    /// The output limit; takes precedence over `max_tokens`.
    pub max_output_tokens: Option<Sourced<i64>>,
    /// The output limit under its older name.
    pub max_tokens: Option<Sourced<i64>>,
    /// Whether the call includes conversation history.
    pub use_history: bool,
    /// The user-message parts, in order.
    pub user_parts: Vec<UserPart>,
}

impl Step {
    /// Whether the action is `call_model`.
    pub fn is_call_model(&self) -> bool {
        self.action.value == CALL_MODEL
    }
}

/// A pipeline with its `extends` chain resolved (see [`PipelineLoader`]).
///
/// ```
/// use budget::contract::PipelineConfig;
///
/// let yaml = "YAMLpipeline:\n  name: p\n  settings:\n    max_context_token: 5000\n";
/// let p = PipelineConfig::from_yaml_str(yaml, "p.yaml")?;
/// assert_eq!(p.name(), "p");
/// assert!(p.settings().max_context_tokens.is_none());
/// assert_eq!(p.typos()[0].resembles, "max_context_tokens");
/// # Ok::<(), budget::contract::ContractError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineConfig {
    name: String,
    path: PathBuf,
    files: Vec<PipelineSource>,
    settings: Settings,
    steps: Vec<Step>,
    typos: Vec<Typo>,
}

impl PipelineConfig {
    /// Loads the only pipeline of the file at `path`, with the file's folder
    /// as pipelines root. Use [`PipelineLoader`] to pick a root or a
    /// pipeline of a multi-pipeline file.
    ///
    /// # Errors
    /// As [`PipelineLoader::load`].
    pub fn load(path: impl AsRef<Path>) -> Result<Self, ContractError> {
        let path = path.as_ref();
        PipelineLoader::new(path.parent().unwrap_or(Path::new(""))).load(path, None)
    }

    /// Parses a single-pipeline document as if read from `path` (an
    /// `extends` is not followed: use [`PipelineLoader`] for chains).
    ///
    /// # Errors
    /// YAML and shape errors; [`ContractError::ExtendsNotFollowed`] when the
    /// pipeline extends another.
    pub fn from_yaml_str(yaml: &str, path: impl AsRef<Path>) -> Result<Self, ContractError> {
        let path = path.as_ref();
        let doc = Node::parse(yaml, path)?;
        let (_, node) = doc
            .entry("YAMLpipeline")
            .ok_or_else(|| ContractError::NoPipeline {
                location: doc.location.clone(),
                found: match doc.value {
                    Value::Map(_) => "a mapping without a YAMLpipeline key",
                    ref other => other.kind(),
                },
            })?;
        if let Some(extends) = node.get("extends") {
            return Err(ContractError::ExtendsNotFollowed {
                location: extends.location.clone(),
            });
        }
        Self::from_merged(node, path.to_owned(), Vec::new())
    }

    /// Reads the typed view of a merged pipeline mapping.
    pub(crate) fn from_merged(
        node: &Node,
        path: PathBuf,
        files: Vec<PipelineSource>,
    ) -> Result<Self, ContractError> {
        let mut typos = Vec::new();
        find_typos(node, &PIPELINE_KEYS, &mut typos);
        let name = match node.get("name") {
            Some(Node {
                value: Value::Str(name),
                ..
            }) if !name.trim().is_empty() => name.trim().to_owned(),
            Some(other) => return Err(shape(&other.location, "name", "a non-empty string", other)),
            None => {
                return Err(ContractError::Missing {
                    location: node.location.clone(),
                    field: "name",
                });
            }
        };
        let settings = match node.get("settings") {
            None => Settings::default(),
            Some(s) if s.as_map().is_none() => {
                return Err(shape(&s.location, "settings", "a mapping", s));
            }
            Some(s) => {
                find_typos(s, &SETTINGS_KEYS, &mut typos);
                Settings {
                    max_context_tokens: integer(s, "max_context_tokens")?,
                    max_history_tokens: integer(s, "max_history_tokens")?,
                    budget_safety_margin_tokens: integer(s, "budget_safety_margin_tokens")?,
                    limits_policy: policy(s)?,
                    prompts_dir: string(s, "prompts_dir")?,
                }
            }
        };
        let raw_steps = steps_of(node)?;
        check_unique_ids(&raw_steps)?;
        let steps = raw_steps
            .iter()
            .map(|s| step(s, &mut typos))
            .collect::<Result<_, _>>()?;
        Ok(Self {
            name,
            path,
            files,
            settings,
            steps,
            typos,
        })
    }

    /// The pipeline's `name` (the child's, for an extending pipeline).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file the pipeline was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The root file first, then each ancestor it extends, with digests.
    pub fn files(&self) -> &[PipelineSource] {
        &self.files
    }

    /// The merged budget settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The merged steps, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Keys and actions that resemble a budget key or `call_model` without
    /// being one, in document order.
    pub fn typos(&self) -> &[Typo] {
        &self.typos
    }
}

fn find_typos(mapping: &Node, known: &[&'static str], typos: &mut Vec<Typo>) {
    for (key, _) in mapping.as_map().unwrap_or_default() {
        typos.extend(Typo::find(&key.name, known, key.location.clone()));
    }
}

fn step(node: &Node, typos: &mut Vec<Typo>) -> Result<Step, ContractError> {
    let id = step_id(node)?.to_owned();
    let missing = |field| ContractError::MissingStepField {
        location: node.location.clone(),
        step: id.clone(),
        field,
    };
    let action = string(node, "action")?
        .filter(|a| !a.value.trim().is_empty())
        .ok_or_else(|| missing("action"))?;
    let mut step = Step {
        id,
        location: node.location.clone(),
        action,
        prompt_key: None,
        max_output_tokens: None,
        max_tokens: None,
        use_history: false,
        user_parts: Vec::new(),
    };
    if !step.is_call_model() {
        typos.extend(Typo::find(
            &step.action.value,
            &[CALL_MODEL],
            step.action.location.clone(),
        ));
        return Ok(step);
    }
    find_typos(node, &CALL_MODEL_KEYS, typos);
    step.prompt_key = string(node, "prompt_key")?;
    step.max_output_tokens = integer(node, "max_output_tokens")?;
    step.max_tokens = integer(node, "max_tokens")?;
    step.use_history = match node.get("use_history") {
        None => false,
        Some(Node {
            value: Value::Bool(b),
            ..
        }) => *b,
        Some(other) => return Err(shape(&other.location, "use_history", "a boolean", other)),
    };
    step.user_parts = match node.get("user_parts") {
        None => Vec::new(),
        Some(parts) => {
            let Some(entries) = parts.as_map() else {
                return Err(shape(&parts.location, "user_parts", "a mapping", parts));
            };
            entries
                .iter()
                .map(|(key, part)| {
                    if part.as_map().is_none() {
                        return Err(shape(&part.location, &key.name, "a mapping", part));
                    }
                    Ok(UserPart {
                        name: key.name.clone(),
                        template: string(part, "template")?,
                        location: key.location.clone(),
                    })
                })
                .collect::<Result<_, _>>()?
        }
    };
    Ok(step)
}

fn integer(mapping: &Node, field: &str) -> Result<Option<Sourced<i64>>, ContractError> {
    let Some(node) = mapping.get(field) else {
        return Ok(None);
    };
    match node.value {
        Value::Int(v) => i64::try_from(v)
            .map(|value| {
                Some(Sourced {
                    value,
                    location: node.location.clone(),
                })
            })
            .map_err(|_| shape(&node.location, field, "an integer within i64", node)),
        _ => Err(shape(&node.location, field, "an integer", node)),
    }
}

fn string(mapping: &Node, field: &str) -> Result<Option<Sourced<String>>, ContractError> {
    let Some(node) = mapping.get(field) else {
        return Ok(None);
    };
    match &node.value {
        Value::Str(v) => Ok(Some(Sourced {
            value: v.clone(),
            location: node.location.clone(),
        })),
        _ => Err(shape(&node.location, field, "a string", node)),
    }
}

fn policy(settings: &Node) -> Result<Option<Sourced<Policy>>, ContractError> {
    let Some(text) = string(settings, "limits_policy")? else {
        return Ok(None);
    };
    let value = text
        .value
        .parse()
        .map_err(|_| ContractError::UnknownPolicy {
            origin: text.location.to_string(),
            value: text.value.clone(),
        })?;
    Ok(Some(Sourced {
        value,
        location: text.location,
    }))
}
