//! The SKELETON tier end to end: a source file too large for RAW is
//! carried as its outline (tree-sitter), counted within the budget, in
//! every format.

use crate::common::{budget_in, o200k, tree};

/// A Rust module of `functions` functions with ten-line bodies, and a
/// Python module of classes with docstrings.
fn sources(functions: usize) -> (String, String) {
    let mut rust =
        String::from("//! The simulation engine.\n\npub struct State {\n    pub tick: u64,\n}\n\n");
    for i in 0..functions {
        rust.push_str(&format!(
            "/// Advances step {i}.\npub fn step_{i}(state: &mut State) -> u64 {{\n"
        ));
        for j in 0..10 {
            rust.push_str(&format!(
                "    let acc_{j} = state.tick.wrapping_mul({j}).rotate_left({i});\n"
            ));
        }
        rust.push_str("    state.tick += 1;\n    state.tick\n}\n\n");
    }
    let mut python = String::from("\"\"\"Tide tables.\"\"\"\n\n");
    for i in 0..functions / 2 {
        python.push_str(&format!(
            "class Table{i}:\n    \"\"\"Table {i}.\n\n    Long notes that the skeleton leaves out.\n    \"\"\"\n\n    def lookup(self, hour):\n        \"\"\"Height at `hour`.\n\n        Interpolated linearly.\n        \"\"\"\n        low = self.rows[int(hour)]\n        high = self.rows[int(hour) + 1]\n        return low + (high - low) * (hour - int(hour))\n\n"
        ));
    }
    (rust, python)
}

