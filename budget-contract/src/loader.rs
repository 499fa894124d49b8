//! Loading pipelines in the LocalAI-RAG format: one or several pipelines per
//! file, `extends` chains resolved and merged.

use std::path::{Path, PathBuf};

use crate::yaml::{Node, Value};
use crate::{ContractError, PipelineConfig, SourceLocation, read_config_file};
use budget_runtime::payload::Sha256Digest;

/// The SHA-256 digest of one file of a pipeline's `extends` chain.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PipelineSource {
    /// The file, as reached from the root pipeline.
    pub path: PathBuf,
    /// SHA-256 of its bytes.
    pub sha256: Sha256Digest,
}

/// Reads pipeline files and resolves their `extends` chains.
///
/// A file holds one pipeline under `YAMLpipeline:` (a mapping with `name`,
/// `extends`, `settings`, `steps`), or several under `YAMLpipelines:` or
/// `pipelines:` (a list of such mappings, selected by `name`).
///
/// `extends: TARGET` names the parent, optionally as `TARGET#pipeline_name`
/// to pick one pipeline of a multi-pipeline file. `TARGET` is tried, in
/// order: as an absolute path; relative to the extending file's folder;
/// relative to the pipelines root; under the root with `.yaml`, then `.yml`
/// appended. The first path that exists is read (a FIFO, device or folder
/// there is an error, never skipped).
///
/// Merging: the whole pipeline mapping merges deeply with the child winning
/// (mappings key by key, anything else replaced, so `settings` merge key by
/// key); `steps` merge by `id`: parent order kept, a child step with a
/// parent's id deep-merged into it, new child steps appended. The child's
/// `name` wins. A cycle is an error.
///
/// ```
/// use budget::contract::PipelineLoader;
///
/// let dir = std::env::temp_dir().join(format!("budget-doc-loader-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("base"))?;
/// std::fs::write(dir.join("base/common.yaml"), "YAMLpipeline:\n  name: common\n  settings:\n    max_context_tokens: 6000\n    max_history_tokens: 800\n  steps:\n    - id: answer\n      action: call_model\n      prompt_key: answer\n      max_output_tokens: 500\n")?;
/// std::fs::write(dir.join("long.yaml"), "YAMLpipeline:\n  name: long\n  extends: ./base/common.yaml\n  settings:\n    max_context_tokens: 9000\n  steps:\n    - id: answer\n      max_output_tokens: 900\n")?;
///
/// let loader = PipelineLoader::new(&dir);
/// let p = loader.load(dir.join("long.yaml"), None)?;
/// assert_eq!(p.name(), "long");
/// assert_eq!(p.settings().max_context_tokens.as_ref().unwrap().value, 9_000); // child wins
/// assert_eq!(p.settings().max_history_tokens.as_ref().unwrap().value, 800);   // inherited
/// let answer = &p.steps()[0];
/// assert_eq!(answer.prompt_key.as_ref().unwrap().value, "answer");             // inherited
/// assert_eq!(answer.max_output_tokens.as_ref().unwrap().value, 900);           // merged by id
/// assert_eq!(p.files().len(), 2);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineLoader {
    root: PathBuf,
    within: Vec<PathBuf>,
}

/// A pipeline's name as written (or its file's path) with its loading result.
pub type NamedPipeline = (String, Result<PipelineConfig, ContractError>);

/// A pipeline mapping as written, with the file it came from.
struct Written {
    node: Node,
    path: PathBuf,
    sha256: Sha256Digest,
}

