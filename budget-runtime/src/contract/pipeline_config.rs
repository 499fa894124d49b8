//! A pipeline with its `extends` chain resolved: merged settings and steps.

use std::path::{Path, PathBuf};

use crate::contract::pipeline_file::PipelineFile;
use crate::contract::{Policy, SourceLocation, Sourced};
use crate::error::ContractError;

/// The step `type` the contract checks.
pub const CALL_MODEL: &str = "call_model";

/// Pipeline-wide settings, each with the file and line it came from; `None`
/// when no file in the `extends` chain sets it.
///
/// YAML keys under `settings:` are `max_context_tokens`,
/// `max_history_tokens`, `budget_safety_margin_tokens` (default 128 when
/// unset) and `limits_policy` (`fail_fast` or `auto_clamp`). Other keys
/// belong to the pipeline runtime and are ignored here.
///
/// ```
/// use budget_runtime::contract::PipelineConfig;
///
/// let p = PipelineConfig::from_yaml_str("settings:\n  max_context_tokens: 6000\n", "p.yaml")?;
/// assert_eq!(p.settings().max_context_tokens.as_ref().map(|s| s.value), Some(6_000));
/// assert!(p.settings().max_history_tokens.is_none());
/// # Ok::<(), budget_runtime::ContractError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// Tokens of retrieved context per model call.
    pub max_context_tokens: Option<Sourced<i64>>,
    /// Tokens of history for steps with `use_history: true`.
    pub max_history_tokens: Option<Sourced<i64>>,
    /// Tokens kept free per call; 128 when unset.
    pub budget_safety_margin_tokens: Option<Sourced<i64>>,
    /// The policy asked for by the configuration.
    pub limits_policy: Option<Sourced<Policy>>,
}

impl Settings {
    /// Each setting of `self` (the child), else the one of `parent`.
    fn over(self, parent: Settings) -> Settings {
        Settings {
            max_context_tokens: self.max_context_tokens.or(parent.max_context_tokens),
            max_history_tokens: self.max_history_tokens.or(parent.max_history_tokens),
            budget_safety_margin_tokens: self
                .budget_safety_margin_tokens
                .or(parent.budget_safety_margin_tokens),
            limits_policy: self.limits_policy.or(parent.limits_policy),
        }
    }
}

/// One pipeline step as merged over the `extends` chain. Only `call_model`
/// steps are checked; other step types and unknown keys are ignored.
///
/// ```
/// use budget_runtime::contract::PipelineConfig;
///
/// let yaml = "steps:\n  - name: answer\n    type: call_model\n    prompt_key: answer\n    max_tokens: 512\n";
/// let p = PipelineConfig::from_yaml_str(yaml, "p.yaml")?;
/// let step = &p.steps()[0];
/// assert_eq!(step.label(0), "answer");
/// assert!(step.is_call_model());
/// assert_eq!(step.max_tokens.as_ref().map(|m| m.value), Some(512));
/// # Ok::<(), budget_runtime::ContractError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Step {
    /// The step's `name`; a child file's step with the same name overrides it.
    pub name: Option<String>,
    /// Where the step is written (in the last file that defines it).
    pub location: SourceLocation,
    /// The step `type`, e.g. `call_model`.
    pub kind: Option<Sourced<String>>,
    /// The key of the system prompt in the prompt store.
    pub prompt_key: Option<Sourced<String>>,
    /// The output limit; takes precedence over `max_tokens`.
    pub max_output_tokens: Option<Sourced<i64>>,
    /// The output limit under its older name.
    pub max_tokens: Option<Sourced<i64>>,
    /// Whether the call includes conversation history; `false` when unset.
    pub use_history: Option<bool>,
    /// Templates of the user message parts, with `{{ placeholders }}`.
    pub user_parts: Option<Vec<Sourced<String>>>,
}

