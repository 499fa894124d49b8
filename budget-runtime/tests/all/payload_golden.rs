//! Golden-file test of the rendered hybrid payload: the bytes must match
//! `tests/golden/payload.md` exactly. The expected file is reviewed by hand;
//! on a mismatch the actual output is written next to the target directory
//! (`payload.actual.md` in the OS temp dir) for diffing.

use budget_runtime::payload::{ItemState, OfferOrder, PayloadAssembler, TierBudget};
use budget_runtime::{Item, estimate::ContentType, model::Tier};

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
            .metadata("line_start", 1_i64)
            .metadata("line_end", 500_i64)
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
        .order(OfferOrder::Arrival)
        .assemble_items(&items)
        .unwrap();

    let states: Vec<ItemState> = payload.placements().iter().map(|p| p.state).collect();
    assert_eq!(
        states,
        [
            ItemState::Linked,  // scratch: demoted from RAW by src/lib.rs
            ItemState::Raw,     // src/lib.rs
            ItemState::Raw,     // docs/guide.md
            ItemState::Linked,  // src/big.rs: too large for RAW
            ItemState::Summary, // CHANGELOG.md: asked for SUMMARY
            ItemState::Raw,     // item 5
            ItemState::Omitted, // negative tokens
        ]
    );

    let expected = include_str!("../golden/payload.md");
    let actual = payload.markdown();
    if actual != expected {
        let path = std::env::temp_dir().join("payload.actual.md");
        std::fs::write(&path, actual).unwrap();
        panic!(
            "rendered payload differs from tests/golden/payload.md; actual written to {}",
            path.display()
        );
    }
}
