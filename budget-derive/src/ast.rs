//! The derive input as the code generator sees it: a container whose struct
//! (or each enum variant) is a [`Body`] of fields with roles, or a variant
//! that delegates to the type it wraps. Checks that span several attributes
//! (one `score` field, at least one `content` field, …) live here.

use budget_runtime::{ContentType, Tier, TierThresholds};
use quote::quote;
use syn::{DeriveInput, Generics, Ident, Member, Type};

use crate::attr::{ContainerAttrs, FieldAttrs, Level, Role};
use crate::ctxt::Ctxt;

/// The whole derive input.
pub(crate) struct Container<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a Generics,
    /// Path of the `budget` facade (`::budget` unless `crate = "…"`).
    pub(crate) krate: syn::Path,
    /// `None` when the input could not be understood (errors were reported).
    pub(crate) data: Option<Data<'a>>,
}

pub(crate) enum Data<'a> {
    Struct(Body<'a>),
    Enum(Vec<Variant<'a>>),
}

pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) shape: Shape<'a>,
}

pub(crate) enum Shape<'a> {
    /// A newtype variant without attributes: every accessor forwards to the
    /// wrapped value's `ContextItem` impl.
    Delegate(&'a Type),
    /// A variant with `#[context]` fields, read like a struct.
    Body(Body<'a>),
}

/// The fields of a struct or struct-like variant, with their roles.
pub(crate) struct Body<'a> {
    /// The kind label, when not the default `Message`.
    pub(crate) kind: Option<String>,
    /// What `content_type()` returns and `EstimationRatio::CONTENT_TYPE` is.
    pub(crate) content_type: ContentType,
    /// A fixed tier.
    pub(crate) tier: Option<Tier>,
    /// Thresholds for the tier from the score.
    pub(crate) thresholds: TierThresholds,
    /// Divisor that brings the score field into `0.0..=1.0` (`None`: 1).
    pub(crate) scale: Option<f64>,
    /// Fields with a role other than `skip`, in declaration order.
    pub(crate) fields: Vec<Field<'a>>,
}

pub(crate) struct Field<'a> {
    pub(crate) role: Role,
    pub(crate) member: Member,
    pub(crate) ty: &'a Type,
    /// Position in the struct or variant, used to name its binding.
    pub(crate) index: usize,
    /// For content fields: the content type it is estimated as.
    pub(crate) content_type: ContentType,
}

impl Body<'_> {
    /// The content fields, in declaration order.
    pub(crate) fn content(&self) -> impl Iterator<Item = &Field<'_>> {
        self.fields.iter().filter(|f| f.role == Role::Content)
    }

    /// The field with `role` (for every role but `content`, there is at most one).
    pub(crate) fn field(&self, role: Role) -> Option<&Field<'_>> {
        self.fields.iter().find(|f| f.role == role)
    }
}

impl<'a> Container<'a> {
    /// Reads and checks the input; every problem is reported to `cx`.
    pub(crate) fn from_ast(cx: &Ctxt, input: &'a DeriveInput) -> Self {
        let level = match input.data {
            syn::Data::Enum(_) => Level::Enum,
            _ => Level::Struct,
        };
        let attrs = ContainerAttrs::parse(cx, &input.attrs, level);
        let krate = attrs
            .krate
            .value()
            .cloned()
            .unwrap_or_else(|| syn::parse_quote!(::budget));
        let data = match &input.data {
            syn::Data::Struct(data) => {
                let missing_content = if matches!(data.fields, syn::Fields::Unnamed(_)) {
                    "`#[derive(ContextItem)]` needs a `#[context(content)]` field: the text that goes \
                     in front of the model; on a tuple struct, mark it like \
                     `struct Note(#[context(content)] String);`"
                        .to_owned()
                } else {
                    "`#[derive(ContextItem)]` needs a `#[context(content)]` field: the text that goes \
                     in front of the model"
                        .to_owned()
                };
                Body::from_fields(cx, attrs, &data.fields, &input.ident, &missing_content)
                    .map(Data::Struct)
            }
            syn::Data::Enum(data) => {
                if data.variants.is_empty() {
                    cx.error_spanned_by(
                        data.enum_token,
                        "`#[derive(ContextItem)]` needs at least one variant",
                    );
                    None
                } else {
                    let variants: Vec<Option<Variant<'a>>> = data
                        .variants
                        .iter()
                        .map(|v| Variant::from_ast(cx, v))
                        .collect();
                    variants
                        .into_iter()
                        .collect::<Option<Vec<_>>>()
                        .map(Data::Enum)
                }
            }
            syn::Data::Union(data) => {
                cx.error_spanned_by(
                    data.union_token,
                    "`#[derive(ContextItem)]` does not support unions; use a struct or an enum",
                );
                None
            }
        };
        Self {
            ident: &input.ident,
            generics: &input.generics,
            krate,
            data,
        }
    }
}

