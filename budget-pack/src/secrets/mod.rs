//! Secrets that must not reach a third-party model: private keys (PEM,
//! PGP, PuTTY, base64 PEM), the credential formats of [`rules`] (after
//! gitleaks' default rule set), passwords in URLs, bearer tokens, values
//! assigned to secret-looking names, and the values of `.env` files. `pack`
//! scans every section it sends (file contents, file names, diff hunks, log
//! messages): a file with a match is skipped as `secret`, or with
//! [`PackOptions::redact`](crate::PackOptions::redact) packed with each
//! secret replaced by [`REDACTED`].

mod rules;

use std::ops::Range;

pub use rules::RULES;

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

/// Names whose assigned value is a secret when it looks random.
pub(crate) const SECRET_NAMES: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "secret",
    "token",
    "api_key",
    "apikey",
    "access_key",
    "private_key",
    "client_secret",
];

/// Bits per character above which an assigned value counts as random
/// (hexadecimal values: [`MIN_HEX_ENTROPY_BITS`], as at most 4 are possible).
const MIN_ENTROPY_BITS: f64 = 4.0;
/// Bits per character above which a hexadecimal value counts as random.
const MIN_HEX_ENTROPY_BITS: f64 = 3.0;
/// Shortest value judged by its entropy.
const MIN_SECRET_LEN: usize = 20;
/// Shortest hexadecimal value judged by its entropy (a 128-bit key).
const MIN_HEX_LEN: usize = 32;
/// Shortest quoted password (names `password`, `passwd`, `pwd`).
const MIN_PASSWORD_LEN: usize = 8;

/// A hash of the rules [`find_secrets`] applies (their ids, keywords and
/// patterns, and the secret names), which changes when they do.
pub fn rules_fingerprint() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = foldhash::fast::FixedState::with_seed(0x5ec7).build_hasher();
    for rule in RULES {
        for part in [rule.id, rule.pattern].iter().chain(rule.keywords) {
            hasher.write(part.as_bytes());
            hasher.write_u8(0);
        }
    }
    for name in SECRET_NAMES {
        hasher.write(name.as_bytes());
        hasher.write_u8(0);
    }
    hasher.finish()
}

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
    let candidates = rules::COMPILED.candidates(text);
    // Formats first: where a generic rule finds the same value, the
    // format names it.
    let mut found: Vec<Finding> = formats(text, &candidates.rules);
    // Each line `(number, start, text)` given, searched by `rule`.
    let mut on_lines = |lines: &mut dyn Iterator<Item = (usize, usize, &str)>,
                        rule: fn(&str) -> Option<Match>| {
        for (line_number, at, line) in lines {
            if let Some((name, span)) = rule(line) {
                found.push(Finding {
                    rule: name,
                    line: line_number,
                    span: at + span.start..at + span.end,
                });
            }
        }
    };
    if is_env_file(path) {
        on_lines(&mut lines(), env_value);
    }
    if text.contains("PRIVATE KEY") {
        on_lines(&mut lines(), private_key);
    }
    // An assignment to a secret name is on a line that holds one.
    on_lines(
        &mut lines_holding(text, &candidates.secret_names).into_iter(),
        assignment,
    );
    // A private key's span runs to the end of its `-----END …-----` line
    // (or of the text); a header without a key's worth of body after it is
    // a constant in code that parses keys, not a key.
    found.retain_mut(|finding| {
        if finding.rule != PRIVATE_KEY {
            return true;
        }
        let start = finding.span.start;
        let rest = &text[start..];
        let body_start = rest.find('\n').map_or(rest.len(), |n| n + 1);
        let end = rest.find("-----END ").and_then(|end| {
            let label = end + "-----END ".len();
            rest[label..]
                .find("-----")
                .map(|close| (end, label + close + 5))
        });
        let body_end = end.map_or(rest.len(), |(end, _)| end);
        let body = rest.get(body_start..body_end).unwrap_or("");
        finding.span.end = start + end.map_or(rest.len(), |(_, close)| close);
        body.bytes().filter(|b| !b.is_ascii_whitespace()).count() >= MIN_KEY_BODY
    });
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

