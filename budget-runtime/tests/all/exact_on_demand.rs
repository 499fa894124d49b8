//! `PayloadAssembler::exact_counts` against counting every item exactly:
//! the same payload (assignments, text, fingerprint), reasons that differ
//! only where counting stopped early, and less counting.
#![cfg(feature = "exact")]

use budget_runtime::estimate::{
    Encoding, ExactCounter, OnDemandCounts, TokenCounter, guaranteed_upper_bound,
};
use budget_runtime::model::{ScoredItem, Tier};
use budget_runtime::payload::{
    AssignmentReason, HybridPayload, OfferOrder, PayloadAssembler, TierBudget,
};
use budget_runtime::{ContextItem, Item};
use proptest::prelude::*;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{1,80}",
        "[A-Za-z0-9 .,;:()_\\n]{1,400}",
        "fn [a-z]{1,8}\\(\\) \\{ [a-z0-9 +*]{0,200} \\}",
        "[\u{4e00}-\u{9fff}\u{ac00}-\u{d7af}]{1,60}",
        any::<String>().prop_filter("non-empty", |s| !s.is_empty()),
    ]
}

/// Items whose declared tokens are `tokens(text)`, linked as `f{i}.rs`.
fn items(texts: &[String], tokens: impl Fn(&str) -> u64) -> Vec<Item> {
    linked_items(texts, tokens, "f")
}

/// Items whose declared tokens are `tokens(text)`, linked as
/// `{prefix}{i}.rs`.
fn linked_items(texts: &[String], tokens: impl Fn(&str) -> u64, prefix: &str) -> Vec<Item> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            Item::builder(t.as_str())
                .tokens(tokens(t))
                .link(format!("{prefix}{i}.rs"))
                .build()
                .unwrap()
        })
        .collect()
}

fn candidates<'a>(items: &'a [Item], scores: &[f64]) -> Vec<ScoredItem<'a, Item>> {
    items
        .iter()
        .zip(scores)
        .enumerate()
        .map(|(index, (item, &score))| ScoredItem::with_tokens(item, index, score, item.tokens()))
        .collect()
}

/// `on_demand`'s reason is `exact`'s, or (for an item that did not fit a
/// tier) the same tier refused with a `needed` the exact cost reaches.
fn reasons_agree(exact: AssignmentReason, on_demand: AssignmentReason) -> Result<(), String> {
    use AssignmentReason::{TierFull, TooLarge};
    let ok = match (exact, on_demand) {
        (a, b) if a == b => true,
        (
            TierFull {
                tier: t1,
                needed: n1,
                available: a1,
            },
            TierFull {
                tier: t2,
                needed: n2,
                available: a2,
            },
        ) => t1 == t2 && a1 == a2 && a2 < n2 && n2 <= n1,
        (
            TooLarge {
                tier: t1,
                needed: n1,
                limit: l1,
            },
            TooLarge {
                tier: t2,
                needed: n2,
                limit: l2,
            },
        ) => t1 == t2 && l1 == l2 && l2 < n2 && n2 <= n1,
        // Counting stopped at what was free, below the limit.
        (
            TooLarge {
                tier: t1,
                needed: n1,
                limit,
            },
            TierFull {
                tier: t2,
                needed: n2,
                available,
            },
        ) => t1 == t2 && available < n2 && n2 <= limit && limit < n1,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("exact {exact:?}, on demand {on_demand:?}"))
    }
}