impl Step {
    /// The step's name, or `steps[index]` for an unnamed step.
    pub fn label(&self, index: usize) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| format!("steps[{index}]"))
    }

    /// Whether the step `type` is `call_model`.
    pub fn is_call_model(&self) -> bool {
        self.kind.as_ref().is_some_and(|k| k.value == CALL_MODEL)
    }

    /// Each field of `self` (the child), else the one of `parent`. The two
    /// output-limit keys merge as one setting, so a child's `max_tokens`
    /// replaces a parent's `max_output_tokens`.
    fn over(self, parent: Step) -> Step {
        let child_sets_output = self.max_output_tokens.is_some() || self.max_tokens.is_some();
        let (max_output_tokens, max_tokens) = if child_sets_output {
            (self.max_output_tokens, self.max_tokens)
        } else {
            (parent.max_output_tokens, parent.max_tokens)
        };
        Step {
            name: self.name.or(parent.name),
            location: self.location,
            kind: self.kind.or(parent.kind),
            prompt_key: self.prompt_key.or(parent.prompt_key),
            max_output_tokens,
            max_tokens,
            use_history: self.use_history.or(parent.use_history),
            user_parts: self.user_parts.or(parent.user_parts),
        }
    }
}

/// The SHA-256 digest of one file of a pipeline's `extends` chain.
///
/// ```
/// use budget_runtime::contract::PipelineConfig;
///
/// let p = PipelineConfig::from_yaml_str("", "empty.yaml")?;
/// assert_eq!(p.files()[0].sha256[0], 0xe3); // SHA-256("") = e3b0c442…
/// # Ok::<(), budget_runtime::ContractError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PipelineSource {
    /// The file, as reached from the root pipeline.
    pub path: PathBuf,
    /// SHA-256 of its bytes.
    pub sha256: [u8; 32],
}

/// A pipeline with its `extends` chain resolved.
///
/// A file may name one parent with `extends: <path>`, relative to its own
/// directory. Settings merge key by key and the child wins. Steps merge by
/// `name`: a child step with a parent step's name overrides that step field
/// by field (keeping the parent's position), other child steps are appended.
/// A cycle in the chain is an error.
///
/// ```
/// use budget_runtime::contract::PipelineConfig;
///
/// let dir = std::env::temp_dir().join(format!("budget-doc-extends-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("base.yaml"), "settings:\n  max_context_tokens: 6000\n  max_history_tokens: 2000\n")?;
/// std::fs::write(dir.join("long.yaml"), "extends: base.yaml\nsettings:\n  max_context_tokens: 12000\n")?;
///
/// let p = PipelineConfig::load(dir.join("long.yaml"))?;
/// assert_eq!(p.settings().max_context_tokens.as_ref().unwrap().value, 12_000); // child wins
/// assert_eq!(p.settings().max_history_tokens.as_ref().unwrap().value, 2_000);  // inherited
/// assert_eq!(p.files().len(), 2);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineConfig {
    path: PathBuf,
    files: Vec<PipelineSource>,
    settings: Settings,
    steps: Vec<Step>,
}

impl PipelineConfig {
    /// Reads the pipeline at `path` and every file it extends.
    ///
    /// # Errors
    /// [`ContractError::Read`], [`ContractError::Yaml`] (with file, line and
    /// column), [`ContractError::Extends`], [`ContractError::ExtendsCycle`],
    /// [`ContractError::DuplicateStep`].
    pub fn load(path: impl AsRef<Path>) -> Result<Self, ContractError> {
        let path = path.as_ref();
        Self::resolve(PipelineFile::read(path)?)
    }

    /// Parses pipeline YAML as if read from `path`; an `extends` is read from
    /// disk relative to `path`'s directory.
    ///
    /// # Errors
    /// As [`PipelineConfig::load`].
    pub fn from_yaml_str(yaml: &str, path: impl AsRef<Path>) -> Result<Self, ContractError> {
        Self::resolve(PipelineFile::parse(yaml, path.as_ref())?)
    }

