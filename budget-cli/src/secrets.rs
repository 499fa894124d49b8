//! Secrets that must not reach a third-party model: private keys, cloud and
//! API credentials, and high-entropy values assigned to secret-looking
//! names, and the values of `.env` files. The rules follow gitleaks'
//! published rule set (the key formats' fixed prefixes and lengths); a
//! file with a match is skipped as `secret`, or with `pack --redact` packed
//! with each secret replaced by [`REDACTED`].

use std::ops::Range;

/// A rule's match on one line: the rule's name and the secret's bytes.
type Match = (&'static str, Range<usize>);

/// What a redacted secret becomes.
pub const REDACTED: &str = "[REDACTED]";

/// One match: which rule, on which line (1-based), where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What was found, e.g. `a private key`.
    pub rule: &'static str,
    /// Its line, from 1.
    pub line: usize,
    /// Its bytes in the text: the value (a private key: its whole block).
    pub span: Range<usize>,
}

/// A credential format: a fixed prefix, then `min..=max` characters of a
/// class.
struct Prefixed {
    rule: &'static str,
    prefixes: &'static [&'static str],
    class: fn(u8) -> bool,
    min: usize,
    max: usize,
}

fn base32_upper(b: u8) -> bool {
    b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b)
}
fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}
fn alnum_underscore(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
fn token_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

const PREFIXED: &[Prefixed] = &[
    Prefixed {
        rule: "an AWS access key id",
        prefixes: &["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
        class: base32_upper,
        min: 16,
        max: 17,
    },
    Prefixed {
        rule: "a GitHub token",
        prefixes: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        class: alnum,
        min: 36,
        max: 36,
    },
    Prefixed {
        rule: "a GitHub fine-grained token",
        prefixes: &["github_pat_"],
        class: alnum_underscore,
        min: 82,
        max: 82,
    },
    Prefixed {
        rule: "a Slack token",
        prefixes: &["xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-"],
        class: token_char,
        min: 10,
        max: 255,
    },
    Prefixed {
        rule: "an Anthropic API key",
        prefixes: &["sk-ant-api03-", "sk-ant-admin01-"],
        class: token_char,
        min: 80,
        max: 255,
    },
    Prefixed {
        rule: "an OpenAI API key",
        prefixes: &["sk-proj-", "sk-svcacct-", "sk-admin-"],
        class: token_char,
        min: 40,
        max: 255,
    },
    Prefixed {
        rule: "a Google API key",
        prefixes: &["AIza"],
        class: token_char,
        min: 35,
        max: 35,
    },
    Prefixed {
        rule: "a Stripe key",
        prefixes: &[
            "sk_live_", "rk_live_", "sk_test_", "rk_test_", "sk_prod_", "rk_prod_",
        ],
        class: alnum,
        min: 24,
        max: 255,
    },
];

/// Names whose assigned value is a secret when it looks random.
const SECRET_NAMES: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "token",
    "api_key",
    "apikey",
    "access_key",
    "private_key",
    "client_secret",
];

/// Bits per character above which an assigned value counts as random.
const MIN_ENTROPY_BITS: f64 = 4.0;
/// Shortest value judged by its entropy.
const MIN_SECRET_LEN: usize = 20;

/// The first secret in `text`, if any. Each credential rule first checks
/// the whole text for its fixed part (a fast substring search), so an
/// ordinary file costs a few passes; lines are examined one by one only for
/// a rule that may match, and for assignments to secret names.
pub fn find_secret(text: &str, path: &str) -> Option<Finding> {
    find_secrets(text, path).into_iter().next()
}

/// Every secret in `text` (the file at `path`, whose name decides the
/// `.env` rule), in order of position, none overlapping another.
pub fn find_secrets(text: &str, path: &str) -> Vec<Finding> {
    let lines = || {
        let mut start = 0;
        text.split_inclusive('\n')
            .enumerate()
            .map(move |(index, line)| {
                let at = start;
                start += line.len();
                (index + 1, at, line.trim_end_matches(['\n', '\r']))
            })
    };
    let mut found: Vec<Finding> = Vec::new();
    let mut on_lines = |rule: &dyn Fn(&str) -> Vec<Match>| {
        for (line_number, at, line) in lines() {
            for (name, span) in rule(line) {
                found.push(Finding {
                    rule: name,
                    line: line_number,
                    span: at + span.start..at + span.end,
                });
            }
        }
    };
    if is_env_file(path) {
        on_lines(&|line| env_value(line).into_iter().collect());
    }
    if text.contains("PRIVATE KEY") {
        on_lines(&|line| private_key(line).into_iter().collect());
    }
    for format in PREFIXED {
        if format.prefixes.iter().any(|prefix| text.contains(prefix)) {
            on_lines(&|line| prefixed(line, format));
        }
    }
    if mentions_secret_name(text) {
        on_lines(&|line| assignment(line).into_iter().collect());
    }
    // A private key's span runs to the end of its `-----END …-----` line
    // (or of the text).
    for finding in found.iter_mut().filter(|f| f.rule == PRIVATE_KEY) {
        let start = finding.span.start;
        let rest = &text[start..];
        finding.span.end = rest
            .find("-----END ")
            .and_then(|end| {
                let label = end + "-----END ".len();
                rest[label..]
                    .find("-----")
                    .map(|close| start + label + close + 5)
            })
            .unwrap_or(text.len());
    }
    found.sort_by_key(|f| (f.span.start, std::cmp::Reverse(f.span.end)));
    let mut kept: Vec<Finding> = Vec::with_capacity(found.len());
    for finding in found {
        if kept
            .last()
            .is_none_or(|last| finding.span.start >= last.span.end)
        {
            kept.push(finding);
        }
    }
    kept
}

/// `text` with every secret [`find_secrets`] finds replaced by
/// [`REDACTED`], and the findings.
pub fn redact(text: &str, path: &str) -> (String, Vec<Finding>) {
    let findings = find_secrets(text, path);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for finding in &findings {
        out.push_str(&text[at..finding.span.start]);
        out.push_str(REDACTED);
        at = finding.span.end;
    }
    out.push_str(&text[at..]);
    (out, findings)
}

/// Whether `path` names a dotenv file (`.env`, `.env.local`,
/// `production.env`), not a template of one (`.env.example`, `.sample`,
/// `.template`, `.dist`).
fn is_env_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let env = name == ".env" || name.starts_with(".env.") || name.ends_with(".env");
    let template = ["example", "sample", "template", "dist", "defaults"]
        .iter()
        .any(|word| name.contains(word));
    env && !template
}

