//! Credential formats, after gitleaks' default rule set: each a fixed
//! prefix or context word (the keywords a fast search looks for first) and
//! the format's pattern, with the secret in the group named `s` when it is
//! not the whole match. Facts (prefixes, alphabets, lengths) come from the
//! providers' published formats as gitleaks records them; the patterns are
//! this project's own.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use base64::Engine as _;
use regex::Regex;

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
    /// A check of the secret the pattern cannot express; `None`: none.
    pub validate: Option<fn(&str) -> bool>,
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
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b",
    ),
    rule(
        "github-pat",
        "a GitHub token",
        &["ghp_"],
        r"\bghp_[0-9a-zA-Z]{36}\b",
    ),
    rule(
        "github-oauth",
        "a GitHub token",
        &["gho_"],
        r"\bgho_[0-9a-zA-Z]{36}\b",
    ),
    rule(
        "github-app-token",
        "a GitHub token",
        &["ghu_", "ghs_"],
        r"\b(?:ghu|ghs)_[0-9a-zA-Z]{36}\b",
    ),
    rule(
        "github-refresh-token",
        "a GitHub token",
        &["ghr_"],
        r"\bghr_[0-9a-zA-Z]{36}\b",
    ),
    rule(
        "github-fine-grained-pat",
        "a GitHub fine-grained token",
        &["github_pat_"],
        r"\bgithub_pat_[0-9A-Za-z_]{82}\b",
    ),
    rule(
        "gitlab-pat",
        "a GitLab personal access token",
        &["glpat-"],
        r"\bglpat-[0-9A-Za-z_-]{20,}",
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
        r"\b(?:glptt-[0-9a-f]{40}|gldt-[0-9A-Za-z_-]{20}|glrt-[0-9A-Za-z_-]{20}|GR1348941[0-9A-Za-z_-]{20}|glcbt-[0-9a-zA-Z]{1,5}_[0-9A-Za-z_-]{20}|glimt-[0-9A-Za-z_-]{25}|glffct-[0-9A-Za-z_-]{20}|glsoat-[0-9A-Za-z_-]{20}|glagent-[0-9A-Za-z_-]{50}|gloas-[0-9A-Za-z_-]{64})",
    ),
    rule(
        "slack-token",
        "a Slack token",
        &["xox"],
        r"\bxox[abeoprs]-[0-9A-Za-z-]{10,250}",
    ),
    rule(
        "slack-app-token",
        "a Slack app token",
        &["xapp-"],
        r"(?i)\bxapp-[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+\b",
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
        r"\bsk-ant-(?:api03|admin01)-[0-9A-Za-z_-]{80,}",
    ),
    rule(
        "openai-api-key",
        "an OpenAI API key",
        &["sk-proj-", "sk-svcacct-", "sk-admin-"],
        r"\bsk-(?:proj|svcacct|admin)-[0-9A-Za-z_-]{40,}",
    ),
    rule(
        "openai-legacy-api-key",
        "an OpenAI API key",
        &["sk-"],
        r"\bsk-(?:[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{48})\b",
    ),
    rule(
        "gcp-api-key",
        "a Google API key",
        &["aiza"],
        r"\bAIza[0-9A-Za-z_-]{35}\b",
    ),
    rule(
        "stripe-access-token",
        "a Stripe key",
        &[
            "sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_",
        ],
        r"\b(?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99}\b",
    ),
    rule(
        "huggingface-access-token",
        "a Hugging Face token",
        &["hf_"],
        r"\bhf_[a-zA-Z]{34}\b",
    ),
    rule(
        "huggingface-organization-api-token",
        "a Hugging Face organization token",
        &["api_org_"],
        r"\bapi_org_[a-zA-Z]{34}\b",
    ),
    rule(
        "npm-access-token",
        "an npm token",
        &["npm_"],
        r"\bnpm_[a-zA-Z0-9]{36}\b",
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
        r"\bSG\.[0-9A-Za-z_-]{22}\.[0-9A-Za-z_-]{43}\b",
    ),
    rule(
        "sendinblue-api-token",
        "a Brevo (Sendinblue) key",
        &["xkeysib-"],
        r"\bxkeysib-[a-f0-9]{64}-[a-zA-Z0-9]{16}\b",
    ),
    rule(
        "mailgun-private-api-token",
        "a Mailgun key",
        &["mailgun"],
        r"\bkey-[a-f0-9]{32}\b",
    ),
    rule(
        "mailchimp-api-key",
        "a Mailchimp key",
        &["mailchimp"],
        r"\b[0-9a-f]{32}-us[0-9]{1,2}\b",
    ),
    rule(
        "twilio-api-key",
        "a Twilio key",
        &["sk"],
        r"\bSK[0-9a-fA-F]{32}\b",
    ),
    rule(
        "shopify-token",
        "a Shopify token",
        &["shpat_", "shpca_", "shppa_", "shpss_"],
        r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b",
    ),
    rule(
        "digitalocean-token",
        "a DigitalOcean token",
        &["dop_v1_", "doo_v1_", "dor_v1_"],
        r"\bdo[opr]_v1_[a-f0-9]{64}\b",
    ),
    rule(
        "databricks-api-token",
        "a Databricks token",
        &["dapi"],
        r"\bdapi[a-f0-9]{32}(?:-[0-9])?\b",
    ),
    rule(
        "doppler-api-token",
        "a Doppler token",
        &["dp.pt."],
        r"\bdp\.pt\.[a-zA-Z0-9]{43}\b",
    ),
    rule(
        "dynatrace-api-token",
        "a Dynatrace token",
        &["dt0c01"],
        r"\bdt0c01\.[a-zA-Z0-9]{24}\.[a-zA-Z0-9]{64}\b",
    ),
    rule(
        "easypost-api-token",
        "an EasyPost key",
        &["ezak"],
        r"\bEZAK[a-zA-Z0-9]{54}\b",
    ),
    rule(
        "flutterwave-key",
        "a Flutterwave key",
        &["flwseck_test", "flwpubk_test"],
        r"\bFLW(?:PUB|SEC)K_TEST-[a-hA-H0-9]{32}-X\b",
    ),
    rule(
        "frameio-api-token",
        "a Frame.io token",
        &["fio-u-"],
        r"\bfio-u-[0-9A-Za-z_=-]{64}",
    ),
    rule(
        "grafana-cloud-api-token",
        "a Grafana Cloud token",
        &["glc_"],
        r"\bglc_[A-Za-z0-9+/]{32,400}={0,2}",
    ),
    rule(
        "grafana-service-account-token",
        "a Grafana service account token",
        &["glsa_"],
        r"\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b",
    ),
    rule(
        "vault-service-token",
        "a HashiCorp Vault token",
        &["hvs.", "hvb."],
        r"\bhv[sb]\.[0-9A-Za-z_-]{90,300}",
    ),
    rule(
        "hashicorp-tf-api-token",
        "a Terraform Cloud token",
        &["atlasv1"],
        r"\b[a-zA-Z0-9]{14}\.atlasv1\.[0-9A-Za-z_=-]{60,70}",
    ),
    rule(
        "heroku-api-key-v2",
        "a Heroku key",
        &["hrku-aa"],
        r"\bHRKU-AA[0-9A-Za-z_-]{58}\b",
    ),
    rule(
        "linear-api-key",
        "a Linear key",
        &["lin_api_"],
        r"\blin_api_[a-zA-Z0-9]{40}\b",
    ),
    rule(
        "new-relic-key",
        "a New Relic key",
        &["nrak-", "nrjs-", "nrii-"],
        r"\b(?:NRAK-[a-zA-Z0-9]{27}|NRJS-[a-f0-9]{19}|NRII-[0-9A-Za-z_-]{32})\b",
    ),
    rule(
        "planetscale-token",
        "a PlanetScale token",
        &["pscale_"],
        r"\bpscale_(?:tkn|oauth|pw)_[0-9A-Za-z_=.-]{32,64}",
    ),
    rule(
        "postman-api-token",
        "a Postman key",
        &["pmak-"],
        r"\bPMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}\b",
    ),
    rule(
        "prefect-api-token",
        "a Prefect key",
        &["pnu_"],
        r"\bpnu_[a-zA-Z0-9]{36}\b",
    ),
    rule(
        "pulumi-api-token",
        "a Pulumi token",
        &["pul-"],
        r"\bpul-[a-f0-9]{40}\b",
    ),
    rule(
        "readme-api-token",
        "a ReadMe key",
        &["rdme_"],
        r"\brdme_[a-z0-9]{70}\b",
    ),
    rule(
        "rubygems-api-token",
        "a RubyGems key",
        &["rubygems_"],
        r"\brubygems_[a-f0-9]{48}\b",
    ),
    rule(
        "scalingo-api-token",
        "a Scalingo token",
        &["tk-us-"],
        r"\btk-us-[0-9A-Za-z_-]{48}\b",
    ),
    rule(
        "sentry-token",
        "a Sentry token",
        &["sntrys_", "sntryu_"],
        r"\b(?:sntrys_eyJ[a-zA-Z0-9=_+/]{100,}|sntryu_[a-f0-9]{64}\b)",
    ),
    rule(
        "shippo-api-token",
        "a Shippo token",
        &["shippo_"],
        r"\bshippo_(?:live|test)_[a-fA-F0-9]{40}\b",
    ),
    rule(
        "telegram-bot-api-token",
        "a Telegram bot token",
        &["telegr"],
        r"\b[0-9]{5,16}:A[0-9A-Za-z_-]{34}\b",
    ),
    rule(
        "typeform-api-token",
        "a Typeform token",
        &["tfp_"],
        r"\btfp_[0-9A-Za-z_.=-]{59}\b",
    ),
    rule(
        "age-secret-key",
        "an age secret key",
        &["age-secret-key-1"],
        r"\bAGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}\b",
    ),
    rule(
        "1password-service-account-token",
        "a 1Password service account token",
        &["ops_"],
        r"\bops_eyJ[a-zA-Z0-9+/]{250,}={0,3}",
    ),
    rule(
        "infracost-api-token",
        "an Infracost key",
        &["ico-"],
        r"\bico-[a-zA-Z0-9]{32}\b",
    ),
    rule(
        "alibaba-access-key-id",
        "an Alibaba Cloud key id",
        &["ltai"],
        r"\bLTAI[a-zA-Z0-9]{20}\b",
    ),
    rule(
        "adobe-client-secret",
        "an Adobe client secret",
        &["p8e-"],
        r"\bp8e-[a-zA-Z0-9]{32}\b",
    ),
    rule(
        "clojars-api-token",
        "a Clojars token",
        &["clojars_"],
        r"\bCLOJARS_[a-z0-9]{60}\b",
    ),
    rule(
        "defined-networking-api-token",
        "a Defined Networking token",
        &["dnkey-"],
        r"\bdnkey-[a-z0-9=_-]{26}-[a-z0-9=_-]{52}\b",
    ),
    rule(
        "duffel-api-token",
        "a Duffel token",
        &["duffel_"],
        r"\bduffel_(?:test|live)_[0-9A-Za-z_=-]{43}",
    ),
    rule(
        "square-access-token",
        "a Square token",
        &["sq0atp-", "sq0csp-"],
        r"\b(?:sq0atp-[0-9A-Za-z_-]{22}|sq0csp-[0-9A-Za-z_-]{43})",
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
        r"\bey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/_-]{17,}\.[a-zA-Z0-9/_-]{10,}={0,2}",
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
        pattern: r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:@/'\x22<>,]{1,64}:(?P<s>[^\s:@/'\x22<>,]{3,128})@[^\s/'\x22<>]+",
        validate: Some(is_real_password),
    },
    Rule {
        id: "authorization-bearer",
        description: "a bearer token",
        keywords: &["bearer"],
        pattern: r"(?i)\bauthorization\x22?\s*[:=]\s*\x22?bearer\s+(?P<s>[0-9A-Za-z_.~+/-]{20,}=*)",
        validate: Some(looks_random),
    },
];