/// The lines of `text` that hold one of `offsets` (ascending), each once:
/// its number (from 1), where it starts, and its text without its line
/// break, as [`find_secrets`] reads lines.
fn lines_holding<'t>(text: &'t str, offsets: &[usize]) -> Vec<(usize, usize, &'t str)> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    // Line breaks are counted once, from the last line found on.
    let (mut number, mut counted) = (1, 0);
    let mut past = 0;
    for &offset in offsets {
        if offset < past {
            continue;
        }
        let start = memchr::memrchr(b'\n', &bytes[..offset]).map_or(0, |at| at + 1);
        number += memchr::memchr_iter(b'\n', &bytes[counted..start]).count();
        counted = start;
        past = memchr::memchr(b'\n', &bytes[offset..]).map_or(bytes.len(), |at| offset + at + 1);
        // Both ends follow a line feed or are the text's ends: boundaries.
        lines.push((
            number,
            start,
            text[start..past].trim_end_matches(['\n', '\r']),
        ));
    }
    lines
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
/// `production.env`, `env.production`, direnv's `.envrc`), not a template
/// of one (`.env.example`, `.sample`, `.template`, `.dist`): the one rule
/// of [`find_secrets`] that depends on the path, not on the text alone.
pub fn is_env_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let stages = [
        "production",
        "prod",
        "staging",
        "stage",
        "development",
        "dev",
        "local",
        "test",
    ];
    let env = name == ".env"
        || name == ".envrc"
        || name.starts_with(".env.")
        || name.ends_with(".env")
        || name
            .strip_prefix("env.")
            .is_some_and(|stage| stages.contains(&stage));
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

/// The rule name of private keys.
const PRIVATE_KEY: &str = "a private key";
/// The fewest characters (white space aside) between a private key's
/// header and its end that make a key.
const MIN_KEY_BODY: usize = 64;

/// A PEM private key header (`-----BEGIN RSA PRIVATE KEY-----`,
/// `-----BEGIN OPENSSH PRIVATE KEY-----`, …), from its start.
fn private_key(line: &str) -> Option<Match> {
    let start = line.find("-----BEGIN ")?;
    let rest = &line[start + "-----BEGIN ".len()..];
    let label = &rest[..rest.find("-----")?];
    label
        .contains("PRIVATE KEY")
        .then_some((PRIVATE_KEY, start..line.len()))
}

/// The matches, with their lines, of the rules of [`RULES`] that `wanted`
/// marks (their keywords occur in `text`).
fn formats(text: &str, wanted: &[bool]) -> Vec<Finding> {
    let compiled = &*rules::COMPILED;
    let mut findings = Vec::new();
    for (index, rule) in RULES.iter().enumerate().filter(|(i, _)| wanted[*i]) {
        for captures in compiled.regex(index).captures_iter(text) {
            let Some(secret) = captures.name("s").or_else(|| captures.get(0)) else {
                continue;
            };
            let value = secret.as_str();
            let whole = captures.get(0).map_or("", |m| m.as_str());
            if is_documentation_example(value)
                || rule.validate.is_some_and(|valid| !valid(value, whole))
            {
                continue;
            }
            findings.push(Finding {
                rule: rule.description,
                line: text[..secret.start()].matches('\n').count() + 1,
                span: secret.range(),
            });
        }
    }
    findings
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
    let quote = after.chars().next().filter(|c| matches!(c, '"' | '\''));
    let value_start = line.len() - after.trim_start_matches(['"', '\'']).len();
    if let Some(quote) = quote
        && ["password", "passwd", "pwd"]
            .iter()
            .any(|word| ends_with(word))
    {
        return password(&line[value_start..], quote)
            .map(|len| ("a password", value_start..value_start + len));
    }
    let quoted = quote.is_some();
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
    let hex = value.bytes().all(|b| b.is_ascii_hexdigit());
    // A value of letters only is a name (`ExclusiveStartBackupArn`).
    let random = if hex {
        value.len() >= MIN_HEX_LEN && entropy(&value) >= MIN_HEX_ENTROPY_BITS
    } else {
        value.len() >= MIN_SECRET_LEN
            && entropy(&value) >= MIN_ENTROPY_BITS
            && !value.bytes().all(|b| b.is_ascii_alphabetic())
    };
    ((quoted || whole_line) && !dotted_path && !is_documentation_example(&value) && random)
        .then_some((
            "a high-entropy value assigned to a secret name",
            value_start..value_start + value.len(),
        ))
}

/// The length of a quoted password literal starting at `value` (up to its
/// closing `quote`), when it is one: at least [`MIN_PASSWORD_LEN`]
/// characters with one that is not a letter (a word such as `Incorrect` is a
/// message), not a placeholder, a reference (`$DB_PASS`, `{password}`,
/// `%s`) or a sentence (`Enter your password:`).
fn password(value: &str, quote: char) -> Option<usize> {
    let len = value.find(quote)?;
    let literal = &value[..len];
    let lower = literal.to_ascii_lowercase();
    let placeholder = literal.starts_with(['$', '{', '<', '%', '*', '['])
        || literal.contains("{{")
        || [
            "password", "changeme", "example", "secret", "xxxxxxxx", "redacted",
        ]
        .iter()
        .any(|word| lower.contains(word));
    let sentence = literal.ends_with([':', '?', '.', '!'])
        || literal.split_whitespace().count() >= 3
            && literal.split_whitespace().all(|word| {
                word.chars()
                    .all(|c| c.is_alphabetic() || ",.:;'".contains(c))
            });
    let only_letters = literal.chars().all(char::is_alphabetic);
    (literal.chars().count() >= MIN_PASSWORD_LEN
        && !only_letters
        && !placeholder
        && !sentence
        && entropy(literal) >= 2.5)
        .then_some(len)
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
        let body = "MHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oA/1IhQ1X8P4oAoGCCqGSM49AwEHoUQDQgAE";
        assert_eq!(
            rule(&format!(
                "-----BEGIN EC PRIVATE KEY-----\n{body}\n-----END EC PRIVATE KEY-----\n"
            )),
            Some("a private key")
        );
        // A header alone is code that parses keys.
        assert_eq!(
            rule("_SK_START = b\"-----BEGIN OPENSSH PRIVATE KEY-----\""),
            None
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
        let body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW";
        let text = format!(
            "token = \"{key}\"\nx = 1\n-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----\nafter\n"
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

    /// An assignment to a secret name is found on any line, with its line
    /// number and span, wherever the name's line falls.
    #[test]
    fn assignments_are_found_on_their_lines() {
        let key = "zK9qW2xR7mT4vB8nL3pJ6hF1dS5gA0cE";
        let text = format!("a = 1\r\n\nCLIENT_SECRET = \"{key}\"\nx\napi_key: {key}\n");
        let found = find_secrets(&text, "");
        let lines: Vec<usize> = found.iter().map(|f| f.line).collect();
        assert_eq!(lines, [3, 5]);
        assert_eq!(&text[found[1].span.clone()], key);
    }

    proptest::proptest! {
        /// The lines holding some offsets are those of a plain split into
        /// lines that hold one, numbered alike.
        #[test]
        fn lines_holding_offsets_are_the_lines_split(
            text in "([a-z]{1,4}|\r|\n| ){0,40}",
            picks in proptest::collection::vec(proptest::num::usize::ANY, 0..6),
        ) {
            let mut offsets: Vec<usize> = picks
                .iter()
                .filter(|_| !text.is_empty())
                .map(|pick| pick % text.len())
                .collect();
            offsets.sort_unstable();
            let mut start = 0;
            let mut expected = Vec::new();
            for (index, line) in text.split_inclusive('\n').enumerate() {
                let end = start + line.len();
                if offsets.iter().any(|&offset| (start..end).contains(&offset)) {
                    expected.push((index + 1, start, line.trim_end_matches(['\n', '\r'])));
                }
                start = end;
            }
            proptest::prop_assert_eq!(lines_holding(&text, &offsets), expected);
        }
    }
}

#[cfg(test)]
mod examples;
