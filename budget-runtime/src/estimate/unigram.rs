//! [`Unigram`]: SentencePiece's unigram language model: the segmentation
//! of a piece into vocabulary entries with the highest total score
//! (Viterbi), an unknown character scoring ten below the lowest piece.

/// A unigram model.
pub(crate) struct Unigram {
    /// A byte trie of the pieces: `node << 8 | byte` → child node; a search
    /// along the text stops as soon as no piece starts that way.
    edges: foldhash::HashMap<u64, u32>,
    /// The score of the piece ending at each node, if one does (node 0 is
    /// the root).
    scores: Vec<Option<f64>>,
    /// The score of an unknown character.
    unknown_score: f64,
    /// Whether an unknown character is one token per UTF-8 byte.
    byte_fallback: bool,
}

impl Unigram {
    /// A model of `pieces` (text and score); `unk` is the id of the unknown
    /// piece, left out of the lattice like control pieces.
    pub(crate) fn new(pieces: Vec<(String, f64)>, unk: Option<usize>, byte_fallback: bool) -> Self {
        let lowest = pieces
            .iter()
            .map(|(_, score)| *score)
            .fold(f64::INFINITY, f64::min);
        let mut edges =
            foldhash::HashMap::with_capacity_and_hasher(pieces.len() * 4, Default::default());
        let mut scores = vec![None];
        for (id, (piece, score)) in pieces.into_iter().enumerate() {
            if Some(id) == unk || piece.is_empty() {
                continue;
            }
            let mut node = 0u32;
            for &byte in piece.as_bytes() {
                let next = u32::try_from(scores.len()).unwrap_or(u32::MAX);
                node = *edges
                    .entry(u64::from(node) << 8 | u64::from(byte))
                    .or_insert_with(|| {
                        scores.push(None);
                        next
                    });
            }
            let slot = &mut scores[node as usize];
            if slot.is_none() {
                *slot = Some(score);
            }
        }
        Self {
            edges,
            scores,
            unknown_score: if lowest.is_finite() {
                lowest - 10.0
            } else {
                -10.0
            },
            byte_fallback,
        }
    }

    /// The number of tokens of `piece` (UTF-8) on the best path; a run of
    /// unknown characters is one token unless bytes fall back.
    pub(crate) fn count(&self, piece: &[u8]) -> u64 {
        let n = piece.len();
        if n == 0 {
            return 0;
        }
        // best[i]: (score, whether the last node is unknown, tokens so far)
        // of the best path covering piece[..i]; 16 bytes a byte of text.
        let mut best: Vec<(f64, bool, u32)> = vec![(f64::NEG_INFINITY, false, 0); n + 1];
        best[0] = (0.0, false, 0);
        let is_boundary = |i: usize| i == n || (piece[i] & 0xC0) != 0x80;
        for start in 0..n {
            if !is_boundary(start) || best[start].0 == f64::NEG_INFINITY {
                continue;
            }
            let base = best[start];
            let char_len = (start + 1..=n).find(|&i| is_boundary(i)).unwrap_or(n) - start;
            let mut single = false;
            let mut node = 0u32;
            for end in start + 1..=n {
                let Some(&next) = self
                    .edges
                    .get(&(u64::from(node) << 8 | u64::from(piece[end - 1])))
                else {
                    break;
                };
                node = next;
                if !is_boundary(end) {
                    continue;
                }
                if let Some(score) = self.scores[node as usize] {
                    single |= end - start == char_len;
                    let total = base.0 + score;
                    if total > best[end].0 {
                        best[end] = (total, false, base.2.saturating_add(1));
                    }
                }
            }
            if !single {
                let end = start + char_len;
                let total = base.0 + self.unknown_score;
                if total > best[end].0 {
                    let tokens = if self.byte_fallback {
                        u32::try_from(char_len).unwrap_or(u32::MAX)
                    } else if base.1 {
                        0 // joins the unknown run before it
                    } else {
                        1
                    };
                    best[end] = (total, true, base.2.saturating_add(tokens));
                }
            }
        }
        u64::from(best[n].2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_total_score_wins() {
        let pieces = vec![
            ("<unk>".to_owned(), 0.0),
            ("a".to_owned(), -1.0),
            ("b".to_owned(), -1.0),
            ("ab".to_owned(), -1.5),
            ("abb".to_owned(), -4.0),
        ];
        let model = Unigram::new(pieces, Some(0), false);
        assert_eq!(model.count(b"ab"), 1); // -1.5 beats -2
        assert_eq!(model.count(b"abb"), 2); // ab+b -2.5 beats abb -4
        // Unknown characters: a run is one token, or one per byte.
        assert_eq!(model.count("aéé".as_bytes()), 2);
        let bytes = Unigram::new(vec![("a".to_owned(), -1.0)], None, true);
        assert_eq!(bytes.count("aéé".as_bytes()), 5);
    }
}
