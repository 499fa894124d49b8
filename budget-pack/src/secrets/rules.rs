//! Credential formats, after gitleaks' default rule set: each a fixed
//! prefix or context word (the keywords a fast search looks for first) and
//! the format's pattern, with the secret in the group named `s` when it is
//! not the whole match. Facts (prefixes, alphabets, lengths) come from the
//! providers' published formats as gitleaks records them; the patterns are
//! this project's own.

use std::sync::{LazyLock, OnceLock};

use aho_corasick::AhoCorasick;
use base64::Engine as _;
use regex::Regex;

use super::SECRET_NAMES;

/// One credential format.
pub struct Rule {
    /// gitleaks' rule id, or this project's where gitleaks has none.
    pub id: &'static str,
    /// What it finds, for messages: `a GitLab personal access token`.
    pub description: &'static str,
    /// Lower-case words one of which a text must hold for the rule to run.
    pub keywords: &'static [&'static str],
    /// The pattern.
    pub pattern: &'static str,
    /// A check the pattern cannot express, of the secret and the whole
    /// match; `None`: none.
    pub validate: Option<fn(&str, &str) -> bool>,
}

const fn rule(
    id: &'static str,
    description: &'static str,
    keywords: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule {
        id,
        description,
        keywords,
        pattern,
        validate: None,
    }
}

