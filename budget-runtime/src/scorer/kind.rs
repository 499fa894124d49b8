//! [`KindScorer`]: a weight per [`ContextKind`].

use std::collections::HashMap;

use crate::model::{ContextItem, ContextKind};
use crate::scorer::Scorer;
use crate::scorer::ScorerError;

/// The specification's default kind weights.
const DEFAULT_WEIGHTS: [(ContextKind, f64); 5] = [
    (ContextKind::SYSTEM_PROMPT, 1.0),
    (ContextKind::MEMORY, 0.8),
    (ContextKind::TOOL_OUTPUT, 0.6),
    (ContextKind::DOCUMENT, 0.4),
    (ContextKind::MESSAGE, 0.2),
];

/// Scores each item by the weight configured for its [`ContextKind`]; kinds
/// without a weight score 0.0. Kinds match ASCII case-insensitively.
///
/// The default weights are SystemPrompt 1.0, Memory 0.8, ToolOutput 0.6,
/// Document 0.4, Message 0.2. Custom weights must be finite and `>= 0` and
/// may exceed 1.0 (they are returned as given). An absolute scorer: O(n).
///
/// ```
/// use budget::{ContextKind, Item, scorer::{KindScorer, Scorer}};
///
/// let memory = Item::builder("fact").tokens(1).kind(ContextKind::MEMORY).build()?;
/// let custom = Item::builder("x").tokens(1).kind(ContextKind::new("Custom")?).build()?;
/// assert_eq!(KindScorer::new().scores(&[&memory, &custom]), vec![0.8, 0.0]);
///
/// let weights = [(ContextKind::new("custom")?, 2.0)];
/// let scorer = KindScorer::with_weights(weights)?;
/// assert_eq!(scorer.scores(&[&memory, &custom]), vec![0.0, 2.0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct KindScorer {
    /// The weights, in the order given.
    weights: Vec<(ContextKind, f64)>,
    /// Position in `weights` by kind, built only for long lists: a short
    /// list is faster to scan than a kind is to hash.
    index: Option<HashMap<ContextKind, usize>>,
}

/// Longest weight list that is scanned instead of hashed.
const SCAN_LIMIT: usize = 8;

impl KindScorer {
    /// The scorer with the specification's default weights.
    pub fn new() -> Self {
        Self {
            weights: DEFAULT_WEIGHTS.to_vec(),
            index: None,
        }
    }

    /// A scorer with custom weights replacing the defaults (an empty list
    /// scores everything 0.0).
    ///
    /// # Errors
    /// [`ScorerError::KindWeight`] for a negative, NaN or infinite weight;
    /// [`ScorerError::DuplicateKind`] when a kind (compared
    /// case-insensitively) appears twice.
    pub fn with_weights<I>(weights: I) -> Result<Self, ScorerError>
    where
        I: IntoIterator<Item = (ContextKind, f64)>,
    {
        let mut list: Vec<(ContextKind, f64)> = Vec::new();
        let mut index: HashMap<ContextKind, usize> = HashMap::new();
        for (kind, value) in weights {
            if !(value.is_finite() && value >= 0.0) {
                return Err(ScorerError::KindWeight { kind, value });
            }
            if index.contains_key(&kind) {
                return Err(ScorerError::DuplicateKind { kind });
            }
            index.insert(kind.clone(), list.len());
            list.push((kind, value));
        }
        Ok(Self {
            index: (list.len() > SCAN_LIMIT).then_some(index),
            weights: list,
        })
    }

    /// The weight of `kind` (0.0 when none is configured).
    ///
    /// ```
    /// use budget::{ContextKind, scorer::KindScorer};
    ///
    /// assert_eq!(KindScorer::new().weight(&ContextKind::new("DOCUMENT")?), 0.4);
    /// # Ok::<(), budget::model::ContextKindError>(())
    /// ```
    pub fn weight(&self, kind: &ContextKind) -> f64 {
        let position = match &self.index {
            Some(index) => index.get(kind).copied(),
            None => self.weights.iter().position(|(known, _)| known == kind),
        };
        position.map_or(0.0, |i| self.weights[i].1)
    }
}

impl Default for KindScorer {
    /// [`KindScorer::new`]: the default weights.
    fn default() -> Self {
        Self::new()
    }
}

