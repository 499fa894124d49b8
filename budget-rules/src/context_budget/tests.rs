use super::*;

fn err(builder: ContextBudgetBuilder) -> ContextBudgetError {
    builder.build().unwrap_err()
}

#[test]
fn each_rule_has_its_own_error_with_numbers() {
    use ContextBudgetError as E;
    assert_eq!(
        err(ContextBudget::builder(10, 11)),
        E::TargetExceedsMax {
            target_tokens: 11,
            max_tokens: 10
        }
    );
    assert_eq!(
        err(ContextBudget::builder(10, 5).output_reserve(11)),
        E::OutputReserveExceedsMax {
            output_reserve: 11,
            max_tokens: 10
        }
    );
    for bad in [-0.5, 100.5, f64::NAN, f64::INFINITY] {
        assert!(matches!(
            err(ContextBudget::builder(10, 5).safety_margin_percent(bad)),
            E::SafetyMarginOutOfRange { .. }
        ));
    }
    assert_eq!(
        err(ContextBudget::builder(10, 5).reserved_slot(ContextKind::MEMORY, -2)),
        E::NegativeReservedSlot {
            kind: ContextKind::MEMORY,
            min_items: -2
        }
    );
    assert_eq!(
        err(ContextBudget::builder(10, 5)
            .reserved_slot(ContextKind::MEMORY, 1)
            .reserved_slot(ContextKind::new("memory").unwrap(), 2)),
        E::DuplicateReservedSlot {
            kind: ContextKind::MEMORY
        }
    );
}

#[test]
fn error_messages_quote_the_numbers() {
    let e = ContextBudget::builder(800, 100)
        .output_reserve(900)
        .build()
        .unwrap_err();
    assert_eq!(e.to_string(), "output_reserve 900 exceeds max_tokens 800");
    let e = ContextBudget::builder(800, 100)
        .safety_margin_percent(150.0)
        .build()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "estimation_safety_margin_percent 150 is outside 0.0..=100.0"
    );
}

#[test]
fn boundary_values_are_valid() {
    assert!(ContextBudget::new(0, 0).is_ok());
    assert!(
        ContextBudget::builder(10, 10)
            .output_reserve(10)
            .build()
            .is_ok()
    );
    assert!(
        ContextBudget::builder(10, 10)
            .safety_margin_percent(100.0)
            .build()
            .is_ok()
    );
    assert!(
        ContextBudget::builder(u64::MAX, u64::MAX)
            .output_reserve(u64::MAX)
            .build()
            .is_ok()
    );
}

#[test]
fn const_constructors_agree_with_runtime() {
    const SLOTS: &[ReservedSlot] = &[ReservedSlot::new(ContextKind::TOOL_OUTPUT, 2)];
    const B: ContextBudget = ContextBudget::new_const(1_000, 800)
        .with_output_reserve(100)
        .with_safety_margin_percent(5.0)
        .with_reserved_slots(SLOTS);
    let runtime = ContextBudget::builder(1_000, 800)
        .output_reserve(100)
        .safety_margin_percent(5.0)
        .reserved_slot(ContextKind::TOOL_OUTPUT, 2)
        .build()
        .unwrap();
    assert_eq!(B, runtime);
    assert_eq!(B.reserved_for(&ContextKind::new("tooloutput").unwrap()), 2);
    assert_eq!(B.reserved_for(&ContextKind::MEMORY), 0);
}

#[test]
#[should_panic(expected = "target_tokens exceeds max_tokens")]
fn const_constructor_panics_with_rule_message() {
    let _ = ContextBudget::new_const(std::hint::black_box(5), 6);
}

// Edge cases of the effective-budget computation (Stage 5: Slice).
#[test]
fn effective_budget_without_pinned_items() {
    let budget = ContextBudget::builder(1_000, 800)
        .output_reserve(100)
        .build()
        .unwrap();
    assert_eq!(
        budget.effective(0),
        EffectiveBudget {
            max_tokens: 900,
            target_tokens: 800
        }
    );
}

