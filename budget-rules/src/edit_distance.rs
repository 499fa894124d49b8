//! Near-miss names: the edit distance behind "did you mean …?" messages, for
//! the contract's typo check and the macros' attribute suggestions alike.

/// Optimal-string-alignment distance between `a` and `b`, in characters:
/// insertions, deletions, substitutions and swaps of adjacent characters
/// each cost one.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // rows[i][j] = distance between a[..i] and b[..j]
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let substitution = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + substitution);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a likely
/// typo: the fewest edits ([`edit_distance`], ignoring ASCII case), at most
/// one per three characters of the candidate (and at least one); the first
/// on ties. The one rule behind every "did you mean …?" of the workspace.
///
/// ```
/// use budget_rules::closest;
/// assert_eq!(closest("budgte", ["budget", "query"]), Some("budget"));
/// assert_eq!(closest("GPT4O", ["gpt-4o", "gpt-4"]), Some("gpt-4o"));
/// assert_eq!(closest("weight", ["content", "tokens"]), None);
/// ```
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name = name.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|candidate| {
            let distance = edit_distance(&name, &candidate.to_ascii_lowercase());
            (distance, candidate)
        })
        .filter(|&(distance, candidate)| distance <= (candidate.chars().count() / 3).max(1))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("content", "content"), 0);
        assert_eq!(edit_distance("contnet", "content"), 1);
        assert_eq!(edit_distance("call_modle", "call_model"), 1);
        assert_eq!(edit_distance("", "tags"), 4);
        assert_eq!(edit_distance("score", "scale"), 2);
        assert_eq!(edit_distance("use_histroy", "use_history"), 1); // one swap
        assert_eq!(edit_distance("max_token", "max_tokens"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