#[test]
fn a_file_too_large_for_raw_is_carried_as_its_skeleton() {
    let (rust, python) = sources(40);
    let dir = tree(&[
        ("README.md", b"# Sim\n\nA simulation.\n"),
        ("src/engine.rs", rust.as_bytes()),
        ("tides.py", python.as_bytes()),
    ]);
    assert!(o200k(&rust) > 6_000, "{}", o200k(&rust));
    let run = budget_in(dir.path(), &["pack", "--budget", "6000", "--report", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let payload = report["payload"].as_str().unwrap();
    assert!(o200k(payload) <= 6_000, "{} tokens", o200k(payload));

    let tier = |path: &str| {
        let file = report["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == path)
            .unwrap();
        (
            file["tier"].as_str().unwrap_or("-").to_owned(),
            file["reason"].as_str().unwrap().to_owned(),
        )
    };
    let (engine, reason) = tier("src/engine.rs");
    assert_eq!(engine, "SKELETON", "{reason}");
    // Without a query it is capped: over a quarter of RAW.
    assert!(reason.contains("quarter of RAW"), "{reason}");
    // Signatures and doc comments stay, bodies go.
    let section =
        &payload[payload.find("\n## SKELETON\n").unwrap()..payload.find("\n## LINKED\n").unwrap()];
    assert!(section.contains("### `src/engine.rs` (lines 1-"));
    assert!(
        section.contains("/// Advances step 39.\npub fn step_39(state: &mut State) -> u64 { … }\n")
    );
    assert!(section.contains("pub struct State {\n    pub tick: u64,\n}"));
    assert!(!payload.contains("let acc_3"));
    assert!(payload.contains("  engine.rs [SKELETON]\n"), "{payload}");
    // tides.py too: over a quarter of RAW, without a query.
    assert!(payload.contains("tides.py [SKELETON]\n"), "{payload}");
    assert_eq!(report["meta"]["SKELETON"]["items"], 2);
    assert!(run.stderr.contains(", SKELETON 2, "), "{}", run.stderr);
    // Every file in exactly one status, none in two tiers.
    let mut sections = 0;
    for heading in ["### `src/engine.rs`", "- `src/engine.rs`"] {
        sections += payload.matches(heading).count();
    }
    assert_eq!(sections, 1);
}

#[test]
fn python_skeletons_keep_the_first_paragraph_of_each_docstring() {
    let (_, python) = sources(80);
    let dir = tree(&[("tides.py", python.as_bytes())]);
    let run = budget_in(dir.path(), &["pack", "--budget", "2500", "--report", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let payload = report["payload"].as_str().unwrap();
    assert!(o200k(payload) <= 2_500, "{} tokens", o200k(payload));
    assert_eq!(report["files"][0]["tier"], "SKELETON", "{payload}");
    assert!(payload.contains(
        "    def lookup(self, hour):\n        \"\"\"Height at `hour`.\n        \"\"\"\n        ...\n"
    ));
    assert!(!payload.contains("Interpolated linearly"));
    // The class docstring is not a body: it stays whole.
    assert!(payload.contains("Long notes that the skeleton leaves out."));
}

#[test]
fn skeletons_are_carried_in_xml_and_json_too() {
    let (rust, _) = sources(40);
    let dir = tree(&[("src/engine.rs", rust.as_bytes())]);
    for format in ["xml", "json"] {
        let run = budget_in(
            dir.path(),
            &["pack", "--budget", "5000", "--format", format],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(o200k(&run.stdout) <= 5_000);
        let skeleton = if format == "json" {
            let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
            doc["skeleton"][0]["content"].as_str().unwrap().to_owned()
        } else {
            let doc = roxmltree::Document::parse(&run.stdout).unwrap();
            let section = doc
                .root_element()
                .children()
                .find(|n| n.has_tag_name("skeleton"))
                .unwrap();
            section
                .children()
                .find(|n| n.is_element())
                .unwrap()
                .text()
                .unwrap()
                .to_owned()
        };
        assert!(
            skeleton.contains("pub fn step_0(state: &mut State) -> u64 { … }"),
            "{format}"
        );
        assert!(!skeleton.contains("acc_"), "{format}");
    }
}

/// Without a query, a file that would take more than a quarter of RAW
/// starts as its skeleton, though it would fit whole; with a query that it
/// matches, it is carried whole.
#[test]
fn without_a_query_one_large_file_does_not_crowd_out_the_rest() {
    let (rust, _) = sources(40);
    let dir = tree(&[
        ("README.md", b"# Sim\n\nA simulation.\n"),
        ("src/engine.rs", rust.as_bytes()),
    ]);
    let tokens = o200k(&rust);
    // RAW's limit is 81% of the budget: room for the file whole, but the
    // file is more than a quarter of it.
    let budget = (tokens * 2).to_string();
    let tier = |args: &[&str]| {
        let mut all = vec!["pack", "--budget", budget.as_str(), "--report", "-"];
        all.extend_from_slice(args);
        let run = budget_in(dir.path(), &all);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report = run.json();
        let files = report["files"].as_array().unwrap().clone();
        let engine = files.iter().find(|f| f["path"] == "src/engine.rs").unwrap();
        (
            engine["tier"].as_str().unwrap().to_owned(),
            engine["reason"].as_str().unwrap().to_owned(),
        )
    };
    assert_eq!(tier(&[]).0, "SKELETON");
    assert_eq!(
        tier(&["--query", "simulation engine step"]),
        ("RAW".to_owned(), "fits RAW".to_owned())
    );
}

/// With a query, one of the best files that would take most of RAW whole
/// starts as its outline when the other files that match would not fit
/// beside it, and the report says so.
#[test]
fn a_large_best_file_leaves_room_for_the_files_after_it() {
    let (rust, _) = sources(40);
    let helper = |i: usize| {
        let line = format!("pub fn step_helper_{i}(x: u64) -> u64 {{ x + {i} }}\n");
        (format!("src/step_{i}.rs"), line.repeat(60))
    };
    let helpers: Vec<(String, String)> = (0..4).map(helper).collect();
    let mut files: Vec<(&str, &[u8])> = vec![("src/engine.rs", rust.as_bytes())];
    files.extend(helpers.iter().map(|(p, t)| (p.as_str(), t.as_bytes())));
    let dir = tree(&files);
    // RAW's limit is 81% of the budget: the engine whole would take
    // about nine tenths of it, the helpers together about half.
    let budget = (o200k(&rust) * 13 / 10).to_string();
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "--budget",
            &budget,
            "--query",
            "engine helper",
            "--report",
            "-",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let files = report["files"].as_array().unwrap();
    let record = |path: &str| files.iter().find(|f| f["path"] == path).unwrap().clone();
    let engine = record("src/engine.rs");
    assert_eq!(engine["tier"], "SKELETON", "{engine}");
    let reason = engine["reason"].as_str().unwrap();
    assert!(reason.contains("among the best five"), "{reason}");
    for (path, _) in &helpers {
        assert_eq!(record(path)["tier"], "RAW", "{path}");
    }
}

/// A C++ header of one class with `methods` inline methods of twenty
/// lines each; `Codec::decode_frame` is the one a query asks about.
fn header(methods: usize) -> String {
    let mut text = String::from(
        "#pragma once\n#include <vector>\n\nnamespace media {\n\nclass Codec {\n public:\n",
    );
    for i in 0..methods {
        let name = if i == methods / 2 {
            "decode_frame".to_owned()
        } else {
            format!("transform_{i}")
        };
        text.push_str(&format!("  int {name}(std::vector<int>& samples) {{\n"));
        for j in 0..20 {
            text.push_str(&format!(
                "    samples[{j}] = samples[{j}] * {i} + {j}; // step {j} of {name}\n"
            ));
        }
        text.push_str("    return samples.size();\n  }\n\n");
    }
    text.push_str("};\n\n}  // namespace media\n");
    text
}

/// The first focused outline in `payload`, from its first line to the
/// end of its fenced block.
fn focused_outline(payload: &str) -> &str {
    let start = payload
        .find("// outline of lines 1-")
        .expect("a focused outline");
    let end = start + payload[start..].find("\n```").unwrap();
    &payload[start..=end]
}

/// Each line of `outline` after its first is a marker (`// … lines a-b`)
/// or the next of `text`'s lines in order.
fn lines_in_order(text: &str, outline: &str) -> bool {
    let mut rows = text.lines();
    outline
        .lines()
        .skip(1)
        .all(|line| line.trim_start().starts_with("// … line") || rows.any(|row| row == line))
}

#[test]
fn a_header_larger_than_the_budget_is_a_focused_outline_not_a_link() {
    let text = header(200);
    let dir = tree(&[
        ("README.md", b"# Media\n\nCodecs.\n"),
        ("include/codec.hpp", text.as_bytes()),
    ]);
    assert!(o200k(&text) > 60_000, "{}", o200k(&text));
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "--budget",
            "8000",
            "--query",
            "decode frame",
            "--report",
            "-",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let payload = report["payload"].as_str().unwrap();
    assert!(o200k(payload) <= 8_000, "{} tokens", o200k(payload));
    let file = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "include/codec.hpp")
        .unwrap();
    assert_eq!(file["tier"], "SKELETON", "{file}");
    let reason = file["reason"].as_str().unwrap();
    assert!(
        reason.contains("a focused outline with `decode_frame` in full"),
        "{reason}"
    );

    let outline = focused_outline(payload);
    assert!(lines_in_order(&text, outline), "{outline}");
    // The body asked for, whole; its neighbours as signatures and markers.
    assert!(outline.contains("  int decode_frame(std::vector<int>& samples) {\n    samples[0] = samples[0] * 100 + 0; // step 0 of decode_frame\n"));
    assert!(outline.contains("step 19 of decode_frame\n    return samples.size();\n  }\n"));
    assert!(outline.contains("  int transform_99(std::vector<int>& samples) {\n    // … lines "));
    assert!(outline.contains("class Codec {"));
    assert!(!outline.contains("step 3 of transform_99"));
}

#[test]
fn without_a_query_the_most_used_definitions_come_first() {
    // 400 methods: even their signatures pass the room, so the outline
    // keeps the ones other files call.
    let text = header(400);
    let dir = tree(&[
        ("include/codec.hpp", text.as_bytes()),
        ("src/player.cpp", b"#include \"codec.hpp\"\nint play(media::Codec& c, std::vector<int>& s) {\n  return c.transform_301(s) + c.transform_7(s);\n}\n"),
    ]);
    let run = budget_in(dir.path(), &["pack", "--budget", "4000", "--report", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let payload = report["payload"].as_str().unwrap();
    assert!(o200k(payload) <= 4_000, "{} tokens", o200k(payload));
    let outline = focused_outline(payload);
    assert!(lines_in_order(&text, outline), "{outline}");
    assert!(outline.contains("  int transform_301(std::vector<int>& samples) {"));
    assert!(outline.contains("  int transform_7(std::vector<int>& samples) {"));
    // Not every signature fits.
    assert!(!outline.contains("int transform_398("), "{outline}");
}

#[test]
fn a_query_no_file_matches_packs_as_no_query() {
    let (rust, _) = sources(10);
    let dir = tree(&[
        ("README.md", b"# Sim\n\nA simulation.\n"),
        ("src/engine.rs", rust.as_bytes()),
    ]);
    let tiers = |args: &[&str]| {
        let mut all = vec!["pack", "--budget", "20000", "--report", "-"];
        all.extend_from_slice(args);
        let run = budget_in(dir.path(), &all);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report = run.json();
        report["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["tier"].to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(tiers(&["--query", "touch up PR 1306"]), tiers(&[]));
    assert!(tiers(&[]).contains(&"\"RAW\"".to_owned()));
}
