//! [`OfferOrder`]: the order in which candidates are offered to the tiers.

/// The order in which candidates are offered to the tiers.
///
/// ```
/// use budget::payload::{PayloadAssembler, OfferOrder, TierBudget};
///
/// assert_eq!(OfferOrder::default(), OfferOrder::Rank);
/// let streaming = PayloadAssembler::new(TierBudget::with_total(20_000)?).order(OfferOrder::Arrival);
/// # let _ = streaming;
/// # Ok::<(), budget::payload::TierBudgetError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum OfferOrder {
    /// Best rank first (score descending, ties by position). Each item then
    /// ranks lowest when it arrives, so a full tier never demotes for it:
    /// it falls to the next tier. This is the default.
    #[default]
    Rank,
    /// Candidate order, as items arrive (for example files as a walker finds
    /// them): a full tier demotes its lowest-ranked item when the newcomer
    /// outranks it.
    Arrival,
}
