//! Checking a list of pipeline files and folders, one report per pipeline.

use std::path::{Path, PathBuf};

use crate::{Checker, ContractError, PipelineLoader, PipelineReport};

/// Checks every pipeline under `paths` and returns one [`PipelineReport`]
/// per pipeline, in order: a file contributes each pipeline it holds; a
/// folder contributes every `*.yaml` / `*.yml` below it (recursively, sorted
/// by path; symlinked folders are not followed) and is the pipelines root
/// for bare `extends` names. A file's root is its own folder.
///
/// Per-pipeline problems (unreadable file, FIFO, bad YAML, missing prompt,
/// violation…) are reports with `ok: false`, so one bad file does not hide
/// the others.
///
/// ```
/// use budget::contract::{Checker, ModelConfig, PromptStore, check_paths};
///
/// let dir = std::env::temp_dir().join(format!("budget-doc-paths-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("pipelines"))?;
/// std::fs::write(dir.join("pipelines/a.yaml"), "YAMLpipelines:\n  - name: one\n    settings: {max_context_tokens: 10}\n  - name: two\n")?;
/// let model = ModelConfig::new(1_000, Some(100))?;
/// let prompts = PromptStore::new(dir.join("prompts"));
/// let reports = check_paths(&[dir.join("pipelines")], &Checker::new(&model, &prompts))?;
/// let verdicts: Vec<_> = reports.iter().map(|r| (r.name.as_str(), r.ok)).collect();
/// assert_eq!(verdicts, [("one", true), ("two", false)]); // two lacks max_context_tokens
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`ContractError::Input`] when a path does not exist or a folder cannot
/// be listed.
pub fn check_paths(
    paths: &[PathBuf],
    checker: &Checker<'_>,
) -> Result<Vec<PipelineReport>, ContractError> {
    let mut reports = Vec::new();
    for path in paths {
        let input = |source| ContractError::Input {
            path: path.clone(),
            source,
        };
        let metadata = std::fs::metadata(path).map_err(input)?;
        let (root, files) = if metadata.is_dir() {
            let mut files = Vec::new();
            collect_yaml(path, &mut files).map_err(input)?;
            files.sort();
            (path.clone(), files)
        } else {
            let root = path.parent().unwrap_or(Path::new("")).to_owned();
            (root, vec![path.clone()])
        };
        let loader = PipelineLoader::new(root).within(checker.within_dirs().to_vec());
        for file in files {
            match loader.load_all(&file) {
                Err(error) => reports.push(PipelineReport::failed(
                    file.display().to_string(),
                    file.clone(),
                    &error,
                )),
                Ok(pipelines) => {
                    for (name, pipeline) in pipelines {
                        reports.push(match pipeline {
                            Ok(pipeline) => PipelineReport::of(checker, &pipeline),
                            Err(error) => PipelineReport::failed(name, file.clone(), &error),
                        });
                    }
                }
            }
        }
    }
    Ok(reports)
}

fn collect_yaml(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            collect_yaml(&path, files)?;
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml")
            && !std::fs::metadata(&path).is_ok_and(|m| m.is_dir())
        {
            files.push(path);
        }
    }
    Ok(())
}
