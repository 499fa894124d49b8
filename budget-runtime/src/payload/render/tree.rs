//! The TREE section's text: the placed items' sources as a folder tree,
//! each marked with its tier, collapsed to fit its share of the total.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::estimate::{ContentType, Estimator};
use crate::model::Tier;

/// The share of the total, in percent, the tree may take before folders
/// collapse.
pub(crate) const TREE_SHARE_PERCENT: u64 = 5;

/// A folder: its files (name → tier) and subfolders.
#[derive(Default)]
struct Folder<'s> {
    files: BTreeMap<&'s str, Tier>,
    folders: BTreeMap<&'s str, Folder<'s>>,
}

impl<'s> Folder<'s> {
    fn add(&mut self, source: &'s str, tier: Tier) {
        let mut folder = self;
        let mut parts = source.split('/').filter(|p| !p.is_empty()).peekable();
        while let Some(part) = parts.next() {
            if parts.peek().is_none() {
                folder.files.insert(part, tier);
            } else {
                folder = folder.folders.entry(part).or_default();
            }
        }
    }

    /// Files below, by tier, in the order of [`Tier::ALL`].
    fn counts(&self) -> [usize; 4] {
        let mut counts = [0; 4];
        for tier in self.files.values() {
            counts[slot(*tier)] += 1;
        }
        for folder in self.folders.values() {
            let below = folder.counts();
            for (c, b) in counts.iter_mut().zip(below) {
                *c += b;
            }
        }
        counts
    }

    /// Writes this folder's contents at `level` (two spaces each),
    /// collapsing folders at `depth` and deeper into one line.
    fn write(&self, out: &mut String, level: usize, depth: usize) {
        let indent = 2 * level;
        for (name, folder) in &self.folders {
            if level >= depth {
                let _ = writeln!(out, "{:indent$}{name}/ {}", "", summary(folder.counts()));
            } else {
                let _ = writeln!(out, "{:indent$}{name}/", "");
                folder.write(out, level + 1, depth);
            }
        }
        for (name, tier) in &self.files {
            let _ = writeln!(out, "{:indent$}{name} [{tier}]", "");
        }
    }

    fn depth(&self) -> usize {
        self.folders
            .values()
            .map(|f| 1 + f.depth())
            .max()
            .unwrap_or(0)
    }
}

/// The index of `tier` in [`Tier::ALL`].
const fn slot(tier: Tier) -> usize {
    match tier {
        Tier::Raw => 0,
        Tier::Skeleton => 1,
        Tier::Linked => 2,
        Tier::Summary => 3,
    }
}

/// `(N files: RAW a, LINKED b, SUMMARY c)`, naming only non-zero tiers.
fn summary(counts: [usize; 4]) -> String {
    let total: usize = counts.iter().sum();
    let tiers: Vec<String> = Tier::ALL
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(tier, n)| format!("{tier} {n}"))
        .collect();
    let noun = if total == 1 { "file" } else { "files" };
    format!("({total} {noun}: {})", tiers.join(", "))
}

/// The tree of `sources` (`/`-separated paths with their tiers; omitted
/// items, `None`, are left out), one line per folder and file, two spaces per
/// level, files marked with their tier (`[RAW]`, `[SKELETON]`, …). The deepest
/// folders collapse into one line each (`name/ (N files: RAW a, …)`),
/// level by level, while the text's estimate exceeds `limit` tokens; at
/// the last, the whole tree is one line.
pub(crate) fn tree_text<'s>(
    sources: impl IntoIterator<Item = (&'s str, Option<Tier>)>,
    limit: u64,
    estimator: &dyn Estimator,
) -> String {
    let mut top = Folder::default();
    for (source, tier) in sources {
        if let Some(tier) = tier {
            top.add(source, tier);
        }
    }
    let mut out = String::new();
    for depth in (0..=top.depth()).rev() {
        out.clear();
        top.write(&mut out, 0, depth);
        if estimator.estimate(&out, ContentType::Code) <= limit {
            return out;
        }
    }
    format!("./ {}\n", summary(top.counts()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::RatioEstimator;

    #[test]
    fn slots_follow_tier_all() {
        for (index, tier) in Tier::ALL.into_iter().enumerate() {
            assert_eq!(slot(tier), index, "{tier}");
        }
    }

    const SOURCES: &[(&str, Option<Tier>)] = &[
        ("src/lib.rs", Some(Tier::Raw)),
        ("src/tide/moon.rs", Some(Tier::Linked)),
        ("src/tide/sun.rs", Some(Tier::Summary)),
        ("README.md", Some(Tier::Raw)),
        ("old.rs", None),
    ];

    #[test]
    fn full_tree_marks_every_placed_file() {
        let text = tree_text(SOURCES.iter().copied(), u64::MAX, &RatioEstimator);
        assert_eq!(
            text,
            "src/\n  tide/\n    moon.rs [LINKED]\n    sun.rs [SUMMARY]\n  lib.rs [RAW]\nREADME.md [RAW]\n"
        );
    }

    #[test]
    fn deep_folders_collapse_first() {
        // The full tree is 86 characters (25 tokens at 3.5 per token), one
        // level collapsed 75 (22 tokens).
        let text = tree_text(SOURCES.iter().copied(), 22, &RatioEstimator);
        assert_eq!(
            text,
            "src/\n  tide/ (2 files: LINKED 1, SUMMARY 1)\n  lib.rs [RAW]\nREADME.md [RAW]\n"
        );
        let all = tree_text(SOURCES.iter().copied(), 1, &RatioEstimator);
        assert_eq!(all, "./ (4 files: RAW 2, LINKED 1, SUMMARY 1)\n");
    }
}
