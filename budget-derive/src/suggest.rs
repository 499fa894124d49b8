//! "Did you mean …?" suggestions for misspelt attribute keys and values.

/// The candidate closest to `input`: [`budget_rules::closest`], the
/// workspace's one rule for "did you mean …?".
pub(crate) fn closest<'a>(input: &str, candidates: &[&'a str]) -> Option<&'a str> {
    budget_rules::closest(input, candidates.iter().copied())
}

/// `one`, `one` or `two`, `one`, `two` or `three`, each in backticks.
pub(crate) fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let keys = ["content", "tokens", "score", "scale", "tags", "timestamp"];
        assert_eq!(closest("contnet", &keys), Some("content"));
        assert_eq!(closest("Tokens", &keys), Some("tokens"));
        assert_eq!(closest("timestmp", &keys), Some("timestamp"));
        assert_eq!(closest("weight", &keys), None);
        assert_eq!(
            closest("yml", &["code", "prose", "yaml", "markdown"]),
            Some("yaml")
        );
    }

    #[test]
    fn lists() {
        assert_eq!(one_of(&["a"]), "`a`");
        assert_eq!(one_of(&["a", "b", "c"]), "`a`, `b` or `c`");
    }
}
