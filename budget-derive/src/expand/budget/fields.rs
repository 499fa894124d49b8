//! The `key: value, …` list every form is written in, with checks for
//! unknown, duplicate and missing keys.

use proc_macro2::Span;
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Expr, Ident, LitStr, Token, braced};

use super::operand::{self, Float, Int, IntType};
use crate::ctxt::Ctxt;

/// One `key: value` entry.
pub(crate) struct Field {
    pub(crate) key: Ident,
    pub(crate) value: Value,
}

/// A value: an expression, or a braced map such as `{ ToolOutput: 2_000 }`.
pub(crate) enum Value {
    Expr(Expr),
    Map(Vec<MapEntry>),
}

/// One `Key: value` entry of a braced map.
pub(crate) struct MapEntry {
    pub(crate) key: MapKey,
    pub(crate) value: Expr,
}

/// A map key: an identifier (`ToolOutput`) or a string literal (`"tool output"`).
pub(crate) enum MapKey {
    Ident(Ident),
    Str(LitStr),
}

impl MapKey {
    /// The key's text (an identifier without its `r#` prefix).
    pub(crate) fn text(&self) -> String {
        match self {
            Self::Ident(ident) => {
                let text = ident.to_string();
                text.strip_prefix("r#").map_or(text.clone(), str::to_owned)
            }
            Self::Str(lit) => lit.value(),
        }
    }

    /// Where the key is written.
    pub(crate) fn span(&self) -> Span {
        match self {
            Self::Ident(ident) => ident.span(),
            Self::Str(lit) => lit.span(),
        }
    }
}

impl ToTokens for MapKey {
    fn to_tokens(&self, tokens: &mut proc_macro2::TokenStream) {
        match self {
            Self::Ident(ident) => ident.to_tokens(tokens),
            Self::Str(lit) => lit.to_tokens(tokens),
        }
    }
}

impl Parse for Field {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let key: Ident = input.parse()?;
        input.parse::<Token![:]>()?;
        let value = if input.peek(syn::token::Brace) {
            let content;
            braced!(content in input);
            let entries = Punctuated::<MapEntry, Token![,]>::parse_terminated(&content)?;
            Value::Map(entries.into_iter().collect())
        } else {
            Value::Expr(input.parse()?)
        };
        Ok(Self { key, value })
    }
}

impl Parse for MapEntry {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let key = if input.peek(LitStr) {
            MapKey::Str(input.parse()?)
        } else {
            MapKey::Ident(input.parse()?)
        };
        input.parse::<Token![:]>()?;
        Ok(Self {
            key,
            value: input.parse()?,
        })
    }
}

/// The fields of one invocation, checked against the keys a form accepts.
pub(crate) struct Fields {
    form: &'static str,
    fields: Vec<Field>,
}

impl Fields {
    /// Parses `key: value, …` (trailing comma allowed).
    pub(crate) fn parse(input: ParseStream<'_>) -> syn::Result<Vec<Field>> {
        Ok(Punctuated::<Field, Token![,]>::parse_terminated(input)?
            .into_iter()
            .collect())
    }

    /// Keeps the fields whose key is in `known`; reports every unknown and
    /// every repeated key. `form` names the form in messages.
    pub(crate) fn check(form: &'static str, fields: Vec<Field>, known: &[&str], cx: &Ctxt) -> Self {
        let mut kept: Vec<Field> = Vec::with_capacity(fields.len());
        for field in fields {
            let key = field.key.to_string();
            if !known.contains(&key.as_str()) {
                cx.error_spanned_by(
                    &field.key,
                    format!(
                        "unknown key `{key}` in {form}; expected one of: {}",
                        known.join(", ")
                    ),
                );
            } else if kept.iter().any(|f| f.key == field.key) {
                cx.error_spanned_by(&field.key, format!("duplicate key `{key}` in {form}"));
            } else {
                kept.push(field);
            }
        }
        Self { form, fields: kept }
    }

    /// Removes and returns the field `key`, if given.
    pub(crate) fn take(&mut self, key: &str) -> Option<Field> {
        let index = self.fields.iter().position(|f| f.key == key)?;
        Some(self.fields.remove(index))
    }

    /// Removes and returns the field `key`; reports it missing otherwise.
    pub(crate) fn take_required(&mut self, key: &str, cx: &Ctxt) -> Option<Field> {
        let field = self.take(key);
        if field.is_none() {
            cx.error_at(
                Span::call_site(),
                format!("missing required key `{key}` in {}", self.form),
            );
        }
        field
    }
}

/// Typed readers. `Option<Option<_>>` for optional fields: `Some(None)` when
/// absent, `None` when given but unusable (the reason is already reported).
impl Fields {
    /// The integer operand of required field `key`.
    pub(crate) fn required_int(&mut self, key: &str, ty: IntType, cx: &Ctxt) -> Option<Int> {
        let expr = self.take_required(key, cx)?.into_expr(cx)?;
        operand::int(expr, ty, key, cx)
    }

    /// The integer operand of optional field `key`.
    pub(crate) fn optional_int(
        &mut self,
        key: &str,
        ty: IntType,
        cx: &Ctxt,
    ) -> Option<Option<Int>> {
        self.optional(key, cx, |expr, cx| operand::int(expr, ty, key, cx))
    }

    /// The `f64` operand of optional field `key`.
    pub(crate) fn optional_float(&mut self, key: &str, cx: &Ctxt) -> Option<Option<Float>> {
        self.optional(key, cx, |expr, cx| operand::float(expr, key, cx))
    }

    fn optional<T>(
        &mut self,
        key: &str,
        cx: &Ctxt,
        read: impl FnOnce(Expr, &Ctxt) -> Option<T>,
    ) -> Option<Option<T>> {
        match self.take(key) {
            None => Some(None),
            Some(field) => {
                let expr = field.into_expr(cx)?;
                read(expr, cx).map(Some)
            }
        }
    }
}

impl Field {
    /// The value as an expression; a map is reported as an error.
    pub(crate) fn into_expr(self, cx: &Ctxt) -> Option<Expr> {
        match self.value {
            Value::Expr(expr) => Some(expr),
            Value::Map(_) => {
                cx.error_spanned_by(
                    &self.key,
                    format!("`{}` takes a single value, not a map", self.key),
                );
                None
            }
        }
    }

    /// The value as a braced map; an expression is reported as an error.
    pub(crate) fn into_map(self, cx: &Ctxt) -> Option<Vec<MapEntry>> {
        match self.value {
            Value::Map(entries) => Some(entries),
            Value::Expr(expr) => {
                cx.error_spanned_by(
                    &expr,
                    format!(
                        "`{}` takes a braced map such as `{{ ToolOutput: 2 }}`",
                        self.key
                    ),
                );
                None
            }
        }
    }
}