/// A dotenv line's value: `NAME=value` or `export NAME="value"` with a
/// non-empty value that is not a reference to another variable (`$HOME`).
fn env_value(line: &str) -> Option<Match> {
    let trimmed = line.trim_start();
    if trimmed.starts_with('#') {
        return None;
    }
    let operator = line.find('=')?;
    let name = line[..operator].trim().trim_start_matches("export ").trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let after = &line[operator + 1..];
    let value_start = operator + 1 + (after.len() - after.trim_start().len());
    let value = line[value_start..].trim_end();
    let unquoted = value.trim_matches(['"', '\'']);
    if unquoted.is_empty() || unquoted.starts_with('$') {
        return None;
    }
    Some(("a .env value", value_start..value_start + value.len()))
}

/// Whether `text` holds a secret name in lower, capitalized or upper case
/// (`token`, `Token`, `TOKEN`; `authToken` ends in `Token`): a fast test
/// before the line-by-line one.
fn mentions_secret_name(text: &str) -> bool {
    SECRET_NAMES.iter().any(|word| {
        let mut capitalized = word.to_string();
        capitalized[..1].make_ascii_uppercase();
        text.contains(word)
            || text.contains(&capitalized)
            || text.contains(&word.to_ascii_uppercase())
    })
}

/// The rule name of private keys.
const PRIVATE_KEY: &str = "a private key";

/// A PEM private key header (`-----BEGIN RSA PRIVATE KEY-----`,
/// `-----BEGIN OPENSSH PRIVATE KEY-----`, …), from its start.
fn private_key(line: &str) -> Option<Match> {
    let start = line.find("-----BEGIN ")?;
    let rest = &line[start + "-----BEGIN ".len()..];
    let label = &rest[..rest.find("-----")?];
    label
        .ends_with("PRIVATE KEY")
        .then_some((PRIVATE_KEY, start..line.len()))
}