/// Every format, in the order findings are reported when two start at one
/// place (the longer wins anyway).
pub const RULES: &[Rule] = &[
    rule(
        "aws-access-token",
        "an AWS access key id",
        &["akia", "asia", "abia", "acca", "a3t"],
        r"(?-u:\b)(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}(?-u:\b)",
    ),
    rule(
        "github-pat",
        "a GitHub token",
        &["ghp_"],
        r"(?-u:\b)ghp_[0-9a-zA-Z]{36}(?-u:\b)",
    ),
    rule(
        "github-oauth",
        "a GitHub token",
        &["gho_"],
        r"(?-u:\b)gho_[0-9a-zA-Z]{36}(?-u:\b)",
    ),
    rule(
        "github-app-token",
        "a GitHub token",
        &["ghu_", "ghs_"],
        r"(?-u:\b)(?:ghu|ghs)_[0-9a-zA-Z]{36}(?-u:\b)",
    ),
    rule(
        "github-refresh-token",
        "a GitHub token",
        &["ghr_"],
        r"(?-u:\b)ghr_[0-9a-zA-Z]{36}(?-u:\b)",
    ),
    rule(
        "github-fine-grained-pat",
        "a GitHub fine-grained token",
        &["github_pat_"],
        r"(?-u:\b)github_pat_[0-9A-Za-z_]{82}(?-u:\b)",
    ),
    rule(
        "gitlab-pat",
        "a GitLab personal access token",
        &["glpat-"],
        r"(?-u:\b)glpat-[0-9A-Za-z_-]{20,}",
    ),
    rule(
        "gitlab-token",
        "a GitLab token",
        &[
            "glptt-",
            "gldt-",
            "glrt-",
            "gr1348941",
            "glcbt-",
            "glimt-",
            "glffct-",
            "glsoat-",
            "glagent-",
            "gloas-",
        ],
        r"(?-u:\b)(?:glptt-[0-9a-f]{40}|gldt-[0-9A-Za-z_-]{20}|glrt-[0-9A-Za-z_-]{20}|GR1348941[0-9A-Za-z_-]{20}|glcbt-[0-9a-zA-Z]{1,5}_[0-9A-Za-z_-]{20}|glimt-[0-9A-Za-z_-]{25}|glffct-[0-9A-Za-z_-]{20}|glsoat-[0-9A-Za-z_-]{20}|glagent-[0-9A-Za-z_-]{50}|gloas-[0-9A-Za-z_-]{64})",
    ),
    rule(
        "slack-token",
        "a Slack token",
        &["xox"],
        r"(?-u:\b)xox[abeoprs]-[0-9A-Za-z-]{10,250}",
    ),
    rule(
        "slack-app-token",
        "a Slack app token",
        &["xapp-"],
        r"(?i)(?-u:\b)xapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+(?-u:\b)",
    ),
    rule(
        "slack-webhook-url",
        "a Slack webhook URL",
        &["hooks.slack.com"],
        r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}",
    ),
    rule(
        "anthropic-api-key",
        "an Anthropic API key",
        &["sk-ant-"],
        r"(?-u:\b)sk-ant-(?:api03|admin01)-[0-9A-Za-z_-]{80,}",
    ),
    rule(
        "openai-api-key",
        "an OpenAI API key",
        &["sk-proj-", "sk-svcacct-", "sk-admin-"],
        r"(?-u:\b)sk-(?:proj|svcacct|admin)-[0-9A-Za-z_-]{40,}",
    ),
    rule(
        "openai-legacy-api-key",
        "an OpenAI API key",
        &["sk-"],
        r"(?-u:\b)sk-(?:[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48})(?-u:\b)",
    ),
    rule(
        "gcp-api-key",
        "a Google API key",
        &["aiza"],
        r"(?-u:\b)AIza[0-9A-Za-z_-]{35}(?-u:\b)",
    ),
    rule(
        "stripe-access-token",
        "a Stripe key",
        &[
            "sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_",
        ],
        r"(?-u:\b)(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}(?-u:\b)",
    ),
    rule(
        "huggingface-access-token",
        "a Hugging Face token",
        &["hf_"],
        r"(?-u:\b)hf_[a-zA-Z]{34}(?-u:\b)",
    ),
    rule(
        "huggingface-organization-api-token",
        "a Hugging Face organization token",
        &["api_org_"],
        r"(?-u:\b)api_org_[a-zA-Z]{34}(?-u:\b)",
    ),
    rule(
        "npm-access-token",
        "an npm token",
        &["npm_"],
        r"(?-u:\b)npm_[a-zA-Z0-9]{36}(?-u:\b)",
    ),
    rule(
        "pypi-upload-token",
        "a PyPI token",
        &["pypi-ageichlwas5vcmc"],
        r"pypi-AgEIcHlwaS5vcmc[0-9A-Za-z_-]{50,}",
    ),
    rule(
        "sendgrid-api-token",
        "a SendGrid key",
        &["sg."],
        r"(?-u:\b)SG\.[0-9A-Za-z_-]{22}\.[0-9A-Za-z_-]{43}(?-u:\b)",
    ),
    rule(
        "sendinblue-api-token",
        "a Brevo (Sendinblue) key",
        &["xkeysib-"],
        r"(?-u:\b)xkeysib-[a-f0-9]{64}-[a-zA-Z0-9]{16}(?-u:\b)",
    ),
    rule(
        "mailgun-private-api-token",
        "a Mailgun key",
        &["mailgun"],
        r"(?-u:\b)key-[a-f0-9]{32}(?-u:\b)",
    ),
    rule(
        "mailchimp-api-key",
        "a Mailchimp key",
        &["mailchimp"],
        r"(?-u:\b)[0-9a-f]{32}-us[0-9]{1,2}(?-u:\b)",
    ),
    rule(
        "twilio-api-key",
        "a Twilio key",
        &["sk"],
        r"(?-u:\b)SK[0-9a-fA-F]{32}(?-u:\b)",
    ),
    rule(
        "shopify-token",
        "a Shopify token",
        &["shpat_", "shpca_", "shppa_", "shpss_"],
        r"(?-u:\b)shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?-u:\b)",
    ),
    rule(
        "digitalocean-token",
        "a DigitalOcean token",
        &["dop_v1_", "doo_v1_", "dor_v1_"],
        r"(?-u:\b)do[opr]_v1_[a-f0-9]{64}(?-u:\b)",
    ),
    rule(
        "databricks-api-token",
        "a Databricks token",
        &["dapi"],
        r"(?-u:\b)dapi[a-f0-9]{32}(?:-[0-9])?(?-u:\b)",
    ),
    rule(
        "doppler-api-token",
        "a Doppler token",
        &["dp.pt."],
        r"(?-u:\b)dp\.pt\.[a-zA-Z0-9]{43}(?-u:\b)",
    ),
    rule(
        "dynatrace-api-token",
        "a Dynatrace token",
        &["dt0c01"],
        r"(?-u:\b)dt0c01\.[a-zA-Z0-9]{24}\.[a-zA-Z0-9]{64}(?-u:\b)",
    ),
    rule(
        "easypost-api-token",
        "an EasyPost key",
        &["ezak"],
        r"(?-u:\b)EZAK[a-zA-Z0-9]{54}(?-u:\b)",
    ),
    rule(
        "flutterwave-key",
        "a Flutterwave key",
        &["flwseck_test", "flwpubk_test"],
        r"(?-u:\b)FLW(?:PUB|SEC)K_TEST-[a-hA-H0-9]{32}-X(?-u:\b)",
    ),
    rule(
        "frameio-api-token",
        "a Frame.io token",
        &["fio-u-"],
        r"(?-u:\b)fio-u-[0-9A-Za-z_=-]{64}",
    ),
    rule(
        "grafana-cloud-api-token",
        "a Grafana Cloud token",
        &["glc_"],
        r"(?-u:\b)glc_[A-Za-z0-9+/]{32,400}={0,2}",
    ),
    rule(
        "grafana-service-account-token",
        "a Grafana service account token",
        &["glsa_"],
        r"(?-u:\b)glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}(?-u:\b)",
    ),
    rule(
        "vault-service-token",
        "a HashiCorp Vault token",
        &["hvs.", "hvb."],
        r"(?-u:\b)hv[sb]\.[0-9A-Za-z_-]{90,300}",
    ),
    rule(
        "hashicorp-tf-api-token",
        "a Terraform Cloud token",
        &["atlasv1"],
        r"(?-u:\b)[a-zA-Z0-9]{14}\.atlasv1\.[0-9A-Za-z_=-]{60,70}",
    ),
    rule(
        "heroku-api-key-v2",
        "a Heroku key",
        &["hrku-aa"],
        r"(?-u:\b)HRKU-AA[0-9A-Za-z_-]{58}(?-u:\b)",
    ),
    rule(
        "linear-api-key",
        "a Linear key",
        &["lin_api_"],
        r"(?-u:\b)lin_api_[a-zA-Z0-9]{40}(?-u:\b)",
    ),
    rule(
        "new-relic-key",
        "a New Relic key",
        &["nrak-", "nrjs-", "nrii-"],
        r"(?-u:\b)(?:NRAK-[a-zA-Z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[0-9A-Za-z_-]{32})(?-u:\b)",
    ),
    rule(
        "planetscale-token",
        "a PlanetScale token",
        &["pscale_"],
        r"(?-u:\b)pscale_(?:tkn|oauth|pw)_[0-9A-Za-z_=.-]{32,64}",
    ),
    rule(
        "postman-api-token",
        "a Postman key",
        &["pmak-"],
        r"(?-u:\b)PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}(?-u:\b)",
    ),
    rule(
        "prefect-api-token",
        "a Prefect key",
        &["pnu_"],
        r"(?-u:\b)pnu_[a-zA-Z0-9]{36}(?-u:\b)",
    ),
    rule(
        "pulumi-api-token",
        "a Pulumi token",
        &["pul-"],
        r"(?-u:\b)pul-[a-f0-9]{40}(?-u:\b)",
    ),
    rule(
        "readme-api-token",
        "a ReadMe key",
        &["rdme_"],
        r"(?-u:\b)rdme_[a-z0-9]{70}(?-u:\b)",
    ),
    rule(
        "rubygems-api-token",
        "a RubyGems key",
        &["rubygems_"],
        r"(?-u:\b)rubygems_[a-f0-9]{48}(?-u:\b)",
    ),
    rule(
        "scalingo-api-token",
        "a Scalingo token",
        &["tk-us-"],
        r"(?-u:\b)tk-us-[0-9A-Za-z_-]{48}(?-u:\b)",
    ),
    rule(
        "sentry-token",
        "a Sentry token",
        &["sntrys_", "sntryu_"],
        r"(?-u:\b)(?:sntrys_eyJ[a-zA-Z0-9=_+/]{100,}|sntryu_[a-f0-9]{64}(?-u:\b))",
    ),
    rule(
        "shippo-api-token",
        "a Shippo token",
        &["shippo_"],
        r"(?-u:\b)shippo_(?:live|test)_[a-fA-F0-9]{40}(?-u:\b)",
    ),
    rule(
        "telegram-bot-api-token",
        "a Telegram bot token",
        &["telegr"],
        r"(?-u:\b)[0-9]{5,16}:A[0-9A-Za-z_-]{34}(?-u:\b)",
    ),
    rule(
        "typeform-api-token",
        "a Typeform token",
        &["tfp_"],
        r"(?-u:\b)tfp_[0-9A-Za-z_.=-]{59}(?-u:\b)",
    ),
    rule(
        "age-secret-key",
        "an age secret key",
        &["age-secret-key-1"],
        r"(?-u:\b)AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}(?-u:\b)",
    ),
    rule(
        "1password-service-account-token",
        "a 1Password service account token",
        &["ops_"],
        r"(?-u:\b)ops_eyJ[a-zA-Z0-9+/]{250,}={0,3}",
    ),
    rule(
        "infracost-api-token",
        "an Infracost key",
        &["ico-"],
        r"(?-u:\b)ico-[a-zA-Z0-9]{32}(?-u:\b)",
    ),
    rule(
        "alibaba-access-key-id",
        "an Alibaba Cloud key id",
        &["ltai"],
        r"(?-u:\b)LTAI[a-zA-Z0-9]{20}(?-u:\b)",
    ),
    rule(
        "adobe-client-secret",
        "an Adobe client secret",
        &["p8e-"],
        r"(?-u:\b)p8e-[a-zA-Z0-9]{32}(?-u:\b)",
    ),
    rule(
        "clojars-api-token",
        "a Clojars token",
        &["clojars_"],
        r"(?-u:\b)CLOJARS_[a-z0-9]{60}(?-u:\b)",
    ),
    rule(
        "defined-networking-api-token",
        "a Defined Networking token",
        &["dnkey-"],
        r"(?-u:\b)dnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}(?-u:\b)",
    ),
    rule(
        "duffel-api-token",
        "a Duffel token",
        &["duffel_"],
        r"(?-u:\b)duffel_(?:test|live)_[0-9A-Za-z_=-]{43}",
    ),
    rule(
        "square-access-token",
        "a Square token",
        &["sq0atp-", "sq0csp-"],
        r"(?-u:\b)(?:sq0atp-[0-9A-Za-z_-]{22}|sq0csp-[0-9A-Za-z_-]{43})",
    ),
    rule(
        "azure-ad-client-secret",
        "an Azure AD client secret",
        &["q~"],
        r"(?:^|[\s'\x22=:])(?P<s>[a-zA-Z0-9_~.]{3}[0-9]Q~[a-zA-Z0-9_~.-]{31,34})(?:$|[\s'\x22,;])",
    ),
    rule(
        "jwt",
        "a JSON Web Token",
        &["eyj"],
        r"(?-u:\b)ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/_-]{17,}\.[a-zA-Z0-9/_-]{10,}={0,2}",
    ),
    rule(
        "putty-private-key",
        "a PuTTY private key",
        &["putty-user-key-file-"],
        r"(?s)PuTTY-User-Key-File-[0-9]+:.*?Private-MAC:[ \t]*[0-9a-fA-F]+",
    ),
    Rule {
        id: "base64-private-key",
        description: "a private key (base64 PEM)",
        keywords: &["ls0tls1crudjti"],
        pattern: r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2}",
        validate: Some(is_base64_private_key),
    },
    Rule {
        id: "url-credentials",
        description: "a password in a URL",
        keywords: &["://"],
        pattern: r"(?-u:\b)[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:@/'\x22<>,]{1,64}:(?P<s>[^\s:@/'\x22<>,]{3,128})@[^\s/'\x22<>]+",
        validate: Some(is_real_password),
    },
    Rule {
        id: "authorization-bearer",
        description: "a bearer token",
        keywords: &["bearer"],
        pattern: r"(?i)(?-u:\b)authorization\x22?\s*[:=]\s*\x22?bearer\s+(?P<s>[0-9A-Za-z_.~+/-]{20,}=*)",
        validate: Some(looks_random),
    },
];

