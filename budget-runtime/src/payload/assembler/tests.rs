use super::*;
use crate::estimate::RatioEstimator;
use crate::model::Item;
use crate::payload::{DemotionCause, TierBudget};

fn item(tokens: i64, relevance: f64, link: &str) -> Item {
    Item::builder("x".repeat(usize::try_from(tokens).unwrap_or(1).max(1)))
        .signed_tokens(tokens)
        .relevance(relevance)
        .link(link)
        .build()
        .unwrap()
}

#[test]
fn token_budget_rule_limits_reach_the_tally() {
    let payload = PayloadAssembler::new(TierBudget::with_total(100_000).unwrap())
        .assemble_items::<Item>(&[])
        .unwrap();
    let tally = payload.tally();
    assert_eq!(tally.tier(Tier::Raw).limit, 81_000);
    assert_eq!(tally.tier(Tier::Linked).limit, 8_100);
    assert_eq!(tally.tier(Tier::Summary).limit, 900);
    // META, and SUMMARY's overview, map and key findings.
    let frame = tally.tier(Tier::Summary).frame;
    assert!((50..300).contains(&frame), "{frame}");
    assert_eq!(tally.used(), 300 + frame);
}

/// A simple task's payload is not padded up to its expected range.
#[test]
fn a_simple_payload_is_never_padded() {
    let items = [item(400, 0.9, "a.rs"), item(300, 0.5, "b.rs")];
    let payload = PayloadAssembler::new(TierBudget::with_total_const(25_000))
        .assemble_items(&items)
        .unwrap();
    assert!(payload.in_tier(Tier::Raw).count() == 2);
    // 700 content tokens plus structure, far below the 15,000 floor.
    assert!(
        payload.rendered_tokens() < 2_000,
        "{}",
        payload.rendered_tokens()
    );
    assert!(payload.rendered_tokens() > 700);
}

#[test]
fn same_input_gives_the_same_bytes() {
    let items: Vec<Item> = (0..50)
        .map(|i| {
            item(
                40 + i,
                f64::from(i32::try_from(i % 7).unwrap()) / 7.0,
                &format!("f{i}.rs"),
            )
        })
        .collect();
    let assembler = PayloadAssembler::new(TierBudget::with_total(2_000).unwrap());
    let a = assembler.assemble_items(&items).unwrap();
    let b = assembler.assemble_items(&items).unwrap();
    assert_eq!(a.text(), b.text());
    assert_eq!(a.fingerprint(), b.fingerprint());
}

/// No headroom and no META: the tiers alone may fill the total, so the
/// structure pushes the rendered text over and the overflow pass demotes
/// the lowest-ranked RAW item.
#[test]
fn rendering_overhead_is_paid_by_demoting_the_lowest_raw_item() {
    let budget = TierBudget::new(1_000, 0, 10.0, 10.0, 80.0, 0.0).unwrap();
    let items = [
        item(380, 0.9, "best.rs"),
        item(380, 0.3, "worst.rs"),
        item(10, 0.6, "small.rs"),
    ];
    // The ratios, whose estimate of the structure is known to overflow.
    let payload = PayloadAssembler::new(budget)
        .estimator(&RatioEstimator)
        .assemble_items(&items)
        .unwrap();
    assert!(payload.rendered_tokens() <= 1_000);
    let first = payload.demotions().next().expect("a demotion");
    assert_eq!(first.position, 1);
    assert!(matches!(
        first.action,
        AssignmentAction::Demoted {
            from: Tier::Raw,
            cause: DemotionCause::RenderOverflow,
            ..
        }
    ));
    assert_eq!(payload.assignments()[0].tier, Some(Tier::Raw));
    assert_eq!(payload.assignments()[1].demoted_from, Some(Tier::Raw));
}

