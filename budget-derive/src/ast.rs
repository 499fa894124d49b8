//! The derive input as the code generator sees it: a container whose struct
//! (or each enum variant) is a [`Body`] of fields with roles, or a variant
//! that delegates to the type it wraps.
//!
//! Reading the input reports only what is wrong with the shape of the item
//! (a union, an enum without variants) and, through `attr`, with single
//! attributes. The checks that span several attributes (one field per role,
//! a `content` field, `tiers` with a `score` field, …) are in `check`.

use budget_rules::{ContentType, Tier, TierThresholds};
use syn::{DeriveInput, Generics, Ident, Member, Type};

use crate::attr::{ContainerAttrs, EstimatorChoice, FieldAttrs, Level, Role};
use crate::ctxt::Ctxt;

/// The whole derive input.
pub(crate) struct Container<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a Generics,
    /// Path of the `budget` facade (`::budget` unless `crate = "…"`).
    pub(crate) krate: syn::Path,
    /// `None` when the item has no usable shape (errors were reported).
    pub(crate) data: Option<Data<'a>>,
}

pub(crate) enum Data<'a> {
    Struct(Box<Body<'a>>),
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
    Body(Box<Body<'a>>),
}

/// The fields of a struct or struct-like variant, with their attributes.
pub(crate) struct Body<'a> {
    /// The struct or variant: errors about the body as a whole go here.
    pub(crate) owner: &'a Ident,
    /// What to tell the user when no field has `#[context(content)]`.
    pub(crate) missing_content: String,
    /// The container attributes, as written.
    pub(crate) attrs: ContainerAttrs,
    /// Every field, in declaration order.
    pub(crate) fields: Vec<Field<'a>>,
    /// Reading a field's attributes reported an error: a field may then
    /// lack the role it was meant to have, so checks about missing roles
    /// would only add follow-on errors.
    pub(crate) field_attr_errors: bool,
}

pub(crate) struct Field<'a> {
    pub(crate) attrs: FieldAttrs,
    pub(crate) member: Member,
    pub(crate) ty: &'a Type,
    /// Position in the struct or variant, used to name its binding.
    pub(crate) index: usize,
}

impl Field<'_> {
    /// The field's role; `None` for an unannotated or skipped field.
    pub(crate) fn role(&self) -> Option<Role> {
        self.attrs
            .role
            .value()
            .copied()
            .filter(|&r| r != Role::Skip)
    }

    /// `` `name` `` or `field 0`, for messages.
    pub(crate) fn name(&self) -> String {
        match &self.member {
            Member::Named(ident) => format!("`{ident}`"),
            Member::Unnamed(index) => format!("field {}", index.index),
        }
    }
}

impl<'a> Body<'a> {
    /// The fields with a role, in declaration order.
    pub(crate) fn with_role(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields.iter().filter(|f| f.role().is_some())
    }

    /// The content fields, in declaration order.
    pub(crate) fn content(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields
            .iter()
            .filter(|f| f.role() == Some(Role::Content))
    }

    /// The first field with `role` (for every role but `content`, `check`
    /// allows at most one).
    pub(crate) fn field(&self, role: Role) -> Option<&Field<'a>> {
        self.fields.iter().find(|f| f.role() == Some(role))
    }

    /// The kind label, when not the default `Message`.
    pub(crate) fn kind(&self) -> Option<&str> {
        self.attrs.kind.value().map(String::as_str)
    }

    /// The content type `field` is estimated as: its own, else the
    /// container's, else Markdown.
    pub(crate) fn content_type_of(&self, field: &Field<'_>) -> ContentType {
        field
            .attrs
            .content_type
            .value()
            .or(self.attrs.content_type.value())
            .copied()
            .unwrap_or_default()
    }

    /// What `content_type()` returns
    /// is: the container's, else the one all content fields share, else
    /// Markdown (the mixed-content type).
    pub(crate) fn content_type(&self) -> ContentType {
        if let Some(&content_type) = self.attrs.content_type.value() {
            return content_type;
        }
        let mut types = self.content().map(|f| self.content_type_of(f));
        let first = types.next().unwrap_or_default();
        if types.all(|t| t == first) {
            first
        } else {
            ContentType::Markdown
        }
    }

    /// A fixed tier.
    pub(crate) fn tier(&self) -> Option<Tier> {
        self.attrs.tier.value().copied()
    }

    /// Thresholds for the tier from the score.
    pub(crate) fn thresholds(&self) -> TierThresholds {
        self.attrs
            .tiers
            .value()
            .copied()
            .unwrap_or(Tier::DEFAULT_THRESHOLDS)
    }

    /// Divisor that brings the score field into `0.0..=1.0` (`None`: 1).
    pub(crate) fn scale(&self) -> Option<f64> {
        self.field(Role::Score)
            .and_then(|f| f.attrs.scale.value().copied())
    }

    /// The estimator of `tokens()`; `None`: the fixed ratios.
    pub(crate) fn estimator(&self) -> Option<&EstimatorChoice> {
        self.attrs.estimator.value()
    }
}

impl<'a> Container<'a> {
    /// Reads the input; every problem found on the way is reported to `cx`.
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
                } else {
                    "`#[derive(ContextItem)]` needs a `#[context(content)]` field: the text that goes \
                     in front of the model"
                };
                let body = Body::from_fields(
                    cx,
                    attrs,
                    &data.fields,
                    &input.ident,
                    missing_content.to_owned(),
                );
                Some(Data::Struct(Box::new(body)))
            }
            syn::Data::Enum(data) if data.variants.is_empty() => {
                cx.error_spanned_by(
                    data.enum_token,
                    "`#[derive(ContextItem)]` needs at least one variant",
                );
                None
            }
            syn::Data::Enum(data) => Some(Data::Enum(
                data.variants
                    .iter()
                    .map(|v| Variant::from_ast(cx, v))
                    .collect(),
            )),
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
    fn from_ast(cx: &Ctxt, variant: &'a syn::Variant) -> Self {
        let has_context =
            |attrs: &[syn::Attribute]| attrs.iter().any(|a| a.path().is_ident("context"));
        if let syn::Fields::Unnamed(fields) = &variant.fields
            && fields.unnamed.len() == 1
            && !has_context(&variant.attrs)
            && !has_context(&fields.unnamed[0].attrs)
        {
            return Self {
                ident: &variant.ident,
                shape: Shape::Delegate(&fields.unnamed[0].ty),
            };
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
        let body = Body::from_fields(cx, attrs, &variant.fields, &variant.ident, missing_content);
        Self {
            ident: &variant.ident,
            shape: Shape::Body(Box::new(body)),
        }
    }
}

impl<'a> Body<'a> {
    fn from_fields(
        cx: &Ctxt,
        attrs: ContainerAttrs,
        fields: &'a syn::Fields,
        owner: &'a Ident,
        missing_content: String,
    ) -> Self {
        let errors_before = cx.error_count();
        let fields = fields
            .iter()
            .enumerate()
            .map(|(index, field)| Field {
                attrs: FieldAttrs::parse(cx, &field.attrs),
                member: field
                    .ident
                    .clone()
                    .map_or_else(|| Member::Unnamed(syn::Index::from(index)), Member::Named),
                ty: &field.ty,
                index,
            })
            .collect();
        Self {
            owner,
            missing_content,
            attrs,
            fields,
            field_attr_errors: cx.error_count() > errors_before,
        }
    }
}
