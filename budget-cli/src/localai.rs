//! A LocalAI models folder (`--models-dir`): a model's YAML config, the
//! GGUF file it names, and its context size.

use std::path::{Component, Path, PathBuf};

use serde::Deserialize;

/// The largest config read, in bytes.
const MAX_CONFIG_BYTES: u64 = 256 * 1024;

/// The most folder entries looked at for a config whose `name` matches.
const MAX_ENTRIES: usize = 10_000;

/// A model found in the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalAiModel {
    /// Its GGUF (or other tokenizer) file, inside the folder.
    pub file: PathBuf,
    /// The config's `context_size`, if it has one.
    pub context_size: Option<u64>,
}

/// The parts of a LocalAI model config this reads.
#[derive(Debug, Deserialize)]
struct Config {
    name: Option<String>,
    parameters: Option<Parameters>,
    context_size: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct Parameters {
    model: Option<String>,
}

/// The folder could not give the model.
#[derive(Debug, thiserror::Error)]
pub enum LocalAiError {
    /// The folder cannot be listed.
    #[error("{}: {message}", dir.display())]
    Dir {
        /// The folder.
        dir: PathBuf,
        /// Why.
        message: String,
    },
    /// A config that names the model is broken.
    #[error("{}: {message}", config.display())]
    Config {
        /// The config file.
        config: PathBuf,
        /// What is wrong (never its contents).
        message: String,
    },
}

/// The model `name` in the LocalAI folder `dir`: from `NAME.yaml` (or
/// `.yml`), else from the config whose `name` is `name`, else the file
/// `NAME.gguf` or `NAME`. A config's `parameters.model` must name a
/// regular file inside `dir`. `None` if the folder has no such model.
pub fn find(dir: &Path, name: &str) -> Result<Option<LocalAiModel>, LocalAiError> {
    let dir_error = |message: String| LocalAiError::Dir {
        dir: dir.to_path_buf(),
        message,
    };
    if !dir.is_dir() {
        return Err(dir_error("not a folder".into()));
    }
    let plain = |file: &str| Path::new(file).components().count() == 1 && inside(file);
    if plain(name) {
        for ext in ["yaml", "yml"] {
            let config = dir.join(format!("{name}.{ext}"));
            if config.is_file() {
                return from_config(dir, &config).map(Some);
            }
        }
    }
    let entries = std::fs::read_dir(dir).map_err(|e| dir_error(e.to_string()))?;
    for entry in entries.take(MAX_ENTRIES).flatten() {
        let path = entry.path();
        let is_yaml = path.extension().is_some_and(|e| e == "yaml" || e == "yml");
        if !is_yaml || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let Ok(text) = budget::file::read_text(&path, MAX_CONFIG_BYTES) else {
            continue;
        };
        let named = serde_saphyr::from_str::<Config>(&text)
            .ok()
            .and_then(|c| c.name)
            .is_some_and(|n| n == name);
        if named {
            return from_config(dir, &path).map(Some);
        }
    }
    if plain(name) {
        for file in [format!("{name}.gguf"), name.to_owned()] {
            let path = dir.join(&file);
            if path.is_file() {
                return Ok(Some(LocalAiModel {
                    file: path,
                    context_size: None,
                }));
            }
        }
    }
    Ok(None)
}

/// The model a config file describes.
fn from_config(dir: &Path, config: &Path) -> Result<LocalAiModel, LocalAiError> {
    let error = |message: String| LocalAiError::Config {
        config: config.to_path_buf(),
        message,
    };
    let text =
        budget::file::read_text(config, MAX_CONFIG_BYTES).map_err(|e| error(e.to_string()))?;
    let parsed: Config = serde_saphyr::from_str(&text)
        .map_err(|_| error("not a LocalAI model config (YAML)".into()))?;
    let model = parsed
        .parameters
        .and_then(|p| p.model)
        .ok_or_else(|| error("no `parameters.model`: it names no model file".into()))?;
    if !inside(&model) {
        return Err(error(format!(
            "`parameters.model` {model:?} leaves the models folder"
        )));
    }
    let file = dir.join(&model);
    if !file.is_file() {
        return Err(error(format!(
            "`parameters.model` {model:?} is not a file in the models folder"
        )));
    }
    Ok(LocalAiModel {
        file,
        context_size: parsed.context_size,
    })
}

/// Whether the relative path `file` stays inside the folder it is joined
/// to: no root, no prefix, no `..`.
fn inside(file: &str) -> bool {
    !file.is_empty()
        && Path::new(file)
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        dir
    }

    #[test]
    fn a_config_names_the_model_file_and_its_context() {
        let dir = folder(&[
            (
                "phi.yaml",
                "name: phi\ncontext_size: 4096\nparameters:\n  model: phi-2.Q4.gguf\n",
            ),
            (
                "other.yaml",
                "name: my-llama\nparameters:\n  model: llama.gguf\n",
            ),
            ("phi-2.Q4.gguf", "GGUF"),
            ("llama.gguf", "GGUF"),
            ("bare.gguf", "GGUF"),
        ]);
        let phi = find(dir.path(), "phi").unwrap().unwrap();
        assert!(phi.file.ends_with("phi-2.Q4.gguf"));
        assert_eq!(phi.context_size, Some(4096));
        // Found by the `name` inside another file's config.
        let llama = find(dir.path(), "my-llama").unwrap().unwrap();
        assert!(llama.file.ends_with("llama.gguf"));
        // No config: the file itself.
        let bare = find(dir.path(), "bare").unwrap().unwrap();
        assert!(bare.file.ends_with("bare.gguf"));
        assert_eq!(bare.context_size, None);
        assert_eq!(find(dir.path(), "absent").unwrap(), None);
    }

    #[test]
    fn configs_cannot_point_outside_the_folder() {
        let dir = folder(&[
            ("up.yaml", "parameters:\n  model: ../secret.gguf\n"),
            ("abs.yaml", "parameters:\n  model: /etc/passwd\n"),
            ("none.yaml", "name: none\n"),
            ("broken.yaml", "parameters: [\n"),
        ]);
        for name in ["up", "abs"] {
            let err = find(dir.path(), name).unwrap_err().to_string();
            assert!(err.contains("leaves the models folder"), "{err}");
        }
        let err = find(dir.path(), "none").unwrap_err().to_string();
        assert!(err.contains("no `parameters.model`"), "{err}");
        let err = find(dir.path(), "broken").unwrap_err().to_string();
        assert!(
            err.contains("not a LocalAI model config") && !err.contains('['),
            "{err}"
        );
        // A name that is itself a path is never joined.
        assert_eq!(find(dir.path(), "../up").unwrap(), None);
    }
}
