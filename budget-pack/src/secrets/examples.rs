//! One example in each rule's published shape (made up, assembled at run
//! time), the kinds the README names, and near misses that must pass: the
//! table `docs/secrets.md` lists.

use super::{RULES, find_secret, find_secrets, redact};

fn x(unit: &str, times: usize) -> String {
    unit.repeat(times)
}

/// `(expected description, text)`: each must be found.
fn positives() -> Vec<(&'static str, String)> {
    let hex32 = x("a3f9", 8);
    vec![
        (
            "an AWS access key id",
            format!("key = AKIA{}", x("Z2QX", 4)),
        ),
        ("a GitHub token", format!("ghp_{}", x("a1B2", 9))),
        ("a GitHub token", format!("gho_{}", x("a1B2", 9))),
        ("a GitHub token", format!("ghs_{}", x("a1B2", 9))),
        ("a GitHub token", format!("ghr_{}", x("a1B2", 9))),
        (
            "a GitHub fine-grained token",
            format!("github_pat_{}", x("a1B_", 20) + "xy"),
        ),
        (
            "a GitLab personal access token",
            format!("GITLAB_TOKEN=glpat-{}", x("Ab3_", 5)),
        ),
        ("a GitLab token", format!("glptt-{}", x("0a1b", 10))),
        ("a Slack token", "xoxb-2048-4096-abcdefABCDEF".to_owned()),
        (
            "a Slack app token",
            format!("xapp-1-A0123456789-1234567890-{}", x("a1b2", 16)),
        ),
        (
            "a Slack webhook URL",
            format!(
                "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/{}",
                x("aB3d", 6)
            ),
        ),
        (
            "an Anthropic API key",
            format!("sk-ant-api03-{}", x("Ab3_", 24)),
        ),
        ("an OpenAI API key", format!("sk-proj-{}", x("x9Y", 20))),
        (
            "an OpenAI API key",
            format!("OPENAI_KEY=sk-{}T3BlbkFJ{}", x("aB3d", 5), x("Zy9x", 5)),
        ),
        ("an OpenAI API key", format!("sk-{}", x("aB3dZy9x", 6))),
        (
            "a Google API key",
            format!("AIza{}", x("Sy_9", 9).get(..35).unwrap_or_default()),
        ),
        ("a Stripe key", format!("sk_live_{}", x("4eC39Hq", 4))),
        (
            "a Hugging Face token",
            format!("HF_TOKEN=hf_{}", x("aBcDeFgHiJkLmNoPq", 2)),
        ),
        (
            "a Hugging Face organization token",
            format!("api_org_{}", x("aBcDeFgHiJkLmNoPq", 2)),
        ),
        (
            "an npm token",
            format!("//registry.npmjs.org/:_authToken=npm_{}", x("a1B2", 9)),
        ),
        (
            "a PyPI token",
            format!("pypi-AgEIcHlwaS5vcmc{}", x("Ab3_", 15)),
        ),
        (
            "a SendGrid key",
            format!("SG.{}.{}", x("aB3d_", 4) + "xy", x("Zy9x-", 8) + "abc"),
        ),
        (
            "a Brevo (Sendinblue) key",
            format!("xkeysib-{}{}-{}", hex32, hex32, x("aB3d", 4)),
        ),
        ("a Mailgun key", format!("mailgun_api_key: key-{hex32}")),
        ("a Mailchimp key", format!("mailchimp = '{hex32}-us12'")),
        ("a Twilio key", format!("twilio sid SK{hex32}")),
        ("a Shopify token", format!("shpat_{hex32}")),
        ("a DigitalOcean token", format!("dop_v1_{hex32}{hex32}")),
        ("a Databricks token", format!("dapi{hex32}")),
        (
            "a Doppler token",
            format!("dp.pt.{}", x("aB3d", 11).get(..43).unwrap_or_default()),
        ),
        (
            "a Dynatrace token",
            format!("dt0c01.{}.{}", x("AB12", 6), x("cd34", 16)),
        ),
        ("an EasyPost key", format!("EZAK{}", x("aB3d45", 9))),
        ("a Flutterwave key", format!("FLWSECK_TEST-{hex32}-X")),
        ("a Frame.io token", format!("fio-u-{}", x("aB3d", 16))),
        ("a Grafana Cloud token", format!("glc_{}", x("aB3d", 10))),
        (
            "a Grafana service account token",
            format!("glsa_{}_{}", x("aB3d", 8), "0a1b2c3d"),
        ),
        ("a HashiCorp Vault token", format!("hvs.{}", x("aB3d_", 20))),
        (
            "a Terraform Cloud token",
            format!("abcdEFGH123456.atlasv1.{}", x("aB3d", 16)),
        ),
        (
            "a Heroku key",
            format!("HRKU-AA{}", x("aB3d_-", 10).get(..58).unwrap_or_default()),
        ),
        ("a Linear key", format!("lin_api_{}", x("aB3d", 10))),
        (
            "a New Relic key",
            format!("NRAK-{}", x("AB3D", 7).get(..27).unwrap_or_default()),
        ),
        (
            "a PlanetScale token",
            format!("pscale_tkn_{}", x("aB3d", 10)),
        ),
        (
            "a Postman key",
            format!(
                "PMAK-{}-{}",
                x("0a1b", 6),
                x("2c3d", 9).get(..34).unwrap_or_default()
            ),
        ),
        ("a Prefect key", format!("pnu_{}", x("aB3d", 9))),
        ("a Pulumi token", format!("pul-{}", x("0a1b", 10))),
        ("a ReadMe key", format!("rdme_{}", x("ab3d7", 14))),
        ("a RubyGems key", format!("rubygems_{}", x("0a1b", 12))),
        ("a Scalingo token", format!("tk-us-{}", x("aB3d", 12))),
        ("a Sentry token", format!("sntryu_{hex32}{hex32}")),
        ("a Shippo token", format!("shippo_live_{}", x("0a1b", 10))),
        (
            "a Telegram bot token",
            format!(
                "telegram_bot = 123456789:A{}",
                x("aB3d_", 7).get(..34).unwrap_or_default()
            ),
        ),
        (
            "a Typeform token",
            format!("tfp_{}", x("aB3d", 15).get(..59).unwrap_or_default()),
        ),
        (
            "an age secret key",
            format!(
                "AGE-SECRET-KEY-1{}",
                x("QPZRY9X8GF2T", 5).get(..58).unwrap_or_default()
            ),
        ),
        (
            "a 1Password service account token",
            format!("ops_eyJ{}", x("aB3d", 64)),
        ),
        ("an Infracost key", format!("ico-{}", x("aB3d", 8))),
        ("an Alibaba Cloud key id", format!("LTAI{}", x("aB3d", 5))),
        ("an Adobe client secret", format!("p8e-{}", x("aB3d", 8))),
        ("a Clojars token", format!("CLOJARS_{}", x("ab3d", 15))),
        (
            "a Defined Networking token",
            format!(
                "dnkey-{}-{}",
                x("ab3d", 7).get(..26).unwrap_or_default(),
                x("cd5e", 13)
            ),
        ),
        (
            "a Duffel token",
            format!(
                "duffel_test_{}",
                x("aB3d", 11).get(..43).unwrap_or_default()
            ),
        ),
        (
            "a Square token",
            format!("sq0atp-{}", x("aB3d", 6).get(..22).unwrap_or_default()),
        ),
        (
            "an Azure AD client secret",
            format!("secret: abc8Q~{}", x("aB3d", 8)),
        ),
        (
            "a JSON Web Token",
            format!(
                "token = \"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{}\"",
                x("dBjf", 8)
            ),
        ),
        (
            "a JSON Web Token",
            format!(
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{}",
                x("dBjf", 8)
            ),
        ),
        (
            "a bearer token",
            "curl -H \"Authorization: Bearer Zx81kQ7pLm2vR4tY9bN3cW6h\"".to_owned(),
        ),
        (
            "a PuTTY private key",
            format!(
                "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nPrivate-Lines: 1\n{}\nPrivate-MAC: {hex32}\n",
                x("AAAA", 16)
            ),
        ),
        (
            "a private key (base64 PEM)",
            "tls.key: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVB".to_owned(),
        ),
        (
            "a private key",
            format!(
                "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{}\n-----END PGP PRIVATE KEY BLOCK-----\n",
                x("lQOYBF", 12)
            ),
        ),
        (
            "a password in a URL",
            "DATABASE_URL=postgres://app:S3cr3t-p4ss@db.internal:5432/app".to_owned(),
        ),
        ("a password", "db_password = \"p@ss w#rd$42\"".to_owned()),
        (
            "a high-entropy value assigned to a secret name",
            "api_key = \"9f86d081884c7d659a2feaa0c55ad015\"".to_owned(),
        ),
        (
            "a high-entropy value assigned to a secret name",
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ4pLmN8".to_owned(),
        ),
    ]
}

