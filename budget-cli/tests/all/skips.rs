//! Every input file ends in exactly one counter, with its reason.
//!
//! Unreadable: the tests run as root, for whom `chmod 000` does not stop a
//! read, so the unreadable input is `/proc/self/mem`, which any process can
//! open but whose first page is unmapped: reading it fails with EIO.

use crate::common;

use std::collections::BTreeMap;

use common::{Run, budget_in, tree};
use serde_json::Value;
use tempfile::TempDir;

/// One file per skip reason, plus two packable files, one duplicate, a
/// hidden file and a .gitignored file (neither of which is an input).
fn every_kind() -> TempDir {
    let dir = tree(&[
        ("a.rs", b"fn a() {}\n"),
        ("copy/a.rs", b"fn a() {}\n"), // duplicate of a.rs
        ("b.md", b"# B\n\nText.\n"),
        ("blob.bin", b"GIF89a\x00\x01\x02"),
        ("latin1.txt", b"caf\xe9\n"), // not UTF-8: binary
        ("empty.txt", b""),
        ("blank.txt", b"  \n\t\n"),
        ("notes.log", b"excluded by --exclude\n"),
        (".hidden", b"hidden files are not inputs\n"),
        (".gitignore", b"ignored.txt\n"),
        ("ignored.txt", b"gitignored files are not inputs\n"),
    ]);
    let root = dir.path();
    std::os::unix::fs::symlink("a.rs", root.join("link.rs")).unwrap();
    crate::common::mkfifo(&root.join("pipe"));
    // Sparse: 5 MiB without writing them.
    let big = std::fs::File::create(root.join("big.txt")).unwrap();
    big.set_len(5 * 1024 * 1024).unwrap();
    dir
}

