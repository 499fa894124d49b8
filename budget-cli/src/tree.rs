//! Token totals per folder, for `count --tree`.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::json;

/// A folder: the tokens and files below it, and its subfolders by name.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Folder {
    /// Tokens of every file below it (saturating).
    pub tokens: u64,
    /// Files below it.
    pub files: usize,
    /// Subfolders by name.
    pub children: BTreeMap<String, Folder>,
}

impl Folder {
    /// The tree of `(label, tokens)` files, whose labels are `/`-separated
    /// paths; the returned folder is the top (`.`), holding every file.
    pub fn of<'l>(files: impl IntoIterator<Item = (&'l str, u64)>) -> Self {
        let mut top = Self::default();
        for (label, tokens) in files {
            let mut folder = &mut top;
            folder.add(tokens);
            let parts: Vec<&str> = label.split('/').filter(|p| !p.is_empty()).collect();
            if let Some((_file, folders)) = parts.split_last() {
                for name in folders {
                    folder = folder.children.entry((*name).to_owned()).or_default();
                    folder.add(tokens);
                }
            }
        }
        top
    }

    fn add(&mut self, tokens: u64) {
        self.tokens = self.tokens.saturating_add(tokens);
        self.files += 1;
    }

    /// Subfolders, most tokens first (ties by name).
    fn largest_first(&self) -> Vec<(&String, &Folder)> {
        let mut children: Vec<_> = self.children.iter().collect();
        children.sort_by(|a, b| b.1.tokens.cmp(&a.1.tokens).then_with(|| a.0.cmp(b.0)));
        children
    }

    /// Table rows `tokens share files name/`, indented two spaces per level,
    /// down to `depth` levels below the top; shares are of `total` tokens.
    pub fn write_table(&self, out: &mut String, depth: usize, total: u64) {
        self.write_rows(out, ".", 0, depth, total);
    }

    fn write_rows(&self, out: &mut String, name: &str, level: usize, depth: usize, total: u64) {
        let _ = writeln!(
            out,
            "{:>10} {:>6.1}% {:>7}  {:indent$}{name}",
            self.tokens,
            share(self.tokens, total),
            self.files,
            "",
            indent = 2 * level,
        );
        if level < depth {
            for (child, folder) in self.largest_first() {
                folder.write_rows(out, &format!("{child}/"), level + 1, depth, total);
            }
        }
    }

    /// The tree as JSON (`name`, `tokens`, `share_percent`, `files`,
    /// `children` largest first), down to `depth` levels.
    pub fn to_json(&self, depth: usize, total: u64) -> serde_json::Value {
        self.json_node(".", 0, depth, total)
    }

    fn json_node(&self, name: &str, level: usize, depth: usize, total: u64) -> serde_json::Value {
        let children: Vec<_> = if level < depth {
            self.largest_first()
                .into_iter()
                .map(|(child, folder)| folder.json_node(child, level + 1, depth, total))
                .collect()
        } else {
            Vec::new()
        };
        json!({
            "name": name,
            "tokens": self.tokens,
            "share_percent": share(self.tokens, total),
            "files": self.files,
            "children": children,
        })
    }
}

/// `part` as a percentage of `total` (0 when `total` is 0).
fn share(part: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        part as f64 * 100.0 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_sum_their_files_and_sort_largest_first() {
        let top = Folder::of([
            ("README.md", 10),
            ("src/lib.rs", 50),
            ("src/deep/x.rs", 20),
            ("docs/a.md", 30),
        ]);
        assert_eq!((top.tokens, top.files), (110, 4));
        assert_eq!(top.children["src"].tokens, 70);
        assert_eq!(top.children["src"].children["deep"].files, 1);
        let mut out = String::new();
        top.write_table(&mut out, 1, top.tokens);
        let names: Vec<&str> = out
            .lines()
            .map(|l| l.trim_end().rsplit(' ').next().unwrap())
            .collect();
        assert_eq!(names, [".", "src/", "docs/"]);
        assert!(out.lines().nth(1).unwrap().contains(" 63.6%"), "{out}");
        let json = top.to_json(2, top.tokens);
        assert_eq!(json["children"][0]["children"][0]["name"], "deep");
        assert_eq!(top.to_json(0, 110)["children"].as_array().unwrap().len(), 0);
    }
}