/// Texts near a rule that must not be found.
const NEGATIVES: &[&str] = &[
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_short",
    "sk-ant-api03-tooshort",
    "the task- list",
    "see https://hooks.slack.com/services/ for webhooks",
    "postgres://user:password@localhost/db",
    "postgres://app:${DB_PASSWORD}@db/app",
    "http://example.com:8080/path",
    "E.g.: https://user:12345@example.com => https://user@example.com",
    "INCORRECT_PASSWD = \"Incorrect\"",
    "password = \"Enter your password:\"",
    "password = \"{password}\"",
    "input_token = \"ExclusiveStartBackupArn\"",
    "_SK_START = b\"-----BEGIN OPENSSH PRIVATE KEY-----\"",
    "tls.crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=",
    "Authorization: Bearer {token}",
    "AGE-SECRET-KEY-1 is the prefix of age keys",
    "dapi is Databricks' prefix",
];

#[test]
fn every_rule_finds_its_example() {
    for (expected, text) in positives() {
        let found = find_secret(&text, "config.txt");
        assert_eq!(found.map(|f| f.rule), Some(expected), "{text}");
        let (redacted, findings) = redact(&text, "config.txt");
        assert!(
            !findings.is_empty() && redacted.contains("[REDACTED]"),
            "{text}"
        );
    }
    // Every rule of the table has an example.
    let described: Vec<&str> = positives().iter().map(|(d, _)| *d).collect();
    for rule in RULES {
        assert!(
            described.contains(&rule.description),
            "no example for {}",
            rule.id
        );
    }
}

#[test]
fn near_misses_are_not_secrets() {
    for text in NEGATIVES {
        assert_eq!(find_secrets(text, "config.txt"), [], "{text}");
    }
}

#[test]
fn dotenv_names_of_every_kind_are_dotenv_files() {
    for name in [".envrc", "env.production", "app/.env.local", "prod.env"] {
        assert_eq!(
            find_secret("export TOKEN=abc\n", name).map(|f| f.rule),
            Some("a .env value"),
            "{name}"
        );
    }
    for name in ["env.js", ".env.example", "environment.py"] {
        assert_eq!(find_secret("TOKEN=abc\n", name), None, "{name}");
    }
}

#[test]
fn the_documented_table_lists_every_rule() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/security.md"))
        .expect("docs/security.md");
    for rule in RULES {
        assert!(
            doc.contains(&format!("| `{}` |", rule.id)),
            "docs/security.md lacks {}",
            rule.id
        );
    }
}