impl PipelineLoader {
    /// A loader whose pipelines root (for bare `extends` names) is `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self {
            root: root.into(),
            within: Vec::new(),
        }
    }

    /// The same loader reading only files that resolve (symbolic links
    /// followed) inside one of `dirs`: a pipeline or an `extends` target
    /// elsewhere is [`ContractError::OutsideSandbox`]. No directories: no
    /// limit.
    ///
    /// ```
    /// use budget::contract::{ContractError, PipelineLoader};
    ///
    /// let dir = std::env::temp_dir().join(format!("budget-doc-within-{}", std::process::id()));
    /// std::fs::create_dir_all(dir.join("inside"))?;
    /// std::fs::write(dir.join("base.yaml"), "YAMLpipeline: {name: base}\n")?;
    /// std::fs::write(dir.join("inside/p.yaml"), "YAMLpipeline: {name: p, extends: ../base.yaml}\n")?;
    /// let loader = PipelineLoader::new(dir.join("inside")).within([dir.join("inside")]);
    /// let error = loader.load(dir.join("inside/p.yaml"), None).unwrap_err();
    /// assert!(matches!(error, ContractError::OutsideSandbox { .. }));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn within(mut self, dirs: impl IntoIterator<Item = PathBuf>) -> Self {
        self.within = dirs
            .into_iter()
            .map(|dir| std::fs::canonicalize(&dir).unwrap_or(dir))
            .collect();
        self
    }

    /// Reads and parses the file at `path`, if it lies within the limit.
    fn read(&self, path: &Path) -> Result<(Node, Sha256Digest), ContractError> {
        if !self.within.is_empty() {
            let resolved = std::fs::canonicalize(path).ok();
            let inside = resolved
                .as_deref()
                .is_some_and(|r| self.within.iter().any(|dir| r.starts_with(dir)));
            if !inside && resolved.is_some() {
                return Err(ContractError::OutsideSandbox {
                    path: path.to_owned(),
                });
            }
        }
        read_document(path)
    }

    /// The pipelines root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Loads the pipeline of `path`: the only one, or the one called `name`
    /// in a multi-pipeline file.
    ///
    /// # Errors
    /// Reading, YAML, shape, selection and `extends` errors.
    pub fn load(
        &self,
        path: impl AsRef<Path>,
        name: Option<&str>,
    ) -> Result<PipelineConfig, ContractError> {
        let path = path.as_ref();
        let (doc, sha256) = self.read(path)?;
        let node = select(pipelines_in(&doc)?, path, name)?;
        self.build(Written {
            node,
            path: path.to_owned(),
            sha256,
        })
    }

    /// Loads every pipeline of the file at `path`, each with its name as
    /// written (the file's path when it has none). The outer error is about
    /// the file itself (unreadable, not YAML, no pipeline root); each inner
    /// result is one pipeline's.
    ///
    /// # Errors
    /// As [`PipelineLoader::load`], for the file.
    pub fn load_all(&self, path: impl AsRef<Path>) -> Result<Vec<NamedPipeline>, ContractError> {
        let path = path.as_ref();
        let (doc, sha256) = self.read(path)?;
        Ok(pipelines_in(&doc)?
            .into_iter()
            .map(|node| {
                let name = pipeline_name(&node).unwrap_or_else(|| path.display().to_string());
                let pipeline = self.build(Written {
                    node,
                    path: path.to_owned(),
                    sha256,
                });
                (name, pipeline)
            })
            .collect())
    }

    fn build(&self, root: Written) -> Result<PipelineConfig, ContractError> {
        let root_path = root.path.clone();
        let mut seen = vec![(identity(&root.path), pipeline_name(&root.node))];
        let mut chain = vec![root];
        while let Some((target, name, location)) = extends_of(chain.last())? {
            let child_path = &location.path;
            let parent_path = self.resolve_target(&target, child_path, &location)?;
            let (doc, sha256) = self.read(&parent_path).map_err(|e| match e {
                ContractError::Read { source, .. } => ContractError::Extends {
                    location: location.clone(),
                    target: parent_path.clone(),
                    source,
                },
                other => other,
            })?;
            let node = select(pipelines_in(&doc)?, &parent_path, name.as_deref())?;
            let id = (identity(&parent_path), pipeline_name(&node));
            if seen.contains(&id) {
                let mut cycle: Vec<PathBuf> = chain.iter().map(|w| w.path.clone()).collect();
                cycle.push(parent_path);
                return Err(ContractError::ExtendsCycle { chain: cycle });
            }
            seen.push(id);
            chain.push(Written {
                node,
                path: parent_path,
                sha256,
            });
        }
        let files = chain
            .iter()
            .map(|w| PipelineSource {
                path: w.path.clone(),
                sha256: w.sha256,
            })
            .collect();
        let mut nodes = chain.into_iter().rev().map(|w| w.node);
        let base = nodes.next().unwrap_or(Node {
            value: Value::Null,
            location: SourceLocation::file(&root_path),
        });
        let merged = nodes.try_fold(base, merge_pipeline)?;
        PipelineConfig::from_merged(&merged, root_path, files)
    }

    /// The file an `extends` target names (see [`PipelineLoader`]).
    fn resolve_target(
        &self,
        target: &str,
        child: &Path,
        location: &SourceLocation,
    ) -> Result<PathBuf, ContractError> {
        let as_written = Path::new(target);
        if as_written.is_absolute() {
            return Ok(as_written.to_owned());
        }
        let folder = child.parent().unwrap_or(Path::new(""));
        let candidates = [
            folder.join(target),
            self.root.join(target),
            self.root.join(format!("{target}.yaml")),
            self.root.join(format!("{target}.yml")),
        ];
        candidates
            .iter()
            .find(|c| std::fs::symlink_metadata(c).is_ok())
            .cloned()
            .ok_or_else(|| ContractError::ExtendsNotFound {
                location: location.clone(),
                target: target.to_owned(),
                tried: candidates.to_vec(),
            })
    }
}

