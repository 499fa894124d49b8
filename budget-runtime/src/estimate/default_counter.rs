//! [`DefaultCounter`]: what every entry point counts with unless told
//! otherwise.

use crate::estimate::{ContentType, Estimator};

/// The one default counter of the library: `Item::build`,
/// `#[derive(ContextItem)]` without an `estimator`, the
/// [`PayloadAssembler`](crate::payload::PayloadAssembler),
/// `budget::prompt::PromptBudget` and the contract checker
/// all count with it, so a text gets the same number through each.
///
/// * With the `o200k` feature (on by default in `context-budget`): exact
///   `o200k_base` counts (GPT-4o and later): 0% error against `o200k_base`
///   in every language, and the base every model profile's estimate
///   scales.
/// * Without it: the UTF-8 length, a count no tokenizer whose tokens are at
///   least a byte exceeds (never under; about 4× over on English).
///
/// The token-budget rules' fixed ratios stay selectable by name:
/// [`RatioEstimator`](crate::estimate::RatioEstimator),
/// `#[context(estimator = "ratios")]`.
///
/// ```
/// use budget::estimate::{ContentType, DefaultCounter, Estimator};
///
/// let tokens = DefaultCounter.estimate("hello world", ContentType::Prose);
/// #[cfg(feature = "o200k")]
/// assert_eq!(tokens, 2); // exact o200k_base
/// assert!(tokens <= "hello world".len() as u64);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DefaultCounter;

impl DefaultCounter {
    /// What the default counts with: `"o200k_base"` or `"utf8_bytes"`.
    ///
    /// ```
    /// # #[cfg(feature = "o200k")]
    /// assert_eq!(budget::estimate::DefaultCounter.name(), "o200k_base");
    /// ```
    pub const fn name(self) -> &'static str {
        if cfg!(feature = "o200k") {
            "o200k_base"
        } else {
            "utf8_bytes"
        }
    }
}

impl Estimator for DefaultCounter {
    fn estimate(&self, text: &str, _content_type: ContentType) -> u64 {
        #[cfg(feature = "o200k")]
        {
            use crate::estimate::{Encoding, ExactCounter, TokenCounter};
            static EXACT: std::sync::OnceLock<Option<ExactCounter>> = std::sync::OnceLock::new();
            if let Some(exact) = EXACT.get_or_init(|| ExactCounter::new(Encoding::O200kBase).ok()) {
                return exact.count_tokens(text);
            }
        }
        text.len() as u64
    }
}