fn assemble<'a>(
    assembler: PayloadAssembler<'_>,
    candidates: Vec<ScoredItem<'a, Item>>,
) -> Option<HybridPayload<'a, Item>> {
    assembler.assemble(candidates).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_same_payload_as_counting_everything(
        texts in prop::collection::vec(text(), 0..30),
        // Few distinct scores: ties on purpose.
        score_steps in prop::collection::vec(0u8..4, 30),
        total in 400u64..4_000, // META takes 300
        arrival in any::<bool>(),
        encoding in prop::sample::select(Encoding::ALL.to_vec()),
    ) {
        let counter = ExactCounter::new(encoding).unwrap();
        let scores: Vec<f64> = score_steps.iter().map(|&s| f64::from(s) / 4.0).collect();
        let order = if arrival { OfferOrder::Arrival } else { OfferOrder::Rank };
        let budget = TierBudget::with_total(total).unwrap();

        let exact_items = items(&texts, |t| counter.count_tokens(t));
        let exact = assemble(
            PayloadAssembler::new(budget).estimator(&counter).order(order),
            candidates(&exact_items, &scores),
        );

        let bound_items = items(&texts, guaranteed_upper_bound);
        let counts = OnDemandCounts::new(&counter, texts.len());
        let on_demand = assemble(
            PayloadAssembler::new(budget).estimator(&counter).order(order).exact_counts(&counts),
            candidates(&bound_items, &scores),
        );

        let (exact, on_demand) = match (exact, on_demand) {
            (Some(e), Some(o)) => (e, o),
            (None, None) => return Ok(()), // the structure alone exceeds the total
            (e, o) => return Err(TestCaseError::fail(format!(
                "one assembled, one did not: exact {}, on demand {}", e.is_some(), o.is_some()
            ))),
        };
        prop_assert_eq!(exact.text(), on_demand.text());
        prop_assert_eq!(exact.fingerprint(), on_demand.fingerprint());
        prop_assert_eq!(exact.rendered_tokens(), on_demand.rendered_tokens());
        prop_assert!(counter.count_tokens(on_demand.text()) <= total);
        for (e, o) in exact.assignments().iter().zip(on_demand.assignments()) {
            prop_assert_eq!(e.tier, o.tier);
            prop_assert_eq!(e.tokens, o.tokens);
            prop_assert_eq!(e.demoted_from, o.demoted_from);
            reasons_agree(e.reason, o.reason).map_err(TestCaseError::fail)?;
        }
        // Whatever was counted in full is the exact count.
        for (i, text) in texts.iter().enumerate() {
            let exact_count = counter.count_tokens(text);
            if let Some(known) = counts.known_exact(i) {
                prop_assert_eq!(known, exact_count);
            }
            prop_assert!(counts.at_least(i) <= exact_count);
        }
    }
}

/// Many items for a small payload: the RAW tier holds a few, LINKED a few
/// lines; the rest are counted up to the little room left, or not at all.
#[test]
fn a_small_payload_counts_little_of_a_large_input() {
    let counter = ExactCounter::new(Encoding::O200kBase).unwrap();
    // 200 files of ~2,000 tokens each ("word " is one token).
    let texts: Vec<String> = (0..200)
        .map(|i| format!("{i} {}", "word ".repeat(2_000)))
        .collect();
    let items = items(&texts, guaranteed_upper_bound);
    let scores: Vec<f64> = (0..200).map(|i| f64::from(200 - i)).collect();
    let counts = OnDemandCounts::new(&counter, texts.len());
    let payload = PayloadAssembler::new(TierBudget::with_total(10_000).unwrap())
        .estimator(&counter)
        .exact_counts(&counts)
        .assemble(candidates(&items, &scores))
        .unwrap();
    let in_tier = |tier| {
        payload
            .assignments()
            .iter()
            .filter(|p| p.tier == Some(tier))
            .count()
    };
    // RAW: 10,000 × 0.9 × 0.9 = 8,100 tokens hold 4 files of 2,002 tokens.
    assert_eq!(in_tier(Tier::Raw), 4);
    let linked = in_tier(Tier::Linked);
    assert!(linked > 0);
    let work = counts.work();
    // Counted in full: the RAW and LINKED files (and no more than a few
    // refused while LINKED still had room for a line).
    assert!(work.exact >= 4 + linked, "{work:?}");
    assert!(work.exact <= 4 + linked + 2, "{work:?}, {linked} linked");
    assert!(work.untouched + work.at_least >= 200 - (4 + linked + 2));
    assert!(counter.count_tokens(payload.text()) <= 10_000);
}

