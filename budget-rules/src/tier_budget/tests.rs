use super::*;

const SEED: TierBudget = TierBudget::new_const(100_000, 300, 1.0, 9.0, 90.0, 10.0);

#[test]
fn token_budget_rules_worked_numbers_for_raw_and_linked() {
    assert_eq!(SEED.nominal(Tier::Raw), 90_000);
    assert_eq!(SEED.effective(Tier::Raw), 81_000);
    assert_eq!(SEED.nominal(Tier::Linked), 9_000);
    assert_eq!(SEED.effective(Tier::Linked), 8_100);
    assert_eq!(SEED.meta(), 300);
}

/// The token-budget rules print SUMMARY 800 / 720 for 100K; the 1% share is authoritative.
#[test]
fn summary_share_is_authoritative_over_the_printed_800() {
    assert_eq!(SEED.nominal(Tier::Summary), 1_000);
    assert_eq!(SEED.effective(Tier::Summary), 900);
    // The printed 800 / 720 is 1% of an 80K payload with 10% headroom.
    let eighty = TierBudget::with_total(80_000).unwrap();
    assert_eq!(eighty.nominal(Tier::Summary), 800);
    assert_eq!(eighty.effective(Tier::Summary), 720);
    // 800 with 90,000 and 9,000 would not be a split of the total:
    // shares of 0.8 + 9 + 90 are rejected.
    assert_eq!(
        TierBudget::broken_rule(100_000, 300, 0.8, 9.0, 90.0, 10.0),
        Some(TierBudgetRule::SharesSumTo100)
    );
}

#[test]
fn defaults_match_the_token_budget_rules_values() {
    assert_eq!(TierBudget::with_total(100_000).unwrap(), SEED);
    assert_eq!(TierBudget::with_total_const(100_000), SEED);
}

#[test]
fn share_out_of_range_names_the_tier_and_value() {
    let err = TierBudget::new(1_000, 0, -5.0, 15.0, 90.0, 10.0).unwrap_err();
    assert_eq!(
        err,
        TierBudgetError::ShareOutOfRange {
            tier: Tier::Summary,
            percent: -5.0
        }
    );
    assert_eq!(
        err.to_string(),
        "SUMMARY share -5 percent is outside 0.0..=100.0"
    );
    let err = TierBudget::new(1_000, 0, 1.0, f64::NAN, 90.0, 10.0).unwrap_err();
    assert!(matches!(
        err,
        TierBudgetError::ShareOutOfRange {
            tier: Tier::Linked,
            ..
        }
    ));
    let err = TierBudget::new(1_000, 0, 1.0, 9.0, f64::INFINITY, 10.0).unwrap_err();
    assert!(matches!(
        err,
        TierBudgetError::ShareOutOfRange {
            tier: Tier::Raw,
            ..
        }
    ));
}

#[test]
fn shares_must_sum_to_100() {
    let err = TierBudget::new(1_000, 0, 1.0, 9.0, 91.0, 10.0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "tier shares sum to 101 percent (summary 1 + linked 9 + raw 91), expected 100"
    );
    // Binary rounding of decimal shares is tolerated.
    assert!(TierBudget::new(3_000, 0, 33.3, 33.3, 33.4, 0.0).is_ok());
}

#[test]
fn headroom_must_be_below_100() {
    for bad in [100.0, -0.5, f64::NAN, f64::INFINITY] {
        assert_eq!(
            TierBudget::broken_rule(1_000, 0, 1.0, 9.0, 90.0, bad),
            Some(TierBudgetRule::HeadroomIsPercentage),
            "headroom {bad}"
        );
    }
    let err = TierBudget::new(1_000, 0, 1.0, 9.0, 90.0, 100.0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "headroom_percent 100 is outside 0.0..100.0"
    );
    let zero = TierBudget::new(1_000, 0, 10.0, 10.0, 80.0, 0.0).unwrap();
    assert_eq!(zero.effective(Tier::Raw), 800);
}

#[test]
fn meta_may_equal_but_not_exceed_total() {
    assert!(TierBudget::new(1_000, 1_000, 10.0, 10.0, 80.0, 10.0).is_ok());
    let err = TierBudget::new(1_000, 1_001, 10.0, 10.0, 80.0, 10.0).unwrap_err();
    assert_eq!(
        err,
        TierBudgetError::MetaExceedsTotal {
            meta: 1_001,
            total: 1_000
        }
    );
}

#[test]
fn every_effective_limit_must_be_positive() {
    // 1% of 111 = 1 nominal, 90% of 1 = 0 effective.
    let err = TierBudget::new(111, 0, 1.0, 9.0, 90.0, 10.0).unwrap_err();
    assert_eq!(
        err.to_string(),
        "SUMMARY effective limit is 0 tokens (1 percent of 111 = 1 nominal, minus headroom)"
    );
    // 1% of 200 = 2 nominal, 90% of 2 = 1 (floor of 1.8).
    let ok = TierBudget::new(200, 0, 1.0, 9.0, 90.0, 10.0).unwrap();
    assert_eq!(ok.effective(Tier::Summary), 1);
    // A zero share can never have a positive limit.
    assert_eq!(
        TierBudget::broken_rule(1_000, 0, 0.0, 10.0, 90.0, 10.0),
        Some(TierBudgetRule::TierLimitPositive(Tier::Summary))
    );
}

#[test]
fn huge_totals_saturate_within_total() {
    let b = TierBudget::new(u64::MAX, 0, 0.0001, 0.0, 99.9999, 0.0);
    // LINKED 0% is rejected as a zero limit, not a panic.
    assert_eq!(
        b.unwrap_err(),
        TierBudgetError::TierLimitZero {
            tier: Tier::Linked,
            total: u64::MAX,
            percent: 0.0,
            nominal: 0
        }
    );
    // 90% and 81% of u64::MAX, within f64 precision, without overflow.
    let b = TierBudget::with_total(u64::MAX).unwrap();
    let (nominal, effective) = (b.nominal(Tier::Raw), b.effective(Tier::Raw));
    assert!(nominal > u64::MAX / 100 * 89 && nominal < u64::MAX / 100 * 91);
    assert!(effective > u64::MAX / 100 * 80 && effective < u64::MAX / 100 * 82);
}

#[test]
fn rule_messages_are_fixed_sentences() {
    assert_eq!(
        TierBudgetRule::TierLimitPositive(Tier::Raw).message(),
        "invalid TierBudget: the RAW tier's effective limit is 0 tokens"
    );
    assert_eq!(
        TierBudgetRule::SharesSumTo100.message(),
        "invalid TierBudget: summary, linked and raw percentages must sum to 100"
    );
}

#[test]
#[should_panic(expected = "invalid TierBudget: meta tokens exceed the payload total")]
fn new_const_panics_with_the_rule_message() {
    let _ = TierBudget::new_const(100, 101, 1.0, 9.0, 90.0, 10.0);
}