/// A base64 PEM block whose first line is a private key's header.
fn is_base64_private_key(value: &str) -> bool {
    let prefix = &value[..value.len().min(64) / 4 * 4];
    base64::engine::general_purpose::STANDARD
        .decode(prefix)
        .ok()
        .is_some_and(|bytes| String::from_utf8_lossy(&bytes).contains("PRIVATE KEY"))
}

/// A URL's password that is not a placeholder (`password`, `$PASSWORD`,
/// `${DB_PASS}`, `<pass>`, `***`, `%s`).
fn is_real_password(value: &str) -> bool {
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
fn looks_random(value: &str) -> bool {
    super::entropy(value) >= 3.0
}

/// The rules compiled once, and the keyword search that picks which run.
pub struct Compiled {
    pub regexes: Vec<Regex>,
    pub keywords: AhoCorasick,
    /// The rule of each keyword, in the order of `keywords`' patterns.
    pub keyword_rule: Vec<usize>,
}

/// [`RULES`], compiled.
pub static COMPILED: LazyLock<Compiled> = LazyLock::new(|| {
    let regexes = RULES
        .iter()
        .map(|r| Regex::new(r.pattern).unwrap_or_else(|e| panic!("rule {}: {e}", r.id)))
        .collect();
    let mut words = Vec::new();
    let mut keyword_rule = Vec::new();
    for (index, rule) in RULES.iter().enumerate() {
        for keyword in rule.keywords {
            words.push(*keyword);
            keyword_rule.push(index);
        }
    }
    let keywords = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&words)
        .unwrap_or_else(|e| panic!("secret keywords: {e}"));
    Compiled {
        regexes,
        keywords,
        keyword_rule,
    }
});
