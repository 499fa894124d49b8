//! The client's roots (`roots/list`): `file://` URIs that narrow what the
//! server's root lets a call read. The server never widens its root: a
//! client root above it counts as the root itself, one beside it as
//! nothing.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The directories a call may read: the part of `root` inside each client
/// root of `result` (a `roots/list` result), resolved. A result without a
/// `roots` array leaves the root as it is.
pub fn narrow(root: &Path, result: &Value) -> Vec<PathBuf> {
    let Some(roots) = result.get("roots").and_then(Value::as_array) else {
        return vec![root.to_path_buf()];
    };
    let mut allowed: Vec<PathBuf> = Vec::new();
    for uri in roots
        .iter()
        .filter_map(|r| r.get("uri"))
        .filter_map(Value::as_str)
    {
        let Some(path) = file_path(uri).and_then(|p| std::fs::canonicalize(p).ok()) else {
            continue;
        };
        let within = if path.starts_with(root) {
            path
        } else if root.starts_with(&path) {
            root.to_path_buf()
        } else {
            continue;
        };
        if !allowed.contains(&within) {
            allowed.push(within);
        }
    }
    allowed
}

/// The local path of a `file://` URI (`file:///home/a%20b` → `/home/a b`);
/// `None` for other schemes, remote hosts and bad escapes.
fn file_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let path = match rest.strip_prefix("localhost") {
        Some(path) => path,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%' {
            let hex = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    String::from_utf8(decoded).ok().map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn uris_decode_to_local_paths_only() {
        assert_eq!(
            file_path("file:///home/a%20b"),
            Some(PathBuf::from("/home/a b"))
        );
        assert_eq!(file_path("file://localhost/x"), Some(PathBuf::from("/x")));
        assert_eq!(file_path("file://server/share"), None);
        assert_eq!(file_path("https://example.com/"), None);
        assert_eq!(file_path("file:///bad%zz"), None);
    }

    #[test]
    fn client_roots_narrow_and_never_widen() {
        let dir = tempfile::tempdir().unwrap();
        let base = std::fs::canonicalize(dir.path()).unwrap();
        let root = base.join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(base.join("beside")).unwrap();
        let uri = |p: &Path| format!("file://{}", p.display());
        let result = json!({ "roots": [
            { "uri": uri(&root.join("sub")) },
            { "uri": uri(&base) },
            { "uri": uri(&base.join("beside")) },
            { "uri": "file:///no/such/dir" }
        ]});
        assert_eq!(narrow(&root, &result), [root.join("sub"), root.clone()]);
        assert_eq!(
            narrow(
                &root,
                &json!({ "roots": [{ "uri": uri(&base.join("beside")) }] })
            ),
            Vec::<PathBuf>::new()
        );
        assert_eq!(narrow(&root, &json!({})), [root]);
    }
}