/// Reads and parses one file; the digest covers its bytes.
fn read_document(path: &Path) -> Result<(Node, Sha256Digest), ContractError> {
    let text = read_config_file(path).map_err(|source| ContractError::Read {
        path: path.to_owned(),
        source,
    })?;
    let sha256 = Sha256Digest::of(text.as_bytes());
    Ok((Node::parse(&text, path)?, sha256))
}

/// The pipeline mappings of a document, in order.
fn pipelines_in(doc: &Node) -> Result<Vec<Node>, ContractError> {
    if let Some((key, single)) = doc.entry("YAMLpipeline") {
        return match single.value {
            Value::Map(_) => Ok(vec![single.clone()]),
            _ => Err(shape(&key.location, "YAMLpipeline", "a mapping", single)),
        };
    }
    let Some((key, list)) = ["YAMLpipelines", "pipelines"]
        .into_iter()
        .find_map(|name| doc.entry(name))
    else {
        return Err(ContractError::NoPipeline {
            location: doc.location.clone(),
            found: match doc.value {
                Value::Map(_) => "a mapping without any of those keys",
                ref other => other.kind(),
            },
        });
    };
    let Value::Seq(items) = &list.value else {
        return Err(shape(&key.location, &key.name, "a list", list));
    };
    if items.is_empty() {
        return Err(ContractError::NoPipeline {
            location: list.location.clone(),
            found: "an empty list",
        });
    }
    items
        .iter()
        .map(|item| match item.value {
            Value::Map(_) => Ok(item.clone()),
            _ => Err(shape(&item.location, &key.name, "a list of mappings", item)),
        })
        .collect()
}

/// The pipeline called `name`, or the only one when no name is asked for.
fn select(
    mut pipelines: Vec<Node>,
    path: &Path,
    name: Option<&str>,
) -> Result<Node, ContractError> {
    match name {
        Some(wanted) if pipelines.len() > 1 => pipelines
            .into_iter()
            .find(|p| pipeline_name(p).as_deref() == Some(wanted))
            .ok_or_else(|| ContractError::PipelineNotFound {
                path: path.to_owned(),
                name: wanted.to_owned(),
            }),
        _ if pipelines.len() == 1 => Ok(pipelines.remove(0)),
        _ => Err(ContractError::AmbiguousPipeline {
            path: path.to_owned(),
            count: pipelines.len(),
        }),
    }
}

fn pipeline_name(node: &Node) -> Option<String> {
    match &node.get("name")?.value {
        Value::Str(name) => Some(name.trim().to_owned()),
        _ => None,
    }
}

/// The parent named by the last file of the chain: target, pipeline name
/// after `#`, and where the `extends` is written.
fn extends_of(
    last: Option<&Written>,
) -> Result<Option<(String, Option<String>, SourceLocation)>, ContractError> {
    let Some(node) = last.and_then(|w| w.node.get("extends")) else {
        return Ok(None);
    };
    let Value::Str(text) = &node.value else {
        return Err(shape(&node.location, "extends", "a string", node));
    };
    let (target, name) = match text.split_once('#') {
        Some((target, name)) => (target.trim(), Some(name.trim()).filter(|n| !n.is_empty())),
        None => (text.trim(), None),
    };
    if target.is_empty() {
        return Err(ContractError::EmptyExtends {
            location: node.location.clone(),
        });
    }
    Ok(Some((
        target.to_owned(),
        name.map(str::to_owned),
        node.location.clone(),
    )))
}