impl Scorer for KindScorer {
    /// Looks each distinct label up once: items usually share a few kind
    /// values (the well-known constants, or labels the application reuses),
    /// so the weights of the first labels met are remembered and most items
    /// cost a pointer comparison.
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        const SEEN: usize = 8;
        // The first labels met: their addresses (each label's bytes are
        // compared only when no address matches) and weights.
        let mut addresses = [0usize; SEEN];
        let mut labels: [&str; SEEN] = [""; SEEN];
        let mut weights = [0.0f64; SEEN];
        let mut known = 0;
        for (&item, score) in items.iter().zip(scores.iter_mut()) {
            let kind = item.kind();
            let label = kind.as_str();
            let address = label.as_ptr().addr();
            let hit = (0..known)
                .find(|&i| addresses[i] == address && labels[i].len() == label.len())
                .or_else(|| (0..known).find(|&i| labels[i] == label));
            *score = match hit {
                Some(i) => weights[i],
                None => {
                    let weight = self.weight(kind);
                    if known < SEEN {
                        addresses[known] = address;
                        labels[known] = label;
                        weights[known] = weight;
                        known += 1;
                    }
                    weight
                }
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::KindScorer;
    use crate::model::{ContextItem, ContextKind, Item};
    use crate::scorer::Scorer;
    use crate::scorer::ScorerError;

    fn kinds(scorer: &KindScorer, labels: &[&'static str]) -> Vec<f64> {
        let items: Vec<Item> = labels
            .iter()
            .map(|label| {
                Item::builder(*label)
                    .tokens(100)
                    .kind(ContextKind::new(*label).unwrap())
                    .build()
                    .unwrap()
            })
            .collect();
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        scorer.scores(&views)
    }

    /// Vector `kind-default-weights`.
    #[test]
    fn vector_kind_default_weights() {
        let labels = [
            "SystemPrompt",
            "Memory",
            "ToolOutput",
            "Document",
            "Message",
        ];
        assert_eq!(
            kinds(&KindScorer::new(), &labels),
            vec![1.0, 0.8, 0.6, 0.4, 0.2]
        );
    }

    /// Vector `kind-unknown`.
    #[test]
    fn vector_kind_unknown() {
        assert_eq!(
            kinds(&KindScorer::new(), &["SystemPrompt", "CustomKind"]),
            vec![1.0, 0.0]
        );
    }

    #[test]
    fn lookup_ignores_ascii_case() {
        assert_eq!(
            kinds(
                &KindScorer::new(),
                &["systemprompt", "MEMORY", "tOoLoUtPuT"]
            ),
            vec![1.0, 0.8, 0.6]
        );
    }

    #[test]
    fn custom_weights_replace_defaults_and_are_not_clamped() {
        let scorer = KindScorer::with_weights([
            (ContextKind::new("Code").unwrap(), 3.5),
            (ContextKind::MESSAGE, 0.0),
        ])
        .unwrap();
        assert_eq!(
            kinds(&scorer, &["code", "Message", "SystemPrompt"]),
            vec![3.5, 0.0, 0.0]
        );
        let empty = KindScorer::with_weights([]).unwrap();
        assert_eq!(kinds(&empty, &["Message"]), vec![0.0]);
    }

    #[test]
    fn invalid_weights_are_typed_errors() {
        for bad in [-0.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let err = KindScorer::with_weights([(ContextKind::MEMORY, bad)]).unwrap_err();
            assert!(
                matches!(err, ScorerError::KindWeight { value, .. } if value.to_bits() == bad.to_bits())
            );
        }
        let err = KindScorer::with_weights([(ContextKind::MEMORY, -0.5)]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "weight for kind Memory must be finite and >= 0, got -0.5"
        );
        let err = KindScorer::with_weights([
            (ContextKind::MEMORY, 1.0),
            (ContextKind::new("memory").unwrap(), 2.0),
        ])
        .unwrap_err();
        assert_eq!(
            err,
            ScorerError::DuplicateKind {
                kind: ContextKind::MEMORY
            }
        );
    }

    #[test]
    fn long_weight_lists_are_indexed() {
        let labels: Vec<String> = (0..20).map(|i| format!("Kind{i}")).collect();
        let scorer = KindScorer::with_weights(
            labels
                .iter()
                .enumerate()
                .map(|(i, l)| (ContextKind::new(l.clone()).unwrap(), i as f64)),
        )
        .unwrap();
        assert!(scorer.index.is_some());
        assert_eq!(scorer.weight(&ContextKind::new("KIND7").unwrap()), 7.0);
        assert_eq!(scorer.weight(&ContextKind::new("kind19").unwrap()), 19.0);
        assert_eq!(scorer.weight(&ContextKind::MESSAGE), 0.0);
        let err = KindScorer::with_weights(
            labels
                .iter()
                .chain(std::iter::once(&"kind3".to_owned()))
                .map(|l| (ContextKind::new(l.clone()).unwrap(), 1.0)),
        )
        .unwrap_err();
        assert!(matches!(err, ScorerError::DuplicateKind { .. }));
    }

    /// `score_all` remembers the first labels it meets: copies of a label at
    /// other addresses, case variants and more labels than it remembers
    /// all score as the weight table says.
    #[test]
    fn remembered_labels_score_like_a_fresh_lookup() {
        let owned = |label: &str| ContextKind::new(label.to_owned()).unwrap();
        let kinds: Vec<ContextKind> = [
            "Memory", "Message", "memory", "K1", "K2", "K3", "K4", "K5", "K6", "K7", "Message",
            "MESSAGE", "Document", "Memory",
        ]
        .iter()
        .map(|label| owned(label))
        .chain([ContextKind::MEMORY, ContextKind::DOCUMENT])
        .collect();
        let items: Vec<Item> = kinds
            .into_iter()
            .map(|kind| Item::builder("x").tokens(1).kind(kind).build().unwrap())
            .collect();
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        assert_eq!(
            KindScorer::new().scores(&views),
            [
                0.8, 0.2, 0.8, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.2, 0.4, 0.8, 0.8, 0.4
            ]
        );
    }

    #[test]
    fn extreme_finite_weights_pass_through() {
        let scorer = KindScorer::with_weights([(ContextKind::MEMORY, f64::MAX)]).unwrap();
        assert_eq!(kinds(&scorer, &["Memory"]), vec![f64::MAX]);
    }
}