    fn resolve(root: PipelineFile) -> Result<Self, ContractError> {
        let root_path = root.path.clone();
        let mut seen = vec![identity(&root.path)];
        let mut chain = vec![root];
        while let Some(extends) = chain.last().and_then(|f| f.extends.clone()) {
            let child = &extends.location.path;
            let parent_path = child.parent().unwrap_or(Path::new("")).join(&extends.value);
            let parent = PipelineFile::read(&parent_path).map_err(|e| match e {
                ContractError::Read { source, .. } => ContractError::Extends {
                    location: extends.location.clone(),
                    target: parent_path.clone(),
                    source,
                },
                other => other,
            })?;
            let id = identity(&parent_path);
            if seen.contains(&id) {
                let mut cycle: Vec<PathBuf> = chain.iter().map(|f| f.path.clone()).collect();
                cycle.push(parent_path);
                return Err(ContractError::ExtendsCycle { chain: cycle });
            }
            seen.push(id);
            chain.push(parent);
        }
        let files = chain
            .iter()
            .map(|f| PipelineSource {
                path: f.path.clone(),
                sha256: f.sha256,
            })
            .collect();
        let mut merged_settings = Settings::default();
        let mut merged_steps: Vec<Step> = Vec::new();
        for file in chain.into_iter().rev() {
            merged_settings = file.settings.over(merged_settings);
            merge_steps(&mut merged_steps, file.steps);
        }
        Ok(Self {
            path: root_path,
            files,
            settings: merged_settings,
            steps: merged_steps,
        })
    }

    /// The root pipeline file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The root file first, then each ancestor it extends, with digests.
    pub fn files(&self) -> &[PipelineSource] {
        &self.files
    }

    /// The merged settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The merged steps, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }
}

/// Overrides same-named steps of `merged` with `child` steps; appends the rest.
fn merge_steps(merged: &mut Vec<Step>, child: Vec<Step>) {
    for step in child {
        let existing = step
            .name
            .as_ref()
            .and_then(|name| merged.iter().position(|s| s.name.as_ref() == Some(name)));
        match existing {
            Some(index) => {
                let parent = merged.remove(index);
                merged.insert(index, step.over(parent));
            }
            None => merged.push(step),
        }
    }
}