/// The LINKED line's cost grows with the count printed in it, never falls:
/// in both encodings every run of one to three digits is a single token
/// (the pre-tokenizer cuts numbers into such runs).
#[test]
fn every_run_of_up_to_three_digits_is_one_token() {
    for encoding in Encoding::ALL {
        let counter = ExactCounter::new(encoding).unwrap();
        for n in 0..1_000u32 {
            for digits in [format!("{n}"), format!("{n:02}"), format!("{n:03}")] {
                assert_eq!(counter.count_tokens(&digits), 1, "{encoding:?} {digits:?}");
            }
        }
    }
}

/// An exact counter that tallies the tokens it reads of the texts that
/// hold `marked` (the entries' own lines, not the items' contents): a text
/// counted only until it is over a limit reads that limit and one token
/// more when the counter `stops` there, all of it when it does not.
struct Tallying {
    inner: ExactCounter,
    stops: bool,
    marked: &'static str,
    read: std::sync::atomic::AtomicU64,
}

impl Tallying {
    fn new(stops: bool) -> Self {
        Self {
            inner: ExactCounter::new(Encoding::O200kBase).unwrap(),
            stops,
            marked: "a_rather_long_directory_name/",
            read: 0.into(),
        }
    }

    fn tally(&self, text: &str, read: u64) {
        if text.contains(self.marked) {
            self.read
                .fetch_add(read, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

impl TokenCounter for Tallying {
    fn count_tokens(&self, text: &str) -> u64 {
        let n = self.inner.count_tokens(text);
        self.tally(text, n);
        n
    }

    fn count_tokens_up_to(&self, text: &str, limit: u64) -> Option<u64> {
        let n = self.inner.count_tokens(text);
        let read = if self.stops {
            n.min(limit.saturating_add(1))
        } else {
            n
        };
        self.tally(text, read);
        Some(n).filter(|&n| n <= limit)
    }
}

/// Under exact counts, the entries offered to a tier without room for
/// them (their LINKED lines, SUMMARY mentions and RAW headers) are counted
/// only until they are over what is free: with 300 files behind long
/// paths, a counter that stops there reads a fraction of what one that
/// cannot stop reads, for the same payload.
#[test]
fn entries_offered_to_a_full_tier_are_counted_until_they_overflow() {
    let texts: Vec<String> = (0..300)
        .map(|i| format!("{i} {}", "word ".repeat(50)))
        .collect();
    let scores: Vec<f64> = (0..300).map(|i| f64::from(300 - i)).collect();
    let budget = TierBudget::with_total(4_000).unwrap();
    let pack = |counter: &Tallying| {
        let deep = format!("{}file_", counter.marked.repeat(8));
        let items = linked_items(&texts, guaranteed_upper_bound, &deep);
        let counts = OnDemandCounts::new(counter, texts.len());
        let payload = PayloadAssembler::new(budget)
            .estimator(counter)
            .exact_counts(&counts)
            .assemble(candidates(&items, &scores))
            .unwrap();
        let omitted = payload
            .assignments()
            .iter()
            .filter(|a| a.tier.is_none())
            .count();
        (payload.text().to_owned(), omitted)
    };
    let (stopping, cannot_stop) = (Tallying::new(true), Tallying::new(false));
    let (text, omitted) = pack(&stopping);
    assert_eq!(pack(&cannot_stop).0, text);
    assert!(omitted > 200, "{omitted} omitted");
    let read = |counter: &Tallying| counter.read.load(std::sync::atomic::Ordering::Relaxed);
    let (stopping, cannot_stop) = (read(&stopping), read(&cannot_stop));
    assert!(
        stopping < cannot_stop / 2,
        "{stopping} tokens read, {cannot_stop} without stopping"
    );
}