/// A base64 PEM block whose first line is a private key's header.
fn is_base64_private_key(value: &str, _whole: &str) -> bool {
    let prefix = &value[..value.len().min(64) / 4 * 4];
    base64::engine::general_purpose::STANDARD
        .decode(prefix)
        .ok()
        .is_some_and(|bytes| String::from_utf8_lossy(&bytes).contains("PRIVATE KEY"))
}

/// A URL's password that is not a placeholder (`password`, `$PASSWORD`,
/// `${DB_PASS}`, `<pass>`, `***`, `%s`) in a URL whose host is not one of
/// the names reserved for documentation (`example.com`, RFC 2606).
fn is_real_password(value: &str, whole: &str) -> bool {
    let host = whole.rsplit('@').next().unwrap_or("").to_ascii_lowercase();
    if host.starts_with("example.") || host.contains(".example.") {
        return false;
    }
    const PLACEHOLDERS: &[&str] = &[
        "password",
        "passwd",
        "pass",
        "pwd",
        "secret",
        "changeme",
        "xxx",
        "***",
        "user",
        "token",
        "redacted",
        "[redacted]",
        "example",
        "username",
        "foo",
        "bar",
        "baz",
    ];
    let lower = value.to_ascii_lowercase();
    !(value.starts_with(['$', '{', '<', '%', '[', '*'])
        || PLACEHOLDERS.contains(&lower.as_str())
        || lower.chars().all(|c| c == 'x' || c == '*'))
}

