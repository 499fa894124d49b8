//! Golden-file test of the rendered hybrid payload: the bytes must match
//! `tests/golden/payload.md` exactly. The expected file is reviewed by hand;
//! on a mismatch the actual output is written next to the target directory
//! (`payload.actual.md` in the OS temp dir) for diffing.

use budget_runtime::payload::{Format, OfferOrder, PayloadAssembler, Sha256Digest, TierBudget};
use budget_runtime::{
    Item,
    estimate::{ContentType, RatioEstimator},
    model::Tier,
};

fn items() -> Vec<Item> {
    vec![
        // Arrives first and fills most of RAW, but ranks low: demoted later.
        Item::builder("Low-value scratch notes that happen to arrive first.\n".repeat(20))
            .tokens(1_220)
            .content_type(ContentType::Prose)
            .relevance(0.2)
            .link("notes/scratch.txt")
            .description("Scratch notes")
            .build()
            .unwrap(),
        // Contains a triple-backtick fence: RAW must use a longer one.
        Item::builder(
            "//! Crate docs\n//! ```\n//! let x = 1;\n//! ```\npub fn answer() -> u32 {\n    42\n}",
        )
        .tokens(30)
        .content_type(ContentType::Code)
        .relevance(0.95)
        .link("src/lib.rs")
        .description("The crate root")
        .build()
        .unwrap(),
        Item::builder("# Guide\n\nRun `cargo test`.\n")
            .tokens(9)
            .content_type(ContentType::Markdown)
            .relevance(0.7)
            .link("docs/guide.md")
            .build()
            .unwrap(),
        // Larger than RAW's whole limit: LINKED, with its line range.
        Item::builder("fn big() {}\n".repeat(500))
            .tokens(1_800)
            .content_type(ContentType::Code)
            .relevance(0.6)
            .link("src/big.rs")
            .description("Generated tables | do not edit")
            .lines(1..=500)
            .build()
            .unwrap(),
        // Asks for SUMMARY itself.
        Item::builder("changelog entries")
            .tokens(4)
            .relevance(0.4)
            .tier(Tier::Summary)
            .link("CHANGELOG.md")
            .description("Release history")
            .build()
            .unwrap(),
        // No link: its source is `item 5`.
        Item::builder("an anonymous tool result")
            .tokens(6)
            .relevance(0.5)
            .build()
            .unwrap(),
        // Negative tokens: omitted.
        Item::builder("broken")
            .signed_tokens(-1)
            .relevance(0.99)
            .build()
            .unwrap(),
    ]
}

#[test]
fn rendered_payload_matches_the_reviewed_golden_file() {
    let items = items();
    // RAW 1,400 × 0.9 = 1,260; LINKED 400 × 0.9 = 360; SUMMARY 200 × 0.9 = 180.
    let budget = TierBudget::new(2_000, 300, 10.0, 20.0, 70.0, 10.0).unwrap();
    let payload = PayloadAssembler::new(budget)
        .estimator(&RatioEstimator)
        .order(OfferOrder::Arrival)
        .assemble_items(&items)
        .unwrap();

    let states: Vec<Option<Tier>> = payload.assignments().iter().map(|p| p.tier).collect();
    assert_eq!(
        states,
        [
            Some(Tier::Linked),  // scratch: demoted from RAW by src/lib.rs
            Some(Tier::Raw),     // src/lib.rs
            Some(Tier::Raw),     // docs/guide.md
            Some(Tier::Linked),  // src/big.rs: too large for RAW
            Some(Tier::Summary), // CHANGELOG.md: asked for SUMMARY
            Some(Tier::Raw),     // item 5
            None,                // negative tokens
        ]
    );

    same_as_golden(payload.text(), include_str!("../golden/payload.md"), "md");
}