/// `child` over `parent`: deep merge, `steps` by id, no `extends` left.
fn merge_pipeline(parent: Node, child: Node) -> Result<Node, ContractError> {
    let parent_steps = steps_of(&parent)?;
    let child_steps = steps_of(&child)?;
    let steps_location = child
        .entry("steps")
        .or_else(|| parent.entry("steps"))
        .map(|(key, node)| (key.clone(), node.location.clone()));
    let mut merged = child.merged_over(parent);
    if let Value::Map(entries) = &mut merged.value {
        entries.retain(|(key, _)| key.name != "extends");
        if let Some((key, location)) = steps_location {
            let steps = merge_steps(parent_steps, child_steps)?;
            let node = Node {
                value: Value::Seq(steps),
                location,
            };
            match entries.iter_mut().find(|(k, _)| k.name == "steps") {
                Some(entry) => entry.1 = node,
                None => entries.push((key, node)),
            }
        }
    }
    Ok(merged)
}

/// The step list of a pipeline mapping (`null` or absent: none).
pub(crate) fn steps_of(pipeline: &Node) -> Result<Vec<Node>, ContractError> {
    match pipeline.entry("steps") {
        None => Ok(Vec::new()),
        Some((_, node)) if node.value == Value::Null => Ok(Vec::new()),
        Some((key, node)) => match &node.value {
            Value::Seq(items) => Ok(items.clone()),
            _ => Err(shape(&key.location, "steps", "a list", node)),
        },
    }
}

/// A step's `id`: a non-empty string.
pub(crate) fn step_id(step: &Node) -> Result<&str, ContractError> {
    if step.as_map().is_none() {
        return Err(shape(&step.location, "steps[]", "a mapping", step));
    }
    match step.get("id").map(|n| &n.value) {
        Some(Value::Str(id)) if !id.trim().is_empty() => Ok(id.trim()),
        _ => Err(ContractError::MissingStepField {
            location: step.location.clone(),
            step: "?".to_owned(),
            field: "id",
        }),
    }
}

/// Parent order kept, same-id child steps merged in, new ones appended.
fn merge_steps(parent: Vec<Node>, child: Vec<Node>) -> Result<Vec<Node>, ContractError> {
    check_unique_ids(&parent)?;
    check_unique_ids(&child)?;
    let mut child: Vec<Option<Node>> = child.into_iter().map(Some).collect();
    let mut merged = Vec::with_capacity(parent.len() + child.len());
    for step in parent {
        let id = step_id(&step)?.to_owned();
        let mut same = None;
        for slot in &mut child {
            if slot
                .as_ref()
                .is_some_and(|c| step_id(c).is_ok_and(|c| c == id))
            {
                same = slot.take();
            }
        }
        merged.push(match same {
            Some(over) => over.merged_over(step),
            None => step,
        });
    }
    merged.extend(child.into_iter().flatten());
    Ok(merged)
}

/// An error for the second step of a list that reuses an id.
pub(crate) fn check_unique_ids(steps: &[Node]) -> Result<(), ContractError> {
    let mut seen: Vec<&str> = Vec::with_capacity(steps.len());
    for step in steps {
        let id = step_id(step)?;
        if seen.contains(&id) {
            return Err(ContractError::DuplicateStep {
                location: step.location.clone(),
                step: id.to_owned(),
            });
        }
        seen.push(id);
    }
    Ok(())
}

/// A value of the wrong type.
pub(crate) fn shape(
    location: &SourceLocation,
    field: &str,
    expected: &'static str,
    found: &Node,
) -> ContractError {
    ContractError::Shape {
        location: location.clone(),
        field: field.to_owned(),
        expected,
        found: found.value.kind(),
    }
}

/// A file's identity for cycle detection: its canonical path when it
/// exists, else the path as written.
fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
}