/// `budget COMMAND` on [`every_kind`] plus `/proc/self/mem`, excluding
/// `*.log`, as JSON (pack's report, count's table), with the fixed-ratio
/// counter.
fn run_on_every_kind(command: &str) -> (TempDir, Run) {
    let dir = every_kind();
    let json = if command == "pack" {
        ["--report", "-"]
    } else {
        ["--format", "json"]
    };
    let run = budget_in(
        dir.path(),
        &[
            &[command, ".", "/proc/self/mem", "--exclude", "*.log"][..],
            &json,
            &["--counter", "ratios"],
        ]
        .concat(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    (dir, run)
}

fn statuses(report: &Value) -> BTreeMap<String, String> {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_owned(),
                f["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn pack_counts_each_file_under_one_reason() {
    let (_dir, run) = run_on_every_kind("pack");
    let report = run.json();
    let expected: BTreeMap<String, String> = [
        ("a.rs", "packed"),
        ("copy/a.rs", "duplicate"),
        ("b.md", "packed"),
        ("blob.bin", "binary"),
        ("latin1.txt", "binary"),
        ("empty.txt", "empty"),
        ("blank.txt", "empty"),
        ("notes.log", "excluded_by_glob"),
        ("link.rs", "symlink"),
        ("pipe", "special_file"),
        ("big.txt", "too_large"),
        ("/proc/self/mem", "unreadable"),
    ]
    .into_iter()
    .map(|(p, s)| (p.to_owned(), s.to_owned()))
    .collect();
    assert_eq!(statuses(&report), expected);
    assert_eq!(
        report["files"].as_array().unwrap().len(),
        expected.len(),
        "each file once"
    );
    let counts = &report["counts"];
    for (key, n) in [
        ("packed", 2),
        ("duplicate", 1),
        ("binary", 2),
        ("empty", 2),
        ("excluded_by_glob", 1),
        ("symlink", 1),
        ("special_file", 1),
        ("too_large", 1),
        ("unreadable", 1),
    ] {
        assert_eq!(counts[key], n, "{key}");
    }
    assert!(
        run.stderr.contains(
            "packed 2 of 12 files: RAW 2, SKELETON 0, LINKED 0, SUMMARY 0; omitted (no room) 0; skipped: 1 duplicate, 2 binary, 1 too large, 1 unreadable, 2 empty, 1 symlink, 1 special file, 1 excluded by a glob"
        ),
        "{}",
        run.stderr
    );
    let duplicate = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "copy/a.rs")
        .unwrap();
    assert_eq!(duplicate["reason"], "identical to a.rs");
}

#[test]
fn count_uses_the_same_accounting() {
    let (_dir, run) = run_on_every_kind("count");
    let report = run.json();
    let statuses = statuses(&report);
    assert_eq!(statuses["a.rs"], "counted");
    assert_eq!(statuses["copy/a.rs"], "counted"); // count does not deduplicate
    assert_eq!(statuses["pipe"], "special_file");
    assert_eq!(statuses["/proc/self/mem"], "unreadable");
    assert_eq!(statuses.len(), 12);
    assert_eq!(report["counts"]["counted"], 3);
    assert_eq!(report["counts"]["binary"], 2);
}

#[test]
fn max_file_bytes_moves_the_too_large_limit() {
    let dir = tree(&[("small.txt", b"0123456789\n"), ("large.txt", &[b'x'; 100])]);
    let report = budget_in(
        dir.path(),
        &[
            "count",
            "--max-file-bytes",
            "50",
            "--counter",
            "ratios",
            "--format",
            "json",
        ],
    )
    .json();
    let statuses = statuses(&report);
    assert_eq!(statuses["small.txt"], "counted");
    assert_eq!(statuses["large.txt"], "too_large");
    let large = &report["files"][0];
    assert_eq!(large["reason"], "100 bytes, over the 50-byte limit");
}

/// `/proc` files report a size of 0 whatever they hold: the limit bounds
/// what is read, not what the metadata says.
#[cfg(target_os = "linux")]
#[test]
fn max_file_bytes_bounds_files_that_report_size_zero() {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    assert!(
        status.len() > 64,
        "/proc/self/status holds {} bytes",
        status.len()
    );
    assert_eq!(std::fs::metadata("/proc/self/status").unwrap().len(), 0);
    let dir = tree(&[]);
    let report = budget_in(
        dir.path(),
        &[
            "count",
            "/proc/self/status",
            "--max-file-bytes",
            "64",
            "--counter",
            "ratios",
            "--format",
            "json",
        ],
    )
    .json();
    let file = &report["files"][0];
    assert_eq!(file["status"], "too_large", "{report}");
    assert_eq!(
        file["reason"],
        "more than 64 bytes read (its size reads 0), over the 64-byte limit"
    );
}

/// Real private keys, generated now with `ssh-keygen` and `openssl`, and a
/// credential in a config file are skipped as `secret` with the line and
/// the rule; the public key and the rest are packed, and no key text
/// reaches the payload.
#[test]
fn secrets_are_never_packed() {
    let dir = tree(&[
        (
            "README.md",
            b"# Deploy notes\n\nKeys live in keys/.\n".as_slice(),
        ),
        (
            "config/app.toml",
            b"[aws]\nregion = \"eu-west-1\"\naccess_key_id = \"AKIAZ2QX7RPLW4K3VD6T\"\n".as_slice(),
        ),
    ]);
    let keys = dir.path().join("keys");
    std::fs::create_dir_all(&keys).unwrap();
    let run_tool = |program: &str, args: &[&str]| {
        let status = std::process::Command::new(program)
            .args(args)
            .current_dir(&keys)
            .status()
            .unwrap_or_else(|e| panic!("{program} is needed to generate real keys: {e}"));
        assert!(status.success(), "{program} {args:?}");
    };
    run_tool(
        "ssh-keygen",
        &[
            "-q",
            "-t",
            "ed25519",
            "-N",
            "",
            "-C",
            "test",
            "-f",
            "id_ed25519",
        ],
    );
    run_tool(
        "openssl",
        &[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-out",
            "rsa.pem",
        ],
    );
    run_tool(
        "openssl",
        &[
            "ecparam",
            "-name",
            "prime256v1",
            "-genkey",
            "-noout",
            "-out",
            "ec.pem",
        ],
    );

    let run = budget_in(
        dir.path(),
        &["pack", "--counter", "ratios", "--report", "-"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let statuses = statuses(&report);
    for key in [
        "keys/id_ed25519",
        "keys/rsa.pem",
        "keys/ec.pem",
        "config/app.toml",
    ] {
        assert_eq!(statuses[key], "secret", "{key}");
    }
    assert_eq!(statuses["keys/id_ed25519.pub"], "packed");
    assert_eq!(statuses["README.md"], "packed");
    let reason = |path: &str| {
        report["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["path"] == path)
            .unwrap()["reason"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(reason("keys/rsa.pem"), "line 1: a private key");
    assert_eq!(reason("config/app.toml"), "line 3: an AWS access key id");
    assert_eq!(report["counts"]["secret"], 4);
    let payload = report["payload"].as_str().unwrap();
    assert!(
        !payload.contains("PRIVATE KEY") && !payload.contains("AKIA"),
        "{payload}"
    );
    assert!(run.stderr.contains("4 secret"), "{}", run.stderr);

    // --redact packs them with every secret replaced.
    let run = budget_in(
        dir.path(),
        &["pack", "--counter", "ratios", "--redact", "--report", "-"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = run.json();
    let redacted = self::statuses(&report);
    for key in [
        "keys/id_ed25519",
        "keys/rsa.pem",
        "keys/ec.pem",
        "config/app.toml",
    ] {
        // Redacted, the three keys are the same text: two are duplicates.
        assert!(
            ["packed", "duplicate"].contains(&redacted[key].as_str()),
            "{key}"
        );
    }
    assert_eq!(redacted["config/app.toml"], "packed");
    let payload = report["payload"].as_str().unwrap();
    for key in ["id_ed25519", "rsa.pem", "ec.pem"] {
        let text = std::fs::read_to_string(keys.join(key)).unwrap();
        for line in text.lines().filter(|l| !l.is_empty()) {
            assert!(!payload.contains(line), "{key}: {line}");
        }
    }
    assert!(
        !payload.contains("AKIA")
            && payload.contains("region = \"eu-west-1\"\naccess_key_id = \"[REDACTED]\"")
    );
    assert!(
        run.stderr.contains("secrets: 4 redacted in 4 files"),
        "{}",
        run.stderr
    );
}

/// A dotenv file's values are secrets; its template is documentation.
#[test]
fn dotenv_values_are_secrets() {
    let dir = tree(&[
        (
            "deploy/prod.env",
            b"# prod\nDATABASE_URL=postgres://app:s3cret@db/app\n".as_slice(),
        ),
        (
            "deploy/app.env.example",
            b"DATABASE_URL=postgres://user:password@host/db\n".as_slice(),
        ),
    ]);
    let report = budget_in(
        dir.path(),
        &["pack", "--counter", "ratios", "--report", "-"],
    )
    .json();
    let statuses = statuses(&report);
    assert_eq!(statuses["deploy/prod.env"], "secret");
    assert_eq!(statuses["deploy/app.env.example"], "packed");
}

/// Duplicates are dropped before anything is scanned or counted: the copy
/// of a file holding a secret is left out as a secret too, naming the
/// file it repeats; and packing twice gives the same bytes.
#[test]
fn duplicates_are_found_before_secrets_and_the_payload_is_deterministic() {
    let key = "AKIA".to_owned() + "Z7VQ3KXMN4PLR8TB";
    let secret = format!("aws_access_key_id = {key}\n");
    let code = "pub fn tide() -> u32 {\n    6\n}\n";
    let dir = tree(&[
        ("a/keys.env", secret.as_bytes()),
        ("b/keys.env", secret.as_bytes()),
        ("a/tide.rs", code.as_bytes()),
        ("b/tide.rs", code.as_bytes()),
        ("c/tide.rs", code.as_bytes()),
    ]);
    let pack = || budget_in(dir.path(), &["pack", "--query", "tide", "--report", "-"]);
    let (first, second) = (pack(), pack());
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(
        first.stdout, second.stdout,
        "the same input gives the same bytes"
    );
    let report = first.json();
    let statuses = statuses(&report);
    assert_eq!(statuses["a/tide.rs"], "packed");
    assert_eq!(statuses["b/tide.rs"], "duplicate");
    assert_eq!(statuses["c/tide.rs"], "duplicate");
    assert_eq!(statuses["a/keys.env"], "secret");
    assert_eq!(statuses["b/keys.env"], "secret");
    let copy = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "b/keys.env")
        .unwrap();
    let reason = copy["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("identical to a/keys.env, which holds a secret"),
        "{reason}"
    );
    assert!(!reason.contains(&key), "{reason}");
    assert!(!first.stdout.contains(&key));
}
