//! [`Complexity`]: how large a payload a task is expected to need.

use std::ops::RangeInclusive;

use budget_runtime::estimate::TokenCounter;
use budget_runtime::payload::TierBudget;

/// The token-budget rules' complexity classes and their expected payload totals, in
/// tokens: simple 15,000–25,000, medium 40,000–70,000, complex
/// 70,000–100,000.
///
/// The range is an expectation, not a floor: the assembler never adds
/// content to reach it, so a simple task with 3,000 tokens of material
/// yields a payload of about 3,000 tokens plus its structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Complexity {
    /// Expected total 15,000–25,000 tokens.
    Simple,
    /// Expected total 40,000–70,000 tokens.
    Medium,
    /// Expected total 70,000–100,000 tokens.
    Complex,
}

impl Complexity {
    /// The expected payload total, in tokens.
    pub const fn expected_total(self) -> RangeInclusive<u64> {
        match self {
            Self::Simple => 15_000..=25_000,
            Self::Medium => 40_000..=70_000,
            Self::Complex => 70_000..=100_000,
        }
    }

    /// The class whose ceiling covers `demand_tokens` (the tokens of all
    /// material offered): up to 25,000 simple, up to 70,000 medium, above
    /// that complex (whose payload is capped at 100,000).
    pub const fn for_demand(demand_tokens: u64) -> Self {
        if demand_tokens <= *Self::Simple.expected_total().end() {
            Self::Simple
        } else if demand_tokens <= *Self::Medium.expected_total().end() {
            Self::Medium
        } else {
            Self::Complex
        }
    }

    /// The class of the exact demand of `texts` under `counter` (the sum of
    /// their counts, as [`Complexity::for_demand`] classes it), counting
    /// only until the class is settled: once the texts counted so far pass
    /// the Medium ceiling of 70,000 tokens, the rest is not counted.
    pub fn for_counted_demand<'t>(
        counter: &dyn TokenCounter,
        texts: impl IntoIterator<Item = &'t str>,
    ) -> Self {
        let ceiling = *Self::Medium.expected_total().end();
        let mut demand: u64 = 0;
        for text in texts {
            match counter.count_tokens_up_to(text, ceiling.saturating_sub(demand)) {
                Some(tokens) => demand = demand.saturating_add(tokens),
                None => return Self::Complex,
            }
        }
        Self::for_demand(demand)
    }

    /// A tier budget with this class's ceiling as total and every other
    /// value at its default (META 300, shares 1 / 9 / 90, headroom 10%).
    pub const fn budget(self) -> TierBudget {
        TierBudget::with_total_const(*self.expected_total().end())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use budget_runtime::model::Tier;

    /// One token per byte; counts how many texts it was asked about.
    #[derive(Default)]
    struct Bytes(std::sync::atomic::AtomicUsize);
    impl TokenCounter for Bytes {
        fn count_tokens(&self, text: &str) -> u64 {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            text.len() as u64
        }
    }

    #[test]
    fn counted_demand_stops_once_complex() {
        let k = "x".repeat(1_000);
        let classify = |n: usize, extra: &str| {
            let bytes = Bytes::default();
            let texts = std::iter::repeat_n(k.as_str(), n).chain([extra]);
            let class = Complexity::for_counted_demand(&bytes, texts);
            (class, bytes.0.into_inner())
        };
        assert_eq!(classify(25, ""), (Complexity::Simple, 26));
        assert_eq!(classify(25, "x"), (Complexity::Medium, 26));
        assert_eq!(classify(70, ""), (Complexity::Medium, 71));
        assert_eq!(classify(70, "x"), (Complexity::Complex, 71));
        // The 71st text passes the ceiling: the rest is not counted.
        assert_eq!(classify(500, ""), (Complexity::Complex, 71));
    }

    #[test]
    fn class_boundaries_are_the_range_ceilings() {
        assert_eq!(Complexity::for_demand(0), Complexity::Simple);
        assert_eq!(Complexity::for_demand(25_000), Complexity::Simple);
        assert_eq!(Complexity::for_demand(25_001), Complexity::Medium);
        assert_eq!(Complexity::for_demand(70_000), Complexity::Medium);
        assert_eq!(Complexity::for_demand(70_001), Complexity::Complex);
        assert_eq!(Complexity::for_demand(u64::MAX), Complexity::Complex);
    }

    #[test]
    fn budgets_use_the_ceiling_and_default_shares() {
        let simple = Complexity::Simple.budget();
        assert_eq!(simple.total(), 25_000);
        // 90% of 25,000 = 22,500; minus 10% headroom = 20,250.
        assert_eq!(simple.effective(Tier::Raw), 20_250);
        assert_eq!(
            Complexity::Complex.budget(),
            TierBudget::with_total_const(100_000)
        );
    }

    #[test]
    fn ranges_are_the_token_budget_rules_ranges() {
        assert_eq!(Complexity::Simple.expected_total(), 15_000..=25_000);
        assert_eq!(Complexity::Medium.expected_total(), 40_000..=70_000);
        assert_eq!(Complexity::Complex.expected_total(), 70_000..=100_000);
    }

    /// The example that documented `complexity`.
    #[test]
    fn example_type() {
        assert_eq!(Complexity::for_demand(12_000), Complexity::Simple);
        assert_eq!(Complexity::for_demand(55_000), Complexity::Medium);
        assert_eq!(Complexity::for_demand(250_000), Complexity::Complex);
        assert_eq!(Complexity::Medium.budget().total(), 70_000);
    }

    /// The example that documented `for_counted_demand`.
    #[test]
    fn example_for_counted_demand() {
        /// A toy exact counter: one token per word.
        struct Words;
        impl TokenCounter for Words {
            fn count_tokens(&self, t: &str) -> u64 {
                t.split_whitespace().count() as u64
            }
        }
        let page = "word ".repeat(30_000);
        assert_eq!(
            Complexity::for_counted_demand(&Words, [page.as_str()]),
            Complexity::Medium
        );
        let pages = [page.as_str(); 3];
        assert_eq!(
            Complexity::for_counted_demand(&Words, pages),
            Complexity::Complex
        );
    }
}