impl<'a> Variant<'a> {
    fn from_ast(cx: &Ctxt, variant: &'a syn::Variant) -> Option<Self> {
        let has_context =
            |attrs: &[syn::Attribute]| attrs.iter().any(|a| a.path().is_ident("context"));
        if let syn::Fields::Unnamed(fields) = &variant.fields
            && fields.unnamed.len() == 1
            && !has_context(&variant.attrs)
            && !has_context(&fields.unnamed[0].attrs)
        {
            return Some(Self {
                ident: &variant.ident,
                shape: Shape::Delegate(&fields.unnamed[0].ty),
            });
        }
        let attrs = ContainerAttrs::parse(cx, &variant.attrs, Level::Variant);
        let is_newtype = matches!(&variant.fields, syn::Fields::Unnamed(f) if f.unnamed.len() == 1);
        let missing_content = if is_newtype {
            format!(
                "variant `{}` has `#[context]` attributes, so it is read like a struct and needs a \
                 `#[context(content)]` field; remove its attributes to forward to the \
                 `ContextItem` impl of the type it wraps",
                variant.ident
            )
        } else {
            format!(
                "variant `{}` needs a `#[context(content)]` field, or must wrap a single type \
                 that implements `ContextItem`",
                variant.ident
            )
        };
        let body = Body::from_fields(cx, attrs, &variant.fields, &variant.ident, &missing_content)?;
        Some(Self {
            ident: &variant.ident,
            shape: Shape::Body(body),
        })
    }
}

impl<'a> Body<'a> {
    fn from_fields(
        cx: &Ctxt,
        attrs: ContainerAttrs,
        fields: &'a syn::Fields,
        owner: &Ident,
        missing_content: &str,
    ) -> Option<Self> {
        let default_type = attrs.content_type.value().copied().unwrap_or_default();
        let mut body_fields: Vec<Field<'a>> = Vec::new();
        // The name of each role's first field, for duplicate errors.
        let mut first_of_role: Vec<(Role, String)> = Vec::new();
        let mut scale = None;
        let errors_before = cx.error_count();

        for (index, field) in fields.iter().enumerate() {
            let field_attrs = FieldAttrs::parse(cx, &field.attrs);
            let member = field
                .ident
                .clone()
                .map_or_else(|| Member::Unnamed(syn::Index::from(index)), Member::Named);
            let role = field_attrs.role.value().copied();
            if let Some(key) = field_attrs.content_type.key()
                && role != Some(Role::Content)
            {
                cx.error_spanned_by(
                    key,
                    "`content_type` on a field describes its content: write \
                         `#[context(content, content_type = \"code\")]`",
                );
            }
            if let Some(key) = field_attrs.scale.key()
                && role != Some(Role::Score)
            {
                cx.error_spanned_by(
                    key,
                    "`scale` divides the score field: write `#[context(score, scale = 10)]`",
                );
            }
            let Some(role) = role.filter(|&r| r != Role::Skip) else {
                continue;
            };
            let name = match &member {
                Member::Named(ident) => format!("`{ident}`"),
                Member::Unnamed(index) => format!("field {}", index.index),
            };
            if role != Role::Content {
                if let Some((_, first)) = first_of_role.iter().find(|(r, _)| *r == role) {
                    let key = field_attrs
                        .role
                        .key()
                        .cloned()
                        .unwrap_or_else(|| quote!(#owner));
                    cx.error_spanned_by(
                        key,
                        format!(
                            "duplicate `{}` field: {first} already has `#[context({})]`",
                            role.key(),
                            role.key()
                        ),
                    );
                    continue;
                }
                first_of_role.push((role, name));
            }
            if role == Role::Score {
                scale = field_attrs.scale.value().copied();
            }
            body_fields.push(Field {
                role,
                member,
                ty: &field.ty,
                index,
                content_type: field_attrs
                    .content_type
                    .value()
                    .copied()
                    .unwrap_or(default_type),
            });
        }

        // A field whose attribute failed to parse may be the content field:
        // then "no content field" would only be a follow-on error.
        let field_errors = cx.error_count() > errors_before;
        if !body_fields.iter().any(|f| f.role == Role::Content)
            && !field_errors
            && !attrs.has_misplaced_field_key
        {
            cx.error_spanned_by(owner, missing_content);
        }
        let has_score = body_fields.iter().any(|f| f.role == Role::Score);
        if let Some(key) = attrs.tiers.key() {
            if attrs.tier.value().is_some() {
                cx.error_spanned_by(
                    key,
                    "`tier` fixes the tier, so `tiers` thresholds would never apply; remove one",
                );
            } else if !has_score && !field_errors {
                cx.error_spanned_by(
                    key,
                    "`tiers` assigns the tier from the score, but no field has `#[context(score)]`",
                );
            }
        }

        let content_type =
            attrs.content_type.value().copied().unwrap_or_else(|| {
                common_content_type(&body_fields).unwrap_or(ContentType::Markdown)
            });
        (cx.error_count() == errors_before).then(|| Self {
            kind: attrs.kind.value().cloned(),
            content_type,
            tier: attrs.tier.value().copied(),
            thresholds: attrs
                .tiers
                .value()
                .copied()
                .unwrap_or(Tier::DEFAULT_THRESHOLDS),
            scale,
            fields: body_fields,
        })
    }
}

/// The content type every content field shares, if they all agree.
fn common_content_type(fields: &[Field<'_>]) -> Option<ContentType> {
    let mut types = fields
        .iter()
        .filter(|f| f.role == Role::Content)
        .map(|f| f.content_type);
    let first = types.next()?;
    types.all(|t| t == first).then_some(first)
}
