//! Near-miss detection: a key or action one or two edits away from a budget
//! key is almost certainly a typo that would silently drop a limit.

use std::fmt;

use crate::SourceLocation;
use budget_rules::edit_distance;

/// Budget keys of `settings`.
pub const SETTINGS_KEYS: [&str; 5] = [
    "max_context_tokens",
    "max_history_tokens",
    "budget_safety_margin_tokens",
    "limits_policy",
    "prompts_dir",
];

/// Budget keys of a `call_model` step.
pub const CALL_MODEL_KEYS: [&str; 5] = [
    "prompt_key",
    "max_output_tokens",
    "max_tokens",
    "use_history",
    "user_parts",
];

/// Keys of the `YAMLpipeline` mapping.
pub const PIPELINE_KEYS: [&str; 4] = ["name", "extends", "settings", "steps"];

/// The action whose steps the contract checks.
pub const CALL_MODEL: &str = "call_model";

/// Largest edit distance (insertions, deletions, substitutions and swaps of
/// adjacent characters) at which an unknown name counts as a typo.
pub const MAX_TYPO_DISTANCE: usize = 2;

/// A key or action that is not a known name but resembles one.
///
/// ```
/// use budget::contract::{SETTINGS_KEYS, SourceLocation, Typo};
///
/// let typo = Typo::find("max_context_token", &SETTINGS_KEYS, SourceLocation::at("p.yaml", 4, 5));
/// assert_eq!(typo.unwrap().to_string(), "p.yaml:4:5: `max_context_token` is not a known key; did you mean `max_context_tokens`?");
/// assert!(Typo::find("graph_max_depth", &SETTINGS_KEYS, SourceLocation::file("p.yaml")).is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Typo {
    /// Where it is written.
    pub location: SourceLocation,
    /// The name as written.
    pub written: String,
    /// The known name it resembles.
    pub resembles: &'static str,
}

impl Typo {
    /// A typo when `written` is not in `known` but within
    /// [`MAX_TYPO_DISTANCE`] edits of one of them (the closest, first on
    /// ties), as written or with its common abbreviations spelled out
    /// (`ctx`, `hist`, `out`, `tok`, `toks`: `max_ctx_tokens` is
    /// `max_context_tokens`).
    pub fn find(written: &str, known: &[&'static str], location: SourceLocation) -> Option<Typo> {
        if known.contains(&written) {
            return None;
        }
        let expanded = expand_abbreviations(written);
        known
            .iter()
            .map(|&name| {
                let distance = edit_distance(written, name).min(edit_distance(&expanded, name));
                (distance, name)
            })
            .filter(|&(distance, _)| distance <= MAX_TYPO_DISTANCE)
            .min_by_key(|&(distance, _)| distance)
            .map(|(_, resembles)| Typo {
                location,
                written: written.to_owned(),
                resembles,
            })
    }
}

/// `key` with each `_`-separated abbreviation of a budget word spelled out.
fn expand_abbreviations(key: &str) -> String {
    key.split('_')
        .map(|word| match word {
            "ctx" => "context",
            "hist" => "history",
            "out" => "output",
            "tok" | "toks" => "tokens",
            other => other,
        })
        .collect::<Vec<_>>()
        .join("_")
}

impl fmt::Display for Typo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: `{}` is not a known key; did you mean `{}`?",
            self.location, self.written, self.resembles
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviations_and_near_misses_are_typos() {
        let typo = |key, known: &[&'static str]| {
            Typo::find(key, known, SourceLocation::file("p")).map(|t| t.resembles)
        };
        assert_eq!(
            typo("max_ctx_tokens", &SETTINGS_KEYS),
            Some("max_context_tokens")
        );
        assert_eq!(
            typo("max_hist_toks", &SETTINGS_KEYS),
            Some("max_history_tokens")
        );
        assert_eq!(
            typo("max_out_tokens", &CALL_MODEL_KEYS),
            Some("max_output_tokens")
        );
        assert_eq!(typo("setings", &PIPELINE_KEYS), Some("settings"));
        assert_eq!(typo("step", &PIPELINE_KEYS), Some("steps"));
        assert_eq!(typo("extend", &PIPELINE_KEYS), Some("extends"));
        assert_eq!(typo("description", &PIPELINE_KEYS), None);
    }

    #[test]
    fn real_keys_of_other_meaning_are_not_typos() {
        for key in [
            "max_turn_loops",
            "retrieval_budget_tokens",
            "entry_step_id",
            "native_chat",
            "top_k",
            "temperature",
            "node_text_fetch_top_n",
        ] {
            assert!(
                Typo::find(key, &SETTINGS_KEYS, SourceLocation::file("p")).is_none(),
                "{key}"
            );
            assert!(
                Typo::find(key, &CALL_MODEL_KEYS, SourceLocation::file("p")).is_none(),
                "{key}"
            );
        }
    }

    #[test]
    fn closest_known_key_is_named() {
        let t = Typo::find("max_token", &CALL_MODEL_KEYS, SourceLocation::file("p")).unwrap();
        assert_eq!(t.resembles, "max_tokens");
        let t = Typo::find("use_histroy", &CALL_MODEL_KEYS, SourceLocation::file("p")).unwrap();
        assert_eq!(t.resembles, "use_history");
    }
}
