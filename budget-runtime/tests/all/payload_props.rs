//! Property tests of hybrid payload assembly: tier limits hold, every item
//! ends in exactly one state, demoted items rank below what stays, and the
//! rendered payload fits its total.

use std::cmp::Ordering;

use budget_runtime::payload::{AssignmentAction, Format, OfferOrder, PayloadAssembler, TierBudget};
use budget_runtime::{
    ContextItem, Estimator, Item,
    estimate::{ContentType, RatioEstimator},
    model::Tier,
};
use proptest::prelude::*;

fn score() -> impl Strategy<Value = f64> {
    prop_oneof![
        8 => 0.0..1.0f64,
        1 => Just(f64::NAN),
        1 => prop::sample::select(vec![0.0, -0.0, 0.5, 1.0, f64::INFINITY, f64::NEG_INFINITY]),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    (
        "[a-z`\n ]{1,40}",
        -2i64..3_000,
        score(),
        prop::option::of("[a-z]{1,8}(/[a-z]{1,8})?\\.(rs|md|txt)"),
        prop::option::of(prop::sample::select(vec![
            Tier::Raw,
            Tier::Skeleton,
            Tier::Linked,
            Tier::Summary,
        ])),
        prop::option::of("[A-Za-z |]{0,20}"),
        prop::option::of("[a-z`\n ]{0,30}"),
    )
        .prop_map(
            |(content, tokens, score, link, tier, description, skeleton)| {
                let mut b = Item::builder(content)
                    .signed_tokens(tokens)
                    .relevance(score);
                if let Some(skeleton) = skeleton {
                    b = b.skeleton(skeleton);
                }
                if let Some(link) = link {
                    b = b.link(link);
                }
                if let Some(tier) = tier {
                    b = b.tier(tier);
                }
                if let Some(d) = description {
                    b = b.description(d);
                }
                b.build().unwrap()
            },
        )
}

fn budget() -> impl Strategy<Value = TierBudget> {
    (
        1_500u64..40_000,
        0u64..400,
        0.0..30.0f64,
        prop::sample::select(vec![1.0, 5.0, 9.0, 20.0]),
    )
        .prop_filter_map("valid budget", |(total, meta, headroom, summary)| {
            TierBudget::new(total, meta, summary, 10.0, 90.0 - summary, headroom).ok()
        })
}

/// Independent of the library: higher score ranks higher, NaN lowest, -0.0
/// equals 0.0, ties go to the earlier position.
fn ranks_below(a: (f64, usize), b: (f64, usize)) -> bool {
    let by_score = match (a.0.is_nan(), b.0.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => a.0.partial_cmp(&b.0).unwrap(),
    };
    match by_score {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => a.1 > b.1,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn payload_invariants(
        items in prop::collection::vec(item(), 0..60),
        budget in budget(),
        arrival in any::<bool>(),
    ) {
        let order = if arrival { OfferOrder::Arrival } else { OfferOrder::Rank };
        let assembler = PayloadAssembler::new(budget).order(order);
        let Ok(payload) = assembler.assemble_items(&items) else {
            // Only a structure larger than the total may fail, and then
            // only for small totals.
            prop_assert!(budget.total() < 3_000);
            return Ok(());
        };
        let assignments = payload.assignments();

        // Each item in exactly one state, at its own position.
        prop_assert_eq!(assignments.len(), items.len());
        for (i, p) in assignments.iter().enumerate() {
            prop_assert_eq!(p.position, i);
            prop_assert!(std::ptr::eq(p.item, &items[i]));
        }

        // Replaying the events gives each item's final state.
        let mut last = vec![None; items.len()];
        for e in payload.events() {
            last[e.position] = Some(match e.action {
                AssignmentAction::Placed { tier, .. } => Some(tier),
                AssignmentAction::Omitted => None,
                AssignmentAction::Demoted { .. } => continue,
                other => panic!("an action this test does not know: {other:?}"),
            });
        }
        for (i, p) in assignments.iter().enumerate() {
            prop_assert_eq!(last[i], Some(p.tier), "item {}", i);
        }

        // Tier limits never exceeded, and the tally matches the assignments.
        for tier in Tier::ALL {
            let used: u64 = assignments
                .iter()
                .filter(|p| p.tier == Some(tier))
                .map(|p| p.tokens)
                .sum();
            let account = payload.tally().tier(tier);
            prop_assert_eq!(used + account.frame, account.used);
            prop_assert!(account.used <= budget.effective(tier), "{} {} > {}", tier, account.used, budget.effective(tier));
            if tier != Tier::Summary {
                prop_assert_eq!(account.frame, 0);
            }
        }
        // RAW and SKELETON share RAW's limit; only items with a skeleton
        // are carried as one, and the SKELETON section holds exactly them.
        let pool = payload.tally().tier(Tier::Raw).used + payload.tally().tier(Tier::Skeleton).used;
        prop_assert!(pool <= budget.effective(Tier::Raw), "RAW + SKELETON {} > {}", pool, budget.effective(Tier::Raw));
        let skeletons = assignments.iter().filter(|p| p.tier == Some(Tier::Skeleton)).count();
        for p in assignments.iter().filter(|p| p.tier == Some(Tier::Skeleton)) {
            prop_assert!(p.item.skeleton().is_some());
        }
        prop_assert_eq!(payload.text().contains("\n## SKELETON\n"), skeletons > 0);
        // The SUMMARY section (overview, map, key findings and mentions)
        // stays within SUMMARY's limit, estimated independently of the
        // tally, unless its frame alone fills the tier.
        let summary = payload.tally().tier(Tier::Summary);
        if summary.frame < summary.limit {
            let text = payload.text();
            let start = text.find("## SUMMARY\n").unwrap();
            let end = text.find("\n## RAW\n").unwrap();
            let section = RatioEstimator.estimate(&text[start..end], ContentType::Markdown);
            prop_assert!(section <= summary.limit, "SUMMARY section {} > {}", section, summary.limit);
        }
        // ... at every step, too.
        for (event, tally) in payload.trace() {
            for t in tally.tiers() {
                prop_assert!(t.used <= t.limit, "after {}: {:?}", event, t);
            }
            let pool = tally.tier(Tier::Raw).used + tally.tier(Tier::Skeleton).used;
            prop_assert!(pool <= tally.tier(Tier::Raw).limit, "after {}: RAW + SKELETON {}", event, pool);
        }

        // A demoted item ranks below every item left in the tier it left.
        for d in assignments.iter().filter(|p| p.demoted_from.is_some()) {
            let from = d.demoted_from.unwrap();
            for kept in assignments.iter().filter(|p| p.tier == Some(from)) {
                prop_assert!(
                    ranks_below((d.score, d.position), (kept.score, kept.position)),
                    "demoted #{} ({}) vs kept #{} ({}) in {}",
                    d.position, d.score, kept.position, kept.score, from
                );
            }
        }

        // Omitted-for-negative and never placed otherwise.
        for p in assignments {
            if p.item.negative_tokens().is_some() {
                prop_assert_eq!(p.tier, None);
            }
        }

        // The rendered payload fits its total, counted independently.
        let text = payload.text();
        let whole = RatioEstimator.estimate(text, ContentType::Markdown);
        prop_assert!(whole <= payload.rendered_tokens());
        prop_assert!(payload.rendered_tokens() <= budget.total());

        // Same input, same bytes.
        let again = assembler.assemble_items(&items).unwrap();
        prop_assert_eq!(again.text(), text);
    }
}

/// Contents with every character a format must escape or replace.
fn awkward_item() -> impl Strategy<Value = Item> {
    (
        r#"[a-z`<>&"\]\\\n\t\x01\x0c\x7f\x{FFFE} ]{1,40}"#,
        0u64..400,
        score(),
        prop::option::of(r#"[a-z<&"]{1,8}\.(rs|md)"#),
        prop::option::of((1u64..50, 0u64..50)),
        prop::option::of(r#"[A-Za-z<>&"\x01 ]{0,20}"#),
        prop::option::of(r#"[a-z`<>&"\]\\\n\x01 ]{1,20}"#),
    )
        .prop_map(
            |(content, tokens, score, link, lines, description, skeleton)| {
                let mut b = Item::builder(content).tokens(tokens).relevance(score);
                if let Some(skeleton) = skeleton {
                    b = b.skeleton(skeleton);
                }
                if let Some(link) = link {
                    b = b.link(link);
                }
                if let Some((start, more)) = lines {
                    b = b.lines(start..=start + more);
                }
                if let Some(d) = description {
                    b = b.description(d);
                }
                b.build().unwrap()
            },
        )
}

/// What XML 1.0 can carry of `text` (the spec's `Char` production), the
/// rest as U+FFFD.
fn xml_chars(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' => c,
            '\u{FFFE}' | '\u{FFFF}' => '\u{FFFD}',
            c if c < ' ' => '\u{FFFD}',
            c => c,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Every format parses with an independent parser, carries each RAW
    /// item's content exactly, and fits its total.
    #[test]
    fn every_format_is_well_formed_and_fits(
        items in prop::collection::vec(awkward_item(), 0..30),
        budget in budget(),
        format in prop::sample::select(Format::ALL.to_vec()),
    ) {
        let Ok(payload) = PayloadAssembler::new(budget).format(format).assemble_items(&items) else {
            prop_assert!(budget.total() < 3_000);
            return Ok(());
        };
        prop_assert_eq!(payload.format(), format);
        let text = payload.text();
        prop_assert!(RatioEstimator.estimate(text, ContentType::Markdown) <= payload.rendered_tokens());
        prop_assert!(payload.rendered_tokens() <= budget.total());
        let raw: Vec<&Item> = payload.in_tier(Tier::Raw).map(|p| p.item).collect();
        let linked = payload.in_tier(Tier::Linked).count();
        let skeletons: Vec<String> = payload
            .in_tier(Tier::Skeleton)
            .map(|p| p.item.skeleton().unwrap().into_owned())
            .collect();
        match format {
            Format::Xml => {
                let doc = roxmltree::Document::parse(text)
                    .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
                let section = |name| doc.root_element().children().find(|n| n.has_tag_name(name)).unwrap();
                let carried: Vec<String> = section("raw")
                    .children()
                    .filter(|n| n.is_element())
                    .map(|n| n.text().unwrap_or("").to_owned())
                    .collect();
                let expected: Vec<String> = raw.iter().map(|i| xml_chars(&i.content())).collect();
                prop_assert_eq!(carried, expected);
                prop_assert_eq!(section("linked").children().filter(|n| n.is_element()).count(), linked);
                let carried: Vec<String> = doc
                    .root_element()
                    .children()
                    .find(|n| n.has_tag_name("skeleton"))
                    .map(|s| s.children().filter(|n| n.is_element()).map(|n| n.text().unwrap_or("").to_owned()).collect())
                    .unwrap_or_default();
                let expected: Vec<String> = skeletons.iter().map(|s| xml_chars(s)).collect();
                prop_assert_eq!(carried, expected);
            }
            Format::Json => {
                let doc: serde_json::Value = serde_json::from_str(text)
                    .map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
                let carried: Vec<&str> = doc["raw"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|i| i["content"].as_str().unwrap())
                    .collect();
                let expected: Vec<String> = raw.iter().map(|i| i.content().into_owned()).collect();
                prop_assert_eq!(carried, expected);
                prop_assert_eq!(doc["linked"].as_array().unwrap().len(), linked);
                let carried: Vec<&str> = doc
                    .get("skeleton")
                    .map(|s| s.as_array().unwrap().iter().map(|i| i["content"].as_str().unwrap()).collect())
                    .unwrap_or_default();
                prop_assert_eq!(carried, skeletons.iter().map(String::as_str).collect::<Vec<_>>());
                for (entry, item) in doc["raw"].as_array().unwrap().iter().zip(&raw) {
                    match item.lines() {
                        Some(lines) => prop_assert_eq!(&entry["lines"], &serde_json::json!([lines.start(), lines.end()])),
                        None => prop_assert!(entry.get("lines").is_none()),
                    }
                }
            }
            _ => {
                for item in &raw {
                    prop_assert!(text.contains(&*item.content()));
                }
                for skeleton in &skeletons {
                    prop_assert!(text.contains(skeleton.as_str()));
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// With a TREE (and META or not), every format fits its total, and the
    /// tree names each placed item once, with its state, and no omitted
    /// item (unless folders collapsed to fit its share).
    #[test]
    fn tree_is_counted_within_the_total_and_names_each_placed_item_once(
        sizes in prop::collection::vec((1u64..3_000, 0.0f64..1.0, 0usize..4), 0..40),
        total in 1_000u64..40_000,
        meta in any::<bool>(),
        format in prop::sample::select(Format::ALL.to_vec()),
    ) {
        let items: Vec<Item> = sizes
            .iter()
            .enumerate()
            .map(|(i, &(tokens, score, folder))| {
                let size = usize::try_from(tokens).unwrap();
                // Half the folders hold files with a skeleton, a tenth their size.
                Item::builder("word ".repeat(size / 2 + 1))
                    .tokens(tokens)
                    .relevance(score)
                    .link(format!("d{folder}/sub/f{i}.rs"))
                    .skeleton(if folder % 2 == 0 { "sig ".repeat(size / 20 + 1) } else { String::new() })
                    .build()
                    .unwrap()
            })
            .collect();
        let Ok(budget) = TierBudget::with_total(total) else { return Ok(()); };
        let assembled = PayloadAssembler::new(budget)
            .format(format)
            .meta(meta)
            .tree(true)
            .assemble_items(&items);
        let Ok(payload) = assembled else { return Ok(()); };
        prop_assert!(payload.rendered_tokens() <= total);
        prop_assert!(RatioEstimator.estimate(payload.text(), ContentType::Markdown) <= total);
        if format != Format::Markdown {
            return Ok(());
        }
        let text = payload.text();
        let start = text.find("```text\n").unwrap() + "```text\n".len();
        let tree = &text[start..start + text[start..].find("```").unwrap()];
        if tree.contains(" files: ") || tree.contains(" file: ") {
            return Ok(()); // collapsed: counts only
        }
        for assignment in payload.assignments() {
            let name = assignment.item.link().unwrap().rsplit('/').next().unwrap().to_owned();
            let lines: Vec<&str> = tree.lines().filter(|l| l.trim_start().starts_with(&format!("{name} "))).collect();
            if let Some(tier) = assignment.tier {
                prop_assert_eq!(lines.len(), 1, "{}", name);
                let expected = format!("{name} [{tier}]");
                prop_assert_eq!(lines[0].trim_start(), expected.as_str());
            } else {
                prop_assert!(lines.is_empty(), "{name} omitted but in the tree");
            }
        }
    }
}
