//! Parsing of `#[context(...)]` attributes: every key, its value, and the
//! checks that need nothing but the attribute itself. Errors go to the
//! [`Ctxt`] and parsing carries on, so all bad keys are reported at once.
//!
//! Grammar (container = struct, enum variant with fields, or enum):
//!
//! ```text
//! container: kind = "Label" | content_type = "code|prose|yaml|markdown"
//!          | tier = "raw|skeleton|linked|summary" | tiers(raw = 0.7, linked = 0.4)
//!          | estimator = "ratios|calibrated" | estimator = path::TO_VALUE
//!          | crate = "path"
//! field:     content [, content_type = "…"] | tokens | score [, scale = 10]
//!          | pinned | timestamp | priority | tags | hint | metadata
//!          | link | description | skeleton | group | skip
//! ```

use budget_rules::{ContentType, ContextKind, Tier, TierThresholds};
use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Lit, LitStr, UnOp};

use crate::ctxt::Ctxt;
use crate::suggest::{closest, one_of};

/// The attribute name this derive reads.
const ATTRIBUTE: &str = "context";

/// Keys accepted on a struct or an enum variant.
const CONTAINER_KEYS: &[&str] = &[
    "kind",
    "content_type",
    "tier",
    "tiers",
    "estimator",
    "crate",
];
/// Keys accepted on a field.
const FIELD_KEYS: &[&str] = &[
    "content",
    "content_type",
    "tokens",
    "score",
    "scale",
    "pinned",
    "timestamp",
    "priority",
    "tags",
    "hint",
    "metadata",
    "link",
    "description",
    "skeleton",
    "group",
    "skip",
];
const TIERS_KEYS: &[&str] = &["raw", "linked"];
const TIER_NAMES: &[&str] = &["raw", "skeleton", "linked", "summary"];
/// The estimators `estimator = "…"` names.
const ESTIMATOR_NAMES: &[&str] = &["ratios", "calibrated"];

/// A key's value and the tokens of the key, for pointing at it later.
pub(crate) struct Setting<T> {
    name: &'static str,
    entry: Option<(TokenStream, T)>,
}

impl<T> Setting<T> {
    const fn new(name: &'static str) -> Self {
        Self { name, entry: None }
    }

    /// Stores the value, or reports a duplicate at `key`.
    fn set(&mut self, cx: &Ctxt, key: &syn::Path, value: T) {
        if self.entry.is_some() {
            cx.error_spanned_by(key, format!("duplicate `{}` attribute", self.name));
        } else {
            self.entry = Some((key.to_token_stream(), value));
        }
    }

    pub(crate) fn value(&self) -> Option<&T> {
        self.entry.as_ref().map(|(_, value)| value)
    }

    /// The tokens of the key, when it was given.
    pub(crate) fn key(&self) -> Option<&TokenStream> {
        self.entry.as_ref().map(|(key, _)| key)
    }
}

/// Where container keys are written; decides which keys are allowed.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Level {
    Struct,
    Enum,
    Variant,
}

/// The container attributes of a struct, an enum or an enum variant.
pub(crate) struct ContainerAttrs {
    /// The kind label (validated).
    pub(crate) kind: Setting<String>,
    pub(crate) content_type: Setting<ContentType>,
    pub(crate) tier: Setting<Tier>,
    pub(crate) tiers: Setting<TierThresholds>,
    pub(crate) estimator: Setting<EstimatorChoice>,
    pub(crate) krate: Setting<syn::Path>,
    /// A field key (like `content`) was written here: a "no content field"
    /// error would only repeat that mistake.
    pub(crate) has_misplaced_field_key: bool,
}

/// The estimator of a body's `tokens()` when it has no exact count.
pub(crate) enum EstimatorChoice {
    /// `"ratios"`: the token-budget rules' fixed ratios (`RatioEstimator`).
    /// Without `estimator`, `DefaultCounter`.
    Ratios,
    /// `"calibrated"`: `CalibratedEstimator::new(Encoding::O200kBase)`.
    Calibrated,
    /// A path to a value whose type implements `Estimator`: a unit struct,
    /// a `const` or a `static`.
    Value(syn::Path),
}

