//! [`ollama_model_file`]: the GGUF file of a model already pulled into the
//! local Ollama store.

use std::path::{Path, PathBuf};

/// The largest manifest read, in bytes (real ones are under 2 KB).
const MAX_MANIFEST_BYTES: u64 = 64 * 1024;

/// The GGUF model file of the Ollama model `name` (`llama3.1:8b`,
/// `qwen3`, `user/model:tag`), if it has been pulled into the local store.
/// Its tokenizer is read by [`ExactCounter::from_file`](crate::estimate::ExactCounter::from_file),
/// which reads only the file's metadata. Nothing is downloaded.
///
/// The store is `$OLLAMA_MODELS`, else `~/.ollama/models`: the manifest
/// `manifests/<host>/<namespace>/<model>/<tag>` names the model layer's
/// blob, `blobs/sha256-<digest>`. The host defaults to
/// `registry.ollama.ai`, the namespace to `library`, the tag to `latest`.
///
/// ```
/// use budget::estimate::ollama_model_file;
/// // Not pulled here:
/// assert_eq!(ollama_model_file("example-not-a-model:1b"), None);
/// ```
pub fn ollama_model_file(name: &str) -> Option<PathBuf> {
    let var = |key: &str| {
        std::env::var_os(key)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let store =
        var("OLLAMA_MODELS").or_else(|| var("HOME").map(|home| home.join(".ollama/models")))?;
    find_in_store(&store, name)
}

/// The model blob of `name` in the store at `store`.
fn find_in_store(store: &Path, name: &str) -> Option<PathBuf> {
    let (path, tag) = match name.rsplit_once(':') {
        Some((path, tag)) if !tag.contains('/') => (path, tag),
        _ => (name, "latest"),
    };
    let parts: Vec<&str> = path.split('/').collect();
    let (host, namespace, model) = match parts.as_slice() {
        [model] => ("registry.ollama.ai", "library", *model),
        [namespace, model] => ("registry.ollama.ai", *namespace, *model),
        [host, namespace, model] => (*host, *namespace, *model),
        _ => return None,
    };
    let safe =
        |part: &str| !part.is_empty() && part != "." && part != ".." && !part.contains(['/', '\\']);
    if ![host, namespace, model, tag].into_iter().all(safe) {
        return None;
    }
    let manifest = store
        .join("manifests")
        .join(host)
        .join(namespace)
        .join(model)
        .join(tag);
    let text = crate::file::read_text(&manifest, MAX_MANIFEST_BYTES).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    let digest = json["layers"]
        .as_array()?
        .iter()
        .find(|layer| layer["mediaType"] == "application/vnd.ollama.image.model")?["digest"]
        .as_str()?;
    let hex = digest.strip_prefix("sha256:")?;
    if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let blob = store.join("blobs").join(format!("sha256-{hex}"));
    blob.is_file().then_some(blob)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_with(name: &str, tag: &str, digest: &str) -> tempfile::TempDir {
        let store = tempfile::tempdir().unwrap();
        let dir = store
            .path()
            .join("manifests/registry.ollama.ai/library")
            .join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let manifest = format!(
            r#"{{"schemaVersion":2,"layers":[{{"mediaType":"application/vnd.ollama.image.template","digest":"sha256:00"}},{{"mediaType":"application/vnd.ollama.image.model","digest":"sha256:{digest}"}}]}}"#
        );
        std::fs::write(dir.join(tag), manifest).unwrap();
        std::fs::create_dir_all(store.path().join("blobs")).unwrap();
        if digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            std::fs::write(store.path().join(format!("blobs/sha256-{digest}")), b"GGUF").unwrap();
        }
        store
    }

    #[test]
    fn a_tag_resolves_through_its_manifest_to_the_model_blob() {
        let store = store_with("llama3.1", "8b", "ab12");
        let found = find_in_store(store.path(), "llama3.1:8b").unwrap();
        assert!(found.ends_with("blobs/sha256-ab12"));
        assert_eq!(find_in_store(store.path(), "llama3.1"), None); // no `latest`
        assert_eq!(find_in_store(store.path(), "llama3.1:70b"), None);
        let store = store_with("qwen3", "latest", "cd34");
        assert!(find_in_store(store.path(), "qwen3").is_some());
    }

    #[test]
    fn names_and_digests_cannot_leave_the_store() {
        let store = store_with("x", "1", "ab");
        for name in ["../x:1", "a/b/c/d:1", "x:..", "..:1", ""] {
            assert_eq!(find_in_store(store.path(), name), None, "{name}");
        }
        // A digest that is not hex is refused, even where the path exists.
        let bad = store_with("y", "1", "zz");
        std::fs::write(bad.path().join("blobs/sha256-zz"), b"GGUF").unwrap();
        assert_eq!(find_in_store(bad.path(), "y:1"), None);
    }
}
