//! Stage 1, Classify: drop negative-token items, split pinned from scoreable,
//! and check that pinned items fit.

use std::collections::HashSet;

use crate::model::{ContextBudget, ContextItem};
use crate::pipeline::PipelineError;
use crate::pipeline::report::{ExcludedItem, ExclusionReason};
use crate::pipeline::token_counts::TokenCounts;

/// The partition of the input, by input index.
pub(crate) struct Classified {
    pub pinned: Vec<usize>,
    pub scoreable: Vec<usize>,
    pub pinned_tokens: u64,
    /// Sum of every item's declared count, negative ones included (the
    /// specification's `total_tokens_considered`).
    pub total_tokens_considered: i128,
    /// Whether some item belongs to an atomic group.
    pub grouped: bool,
}

/// Partitions `items` by their `tokens` (read once per run) and by asking
/// each once whether it is pinned and for its group, recording
/// negative-token exclusions in `excluded`.
///
/// Negative counts ([`ContextItem::negative_tokens`]) are excluded here and
/// nowhere else: every later stage sees only `u64` counts. A member of a
/// group with a pinned member is pinned too.
pub(crate) fn classify(
    items: &[impl ContextItem],
    tokens: &TokenCounts,
    budget: &ContextBudget,
    excluded: &mut Vec<ExcludedItem>,
) -> Result<Classified, PipelineError> {
    let mut pinned = Vec::new();
    let mut scoreable = Vec::with_capacity(items.len());
    // u128: a sum of u64 counts cannot overflow it, so no over-budget set of
    // pinned items can hide behind saturation.
    let mut pinned_tokens: u128 = 0;
    let mut total_tokens_considered: i128 = 0;
    // Groups with a pinned member, and the unpinned members of any group
    // (by input index), to be pinned when their group is.
    let mut pinned_groups: HashSet<u64> = HashSet::new();
    let mut grouped_scoreable: Vec<(usize, u64)> = Vec::new();
    let mut grouped = false;
    for (index, item) in items.iter().enumerate() {
        if let Some(tokens) = item.negative_tokens() {
            // Excluded, yet a pinned one still pins its group.
            if item.pinned()
                && let Some(group) = item.group()
            {
                pinned_groups.insert(group);
            }
            total_tokens_considered += i128::from(tokens);
            excluded.push(ExcludedItem {
                index,
                score: 0.0,
                reason: ExclusionReason::NegativeTokens { tokens },
            });
            continue;
        }
        let tokens = tokens.get(index);
        total_tokens_considered += i128::from(tokens);
        let is_pinned = item.pinned();
        if let Some(group) = item.group() {
            grouped = true;
            if is_pinned {
                pinned_groups.insert(group);
            } else {
                grouped_scoreable.push((index, group));
            }
        }
        if is_pinned {
            pinned.push(index);
            pinned_tokens += u128::from(tokens);
        } else {
            scoreable.push(index);
        }
    }
    // A pinned item's group (whichever member came first) pins its members.
    let joining: Vec<usize> = grouped_scoreable
        .into_iter()
        .filter(|(_, group)| pinned_groups.contains(group))
        .map(|(index, _)| index)
        .collect();
    if !joining.is_empty() {
        for &index in &joining {
            pinned_tokens += u128::from(tokens.get(index));
        }
        scoreable.retain(|index| joining.binary_search(index).is_err());
        pinned.extend_from_slice(&joining);
        pinned.sort_unstable();
    }
    let available_tokens = budget.max_tokens().saturating_sub(budget.output_reserve());
    let Some(pinned_tokens) = u64::try_from(pinned_tokens)
        .ok()
        .filter(|&tokens| tokens <= available_tokens)
    else {
        return Err(PipelineError::PinnedExceedsBudget {
            pinned_tokens: u64::try_from(pinned_tokens).unwrap_or(u64::MAX),
            available_tokens,
        });
    };
    Ok(Classified {
        pinned,
        scoreable,
        pinned_tokens,
        total_tokens_considered,
        grouped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Item;

    fn item(tokens: i64, pinned: bool, group: Option<u64>) -> Item {
        let builder = Item::builder("x").signed_tokens(tokens).pinned(pinned);
        match group {
            Some(group) => builder.group(group),
            None => builder,
        }
        .build()
        .unwrap()
    }

    /// A group's members are pinned when any member is, whether it comes
    /// before or after them, and even when that member is itself excluded
    /// for a negative count; the pinned list stays in input order.
    #[test]
    fn a_pinned_member_pins_its_group_wherever_it_is() {
        let items = [
            item(10, false, Some(7)), // 0: pinned by 2
            item(20, false, None),    // 1
            item(30, true, Some(7)),  // 2
            item(-5, true, Some(9)),  // 3: excluded, still pins group 9
            item(40, false, Some(9)), // 4: pinned by 3
            item(50, false, Some(8)), // 5: its group has no pinned member
            item(60, true, None),     // 6
        ];
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        let tokens = TokenCounts::read(&views);
        let mut excluded = Vec::new();
        let budget = ContextBudget::new(1_000, 1_000).unwrap();
        let classified = classify(&views, &tokens, &budget, &mut excluded).unwrap();
        assert_eq!(classified.pinned, [0, 2, 4, 6]);
        assert_eq!(classified.scoreable, [1, 5]);
        assert_eq!(classified.pinned_tokens, 10 + 30 + 40 + 60);
        assert_eq!(
            classified.total_tokens_considered,
            10 + 20 + 30 - 5 + 40 + 50 + 60
        );
        assert!(classified.grouped);
        assert_eq!(excluded.len(), 1);
        assert_eq!(excluded[0].index, 3);
    }

    #[test]
    fn without_groups_nothing_is_grouped() {
        let items = [item(10, false, None), item(20, true, None)];
        let views: Vec<&dyn ContextItem> = items.iter().map(|i| i as &dyn ContextItem).collect();
        let tokens = TokenCounts::read(&views);
        let budget = ContextBudget::new(1_000, 1_000).unwrap();
        let classified = classify(&views, &tokens, &budget, &mut Vec::new()).unwrap();
        assert_eq!(
            (classified.pinned, classified.scoreable),
            (vec![1], vec![0])
        );
        assert!(!classified.grouped);
    }
}