/// Values with at least 3 bits of entropy per character.
fn looks_random(value: &str, _whole: &str) -> bool {
    super::entropy(value) >= 3.0
}

/// The rules compiled once, and the keyword search that picks which run.
pub struct Compiled {
    /// By rule: its pattern, compiled the first time a text holds one of
    /// its keywords (a tree needs few of them, and compiling them all
    /// would cost every run more than most scans).
    regexes: Vec<OnceLock<Regex>>,
    keywords: AhoCorasick,
    /// The rule of each keyword, in the order of `keywords`' patterns;
    /// `None` for a secret name ([`SECRET_NAMES`]).
    keyword_rule: Vec<Option<usize>>,
}

/// What one pass over a text found: which rules may match, and where a
/// secret name occurs (in any case).
pub struct Candidates {
    pub rules: Vec<bool>,
    /// The byte offsets where secret names start, ascending.
    pub secret_names: Vec<usize>,
}

impl Compiled {
    /// The regular expression of rule `rule` (an index into [`RULES`]).
    pub fn regex(&self, rule: usize) -> &Regex {
        self.regexes[rule].get_or_init(|| {
            let rule = &RULES[rule];
            Regex::new(rule.pattern).unwrap_or_else(|e| panic!("rule {}: {e}", rule.id))
        })
    }

