//! [`hf_cache_file`]: a file of a model already in the local Hugging Face
//! cache.

use std::path::{Path, PathBuf};

/// The path of `file` (such as `tokenizer.json`) of the model `repo` (such
/// as `Qwen/Qwen2.5-7B-Instruct`) in the local Hugging Face hub cache, if it
/// has been downloaded there (by `huggingface-cli`, `transformers`, vLLM, …).
/// Nothing is downloaded.
///
/// The cache is `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else
/// `~/.cache/huggingface/hub`. The snapshot `refs/main` names is preferred;
/// otherwise the last snapshot in name order that has the file.
///
/// ```
/// use budget::estimate::hf_cache_file;
/// // Not downloaded here:
/// assert_eq!(hf_cache_file("example/not-a-model", "tokenizer.json"), None);
/// ```
pub fn hf_cache_file(repo: &str, file: &str) -> Option<PathBuf> {
    let hub = hub_dir()?;
    find_in_hub(&hub, repo, file)
}

/// The hub cache directory from the environment.
fn hub_dir() -> Option<PathBuf> {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    var("HF_HUB_CACHE")
        .or_else(|| var("HF_HOME").map(|home| home.join("hub")))
        .or_else(|| var("HOME").map(|home| home.join(".cache/huggingface/hub")))
}

/// `file` of `repo` in the hub cache at `hub`.
fn find_in_hub(hub: &Path, repo: &str, file: &str) -> Option<PathBuf> {
    if repo.split('/').any(|part| part.is_empty() || part == "..") {
        return None;
    }
    let model = hub.join(format!("models--{}", repo.replace('/', "--")));
    let snapshots = model.join("snapshots");
    let main = std::fs::read_to_string(model.join("refs/main")).ok();
    if let Some(commit) = main.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        let path = snapshots.join(commit).join(file);
        if path.is_file() {
            return Some(path);
        }
    }
    let mut names: Vec<_> = std::fs::read_dir(&snapshots)
        .ok()?
        .filter_map(|entry| entry.ok().map(|e| e.file_name()))
        .collect();
    names.sort();
    names
        .into_iter()
        .rev()
        .map(|name| snapshots.join(name).join(file))
        .find(|path| path.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_main_snapshot_then_any_snapshot() {
        let hub = tempfile::tempdir().unwrap();
        let model = hub.path().join("models--org--name");
        for snapshot in ["aaa", "bbb"] {
            std::fs::create_dir_all(model.join("snapshots").join(snapshot)).unwrap();
            std::fs::write(
                model
                    .join("snapshots")
                    .join(snapshot)
                    .join("tokenizer.json"),
                "{}",
            )
            .unwrap();
        }
        // No refs/main: the last snapshot by name.
        assert_eq!(
            find_in_hub(hub.path(), "org/name", "tokenizer.json"),
            Some(model.join("snapshots/bbb/tokenizer.json"))
        );
        std::fs::create_dir_all(model.join("refs")).unwrap();
        std::fs::write(model.join("refs/main"), "aaa\n").unwrap();
        assert_eq!(
            find_in_hub(hub.path(), "org/name", "tokenizer.json"),
            Some(model.join("snapshots/aaa/tokenizer.json"))
        );
        assert_eq!(find_in_hub(hub.path(), "org/name", "missing.json"), None);
        assert_eq!(find_in_hub(hub.path(), "org/other", "tokenizer.json"), None);
        assert_eq!(find_in_hub(hub.path(), "../x", "tokenizer.json"), None);
    }
}