/// A credential of `format` (its prefix and the right length after it),
/// not inside a longer word.
fn prefixed(line: &str, format: &Prefixed) -> Vec<Match> {
    let bytes = line.as_bytes();
    format
        .prefixes
        .iter()
        .flat_map(|prefix| {
            line.match_indices(prefix).filter_map(move |(at, _)| {
                let before_ok = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
                let body = &bytes[at + prefix.len()..];
                let len = body.iter().take_while(|&&b| (format.class)(b)).count();
                let after_ok = body.get(len).is_none_or(|b| !b.is_ascii_alphanumeric());
                let value = &line[at..at + prefix.len() + len];
                (before_ok
                    && after_ok
                    && (format.min..=format.max).contains(&len)
                    && !is_documentation_example(value))
                .then_some((format.rule, at..at + value.len()))
            })
        })
        .collect()
}

/// `name = value` or `name: value` where the name ends with a secret word
/// and the value is long and random: quoted, or the whole line is the
/// assignment (`.env`, INI, YAML), and not a dotted path of identifiers
/// (code such as `state = ATNState.INVALID_STATE_NUMBER`).
fn assignment(line: &str) -> Option<Match> {
    let operator = line.find(['=', ':'])?;
    let name = line[..operator]
        .trim_end()
        .trim_end_matches(['"', '\''])
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .next()?;
    let ends_with = |word: &str| {
        name.len() >= word.len()
            && name.is_char_boundary(name.len() - word.len())
            && name[name.len() - word.len()..].eq_ignore_ascii_case(word)
    };
    if !SECRET_NAMES.iter().any(|word| ends_with(word)) {
        return None;
    }
    let name = name.to_ascii_lowercase();
    let not_secret = [
        "next",
        "page",
        "continuation",
        "type",
        "max",
        "count",
        "limit",
        "clienttoken",
        "client_token",
        "creation",
        "idempotency",
    ];
    if not_secret.iter().any(|word| name.contains(word)) {
        return None;
    }
    let after = line[operator + 1..].trim_start();
    let quoted = after.starts_with(['"', '\'']);
    let value_start = line.len() - after.trim_start_matches(['"', '\'']).len();
    let value: String = after
        .trim_start_matches(['"', '\''])
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || "+/=_-.".contains(*c))
        .collect();
    let whole_line = line[..operator]
        .trim()
        .chars()
        .all(|c| c.is_alphanumeric() || "_-.\"'".contains(c))
        && after
            .trim_start_matches(['"', '\''])
            .trim_end()
            .trim_end_matches(['"', '\'', ','])
            == value;
    let dotted_path = value.contains('.')
        && value.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        });
    ((quoted || whole_line)
        && !dotted_path
        && !is_documentation_example(&value)
        && value.len() >= MIN_SECRET_LEN
        && entropy(&value) >= MIN_ENTROPY_BITS)
        .then_some((
            "a high-entropy value assigned to a secret name",
            value_start..value_start + value.len(),
        ))
}

/// Whether `value` is a documentation placeholder: AWS's published example
/// credentials end in `EXAMPLE` or carry `EXAMPLE` (`AKIAIOSFODNN7EXAMPLE`,
/// `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`); gitleaks allows them too.
fn is_documentation_example(value: &str) -> bool {
    value.to_ascii_lowercase().contains("example")
}

