//! `#[context(group)]`: a derived tool call and its result share a group id,
//! and the pipeline keeps them whole or leaves both out, whatever the
//! slicer; identical tool exchanges in different groups are not merged.

use budget::slicer::{GreedySlicer, KnapsackSlicer};
use budget::{ContextBudget, ContextItem, Pipeline, slicer::Slicer};

/// An assistant message that calls a tool.
#[derive(ContextItem)]
struct ToolCall {
    #[context(content, content_type = "code")]
    arguments: &'static str,
    #[context(tokens)]
    tokens: u64,
    #[context(score)]
    score: f64,
    #[context(group)]
    call_id: u64,
}

/// What the tool returned.
#[derive(ContextItem)]
#[context(kind = "ToolOutput", content_type = "code")]
struct ToolResult {
    #[context(content)]
    output: &'static str,
    #[context(tokens)]
    tokens: u64,
    #[context(score)]
    score: f64,
    #[context(group)]
    call_id: Option<u64>,
}

#[derive(ContextItem)]
enum Turn {
    /// Newtype variants forward `group()` to the wrapped item.
    Call(ToolCall),
    Result(ToolResult),
    /// A body variant with an optional group field.
    #[context(kind = "Message")]
    Text {
        #[context(content)]
        text: &'static str,
        #[context(tokens)]
        tokens: u64,
        #[context(score)]
        score: f64,
        #[context(group)]
        group: Option<u64>,
    },
    /// A body variant without a group field: never grouped.
    #[context(kind = "Document")]
    Doc {
        #[context(content)]
        text: &'static str,
        #[context(tokens)]
        tokens: u64,
        #[context(score)]
        score: f64,
    },
}

fn call(arguments: &'static str, tokens: u64, score: f64, call_id: u64) -> Turn {
    Turn::Call(ToolCall {
        arguments,
        tokens,
        score,
        call_id,
    })
}

fn result(output: &'static str, tokens: u64, score: f64, call_id: u64) -> Turn {
    Turn::Result(ToolResult {
        output,
        tokens,
        score,
        call_id: Some(call_id),
    })
}

/// Input positions of the selected items, ascending.
fn selected<T>(items: &[T], selection: &[&T]) -> Vec<usize> {
    let mut positions: Vec<usize> = selection
        .iter()
        .filter_map(|&chosen| items.iter().position(|item| std::ptr::eq(item, chosen)))
        .collect();
    positions.sort_unstable();
    positions
}

/// Tokens and scores chosen so that, item by item, a slicer would take call
/// A (density 0.8 / 20 = 0.04) and leave out its result (0.2 / 60).
fn history() -> Vec<Turn> {
    vec![
        Turn::Text {
            text: "What changed in src/lib.rs?",
            tokens: 10,
            score: 0.9,
            group: None,
        },
        call(r#"git_diff({"path":"src/lib.rs"})"#, 20, 0.8, 1),
        result(
            "+pub mod groups;\n+pub use groups::GroupSelection;",
            60,
            0.2,
            1,
        ),
        call(r#"read_file({"path":"CHANGELOG.md"})"#, 10, 0.5, 2),
        result("## [Unreleased]\n### Added\n- atomic groups", 20, 0.7, 2),
        Turn::Doc {
            text: "Atomic groups keep a tool call with its result.",
            tokens: 30,
            score: 0.45,
        },
    ]
}

#[test]
fn group_ids_come_from_the_field_or_the_wrapped_item() {
    let items = history();
    let groups: Vec<Option<u64>> = items.iter().map(ContextItem::group).collect();
    assert_eq!(groups, [None, Some(1), Some(1), Some(2), Some(2), None]);
    let text_in_group = Turn::Text {
        text: "tool call announced in text",
        tokens: 5,
        score: 0.1,
        group: Some(9),
    };
    assert_eq!(text_in_group.group(), Some(9));
}

#[test]
fn a_tool_call_and_its_result_are_kept_whole() -> Result<(), Box<dyn std::error::Error>> {
    let items = history();
    // Units (best member's score / summed tokens): question 0.9 / 10,
    // group 1: 0.8 / 80, group 2: 0.7 / 30, doc 0.45 / 30. In 70 tokens the
    // greedy slicer takes the question (10), group 2 (40) and the doc (70);
    // group 1 (80) no longer fits. The knapsack (10-token buckets, capacity
    // 7) finds the same: group 1 alone weighs 8 buckets.
    let slicers: [(&str, Box<dyn Slicer>); 2] = [
        ("greedy", Box::new(GreedySlicer::new())),
        ("knapsack", Box::new(KnapsackSlicer::new(10)?)),
    ];
    for (name, slicer) in slicers {
        let pipeline = Pipeline::builder().slicer(slicer).build();
        let selection = pipeline.run(&items, &ContextBudget::new(200, 70)?)?;
        assert_eq!(selected(&items, selection.items()), [0, 3, 4, 5], "{name}");
        let report = selection.report();
        assert_eq!(report.selected_tokens, 70, "{name}");
        let groups: Vec<(u64, &[usize], u64, bool)> = report
            .groups
            .iter()
            .map(|g| (g.group, g.members.as_slice(), g.tokens, g.included))
            .collect();
        // Members in score order: call A (0.8) before result A (0.2),
        // result B (0.7) before call B (0.5).
        assert_eq!(
            groups,
            [(1, &[1, 2][..], 80, false), (2, &[4, 3][..], 30, true)],
            "{name}"
        );

        // 10 + 80 + 30 + 30 = 150 tokens: everything fits.
        let everything = pipeline.run(&items, &ContextBudget::new(200, 150)?)?;
        assert_eq!(
            selected(&items, everything.items()),
            [0, 1, 2, 3, 4, 5],
            "{name}"
        );
    }
    Ok(())
}

#[test]
fn identical_exchanges_in_different_groups_are_all_kept() -> Result<(), Box<dyn std::error::Error>>
{
    // Same call, same output, twice: byte-identical contents, but each pair
    // is its own group, so deduplication merges nothing.
    let items = [
        call("list_dir(\".\")", 5, 0.5, 1),
        result("ok", 1, 0.5, 1),
        call("list_dir(\".\")", 5, 0.5, 2),
        result("ok", 1, 0.5, 2),
    ];
    let selection = Pipeline::default().run(&items, &ContextBudget::new(100, 100)?)?;
    assert_eq!(selected(&items, selection.items()), [0, 1, 2, 3]);
    assert_eq!(selection.report().selected_tokens, 12);
    Ok(())
}