#[test]
fn effective_target_is_clamped_to_effective_max() {
    let budget = ContextBudget::builder(1_000, 1_000)
        .output_reserve(400)
        .build()
        .unwrap();
    assert_eq!(
        budget.effective(100),
        EffectiveBudget {
            max_tokens: 500,
            target_tokens: 500
        }
    );
}

#[test]
fn zero_effective_budget() {
    let budget = ContextBudget::new(0, 0).unwrap();
    assert_eq!(
        budget.effective(0),
        EffectiveBudget {
            max_tokens: 0,
            target_tokens: 0
        }
    );
    let all_reserved = ContextBudget::builder(500, 400)
        .output_reserve(500)
        .build()
        .unwrap();
    assert_eq!(
        all_reserved.effective(0),
        EffectiveBudget {
            max_tokens: 0,
            target_tokens: 0
        }
    );
}

#[test]
fn pinned_items_consuming_the_whole_target() {
    let budget = ContextBudget::new(1_000, 150).unwrap();
    assert_eq!(budget.effective(150).target_tokens, 0);
    assert_eq!(budget.effective(150).max_tokens, 850);
    assert_eq!(
        budget.effective(400),
        EffectiveBudget {
            max_tokens: 600,
            target_tokens: 0
        }
    );
}

#[test]
fn pinned_and_reserve_exceeding_what_remains_floor_at_zero() {
    let budget = ContextBudget::builder(1_000, 900)
        .output_reserve(600)
        .build()
        .unwrap();
    assert_eq!(
        budget.effective(500),
        EffectiveBudget {
            max_tokens: 0,
            target_tokens: 0
        }
    );
    assert_eq!(
        budget.effective(u64::MAX),
        EffectiveBudget {
            max_tokens: 0,
            target_tokens: 0
        }
    );
}

#[test]
fn safety_margin_applies_after_subtractions_with_floor() {
    let budget = ContextBudget::builder(1_000, 800)
        .output_reserve(100)
        .safety_margin_percent(10.0)
        .build()
        .unwrap();
    // max: 1000 - 100 - 33 = 867 → floor(780.3) = 780; target: 800 - 33 = 767 → floor(690.3) = 690
    assert_eq!(
        budget.effective(33),
        EffectiveBudget {
            max_tokens: 780,
            target_tokens: 690
        }
    );
    let full = ContextBudget::builder(1_000, 800)
        .safety_margin_percent(100.0)
        .build()
        .unwrap();
    assert_eq!(
        full.effective(0),
        EffectiveBudget {
            max_tokens: 0,
            target_tokens: 0
        }
    );
}

#[test]
fn extreme_values_saturate() {
    let budget = ContextBudget::builder(u64::MAX, u64::MAX)
        .safety_margin_percent(0.5)
        .build()
        .unwrap();
    let eff = budget.effective(0);
    assert!(eff.target_tokens <= eff.max_tokens);
    // 99.5 % of u64::MAX, within f64 precision.
    assert!(eff.max_tokens < u64::MAX);
    assert!(eff.max_tokens > u64::MAX / 100 * 99);
}

/// Audit row: 20,000 reserved-slot kinds took 0.9 s (pairwise check).
/// They build, and a duplicate (in another case) at the very end is
/// still found and named. Speed: `cargo bench --bench budget_build`.
#[test]
fn many_reserved_slot_kinds_build_and_duplicates_are_found() {
    let mut builder = ContextBudget::builder(1_000, 1_000);
    for i in 0..20_000 {
        builder = builder.reserved_slot(ContextKind::new(format!("kind{i}")).unwrap(), 1);
    }
    let budget = builder.clone().build().unwrap();
    assert_eq!(budget.reserved_slots().len(), 20_000);
    let err = builder
        .reserved_slot(ContextKind::new("KIND19999").unwrap(), 2)
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "kind KIND19999 has more than one reserved slot"
    );
}
