//! `budget pack`: paths, globs, formats, output and the budget guarantee.

use crate::common;

use common::{budget_in, project, tree};
#[cfg(feature = "exact")]
use common::{o200k, owned_tree};
use serde_json::Value;

fn packed_paths(report: &Value) -> Vec<String> {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["status"] == "packed")
        .map(|f| f["path"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn every_path_given_is_packed() {
    let one = tree(&[("x.rs", b"fn x() {}\n")]);
    let two = tree(&[("y.py", b"def y(): pass\n")]);
    let x = one.path().to_str().unwrap();
    let y = two.path().to_str().unwrap();
    let report = budget_in(
        one.path(),
        &["pack", x, y, "--report", "-", "--counter", "ratios"],
    )
    .json();
    assert_eq!(
        packed_paths(&report),
        [format!("{x}/x.rs"), format!("{y}/y.py")]
    );
    let run = budget_in(one.path(), &["pack", x, y, "--counter", "ratios"]);
    assert!(run.stdout.contains("fn x() {}") && run.stdout.contains("def y(): pass"));
}

#[test]
fn no_path_packs_the_current_directory() {
    let dir = project();
    let run = budget_in(
        &dir.path().join("src"),
        &["pack", "--report", "-", "--counter", "ratios"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(packed_paths(&run.json()), ["lib.rs", "station.rs"]);
}

#[test]
fn include_and_exclude_globs() {
    let dir = project();
    let report = budget_in(
        dir.path(),
        &[
            "pack",
            "--include",
            "*.rs",
            "--report",
            "-",
            "--counter",
            "ratios",
        ],
    )
    .json();
    assert_eq!(
        packed_paths(&report),
        ["src/lib.rs", "src/station.rs", "tests/predict.rs"]
    );
    assert_eq!(report["counts"]["excluded_by_glob"], 3);

    // Excluding a folder counts each file below it; exclude wins over include.
    let report = budget_in(
        dir.path(),
        &[
            "pack",
            "--include",
            "*.rs",
            "--exclude",
            "tests/",
            "--exclude",
            "station.rs",
            "--report",
            "-",
            "--counter",
            "ratios",
        ],
    )
    .json();
    assert_eq!(packed_paths(&report), ["src/lib.rs"]);
    assert_eq!(report["counts"]["excluded_by_glob"], 5);
}

// Needs the exact o200k counter (the default counter).
#[cfg(feature = "exact")]
#[test]
fn json_lists_every_file_with_tier_tokens_score_and_reason() {
    let dir = project();
    let run = budget_in(dir.path(), &["pack", "--report", "-", "--budget", "2000"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    assert_eq!(report["budget"], 2000);
    assert_eq!(report["counter"], "o200k");
    assert_eq!(report["exact"], true);
    let files = report["files"].as_array().unwrap();
    assert_eq!(files.len(), 6);
    for file in files {
        let path = file["path"].as_str().unwrap();
        let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
        assert_eq!(file["tokens"].as_u64(), Some(o200k(&text)), "{path}");
        assert!(
            ["RAW", "SKELETON", "LINKED", "SUMMARY", "OMITTED"]
                .contains(&file["tier"].as_str().unwrap())
        );
        assert!(!file["reason"].as_str().unwrap().is_empty());
    }
    // Without a query, the entry points (the README, and `src/lib.rs`, whose
    // `height` the test uses) rank first and the tests last; `src/lib.rs`
    // ranks above `src/station.rs`, which nothing uses.
    let score = |p: &str| {
        files.iter().find(|f| f["path"] == p).unwrap()["score"]
            .as_f64()
            .unwrap()
    };
    let scores: Vec<f64> = files.iter().map(|f| f["score"].as_f64().unwrap()).collect();
    let mut sorted = scores.clone();
    sorted.sort_by(|a, b| b.total_cmp(a));
    let top_two = [score("README.md"), score("src/lib.rs")];
    assert!(
        top_two.contains(&sorted[0]) && top_two.contains(&sorted[1]),
        "{scores:?}"
    );
    assert!(
        scores.iter().all(|&s| s >= score("tests/predict.rs")),
        "{scores:?}"
    );
    assert!(score("src/lib.rs") > score("src/station.rs"));
    // The payload is the Markdown text, and its count is exact.
    let payload = report["payload"].as_str().unwrap();
    assert!(payload.starts_with("## TREE\n"));
    assert_eq!(report["payload_tokens"].as_u64(), Some(o200k(payload)));
}

#[test]
fn query_ranks_matches_first_and_outlines_the_rest() {
    let dir = project();
    // A source file the query does not name, large enough that its outline
    // saves tokens.
    let tide: String = (0..12)
        .map(|i| format!("pub fn phase_{i}(hours: f64) -> f64 {{\n    let angle = hours * {i}.0;\n    angle.cos() * 0.25 + angle.sin()\n}}\n\n"))
        .collect();
    std::fs::write(dir.path().join("src/tide.rs"), tide).unwrap();
    let report = budget_in(
        dir.path(),
        &[
            "pack",
            "--query",
            "station",
            "--report",
            "-",
            "--counter",
            "ratios",
        ],
    )
    .json();
    let files = report["files"].as_array().unwrap();
    let score = |p: &str| {
        files.iter().find(|f| f["path"] == p).unwrap()["score"]
            .as_f64()
            .unwrap()
    };
    let field = |p: &str, key: &str| files.iter().find(|f| f["path"] == p).unwrap()[key].clone();
    // The files named after the query rank first; plurals match
    // (`stations`); every match ranks above the files without the word,
    // which are never carried in full: with room left, as their outline.
    let named = score("src/station.rs").min(score("config/stations.yaml"));
    for path in ["README.md", "docs/design.md"] {
        assert!(score(path) > 0.5, "{path}: {}", score(path));
        assert!(named > score(path), "{path}");
    }
    assert!(score("src/lib.rs") <= 0.5);
    assert!(score("src/tide.rs") <= 0.5);
    // Too small to save tokens as an outline, it is only named.
    assert_eq!(field("src/lib.rs", "tier"), "LINKED");
    // Without outlines (the feature `tree-sitter` off), only named too.
    if cfg!(feature = "tree-sitter") {
        assert_eq!(field("src/tide.rs", "tier"), "SKELETON");
        let reason = field("src/tide.rs", "reason");
        assert!(
            reason
                .as_str()
                .unwrap()
                .contains("matches nothing in the query"),
            "{reason}"
        );
    } else {
        assert_eq!(field("src/tide.rs", "tier"), "LINKED");
    }
    assert_eq!(field("src/station.rs", "tier"), "RAW");
}

// Needs the exact o200k counter (the default counter).
#[cfg(feature = "exact")]
#[test]
fn rendered_payload_counted_exactly_stays_within_the_budget() {
    // Enough material that small budgets force demotion.
    let mut files: Vec<(String, Vec<u8>)> = (0..40)
        .map(|i| {
            let body = format!("/// Module {i}.\npub fn f{i}() -> u64 {{ {i} }}\n").repeat(20 + i);
            (format!("src/m{i:02}.rs"), body.into_bytes())
        })
        .collect();
    files.push(("README.md".into(), b"# Many modules\n".to_vec()));
    let dir = owned_tree(&files);
    for budget in [700_u64, 2_500, 25_000] {
        for format in ["markdown", "xml", "json"] {
            let b = budget.to_string();
            let run = budget_in(dir.path(), &["pack", "--budget", &b, "--format", format]);
            assert_eq!(run.code, 0, "{budget} {format}: {}", run.stderr);
            let tokens = o200k(&run.stdout);
            assert!(
                tokens <= budget,
                "{format} payload of {tokens} tokens over --budget {budget}"
            );
            assert!(
                run.stderr
                    .contains(&format!("payload: {tokens} tokens (exact")),
                "reported count matches the independent one: {}",
                run.stderr
            );
        }
    }
}

#[test]
fn xml_is_well_formed_and_carries_the_raw_files() {
    let dir = project();
    let run = budget_in(dir.path(), &["pack", "--format", "xml", "--meta"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let xml = run.stdout;
    let document = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}\n{xml}"));
    let meta = document
        .root_element()
        .children()
        .find(|n| n.has_tag_name("meta"))
        .unwrap();
    assert_eq!(meta.attribute("budget_tokens"), Some("25000"));
    assert_eq!(meta.attribute("candidates"), Some("6"));
    assert_eq!(meta.attribute("raw"), Some("6"));
    let lib = document
        .descendants()
        .find(|n| {
            n.attribute("source") == Some("src/lib.rs") && n.parent().unwrap().has_tag_name("raw")
        })
        .unwrap();
    assert_eq!(lib.attribute("lines"), Some("1-4"));
    assert_eq!(
        lib.text(),
        Some(
            std::fs::read_to_string(dir.path().join("src/lib.rs"))
                .unwrap()
                .as_str()
        )
    );
    assert!(xml.ends_with("/>\n</payload>\n"));
}

#[test]
fn report_to_a_file_beside_the_payload_on_stdout() {
    let dir = project();
    let report_path = dir.path().join("report.json");
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "--format",
            "json",
            "--counter",
            "ratios",
            "--report",
            report_path.to_str().unwrap(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let payload: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    assert_eq!(report["format"], "json");
    assert_eq!(report["payload"].as_str(), Some(run.stdout.as_str()));
    let raw = payload["raw"].as_array().unwrap();
    let packed_raw = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["tier"] == "RAW")
        .count();
    assert_eq!(raw.len(), packed_raw);
    let readme = raw.iter().find(|i| i["source"] == "README.md").unwrap();
    assert_eq!(
        readme["content"].as_str(),
        Some(
            std::fs::read_to_string(dir.path().join("README.md"))
                .unwrap()
                .as_str()
        )
    );
}

#[test]
fn output_file_instead_of_stdout() {
    let dir = project();
    let out = dir.path().join("payload.md");
    let run = budget_in(
        dir.path(),
        &[
            "pack",
            "src",
            "-o",
            out.to_str().unwrap(),
            "--counter",
            "ratios",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("pub struct Station"));
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let dir = project();
    let run = budget_in(dir.path(), &["pack", "--counter", "ratios"]);
    assert!(
        !run.stderr.contains('\r') && !run.stderr.contains('\u{1b}'),
        "{:?}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 2, "{}", run.stderr);
}

#[test]
fn timings_list_every_stage_on_stderr_and_change_no_output() {
    let dir = project();
    let plain = budget_in(dir.path(), &["pack", "--counter", "ratios"]);
    let timed = budget_in(dir.path(), &["pack", "--counter", "ratios", "--timings"]);
    assert_eq!((plain.code, timed.code), (0, 0), "{}", timed.stderr);
    assert_eq!(timed.stdout, plain.stdout);
    assert!(timed.stderr.starts_with(&plain.stderr), "{}", timed.stderr);
    let lines: Vec<&str> = timed
        .stderr
        .lines()
        .skip(plain.stderr.lines().count())
        .collect();
    assert_eq!(lines[0], "timings (wall time, ms):");
    let stages: Vec<&str> = lines[1..]
        .iter()
        .map(|line| line.split_whitespace().next().unwrap_or_default())
        .collect();
    for stage in [
        "walk", "read", "names", "rank", "select", "assemble", "report", "total",
    ] {
        assert!(stages.contains(&stage), "{stage} in {stages:?}");
    }
    assert_eq!(stages.last(), Some(&"total"));
    for line in &lines[1..] {
        let ms = line
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse::<f64>().ok());
        assert!(ms.is_some_and(|ms| ms >= 0.0), "{line}");
    }
}

#[test]
fn auto_budget_sizes_from_the_material() {
    let dir = project();
    let report = budget_in(
        dir.path(),
        &[
            "pack",
            "--budget",
            "auto",
            "--report",
            "-",
            "--counter",
            "ratios",
        ],
    )
    .json();
    // A few hundred tokens of material is a simple task: 25,000.
    assert_eq!(report["budget"], 25_000);
}

// Needs the exact o200k counter (the default counter).
#[cfg(feature = "exact")]
#[test]
fn exact_counter_counts_only_what_the_payload_needs() {
    // 60 modules of 150 to 1,000 lines: far more than a 3,000-token payload holds.
    let files: Vec<(String, Vec<u8>)> = (0..60)
        .map(|i| {
            let line = format!("pub fn f{i}(x: u64) -> u64 {{ x * {i} + 7 }}\n");
            let body = format!("//! Module {i}.\n{}", line.repeat(150 + 15 * i));
            (format!("src/m{i:02}.rs"), body.into_bytes())
        })
        .collect();
    let dir = owned_tree(&files);
    let run = budget_in(dir.path(), &["pack", "--budget", "3000", "--report", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let payload = report["payload"].as_str().unwrap();
    assert!(o200k(payload) <= 3_000, "{} tokens", o200k(payload));
    assert_eq!(report["payload_tokens"].as_u64(), Some(o200k(payload)));

    let counting = &report["counting"];
    let exact = counting["exact"].as_u64().unwrap();
    let until_over = counting["until_over"].as_u64().unwrap();
    let estimated = counting["estimated"].as_u64().unwrap();
    assert_eq!(exact + until_over + estimated, 60);
    // The files the tiers had no room for were counted only up to that
    // room (or not at all): at most a few hundred tokens each.
    assert!(exact < 20 && until_over + estimated > 40, "{counting}");
    assert_eq!(report["material_tokens_exact"], false);

    let mut reported_exact = 0;
    for file in report["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap();
        let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
        let tokens = file["tokens"].as_u64().unwrap();
        // An omitted file is not in the payload: no tier.
        let tier = match file["status"].as_str().unwrap() {
            "packed" => file["tier"].as_str().unwrap(),
            status => {
                assert_eq!(status, "omitted");
                assert!(file["tier"].is_null());
                "OMITTED"
            }
        };
        if file["tokens_exact"] == true {
            reported_exact += 1;
            assert_eq!(tokens, o200k(&text), "{path}");
        } else {
            // Its upper bound: the UTF-8 length, never below the count.
            assert_eq!(tokens, text.len() as u64, "{path}");
            assert!(tokens >= o200k(&text));
            assert!(["SUMMARY", "OMITTED"].contains(&tier), "{path} in {tier}");
        }
        // A LINKED line prints the file's exact count.
        if tier == "LINKED" {
            assert!(
                payload.contains(&format!("`{path}` (lines 1-")),
                "{path} linked"
            );
            assert!(payload.contains(&format!(". {} tokens.", o200k(&text))));
        }
    }
    assert_eq!(reported_exact, exact);
    // Honest accounting: `packed` files appear in the payload, the others
    // were read and left out for room.
    let files = report["files"].as_array().unwrap();
    let status = |s: &str| files.iter().filter(|f| f["status"] == s).count();
    let (packed, omitted) = (status("packed"), status("omitted"));
    assert!(
        omitted > 0 && packed + omitted == 60,
        "{packed} + {omitted}"
    );
    assert_eq!(report["counts"]["packed"], packed);
    assert_eq!(report["counts"]["omitted"], omitted);
    assert!(
        run.stderr
            .contains(&format!("packed {packed} of 60 files: ")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains(&format!("; omitted (no room) {omitted}; ")),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(&format!(
            "counting (--counter o200k): {exact} files exactly, {until_over} only until shown not to fit, {estimated} by their upper bound alone"
        )),
        "{}",
        run.stderr
    );
}

/// The payload opens with the tree of packed paths; META, the fingerprint
/// and "Fetch" appear only when asked for; the report always has the
/// fingerprint.
#[test]
fn tree_first_meta_and_fetch_only_when_asked() {
    let dir = project();
    let plain = budget_in(
        dir.path(),
        &["pack", "--counter", "ratios", "--budget", "3000"],
    );
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let text = &plain.stdout;
    assert!(text.starts_with("## TREE\n\n```text\n"), "{text}");
    assert!(
        text.contains("\nsrc/\n  lib.rs [RAW]\n  station.rs [RAW]\n"),
        "{text}"
    );
    assert!(!text.contains("## META") && !text.contains("Fingerprint") && !text.contains("Fetch"));

    let big = "x = 1\n".repeat(3_000);
    let dir = tree(&[("big.py", big.as_bytes()), ("small.py", b"y = 2\n")]);
    let args = [
        "pack",
        "--counter",
        "ratios",
        "--budget",
        "2000",
        "--meta",
        "--fetch-tool",
        "--no-tree",
    ];
    let asked = budget_in(dir.path(), &args);
    assert_eq!(asked.code, 0, "{}", asked.stderr);
    assert!(asked.stdout.starts_with("## META\n"), "{}", asked.stdout);
    assert!(
        asked.stdout.contains("## Fingerprint")
            && asked.stdout.contains("`big.py` (lines 1-3000). Fetch: ")
    );

    let report = budget_in(
        dir.path(),
        &["pack", "--counter", "ratios", "--report", "-"],
    )
    .json();
    assert_eq!(
        report["fingerprint"]["payload"].as_str().map(str::len),
        Some(64)
    );
    assert!(report["meta"]["RAW"]["limit"].as_u64().unwrap() > 0);
}

#[test]
fn packing_again_gives_the_same_bytes() {
    // Separate processes: hash seeds, thread timing and the order files are
    // read in differ between them; the payload and the report must not.
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data");
    let data = data.to_str().unwrap();
    let args = [
        "pack",
        data,
        "--budget",
        "3000",
        "--query",
        "budget tiers",
        "--report",
        "-",
        "--no-config",
    ];
    let first = budget_in(std::path::Path::new(data), &args);
    let second = budget_in(std::path::Path::new(data), &args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    // The report holds the payload, the records and the counts.
    assert!(
        first.json()["payload"]
            .as_str()
            .is_some_and(|p| p.len() > 1_000)
    );
    assert_eq!(first.stdout, second.stdout);
}

// The count cache serves built-in exact counters.
#[cfg(feature = "exact")]
#[test]
fn a_second_pack_from_the_caches_is_the_same_and_no_cache_writes_none() {
    let files: Vec<(String, Vec<u8>)> = (0..12)
        .map(|i| {
            let line = format!("pub fn tide_{i}(x: u64) -> u64 {{ x * {i} + 7 }}\n");
            (
                format!("src/m{i:02}.rs"),
                line.repeat(20 + 30 * i).into_bytes(),
            )
        })
        .collect();
    let dir = owned_tree(&files);
    let caches = tempfile::tempdir().unwrap();
    let pack_with = |cache: &str, extra: &[&str]| {
        let cache = caches.path().join(cache);
        let mut args = vec![
            "pack", "--budget", "3000", "--query", "tide", "--report", "-",
        ];
        args.extend_from_slice(extra);
        let run = common::budget_with_env(
            dir.path(),
            &args,
            &[("BUDGET_CACHE_DIR", cache.as_os_str())],
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout
    };
    let cold = pack_with("cache", &[]);
    let written: Vec<_> = std::fs::read_dir(caches.path().join("cache"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    // The counts, and what the ranking found in each source file.
    assert_eq!(written.len(), 2, "{written:?}");
    let warm = pack_with("cache", &[]);
    assert_eq!(warm, cold);
    let payload: Value = serde_json::from_str(&warm).unwrap();
    let text = payload["payload"].as_str().unwrap();
    assert!(o200k(text) <= 3_000);
    assert_eq!(pack_with("off", &["--no-cache"]), cold);
    assert!(!caches.path().join("off").exists());
    pack_with("ratios", &["--counter", "ratios"]);
    let kept: Vec<_> = std::fs::read_dir(caches.path().join("ratios"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    assert!(
        kept.len() == 1 && kept[0].starts_with("texts-"),
        "estimated counts are not kept, what the texts hold is: {kept:?}"
    );
}

/// Python modules that use each other's functions, of many sizes: enough
/// for every tier, outlines made up front and at a file's turn, counts
/// made ahead on a spare core, and files left out.
#[cfg(all(feature = "exact", target_os = "linux"))]
fn tidal_modules() -> Vec<(String, Vec<u8>)> {
    (0..90)
        .map(|module| {
            let functions = 1 + (module * 7) % 40;
            let mut text = format!("\"\"\"Tide module {module}: heights and currents.\"\"\"\n\nimport math\n\n");
            for function in 0..functions {
                let callee = (module * 13 + function * 5) % 90;
                text.push_str(&format!(
                    "def tide_{module}_{function}(hours, depth={function}):\n    \"\"\"Height after `hours`, module {module}.\"\"\"\n    rise = math.sin(hours * {function}.5) + depth\n    for step in range({function}):\n        rise += tide_{callee}_0(step) / (step + 1)\n    return rise * {module}\n\n\n"
                ));
            }
            (format!("tides/module_{module:02}.py"), text.into_bytes())
        })
        .collect()
}

/// The payload and report are the same bytes whether the pack runs on one
/// core or on all of them (the work a spare core does ahead, the order in
/// which parallel stages finish, must never show).
#[cfg(all(feature = "exact", target_os = "linux"))]
#[test]
fn one_core_or_all_pack_the_same_bytes() {
    let dir = owned_tree(&tidal_modules());
    let out = tempfile::tempdir().unwrap();
    let pack = |one_core: bool, query: Option<&str>| {
        let report = out.path().join("report.json");
        let mut command = if one_core {
            // util-linux's `taskset`: the pack then sees a single core.
            let mut command = std::process::Command::new("taskset");
            command.args(["-c", "0", env!("CARGO_BIN_EXE_budget")]);
            command
        } else {
            std::process::Command::new(env!("CARGO_BIN_EXE_budget"))
        };
        command
            .args([
                "pack",
                "--budget",
                "6000",
                "--counter",
                "o200k",
                "--no-cache",
            ])
            .arg("--report")
            .arg(&report)
            .current_dir(dir.path());
        if let Some(query) = query {
            command.args(["--query", query]);
        }
        let output = command.output().expect("taskset and budget run");
        assert!(output.status.success(), "{output:?}");
        let payload = String::from_utf8(output.stdout).unwrap();
        (payload, std::fs::read_to_string(&report).unwrap())
    };
    for query in [None, Some("tide heights"), Some("currents module 42")] {
        let all = pack(false, query);
        let one = pack(true, query);
        assert!(all.0 == one.0, "payloads differ for {query:?}");
        assert!(all.1 == one.1, "reports differ for {query:?}");
        let report: Value = serde_json::from_str(&all.1).unwrap();
        let tiers: std::collections::BTreeSet<&str> = report["files"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|file| file["tier"].as_str())
            .collect();
        assert!(
            ["RAW", "SKELETON", "LINKED"]
                .iter()
                .all(|t| tiers.contains(t)),
            "{query:?}: {tiers:?}"
        );
        assert!(o200k(&all.0) <= 6_000);
    }
}
