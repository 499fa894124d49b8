//! Atomic groups ([`ContextItem::group`](crate::ContextItem::group)): the slicer sees each group as one
//! candidate (its members' tokens summed, its best member's score), so any
//! slicer includes a group whole or not at all.

use std::collections::HashMap;

use crate::model::{ItemView, ScoredItem};
use crate::pipeline::IncludedItem;

/// What became of one atomic group in a pipeline run.
///
/// ```
/// use budget::{ContextBudget, Item, Pipeline};
///
/// let items = [
///     Item::builder("call: search(rust)").tokens(10).group(1).build()?,
///     Item::builder("result: 3 hits").tokens(30).group(1).build()?,
///     Item::builder("note").tokens(20).build()?,
/// ];
/// let selection = Pipeline::default().run(&items, &ContextBudget::new(100, 35)?)?;
/// let group = &selection.report().groups[0];
/// assert_eq!((group.group, group.tokens, group.included), (1, 40, false));
/// assert_eq!(group.members, [0, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GroupSelection {
    /// The id the members return from [`ContextItem::group`](crate::ContextItem::group).
    pub group: u64,
    /// Input indices of the members that reached the slicer, in score order.
    pub members: Vec<usize>,
    /// The members' tokens, summed (saturating).
    pub tokens: u64,
    /// Whether the group was included (all members) or not (none).
    pub included: bool,
}

/// Score-sorted candidates gathered into slicing units: a lone item is a
/// unit of one, a group is one unit placed at its best (first) member.
pub(crate) struct Units<'a> {
    /// Positions in the sorted candidates, unit by unit.
    positions: Vec<usize>,
    /// Unit `u`'s members are `positions[bounds[u]..bounds[u + 1]]`.
    bounds: Vec<usize>,
    /// One view per unit: its lead's item with the unit's tokens.
    views: Vec<ItemView<'a>>,
}

impl<'a> Units<'a> {
    /// The units of `sorted`, or `None` when no candidate has a group (each
    /// unit would be one candidate: the units are `sorted` itself).
    pub(crate) fn of(sorted: &[ScoredItem<'a>]) -> Option<Self> {
        let groups: Vec<Option<u64>> = sorted.iter().map(|c| c.item.group()).collect();
        if groups.iter().all(Option::is_none) {
            return None;
        }
        let mut unit_of_group: HashMap<u64, usize> = HashMap::new();
        let mut members: Vec<Vec<usize>> = Vec::new();
        for (pos, group) in groups.into_iter().enumerate() {
            let next = members.len();
            let unit = match group {
                Some(group) => *unit_of_group.entry(group).or_insert(next),
                None => next,
            };
            match members.get_mut(unit) {
                Some(unit_members) => unit_members.push(pos),
                None => members.push(vec![pos]),
            }
        }
        let views = members
            .iter()
            .map(|m| ItemView {
                inner: sorted[m[0]].item,
                tokens: m
                    .iter()
                    .fold(0u64, |sum, &pos| sum.saturating_add(sorted[pos].tokens())),
                pinned: false,
            })
            .collect();
        let mut bounds = Vec::with_capacity(members.len() + 1);
        bounds.push(0);
        let mut positions = Vec::with_capacity(sorted.len());
        for m in members {
            positions.extend(m);
            bounds.push(positions.len());
        }
        Some(Self {
            positions,
            bounds,
            views,
        })
    }

    /// Positions in the sorted candidates of unit `unit`'s members.
    pub(crate) fn members(&self, unit: usize) -> &[usize] {
        &self.positions[self.bounds[unit]..self.bounds[unit + 1]]
    }

    /// One candidate per unit, scored and indexed by its first member.
    pub(crate) fn candidates<'u>(&'u self, sorted: &[ScoredItem<'a>]) -> Vec<ScoredItem<'u>> {
        self.views
            .iter()
            .enumerate()
            .map(|(unit, view)| {
                let lead = &sorted[self.members(unit)[0]];
                ScoredItem::new(view, lead.index, lead.score)
            })
            .collect()
    }

    /// The report entries of the groups, `included` still unset (the
    /// pipeline knows it only after placement).
    pub(crate) fn report(&self, sorted: &[ScoredItem<'a>]) -> Vec<GroupSelection> {
        self.views
            .iter()
            .enumerate()
            .filter_map(|(unit, view)| {
                Some(GroupSelection {
                    group: view.inner.group()?,
                    members: self
                        .members(unit)
                        .iter()
                        .map(|&pos| sorted[pos].index)
                        .collect(),
                    tokens: view.tokens,
                    included: false,
                })
            })
            .collect()
    }
}

/// Sets each group's final fate from the `included` items: the overflow
/// strategy and the ceiling may still drop a sliced group (whole).
pub(crate) fn settle(groups: &mut [GroupSelection], included: &[IncludedItem], items: usize) {
    if groups.is_empty() {
        return;
    }
    let mut in_selection = vec![false; items];
    for item in included {
        in_selection[item.index] = true;
    }
    for group in groups {
        group.included = group.members.first().is_some_and(|&m| in_selection[m]);
    }
}