#[test]
fn structure_over_the_total_is_a_typed_error() {
    let budget = TierBudget::new(120, 0, 10.0, 10.0, 80.0, 0.0).unwrap();
    let err = PayloadAssembler::new(budget)
        .assemble_items(&[item(5, 0.5, "a.rs")])
        .unwrap_err();
    let PayloadError::StructureExceedsTotal {
        rendered_tokens,
        total_tokens,
        minimum_total: Some(minimum),
    } = err
    else {
        panic!("{err:?}");
    };
    assert_eq!(total_tokens, 120);
    assert!(rendered_tokens > 120);
    assert!(
        err.to_string().ends_with(&format!(
            "over the total of 120; the smallest total that fits is {minimum}"
        )),
        "{err}"
    );
    let shape = |total| TierBudget::new(total, 0, 10.0, 10.0, 80.0, 0.0).unwrap();
    let one = [item(5, 0.5, "a.rs")];
    let assemble = |total| {
        PayloadAssembler::new(shape(total))
            .assemble_items(&one)
            .map(|p| p.rendered_tokens())
    };
    assert!(assemble(minimum).unwrap() <= minimum);
    for below in [minimum - 1, minimum / 2, 121] {
        assert!(
            matches!(
                assemble(below),
                Err(PayloadError::StructureExceedsTotal { total_tokens, minimum_total: Some(m), .. })
                    if m == minimum && total_tokens == below
            ),
            "{below}"
        );
    }
    // Every total at or above the minimum packs, within that total.
    for total in minimum..minimum + 200 {
        assert!(assemble(total).unwrap() <= total, "{total}");
    }
}

#[test]
fn nan_scores_rank_last_and_negative_tokens_are_omitted() {
    // RAW limit 1,620 (2,000 × 0.9 × 0.9): room for one 1,000-token item.
    let budget = TierBudget::with_total(2_000).unwrap();
    let items = [
        item(1_000, f64::NAN, "nan.rs"),
        item(1_000, 0.0, "zero.rs"),
        item(-5, 1.0, "negative.rs"),
    ];
    let payload = PayloadAssembler::new(budget)
        .assemble_items(&items)
        .unwrap();
    let p = payload.assignments();
    assert_eq!(p[1].tier, Some(Tier::Raw));
    assert_eq!(p[0].tier, Some(Tier::Linked));
    assert!(matches!(
        p[0].reason,
        AssignmentReason::TierFull {
            tier: Tier::Raw,
            ..
        }
    ));
    assert_eq!(p[2].tier, None);
    assert_eq!(p[2].reason, AssignmentReason::NegativeTokens { tokens: -5 });
    let mention = [Item::builder("n")
        .tokens(1)
        .relevance(f64::NAN)
        .tier(Tier::Summary)
        .link("nan.md")
        .build()
        .unwrap()];
    // SUMMARY 180 (20,000 × 0.01 × 0.9): room for the frame and a mention.
    let payload = PayloadAssembler::new(TierBudget::with_total(20_000).unwrap())
        .assemble_items(&mention)
        .unwrap();
    // No description: the first line of the content stands in.
    assert!(payload.text().contains("- `nan.md`: n (score n/a)\n"));
}

/// SUMMARY's own text is counted in its 1% share; at small totals the
/// whole frame (about 210 tokens in Markdown) filled the share and a
/// derived document scored 0.1 was omitted where it used to be
/// mentioned. The frame shrinks instead: at every total from where a
/// one-line frame and the mention fit, the document is mentioned.
#[test]
fn summary_mentions_survive_small_totals() {
    let mut items: Vec<Item> = (0..30)
        .map(|i| {
            item(
                900,
                0.5 + f64::from(i) / 100.0,
                &format!("src/module_{i:02}.rs"),
            )
        })
        .collect();
    items.push(
        Item::builder("Derived notes.")
            .tokens(4)
            .relevance(0.1)
            .tier(Tier::Summary)
            .link("docs/derived.md")
            .build()
            .unwrap(),
    );
    let mentioned = |total: u64| {
        let payload = PayloadAssembler::new(TierBudget::with_total(total).unwrap())
            .assemble_items(&items)
            .unwrap();
        let doc = &payload.assignments()[30];
        (
            doc.tier == Some(Tier::Summary),
            payload.text().contains("`docs/derived.md`"),
            payload.tally().tier(Tier::Summary).limit,
        )
    };
    let mut first = None;
    for total in (1_000..=30_000).step_by(97) {
        let (summary, shown, limit) = mentioned(total);
        assert_eq!(summary, shown, "{total}");
        match first {
            None if summary => first = Some((total, limit)),
            Some((at, _)) => assert!(summary, "mentioned from {at}, not at {total}"),
            None => {}
        }
    }
    // From a SUMMARY share of about 60 tokens on (a one-line frame and
    // the mention).
    let (at, limit) = first.expect("mentioned at some total");
    assert!(limit <= 64, "first mentioned at {at} (SUMMARY {limit})");
    // The full frame where the share holds it and a mention.
    let text = PayloadAssembler::new(TierBudget::with_total(100_000).unwrap())
        .assemble_items(&items)
        .unwrap()
        .text()
        .to_owned();
    assert!(text.contains("Key findings:"), "{text}");
}