impl ContainerAttrs {
    /// Reads every `#[context(...)]` in `attrs`.
    pub(crate) fn parse(cx: &Ctxt, attrs: &[Attribute], level: Level) -> Self {
        let mut parsed = Self {
            kind: Setting::new("kind"),
            content_type: Setting::new("content_type"),
            tier: Setting::new("tier"),
            tiers: Setting::new("tiers"),
            estimator: Setting::new("estimator"),
            krate: Setting::new("crate"),
            has_misplaced_field_key: false,
        };
        for attr in attrs.iter().filter(|a| a.path().is_ident(ATTRIBUTE)) {
            if let Err(error) = attr.parse_nested_meta(|meta| parsed.parse_key(cx, &meta, level)) {
                cx.syn_error(error);
            }
        }
        parsed
    }

    fn parse_key(&mut self, cx: &Ctxt, meta: &ParseNestedMeta, level: Level) -> syn::Result<()> {
        let key = key_name(meta);
        if level == Level::Enum && key != "crate" && CONTAINER_KEYS.contains(&key.as_str()) {
            cx.error_spanned_by(
                &meta.path,
                format!(
                    "`{key}` on an enum: put it on each variant that has `#[context]` fields \
                     (a newtype variant takes it from the type it wraps)"
                ),
            );
            return skip_value(meta);
        }
        match key.as_str() {
            "kind" => {
                if let Some(label) = string_value(cx, meta, "kind = \"ToolOutput\"")?
                    && let Some(kind) = validate_kind(cx, &label)
                {
                    self.kind.set(cx, &meta.path, kind);
                }
            }
            "content_type" => {
                if let Some(content_type) = content_type_value(cx, meta)? {
                    self.content_type.set(cx, &meta.path, content_type);
                }
            }
            "tier" => {
                if let Some(lit) = string_value(cx, meta, "tier = \"raw\"")?
                    && let Some(tier) = parse_tier(cx, &lit)
                {
                    self.tier.set(cx, &meta.path, tier);
                }
            }
            "tiers" => {
                if let Some(thresholds) = parse_tiers(cx, meta)? {
                    self.tiers.set(cx, &meta.path, thresholds);
                }
            }
            "estimator" => {
                if let Some(estimator) = estimator_value(cx, meta)? {
                    self.estimator.set(cx, &meta.path, estimator);
                }
            }
            "crate" if level == Level::Variant => {
                cx.error_spanned_by(
                    &meta.path,
                    "`crate` applies to the whole enum: put `#[context(crate = \"...\")]` on the enum",
                );
                return skip_value(meta);
            }
            "crate" => {
                if let Some(lit) = string_value(cx, meta, "crate = \"my_budget\"")? {
                    match lit.parse::<syn::Path>() {
                        Ok(path) => self.krate.set(cx, &meta.path, path),
                        Err(_) => cx.error_spanned_by(
                            &lit,
                            format!("`crate` must name a path, like `crate = \"my_budget\"`; found {:?}", lit.value()),
                        ),
                    }
                }
            }
            _ => {
                self.has_misplaced_field_key |= FIELD_KEYS.contains(&key.as_str());
                unknown_key(cx, meta, &key, CONTAINER_KEYS, FIELD_KEYS, "field");
                return skip_value(meta);
            }
        }
        Ok(())
    }
}

/// What a field is to the generated impl. A field has at most one role.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Role {
    Content,
    Tokens,
    Score,
    Pinned,
    Timestamp,
    Priority,
    Tags,
    Hint,
    Metadata,
    Link,
    Description,
    Skeleton,
    Group,
    Skip,
}

impl Role {
    pub(crate) const ALL: [Self; 14] = [
        Self::Content,
        Self::Tokens,
        Self::Score,
        Self::Pinned,
        Self::Timestamp,
        Self::Priority,
        Self::Tags,
        Self::Hint,
        Self::Metadata,
        Self::Link,
        Self::Description,
        Self::Skeleton,
        Self::Group,
        Self::Skip,
    ];

    /// The attribute key of the role.
    pub(crate) const fn key(self) -> &'static str {
        match self {
            Self::Content => "content",
            Self::Tokens => "tokens",
            Self::Score => "score",
            Self::Pinned => "pinned",
            Self::Timestamp => "timestamp",
            Self::Priority => "priority",
            Self::Tags => "tags",
            Self::Hint => "hint",
            Self::Metadata => "metadata",
            Self::Link => "link",
            Self::Description => "description",
            Self::Skeleton => "skeleton",
            Self::Group => "group",
            Self::Skip => "skip",
        }
    }

    fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|role| role.key() == key)
    }
}

