//! Three application structs annotated with `#[derive(ContextItem)]` (a chat
//! message, a retrieved document with a link, a tool output) go through the
//! selection pipeline by reference. The program prints what was selected,
//! what was left out, and why.
//!
//! Run with `cargo run --example derive_pipeline`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use budget::pipeline::{ExclusionReason, InclusionReason};
use budget::{ContextBudget, ContextItem, Pipeline, pipeline::OverflowStrategy, scorer::Scorer};

/// A turn of the conversation. The system prompt is pinned.
#[derive(ContextItem)]
#[context(kind = "Message", content_type = "prose")]
struct ChatMessage {
    #[context(skip)]
    role: &'static str,
    #[context(content)]
    text: String,
    #[context(timestamp)]
    sent_at: SystemTime,
    #[context(pinned)]
    pinned: bool,
}

/// A search hit: title and body are estimated separately, the similarity
/// decides the payload tier, and the link and summary are what a LINKED
/// rendering shows.
#[derive(ContextItem)]
#[context(kind = "Document", tiers(raw = 0.75, linked = 0.45))]
struct RetrievedDoc {
    #[context(content, content_type = "prose")]
    title: String,
    #[context(content)]
    body: String,
    #[context(score)]
    similarity: f64,
    #[context(link)]
    url: String,
    #[context(description)]
    summary: String,
    #[context(timestamp)]
    indexed_at: SystemTime,
    #[context(tags)]
    tags: Vec<&'static str>,
}

/// Output of a tool call, with the exact token count the tool reported.
#[derive(ContextItem)]
#[context(kind = "ToolOutput", content_type = "code", tier = "raw")]
struct ToolOutput {
    #[context(content)]
    output: String,
    #[context(tokens)]
    exact_tokens: Option<u32>,
    #[context(timestamp)]
    finished_at: SystemTime,
}

/// Everything the application puts in front of the model.
#[derive(ContextItem)]
enum Context {
    Chat(ChatMessage),
    Doc(RetrievedDoc),
    Tool(ToolOutput),
}

/// Scores an item by the relevance its `#[context(score)]` field gives
/// (documents), and everything without one (the conversation, tool output)
/// as fully relevant.
#[derive(Debug)]
struct RelevanceScorer;

impl Scorer for RelevanceScorer {
    fn score_all(&self, items: &[&dyn ContextItem], scores: &mut [f64]) {
        for (item, score) in items.iter().zip(scores) {
            *score = item.relevance().unwrap_or(1.0);
        }
    }
}

fn at(minute: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_718_452_800 + minute * 60)
}

fn chat(role: &'static str, text: &str, minute: u64, pinned: bool) -> Context {
    Context::Chat(ChatMessage {
        role,
        text: text.to_owned(),
        sent_at: at(minute),
        pinned,
    })
}

fn doc(title: &str, body: &str, similarity: f64, url: &str, minute: u64) -> Context {
    Context::Doc(RetrievedDoc {
        title: title.to_owned(),
        body: body.to_owned(),
        similarity,
        url: url.to_owned(),
        summary: format!("{title} ({url})"),
        indexed_at: at(minute),
        tags: vec!["docs"],
    })
}

fn label(item: &Context) -> String {
    match item {
        Context::Chat(message) => format!("{} message", message.role),
        Context::Doc(document) => format!("document {}", document.url),
        Context::Tool(_) => "tool output".to_owned(),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let items = vec![
        chat("system", "You are a release assistant. Answer briefly and cite sources.", 0, true),
        doc(
            "Release checklist",
            "1. Bump the version.\n2. Update CHANGELOG.md.\n3. Tag and push.\n4. Publish the crate.",
            0.82,
            "docs/release.md",
            1,
        ),
        doc(
            "CI troubleshooting",
            "If the publish job fails with a 403, rotate the registry token in the CI secrets and re-run the job.",
            0.58,
            "docs/ci.md",
            2,
        ),
        doc(
            "Team offsite agenda",
            "Day one: planning. Day two: hiking. Day three: retrospective and dinner.",
            0.12,
            "wiki/offsite.md",
            3,
        ),
        Context::Tool(ToolOutput {
            output: "$ cargo publish --dry-run\n   Packaging budget v0.1.0\n   Verifying budget v0.1.0\nwarning: aborting upload due to dry run".to_owned(),
            exact_tokens: Some(34),
            finished_at: at(4),
        }),
        chat("user", "The publish step failed with 403. What now?", 5, false),
    ];

    let budget = ContextBudget::builder(200, 110)
        .output_reserve(40)
        .build()?;
    let pipeline = Pipeline::builder()
        .scorer(RelevanceScorer)
        .overflow_strategy(OverflowStrategy::Truncate)
        .build();
    let selection = pipeline.run(&items, &budget)?;
    let report = selection.report();

    println!(
        "budget: max {} tokens, target {}, output reserve {}",
        budget.max_tokens(),
        budget.target_tokens(),
        budget.output_reserve()
    );
    println!("\ncandidates:");
    for (index, item) in items.iter().enumerate() {
        let tier = item.tier().map_or("-".to_owned(), |t| t.to_string());
        let relevance = item
            .relevance()
            .map_or("-".to_owned(), |r| format!("{r:.2}"));
        println!(
            "  [{index}] {:<28} kind {:<12} {:>3} tokens  relevance {relevance:<4}  tier {tier}",
            label(item),
            item.kind().as_str(),
            item.tokens(),
        );
    }

    println!(
        "\nselected {} of {} items, {} tokens, in prompt order:",
        selection.items().len(),
        items.len(),
        selection.tokens()
    );
    for included in &report.included {
        let item = &items[included.index];
        let why = match included.reason {
            InclusionReason::Pinned => "pinned".to_owned(),
            InclusionReason::ZeroToken => "costs no tokens".to_owned(),
            InclusionReason::Scored => format!("score {:.2}, fit the budget", included.score),
            // A reason added by a later version.
            other => format!("{other:?}"),
        };
        println!("  [{}] {:<28} {why}", included.index, label(item));
    }

    println!("\nleft out:");
    for excluded in &report.excluded {
        let item = &items[excluded.index];
        let why = match &excluded.reason {
            ExclusionReason::BudgetExceeded {
                item_tokens,
                available_tokens,
            } => format!("needs {item_tokens} tokens, {available_tokens} were left"),
            ExclusionReason::PinnedOverride { displaced_by } => format!(
                "needs {} tokens: would fit without the {} pinned tokens of [{displaced_by}]",
                item.tokens(),
                report.pinned_tokens
            ),
            ExclusionReason::Deduplicated {
                deduplicated_against,
            } => format!("same text as [{deduplicated_against}]"),
            other => format!("{other:?}"),
        };
        println!("  [{}] {:<28} {why}", excluded.index, label(item));
    }

    // The selection borrows the application's own values: no copies.
    let first = selection.items()[0];
    assert!(std::ptr::eq(first, &items[0]));
    Ok(())
}
