//! The checks that span several attributes: a modifier needs its role, one
//! field per role, a `content` field, `tiers` with a `score` field and
//! without `tier`, an `estimator` that can apply. Each reads the parsed
//! [`Container`] and reports to the [`Ctxt`]; single attributes were already
//! checked while they were parsed (`attr`).

use quote::quote;

use crate::ast::{Body, Container, Data, Shape};
use crate::attr::Role;
use crate::ctxt::Ctxt;

/// Checks every body of the container.
pub(crate) fn check(cx: &Ctxt, container: &Container<'_>) {
    match &container.data {
        Some(Data::Struct(body)) => check_body(cx, body),
        Some(Data::Enum(variants)) => {
            for variant in variants {
                if let Shape::Body(body) = &variant.shape {
                    check_body(cx, body);
                }
            }
        }
        None => {}
    }
}

fn check_body(cx: &Ctxt, body: &Body<'_>) {
    let errors_before = cx.error_count();
    modifiers_have_their_role(cx, body);
    one_field_per_role(cx, body);
    // A field whose attributes are wrong may be the one with the missing
    // role: then "no such field" would only be a follow-on error.
    let field_errors = body.field_attr_errors || cx.error_count() > errors_before;
    has_content(cx, body, field_errors);
    tiers_apply(cx, body, field_errors);
    estimator_applies(cx, body);
}

/// `content_type` on a field needs `content`; `scale` needs `score`.
fn modifiers_have_their_role(cx: &Ctxt, body: &Body<'_>) {
    for field in &body.fields {
        let role = field.attrs.role.value().copied();
        if let Some(key) = field.attrs.content_type.key()
            && role != Some(Role::Content)
        {
            cx.error_spanned_by(
                key,
                "`content_type` on a field describes its content: write \
                 `#[context(content, content_type = \"code\")]`",
            );
        }
        if let Some(key) = field.attrs.scale.key()
            && role != Some(Role::Score)
        {
            cx.error_spanned_by(
                key,
                "`scale` divides the score field: write `#[context(score, scale = 10)]`",
            );
        }
    }
}

/// Every role but `content` is on at most one field.
fn one_field_per_role(cx: &Ctxt, body: &Body<'_>) {
    for (i, field) in body.fields.iter().enumerate() {
        let Some(role) = field.role().filter(|&r| r != Role::Content) else {
            continue;
        };
        if let Some(first) = body.fields[..i].iter().find(|f| f.role() == Some(role)) {
            let owner = body.owner;
            let key = field
                .attrs
                .role
                .key()
                .cloned()
                .unwrap_or_else(|| quote!(#owner));
            cx.error_spanned_by(
                key,
                format!(
                    "duplicate `{0}` field: {1} already has `#[context({0})]`",
                    role.key(),
                    first.name(),
                ),
            );
        }
    }
}

/// At least one field is `content`.
fn has_content(cx: &Ctxt, body: &Body<'_>, field_errors: bool) {
    if body.content().next().is_none() && !field_errors && !body.attrs.has_misplaced_field_key {
        cx.error_spanned_by(body.owner, &body.missing_content);
    }
}

/// `tiers` thresholds need a score to apply to, and no fixed `tier`.
fn tiers_apply(cx: &Ctxt, body: &Body<'_>, field_errors: bool) {
    let Some(key) = body.attrs.tiers.key() else {
        return;
    };
    if body.attrs.tier.value().is_some() {
        cx.error_spanned_by(
            key,
            "`tier` fixes the tier, so `tiers` thresholds would never apply; remove one",
        );
    } else if body.field(Role::Score).is_none() && !field_errors {
        cx.error_spanned_by(
            key,
            "`tiers` assigns the tier from the score, but no field has `#[context(score)]`",
        );
    }
}

/// The integer types a `tokens` field can have without an `Option`: with
/// one of them the count is always present and no estimate is ever made.
const INTEGER_TYPES: &[&str] = &[
    "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
];

/// An `estimator` is used only when there is no exact count: not with a
/// `tokens` field of a plain integer type. (Other types, such as aliases,
/// cannot be seen through here and are accepted.)
fn estimator_applies(cx: &Ctxt, body: &Body<'_>) {
    let (Some(key), Some(tokens)) = (body.attrs.estimator.key(), body.field(Role::Tokens)) else {
        return;
    };
    let syn::Type::Path(path) = tokens.ty else {
        return;
    };
    let Some(ident) = path.path.get_ident().filter(|_| path.qself.is_none()) else {
        return;
    };
    let ty = ident.to_string();
    if INTEGER_TYPES.contains(&ty.as_str()) {
        cx.error_spanned_by(
            key,
            format!(
                "`estimator` would never be used: the count in {} (`{ty}`) is always present; \
                 make it `Option<{ty}>` to estimate when it is `None`, or remove `estimator`",
                tokens.name()
            ),
        );
    }
}