/// The attributes of one field.
pub(crate) struct FieldAttrs {
    pub(crate) role: Setting<Role>,
    pub(crate) content_type: Setting<ContentType>,
    pub(crate) scale: Setting<f64>,
}

impl FieldAttrs {
    /// Reads every `#[context(...)]` in `attrs`.
    pub(crate) fn parse(cx: &Ctxt, attrs: &[Attribute]) -> Self {
        let mut parsed = Self {
            role: Setting::new("role"),
            content_type: Setting::new("content_type"),
            scale: Setting::new("scale"),
        };
        for attr in attrs.iter().filter(|a| a.path().is_ident(ATTRIBUTE)) {
            if let Err(error) = attr.parse_nested_meta(|meta| parsed.parse_key(cx, &meta)) {
                cx.syn_error(error);
            }
        }
        parsed
    }

    fn parse_key(&mut self, cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<()> {
        let key = key_name(meta);
        if let Some(role) = Role::from_key(&key) {
            if !meta.input.is_empty() && !meta.input.peek(syn::Token![,]) {
                cx.error_spanned_by(
                    &meta.path,
                    format!("`{key}` takes no value: write `#[context({key})]`"),
                );
                return skip_value(meta);
            }
            match self.role.value() {
                Some(&existing) if existing == role => {
                    cx.error_spanned_by(&meta.path, format!("duplicate `{key}` attribute"));
                }
                Some(existing) => cx.error_spanned_by(
                    &meta.path,
                    format!(
                        "`{key}` conflicts with `{}`: a field has one role",
                        existing.key()
                    ),
                ),
                None => self.role.set(cx, &meta.path, role),
            }
            return Ok(());
        }
        match key.as_str() {
            "content_type" => {
                if let Some(content_type) = content_type_value(cx, meta)? {
                    self.content_type.set(cx, &meta.path, content_type);
                }
            }
            "scale" => {
                let expr: Expr = meta.value()?.parse()?;
                if let Some(scale) = number_value(cx, &expr, "scale = 10") {
                    if scale.is_finite() && scale > 0.0 {
                        self.scale.set(cx, &meta.path, scale);
                    } else {
                        cx.error_spanned_by(
                            &expr,
                            format!("`scale` must be a number greater than 0, found {scale:?}"),
                        );
                    }
                }
            }
            _ => {
                unknown_key(cx, meta, &key, FIELD_KEYS, CONTAINER_KEYS, "container");
                return skip_value(meta);
            }
        }
        Ok(())
    }
}

/// The key as written; `crate` is a keyword, so it is not an identifier path.
fn key_name(meta: &ParseNestedMeta) -> String {
    meta.path.get_ident().map_or_else(
        || meta.path.to_token_stream().to_string(),
        ToString::to_string,
    )
}

/// Reports an unknown key: one valid at the other level, a likely typo, or
/// something else.
fn unknown_key(
    cx: &Ctxt,
    meta: &ParseNestedMeta,
    key: &str,
    valid: &[&str],
    other_level: &[&str],
    other_level_name: &str,
) {
    let message = if other_level.contains(&key) {
        if other_level_name == "field" {
            format!(
                "`{key}` is a field attribute: put `#[context({key})]` on the field it describes"
            )
        } else {
            format!(
                "`{key}` is a container attribute: put `#[context({key} = ...)]` on the struct or enum variant"
            )
        }
    } else if let Some(suggestion) = closest(key, valid) {
        format!("unknown `context` attribute `{key}`; did you mean `{suggestion}`?")
    } else {
        format!(
            "unknown `context` attribute `{key}`; expected {}",
            one_of(valid)
        )
    };
    cx.error_spanned_by(&meta.path, message);
}

/// Consumes whatever value follows a key (`= expr` or `(...)`), so parsing
/// can continue with the next key.
fn skip_value(meta: &ParseNestedMeta) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::Group>()?;
    }
    Ok(())
}