/// Shannon entropy of `text`, in bits per character.
fn entropy(text: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in text.bytes() {
        counts[usize::from(b)] += 1;
    }
    let n = f64::from(u32::try_from(text.len()).unwrap_or(u32::MAX));
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> Option<&'static str> {
        find_secret(text, "").map(|f| f.rule)
    }

    /// Key shapes of each format (made up, in the formats' published
    /// shapes).
    #[test]
    fn credential_formats_are_found_with_their_line() {
        assert_eq!(
            find_secret(
                "# config\naws_access_key_id = AKIAZ2QX7RPLW4K3VD6T\n",
                "a.ini"
            ),
            Some(Finding {
                rule: "an AWS access key id",
                line: 2,
                span: 29..49,
            })
        );
        assert_eq!(
            rule("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ4pLmN8"),
            Some("a high-entropy value assigned to a secret name")
        );
        assert_eq!(
            rule(&format!("GH=ghp_{}", "a1B2".repeat(9))),
            Some("a GitHub token")
        );
        assert_eq!(
            rule("slack: xoxb-2048-4096-abcdefABCDEF"),
            Some("a Slack token")
        );
        assert_eq!(
            rule(&format!("key: sk-ant-api03-{}", "Ab3_".repeat(24))),
            Some("an Anthropic API key")
        );
        assert_eq!(
            rule(&format!("OPENAI_API_KEY=sk-proj-{}", "x9Y".repeat(20))),
            Some("an OpenAI API key")
        );
        assert_eq!(
            rule(&format!("AIza{}", "Sy_9".repeat(9).get(..35).unwrap())),
            Some("a Google API key")
        );
        assert_eq!(
            rule(&format!(
                "stripe = \"sk_live_{}\"",
                "4eC39HqLyjWDarjtT1zdp7dc"
            )),
            Some("a Stripe key")
        );
        assert_eq!(
            rule("-----BEGIN EC PRIVATE KEY-----"),
            Some("a private key")
        );
    }

    /// AWS's published example credentials are documentation, as gitleaks
    /// treats them.
    #[test]
    fn published_example_credentials_are_documentation() {
        assert_eq!(rule("aws_access_key_id = AKIAIOSFODNN7EXAMPLE"), None);
        assert_eq!(
            rule("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
            None
        );
        assert_eq!(
            rule("\"ClientToken\": \"so0eNA2uSHUNlHI0S2cJ305GuIX1Cezabcdefg\","),
            None
        );
    }

    #[test]
    fn redaction_replaces_exactly_the_values() {
        let key = format!("ghp_{}", "a1B2".repeat(9));
        let text = format!(
            "token = \"{key}\"\nx = 1\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----\nafter\n"
        );
        let (redacted, findings) = redact(&text, "config.py");
        assert_eq!(
            redacted,
            "token = \"[REDACTED]\"\nx = 1\n[REDACTED]\nafter\n"
        );
        assert_eq!(
            findings
                .iter()
                .map(|f| (f.rule, f.line))
                .collect::<Vec<_>>(),
            [("a GitHub token", 1), ("a private key", 3)]
        );
    }

    #[test]
    fn dotenv_values_are_secrets_in_dotenv_files_only() {
        let text =
            "# db\nexport DB_URL=\"postgres://u:p@h/db\"\nEMPTY=\nHOME_DIR=$HOME\nPORT=5432\n";
        let (redacted, findings) = redact(text, "app/.env.local");
        assert_eq!(
            redacted,
            "# db\nexport DB_URL=[REDACTED]\nEMPTY=\nHOME_DIR=$HOME\nPORT=[REDACTED]\n"
        );
        assert_eq!(findings.len(), 2);
        assert!(find_secrets(text, "app/.env.example").is_empty());
        assert!(find_secrets(text, "app/settings.py").is_empty());
        assert!(is_env_file("production.env") && is_env_file(".env"));
    }

    #[test]
    fn ordinary_text_is_not_a_secret() {
        for text in [
            "fn tokenize(text: &str) -> Vec<Token> {",
            "password = \"\"",
            "token_budget = 25000",
            "let secret_sauce = compute_the_answer_of_everything();",
            "-----BEGIN PUBLIC KEY-----",
            "AKIA is the prefix of an AWS access key id",
            "The TOKEN: see docs/tokens.md for the tokenizer_configuration",
            "            self.nextTokenState = ATNState.INVALID_STATE_NUMBER",
            "    last_token = self.handle_following_brackets(node, last_token, '(')",
            "        \"NextToken\": \"eyJDdXN0b21lckFjY291bnRJZCI6IjI3MDIwNTQwMjg0NSJ9\",",
        ] {
            assert_eq!(rule(text), None, "{text}");
        }
    }
}