/// The same payload in XML and JSON: the same assignments, the reviewed
/// bytes of each format.
#[test]
fn every_format_matches_its_reviewed_golden_file() {
    let items = items();
    let budget = TierBudget::new(2_000, 300, 10.0, 20.0, 70.0, 10.0).unwrap();
    let markdown = PayloadAssembler::new(budget)
        .estimator(&RatioEstimator)
        .order(OfferOrder::Arrival)
        .assemble_items(&items)
        .unwrap();
    for (format, golden, extension) in [
        (Format::Xml, include_str!("../golden/payload.xml"), "xml"),
        (Format::Json, include_str!("../golden/payload.json"), "json"),
    ] {
        let payload = PayloadAssembler::new(budget)
            .estimator(&RatioEstimator)
            .order(OfferOrder::Arrival)
            .format(format)
            .assemble_items(&items)
            .unwrap();
        let states = |p: &budget_runtime::payload::HybridPayload<'_, Item>| {
            p.assignments().iter().map(|p| p.tier).collect::<Vec<_>>()
        };
        assert_eq!(states(&payload), states(&markdown), "{format}");
        same_as_golden(payload.text(), golden, extension);
        // The digests cover the byte ranges the Fingerprint docs define.
        let text = payload.text();
        let between = |from: &str, to: &str| {
            let start = text.find(from).unwrap() + from.len();
            &text[start..start + text[start..].find(to).unwrap()]
        };
        let (sections, before_fingerprint) = match format {
            Format::Xml => (
                [
                    format!("<meta{}</meta>\n", between("<meta", "</meta>\n")),
                    format!(
                        "<summary>{}</summary>\n",
                        between("<summary>", "</summary>\n")
                    ),
                    format!("<raw>{}</raw>\n", between("<raw>", "</raw>\n")),
                    format!("<linked>{}</linked>\n", between("<linked>", "</linked>\n")),
                ],
                &text[..text.find("<fingerprint").unwrap()],
            ),
            _ => (
                [
                    between("\n\"meta\":", ",\n\"summary\":").to_owned(),
                    between("\n\"summary\":", ",\n\"raw\":").to_owned(),
                    between("\n\"raw\":", ",\n\"linked\":").to_owned(),
                    between("\n\"linked\":", ",\n\"fingerprint\":").to_owned(),
                ],
                &text[..text.find(",\n\"fingerprint\":").unwrap()],
            ),
        };
        let fp = payload.fingerprint();
        let digests = [fp.meta, fp.summary, fp.raw, fp.linked];
        for (section, digest) in sections.iter().zip(digests) {
            assert_eq!(
                Sha256Digest::of(section.as_bytes()),
                digest,
                "{format}: {section}"
            );
        }
        assert_eq!(
            Sha256Digest::of(before_fingerprint.as_bytes()),
            fp.payload,
            "{format}"
        );
        assert_eq!(fp.sources, markdown.fingerprint().sources);
    }
}

fn same_as_golden(actual: &str, expected: &str, extension: &str) {
    if actual != expected {
        let path = std::env::temp_dir().join(format!("payload.actual.{extension}"));
        std::fs::write(&path, actual).unwrap();
        panic!(
            "rendered payload differs from tests/golden/payload.{extension}; actual written to {}",
            path.display()
        );
    }
}

/// A payload with a SKELETON section: a module too large for RAW is
/// carried as its outline, one without an outline is linked; the reviewed
/// bytes, and the section's digest.
#[test]
fn a_payload_with_a_skeleton_matches_its_reviewed_golden_file() {
    let module =
        "/// Adds.\npub fn add(a: u64, b: u64) -> u64 {\n    a.wrapping_add(b)\n}\n".repeat(40);
    let items = [
        Item::builder("# Tides\n\nPredicts tides.\n")
            .tokens(8)
            .relevance(0.9)
            .link("README.md")
            .build()
            .unwrap(),
        Item::builder(module.clone())
            .tokens(1_400)
            .content_type(ContentType::Code)
            .relevance(0.8)
            .link("src/add.rs")
            .description("Addition")
            .lines(1..=160)
            .skeleton("/// Adds.\npub fn add(a: u64, b: u64) -> u64 { … }\n")
            .build()
            .unwrap(),
        Item::builder(module)
            .tokens(1_400)
            .content_type(ContentType::Code)
            .relevance(0.7)
            .link("src/copy.rs")
            .lines(1..=160)
            .build()
            .unwrap(),
    ];
    // RAW and SKELETON share 1,260 tokens: the modules do not fit whole.
    let budget = TierBudget::new(2_000, 300, 10.0, 20.0, 70.0, 10.0).unwrap();
    let payload = PayloadAssembler::new(budget)
        .estimator(&RatioEstimator)
        .assemble_items(&items)
        .unwrap();
    let states: Vec<Option<Tier>> = payload.assignments().iter().map(|p| p.tier).collect();
    assert_eq!(
        states,
        [Some(Tier::Raw), Some(Tier::Skeleton), Some(Tier::Linked)]
    );
    same_as_golden(
        payload.text(),
        include_str!("../golden/payload.skeleton.md"),
        "skeleton.md",
    );
    let text = payload.text();
    let start = text.find("## SKELETON\n").unwrap();
    let end = text.find("\n## LINKED\n").unwrap();
    assert_eq!(
        payload.fingerprint().skeleton,
        Some(Sha256Digest::of(&text.as_bytes()[start..end]))
    );
}
