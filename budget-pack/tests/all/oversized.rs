//! A file larger than the whole budget is shown as an outline, not a
//! LINKED line, when room is left for one.

use budget_pack::{Budget, Counting, PackOptions, pack};
use budget_runtime::estimate::{Encoding, ExactCounter};

/// Rust functions of twelve lines each.
fn functions(names: impl Iterator<Item = String>) -> String {
    let mut text = "pub struct State { pub tick: u64 }\n\n".to_owned();
    for name in names {
        text.push_str(&format!(
            "/// Does {name}.\npub fn {name}(state: &mut State) -> u64 {{\n"
        ));
        for line in 0..12 {
            text.push_str(&format!(
                "    state.tick = state.tick.wrapping_mul({line}).rotate_left(3);\n"
            ));
        }
        text.push_str("    state.tick\n}\n\n");
    }
    text
}

#[test]
fn a_file_larger_than_the_budget_past_the_best_five_goes_in_as_an_outline() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir(&src).unwrap();
    // Five small files that match best and fit whole, then one of about
    // 29,000 tokens (96 KB): past the bytes of source outlined up front
    // for a 6,000-token budget, so its outline is made for the room left.
    for k in 0..5 {
        let names = (0..3).map(|f| format!("tide_height_{k}_{f}"));
        std::fs::write(src.join(format!("tide{k}.rs")), functions(names)).unwrap();
    }
    let names = (0..120).map(|f| {
        if f % 10 == 0 {
            format!("tide_{f}")
        } else {
            format!("step_{f}")
        }
    });
    std::fs::write(src.join("ocean.rs"), functions(names)).unwrap();

    let o200k = ExactCounter::new(Encoding::O200kBase).unwrap();
    let mut options = PackOptions::new([dir.path()]);
    options.budget = Budget::Tokens(6_000);
    options.query = Some("tide height".to_owned());
    let packed = pack(&options, &Counting::exact("o200k", &o200k), &()).unwrap();

    let report = packed.report();
    let record = |path: &str| crate::record(report, path);
    for k in 0..5 {
        assert_eq!(record(&format!("src/tide{k}.rs"))["tier"], "RAW");
    }
    let ocean = record("src/ocean.rs");
    assert!(ocean["tokens"].as_u64().unwrap() > 6_000, "{ocean}");
    assert_eq!(ocean["tier"], "SKELETON");
    // The outline shows the definition the query names, in full.
    assert!(packed.text().contains("### `src/ocean.rs`"));
    assert!(
        packed
            .text()
            .contains("pub fn tide_0(state: &mut State) -> u64 {\n    state.tick = ")
    );
    let reference = tiktoken_rs::o200k_base().unwrap();
    assert!(reference.encode_ordinary(packed.text()).len() <= 6_000);
}