    /// One pass of the keyword search over `text`.
    pub fn candidates(&self, text: &str) -> Candidates {
        let mut candidates = Candidates {
            rules: vec![false; RULES.len()],
            secret_names: Vec::new(),
        };
        for found in self.keywords.find_overlapping_iter(text) {
            match self.keyword_rule[found.pattern().as_usize()] {
                Some(rule) => candidates.rules[rule] = true,
                None => candidates.secret_names.push(found.start()),
            }
        }
        // Overlapping matches come by where they end.
        candidates.secret_names.sort_unstable();
        candidates
    }
}

/// [`RULES`], compiled.
pub static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    let regexes = RULES.iter().map(|_| OnceLock::new()).collect();
    let mut words = Vec::new();
    let mut keyword_rule = Vec::new();
    for (index, rule) in RULES.iter().enumerate() {
        for keyword in rule.keywords {
            words.push(*keyword);
            keyword_rule.push(Some(index));
        }
    }
    for name in SECRET_NAMES {
        words.push(name);
        keyword_rule.push(None);
    }
    // A DFA: the search runs over every file, and overlapping matches (a
    // keyword inside another) must all be seen.
    let keywords = AhoCorasick::builder()
        .kind(Some(aho_corasick::AhoCorasickKind::DFA))
        .ascii_case_insensitive(true)
        .build(&words)
        .unwrap_or_else(|e| panic!("secret keywords: {e}"));
    Compiled {
        regexes,
        keywords,
        keyword_rule,
    }
});
