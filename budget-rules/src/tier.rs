//! [`Tier`]: how much of an item a hybrid payload carries.

use std::fmt;

/// The tier of a hybrid payload an item is placed in.
///
/// From most to least detailed: the full text ([`Tier::Raw`]), its
/// skeleton ([`Tier::Skeleton`]: signatures, type definitions and doc
/// comments without bodies, for items that have one), a link with a
/// one-line description ([`Tier::Linked`]), or a mention in the summary
/// narrative ([`Tier::Summary`]). `Raw > Skeleton > Linked > Summary` in
/// ordering. SKELETON has no share of its own: it draws on RAW's
/// ([`TierBudget`](crate::TierBudget)), so the token-budget rules' three
/// shares stay as they are.
///
/// ```
/// use budget::model::Tier;
///
/// assert!(Tier::Raw > Tier::Skeleton && Tier::Skeleton > Tier::Linked);
/// assert_eq!(Tier::for_score(0.75, Tier::DEFAULT_THRESHOLDS), Tier::Raw);
/// assert_eq!(Tier::for_score(0.5, Tier::DEFAULT_THRESHOLDS), Tier::Linked);
/// assert_eq!(Tier::for_score(f64::NAN, Tier::DEFAULT_THRESHOLDS), Tier::Summary);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Tier {
    /// Mentioned in the summary narrative only.
    Summary,
    /// Rendered as a link and a description; fetched on demand.
    Linked,
    /// The item's skeleton: its outline (signatures, type definitions, doc
    /// comments) without bodies, when it has one. Shares RAW's budget.
    Skeleton,
    /// The full content.
    Raw,
}

/// Score thresholds for automatic tier assignment: a score `>= raw` is
/// [`Tier::Raw`], `>= linked` is [`Tier::Linked`], anything else (NaN too)
/// is [`Tier::Summary`]. Scores are in the same unit as the thresholds.
/// No score earns [`Tier::Skeleton`]: an item reaches it by not fitting
/// RAW whole.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TierThresholds {
    /// Lowest score that is RAW.
    pub raw: f64,
    /// Lowest score that is LINKED.
    pub linked: f64,
}

impl Tier {
    /// The default thresholds: RAW at 0.7, LINKED at 0.4.
    pub const DEFAULT_THRESHOLDS: TierThresholds = TierThresholds {
        raw: 0.7,
        linked: 0.4,
    };

    /// The tier a score earns under `thresholds`.
    pub fn for_score(score: f64, thresholds: TierThresholds) -> Self {
        if score >= thresholds.raw {
            Self::Raw
        } else if score >= thresholds.linked {
            Self::Linked
        } else {
            Self::Summary
        }
    }

    /// Every tier, most detailed first.
    pub const ALL: [Self; 4] = [Self::Raw, Self::Skeleton, Self::Linked, Self::Summary];

    /// The next less detailed tier; `None` below SUMMARY.
    ///
    /// ```
    /// use budget::model::Tier;
    /// assert_eq!(Tier::Raw.below(), Some(Tier::Skeleton));
    /// assert_eq!(Tier::Summary.below(), None);
    /// ```
    pub const fn below(self) -> Option<Self> {
        match self {
            Self::Raw => Some(Self::Skeleton),
            Self::Skeleton => Some(Self::Linked),
            Self::Linked => Some(Self::Summary),
            Self::Summary => None,
        }
    }

    /// The tier whose budget this one draws on: RAW for SKELETON, itself
    /// otherwise.
    ///
    /// ```
    /// use budget::model::Tier;
    /// assert_eq!(Tier::Skeleton.budget_tier(), Tier::Raw);
    /// assert_eq!(Tier::Linked.budget_tier(), Tier::Linked);
    /// ```
    pub const fn budget_tier(self) -> Self {
        match self {
            Self::Skeleton => Self::Raw,
            other => other,
        }
    }

    /// The upper-case name used in rendered payloads (`"RAW"`, …).
    pub const fn name(self) -> &'static str {
        match self {
            Self::Raw => "RAW",
            Self::Skeleton => "SKELETON",
            Self::Linked => "LINKED",
            Self::Summary => "SUMMARY",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
