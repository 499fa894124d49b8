//! [`PayloadError`]: a hybrid payload that cannot be assembled within its
//! total.

/// A hybrid payload could not be assembled within its total.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PayloadError {
    /// With every item omitted, the rendered structure alone is over the total.
    #[error(
        "the payload structure alone is estimated at {rendered_tokens} tokens with every item omitted, over the total of {total_tokens}{}",
        match minimum_total {
            Some(minimum) => format!("; the smallest total that fits is {minimum}"),
            None => String::new(),
        }
    )]
    StructureExceedsTotal {
        /// Estimated tokens of the rendered structure.
        rendered_tokens: u64,
        /// The payload total.
        total_tokens: u64,
        /// The smallest total that fits, with the same META tokens, tier
        /// shares and headroom ([`PayloadAssembler::assemble`](crate::payload::PayloadAssembler::assemble) says how it
        /// is found); `None` if none does.
        minimum_total: Option<u64>,
    },
}
