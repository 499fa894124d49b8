//! [`EstimationRatio`]: a type's fixed estimation ratio, known at compile time.

use crate::estimate::ContentType;

/// The content type, and so the seed characters-per-token ratio, a type's
/// token estimate uses. `#[derive(ContextItem)]` implements it for structs;
/// both constants are usable in `const` context.
///
/// For a struct with several content fields of different content types the
/// constant is the mixed-content type ([`ContentType::Markdown`]) unless the
/// struct names one with `#[context(content_type = "…")]`; each field is
/// still estimated at its own ratio.
///
/// ```
/// use budget::{estimate::{ContentType, EstimationRatio, seed_estimate}};
///
/// struct Snippet;
/// impl EstimationRatio for Snippet {
///     const CONTENT_TYPE: ContentType = ContentType::Code;
/// }
///
/// const RATIO: f64 = Snippet::CHARS_PER_TOKEN;
/// const COST_OF_4K_CHARS: u64 = seed_estimate(4_000, Snippet::CONTENT_TYPE);
/// assert_eq!(RATIO, 3.5);
/// assert_eq!(COST_OF_4K_CHARS, 1_143);
/// ```
pub trait EstimationRatio {
    /// The content type whose seed ratio applies.
    const CONTENT_TYPE: ContentType;

    /// Characters per token of [`CONTENT_TYPE`](EstimationRatio::CONTENT_TYPE).
    const CHARS_PER_TOKEN: f64 = Self::CONTENT_TYPE.chars_per_token();
}