/// A file's identity for cycle detection: its canonical path when it
/// exists, else the path as written.
fn identity(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Dir(tempfile::TempDir);

    impl Dir {
        fn new() -> Self {
            Dir(tempfile::tempdir().unwrap())
        }
        fn write(&self, name: &str, text: &str) -> PathBuf {
            let path = self.0.path().join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).unwrap();
            }
            std::fs::write(&path, text).unwrap();
            path
        }
    }

    fn value(s: &Option<Sourced<i64>>) -> Option<i64> {
        s.as_ref().map(|s| s.value)
    }

    #[test]
    fn child_settings_win_and_missing_ones_are_inherited() {
        let dir = Dir::new();
        dir.write(
            "base.yaml",
            "settings:\n  max_context_tokens: 6000\n  max_history_tokens: 2000\n  budget_safety_margin_tokens: 200\n",
        );
        dir.write(
            "mid.yaml",
            "extends: base.yaml\nsettings:\n  max_history_tokens: 1000\n",
        );
        let leaf = dir.write(
            "leaf.yaml",
            "extends: mid.yaml\nsettings:\n  max_context_tokens: 3000\n",
        );
        let p = PipelineConfig::load(&leaf).unwrap();
        let s = p.settings();
        assert_eq!(value(&s.max_context_tokens), Some(3000));
        assert_eq!(value(&s.max_history_tokens), Some(1000));
        assert_eq!(value(&s.budget_safety_margin_tokens), Some(200));
        // Each value remembers the file that set it.
        assert!(
            s.max_history_tokens
                .as_ref()
                .unwrap()
                .location
                .path
                .ends_with("mid.yaml")
        );
        assert!(
            s.budget_safety_margin_tokens
                .as_ref()
                .unwrap()
                .location
                .path
                .ends_with("base.yaml")
        );
        let names: Vec<_> = p
            .files()
            .iter()
            .map(|f| f.path.file_name().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["leaf.yaml", "mid.yaml", "base.yaml"]);
    }

    #[test]
    fn steps_merge_by_name_child_wins_field_by_field() {
        let dir = Dir::new();
        dir.write(
            "base.yaml",
            "steps:\n  - name: retrieve\n    type: retrieve\n  - name: answer\n    type: call_model\n    prompt_key: answer\n    max_output_tokens: 500\n    use_history: true\n",
        );
        let child = dir.write(
            "child.yaml",
            "extends: base.yaml\nsteps:\n  - name: answer\n    max_tokens: 800\n  - name: review\n    type: call_model\n    prompt_key: review\n",
        );
        let p = PipelineConfig::load(&child).unwrap();
        let names: Vec<_> = p.steps().iter().map(|s| s.name.clone().unwrap()).collect();
        assert_eq!(names, ["retrieve", "answer", "review"]);
        let answer = &p.steps()[1];
        assert_eq!(answer.prompt_key.as_ref().unwrap().value, "answer"); // inherited
        assert_eq!(answer.use_history, Some(true)); // inherited
        // The child's max_tokens replaces the parent's max_output_tokens as one setting.
        assert_eq!(value(&answer.max_tokens), Some(800));
        assert_eq!(value(&answer.max_output_tokens), None);
    }

    #[test]
    fn extends_is_relative_to_the_extending_file() {
        let dir = Dir::new();
        dir.write("shared/base.yaml", "settings:\n  max_context_tokens: 10\n");
        let leaf = dir.write("teams/a/leaf.yaml", "extends: ../../shared/base.yaml\n");
        let p = PipelineConfig::load(&leaf).unwrap();
        assert_eq!(value(&p.settings().max_context_tokens), Some(10));
    }

    #[test]
    fn cycles_are_detected() {
        let dir = Dir::new();
        dir.write("a.yaml", "extends: b.yaml\n");
        dir.write("b.yaml", "extends: ./a.yaml\n");
        let err = PipelineConfig::load(dir.0.path().join("a.yaml")).unwrap_err();
        let ContractError::ExtendsCycle { chain } = &err else {
            panic!("{err:?}")
        };
        assert_eq!(chain.len(), 3);
        assert!(err.to_string().starts_with("extends cycle: "), "{err}");
        assert!(err.to_string().ends_with("a.yaml"), "{err}");
    }

    #[test]
    fn self_extension_is_a_cycle() {
        let dir = Dir::new();
        let me = dir.write("me.yaml", "extends: me.yaml\n");
        assert!(matches!(
            PipelineConfig::load(me),
            Err(ContractError::ExtendsCycle { .. })
        ));
    }

    #[test]
    fn missing_parent_names_the_extends_line() {
        let dir = Dir::new();
        let leaf = dir.write("leaf.yaml", "# comment\nextends: gone.yaml\n");
        let err = PipelineConfig::load(leaf).unwrap_err();
        let ContractError::Extends {
            location, target, ..
        } = &err
        else {
            panic!("{err:?}")
        };
        assert_eq!(location.line, Some(2));
        assert!(target.ends_with("gone.yaml"));
    }

    #[test]
    fn malformed_parent_reports_the_parent_file() {
        let dir = Dir::new();
        dir.write(
            "base.yaml",
            "settings:\n  max_context_tokens: 10\n   bad: indent\n",
        );
        let leaf = dir.write("leaf.yaml", "extends: base.yaml\n");
        let err = PipelineConfig::load(leaf).unwrap_err();
        let ContractError::Yaml { location, .. } = &err else {
            panic!("{err:?}")
        };
        assert!(location.path.ends_with("base.yaml"));
        assert!(location.line.is_some());
    }
}