/// Arrival order: the token-budget rules' RAW-full rule demotes the lowest RAW item
/// for a better newcomer, through the whole assembler.
#[test]
fn arrival_order_demotes_for_better_newcomers() {
    let budget = TierBudget::with_total(2_000).unwrap(); // RAW 1,620
    let items = [item(1_000, 0.1, "early.rs"), item(1_000, 0.9, "late.rs")];
    let payload = PayloadAssembler::new(budget)
        .order(OfferOrder::Arrival)
        .assemble_items(&items)
        .unwrap();
    let p = payload.assignments();
    assert_eq!(p[0].tier, Some(Tier::Linked));
    assert_eq!(
        p[0].reason,
        AssignmentReason::Demoted {
            from: Tier::Raw,
            cause: DemotionCause::Displaced { by: 1 }
        }
    );
    assert_eq!(p[1].tier, Some(Tier::Raw));
    // Rank order places the better item first and never demotes.
    let ranked = PayloadAssembler::new(budget)
        .assemble_items(&items)
        .unwrap();
    assert_eq!(ranked.demotions().count(), 0);
    assert_eq!(ranked.assignments()[1].tier, Some(Tier::Raw));
    assert!(matches!(
        ranked.assignments()[0].reason,
        AssignmentReason::TierFull {
            tier: Tier::Raw,
            ..
        }
    ));
}

#[test]
fn linked_cost_is_the_link_line_not_the_content() {
    let budget = TierBudget::with_total(2_000).unwrap();
    let items = [item(5_000, 0.5, "huge.rs")];
    let payload = PayloadAssembler::new(budget)
        .estimator(&RatioEstimator)
        .assemble_items(&items)
        .unwrap();
    let p = payload.assignments()[0];
    assert_eq!(p.tier, Some(Tier::Linked));
    // "- `huge.rs`. 5000 tokens.\n" is 26 characters: ceil(26 / 3.75) = 7.
    assert_eq!(p.tokens, 7);
    assert!(payload.text().contains("- `huge.rs`. 5000 tokens.\n"));
}

/// A description that ends a sentence gets no second full stop.
#[test]
fn a_linked_description_ending_a_sentence_keeps_one_full_stop() {
    let items = [Item::builder("x".repeat(5_000))
        .tokens(5_000)
        .link("huge.rs")
        .description("Generated tables.")
        .build()
        .unwrap()];
    let payload = PayloadAssembler::new(TierBudget::with_total(2_000).unwrap())
        .fetch_tool(true)
        .assemble_items(&items)
        .unwrap();
    assert!(
        payload
            .text()
            .contains("- `huge.rs`: Generated tables. Fetch: 5000 tokens.\n"),
        "{}",
        payload.text()
    );
}

/// Every format, with and without META and TREE, parses and fits.
#[test]
fn layouts_parse_and_fit_in_every_format() {
    let items: Vec<Item> = (0..40)
        .map(|i| {
            item(
                30 + 20 * i64::from(i),
                1.0 / f64::from(i + 1),
                &format!("src/m{}/f{i}.rs", i % 4),
            )
        })
        .collect();
    for format in [Format::Markdown, Format::Xml, Format::Json] {
        for (meta, tree) in [(true, true), (false, true), (false, false)] {
            let payload = PayloadAssembler::new(TierBudget::with_total(8_000).unwrap())
                .format(format)
                .meta(meta)
                .tree(tree)
                .assemble_items(&items)
                .unwrap();
            let text = payload.text();
            assert!(payload.rendered_tokens() <= 8_000);
            assert_eq!(text.contains("f0.rs [RAW]"), tree, "{format:?} {text}");
            assert_eq!(
                text.to_lowercase().contains("fingerprint"),
                meta,
                "{format:?}"
            );
            match format {
                Format::Json => {
                    let value: serde_json::Value = serde_json::from_str(text).unwrap();
                    assert_eq!(value.get("tree").is_some(), tree);
                    assert_eq!(value.get("meta").is_some(), meta);
                }
                Format::Xml => {
                    let doc = roxmltree::Document::parse(text).unwrap();
                    let root = doc.root_element();
                    assert_eq!(root.children().any(|n| n.has_tag_name("tree")), tree);
                    assert_eq!(root.children().any(|n| n.has_tag_name("meta")), meta);
                }
                _ => assert!(text.ends_with("\n") && !text.ends_with("\n\n")),
            }
        }
    }
}