/// The string literal after `key =`; reports `expected a string literal` with
/// an example otherwise.
fn string_value(cx: &Ctxt, meta: &ParseNestedMeta, example: &str) -> syn::Result<Option<LitStr>> {
    let expr: Expr = meta.value()?.parse()?;
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        }) => Ok(Some(lit)),
        other => {
            cx.error_spanned_by(
                &other,
                format!("expected a string literal, as in `{example}`"),
            );
            Ok(None)
        }
    }
}

/// The number literal in `expr` (integer or float, optionally negated).
fn number_value(cx: &Ctxt, expr: &Expr, example: &str) -> Option<f64> {
    let (lit, sign) = match expr {
        Expr::Lit(ExprLit { lit, .. }) => (Some(lit), 1.0),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(ExprLit { lit, .. }) => (Some(lit), -1.0),
            _ => (None, 1.0),
        },
        _ => (None, 1.0),
    };
    let value = match lit {
        Some(Lit::Float(f)) => f.base10_parse::<f64>().ok(),
        Some(Lit::Int(i)) => i.base10_parse::<f64>().ok(),
        _ => None,
    };
    if value.is_none() {
        cx.error_spanned_by(expr, format!("expected a number, as in `{example}`"));
    }
    value.map(|v| sign * v)
}

fn content_type_value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<ContentType>> {
    let Some(lit) = string_value(cx, meta, "content_type = \"code\"")? else {
        return Ok(None);
    };
    let name = lit.value();
    match name.parse::<ContentType>() {
        Ok(content_type) => Ok(Some(content_type)),
        Err(error) => {
            // The error names the closest content type itself.
            cx.error_spanned_by(&lit, error.to_string());
            Ok(None)
        }
    }
}

/// `"ratios"`, `"calibrated"` or a path to an `Estimator` value.
fn estimator_value(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<EstimatorChoice>> {
    const EXPECTED: &str = "expected \"ratios\", \"calibrated\" or a path to a value whose type \
                            implements `Estimator` (a unit struct, a `const` or a `static`)";
    let expr: Expr = meta.value()?.parse()?;
    match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        }) => {
            let name = lit.value();
            match name.as_str() {
                "ratios" => Ok(Some(EstimatorChoice::Ratios)),
                "calibrated" => Ok(Some(EstimatorChoice::Calibrated)),
                _ => {
                    let hint = closest(&name, ESTIMATOR_NAMES)
                        .map(|s| format!("did you mean \"{s}\"?"))
                        .unwrap_or_else(|| EXPECTED.to_owned());
                    cx.error_spanned_by(&lit, format!("unknown estimator {name:?}; {hint}"));
                    Ok(None)
                }
            }
        }
        Expr::Path(path) if path.qself.is_none() && path.attrs.is_empty() => {
            if let Some(name) = path
                .path
                .get_ident()
                .map(ToString::to_string)
                .filter(|name| ESTIMATOR_NAMES.contains(&name.as_str()))
            {
                cx.error_spanned_by(
                    &path,
                    format!(
                        "the built-in estimators are named by a string: write \
                         `estimator = \"{name}\"`"
                    ),
                );
                return Ok(None);
            }
            Ok(Some(EstimatorChoice::Value(path.path)))
        }
        other => {
            cx.error_spanned_by(
                &other,
                format!("{EXPECTED}, as in `estimator = \"calibrated\"`"),
            );
            Ok(None)
        }
    }
}

fn parse_tier(cx: &Ctxt, lit: &LitStr) -> Option<Tier> {
    let name = lit.value();
    let tier = match name.as_str() {
        "raw" => Some(Tier::Raw),
        "skeleton" => Some(Tier::Skeleton),
        "linked" => Some(Tier::Linked),
        "summary" => Some(Tier::Summary),
        _ => None,
    };
    if tier.is_none() {
        let hint = closest(&name, TIER_NAMES)
            .map(|s| format!("; did you mean \"{s}\"?"))
            .unwrap_or_default();
        cx.error_spanned_by(
            lit,
            format!("unknown tier {name:?}: expected \"raw\", \"skeleton\", \"linked\" or \"summary\"{hint}"),
        );
    }
    tier
}

/// `tiers(raw = 0.7, linked = 0.4)`: either key may be left at its default;
/// both must be within `0.0..=1.0` and `raw >= linked`.
fn parse_tiers(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<TierThresholds>> {
    if !meta.input.peek(syn::token::Paren) {
        cx.error_spanned_by(
            &meta.path,
            "expected a list of thresholds: `tiers(raw = 0.7, linked = 0.4)`",
        );
        skip_value(meta)?;
        return Ok(None);
    }
    let mut raw: Option<(Expr, f64)> = None;
    let mut linked: Option<(Expr, f64)> = None;
    let mut valid = true;
    meta.parse_nested_meta(|inner| {
        let key = key_name(&inner);
        let slot = match key.as_str() {
            "raw" => &mut raw,
            "linked" => &mut linked,
            "scale" => {
                cx.error_spanned_by(
                    &inner.path,
                    "`scale` belongs on the score field: `#[context(score, scale = 10)]`",
                );
                valid = false;
                return skip_value(&inner);
            }
            _ => {
                let hint = closest(&key, TIERS_KEYS)
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_else(|| format!("; expected {}", one_of(TIERS_KEYS)));
                cx.error_spanned_by(&inner.path, format!("unknown `tiers` key `{key}`{hint}"));
                valid = false;
                return skip_value(&inner);
            }
        };
        let expr: Expr = inner.value()?.parse()?;
        if slot.is_some() {
            cx.error_spanned_by(&inner.path, format!("duplicate `{key}` threshold"));
            valid = false;
            return Ok(());
        }
        match number_value(cx, &expr, &format!("{key} = 0.5")) {
            Some(value) if (0.0..=1.0).contains(&value) => *slot = Some((expr, value)),
            Some(value) => {
                cx.error_spanned_by(
                    &expr,
                    format!(
                        "`tiers` threshold `{key} = {value:?}` is outside 0.0..=1.0; \
                         for a score on another scale write `#[context(score, scale = 10)]`"
                    ),
                );
                valid = false;
            }
            None => valid = false,
        }
        Ok(())
    })?;
    let defaults = Tier::DEFAULT_THRESHOLDS;
    let raw_value = raw.as_ref().map_or(defaults.raw, |(_, v)| *v);
    let linked_value = linked.as_ref().map_or(defaults.linked, |(_, v)| *v);
    if valid && raw_value < linked_value {
        let at = raw
            .as_ref()
            .map(|(e, _)| e.to_token_stream())
            .or_else(|| linked.as_ref().map(|(e, _)| e.to_token_stream()))
            .unwrap_or_else(|| meta.path.to_token_stream());
        cx.error_spanned_by(
            at,
            format!(
                "`tiers` threshold `raw = {raw_value:?}` is below `linked = {linked_value:?}`: \
                 a RAW score must be at least the LINKED one"
            ),
        );
        valid = false;
    }
    Ok(valid.then_some(TierThresholds {
        raw: raw_value,
        linked: linked_value,
    }))
}

/// Checks a kind label: the runtime's rule (not blank), one word, and not a
/// misspelling of a well-known kind that would silently differ from it.
fn validate_kind(cx: &Ctxt, lit: &LitStr) -> Option<String> {
    let label = lit.value();
    if let Err(error) = ContextKind::new(label.clone()) {
        cx.error_spanned_by(lit, format!("invalid `kind`: {error}"));
        return None;
    }
    let folded: String = label
        .chars()
        .filter(|c| !matches!(c, '_' | '-') && !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    let well_known = ContextKind::WELL_KNOWN
        .into_iter()
        .find(|kind| kind.as_str().eq_ignore_ascii_case(&folded));
    if label.chars().any(|c| c.is_whitespace() || c.is_control()) {
        let advice = match &well_known {
            Some(kind) => format!("did you mean \"{}\"?", kind.as_str()),
            None => "write it like \"ToolOutput\"".to_owned(),
        };
        cx.error_spanned_by(
            lit,
            format!("invalid `kind` {label:?}: a kind label is one word without spaces; {advice}"),
        );
        return None;
    }
    if let Some(kind) = well_known
        && !kind.as_str().eq_ignore_ascii_case(&label)
    {
        cx.error_spanned_by(
            lit,
            format!(
                "`kind = {label:?}` would be a custom kind, not the well-known \"{0}\": kinds \
                     compare ignoring ASCII case but not `_` or `-`; write `kind = \"{0}\"`",
                kind.as_str()
            ),
        );
        return None;
    }
    Some(label)
}
