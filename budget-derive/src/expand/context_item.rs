//! Code generation for `#[derive(ContextItem)]`: an `impl ContextItem` that
//! reads the struct's fields in place. Every path is absolute, through the
//! facade's hidden module (see `paths`).

use budget_rules::{ContentType, Tier};
use proc_macro2::{Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, Type};

use crate::ast::{Body, Container, Data, Field, Shape, Variant};
use crate::attr::{EstimatorChoice, Role};
use crate::check;
use crate::ctxt::Ctxt;
use crate::expand::bound;
use crate::paths::{Paths, Runtime};

/// The derive: the impls, or on bad input the errors plus a stub impl so
/// that uses of the type do not add errors of their own.
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let cx = Ctxt::new();
    let container = Container::from_ast(&cx, input);
    check::check(&cx, &container);
    let paths = Paths::new(&container.krate);
    let errors = match (cx.check(), &container.data) {
        (Ok(()), Some(data)) => return expand(&container, data, &paths),
        (Err(errors), _) => errors,
        (Ok(()), None) => syn::Error::new(
            Span::call_site(),
            "internal error in #[derive(ContextItem)]: input rejected without a message",
        ),
    };
    let mut tokens = errors.to_compile_error();
    tokens.extend(stub(input, &paths));
    tokens
}

fn expand(container: &Container<'_>, data: &Data<'_>, paths: &Paths) -> TokenStream {
    let context_item = paths.runtime(Runtime::ContextItem);
    let ident = container.ident;
    let generics = bound::with_bounds(container.generics, field_bounds(data, paths));
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    let methods = match data {
        Data::Struct(body) => struct_methods(body, paths),
        Data::Enum(variants) => enum_methods(variants, paths),
    };
    quote! {
        #[automatically_derived]
        impl #impl_generics #context_item for #ident #ty_generics #where_clause {
            #(#methods)*
        }
    }
}

/// A minimal impl emitted next to the errors of a rejected input.
fn stub(input: &DeriveInput, paths: &Paths) -> TokenStream {
    let std = paths.std();
    let context_item = paths.runtime(Runtime::ContextItem);
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let message = "#[derive(ContextItem)] failed; see the compile error";
    quote! {
        #[automatically_derived]
        impl #impl_generics #context_item for #ident #ty_generics #where_clause {
            fn content(&self) -> #std::borrow::Cow<'_, #std::primitive::str> {
                #std::unreachable!(#message)
            }
            fn tokens(&self) -> #std::primitive::u64 {
                #std::unreachable!(#message)
            }
        }
    }
}

/// `(field type, adapter trait)` for every field, and `ContextItem` for
/// every delegating variant's wrapped type.
fn field_bounds<'a>(data: &'a Data<'a>, paths: &Paths) -> Vec<(&'a Type, TokenStream)> {
    let body_bounds = |body: &'a Body<'a>| {
        body.with_role()
            .filter_map(|field| Some((field.ty, paths.runtime(adapter(field.role()?)?))))
            .collect::<Vec<_>>()
    };
    match data {
        Data::Struct(body) => body_bounds(body),
        Data::Enum(variants) => variants
            .iter()
            .flat_map(|variant| match &variant.shape {
                Shape::Delegate(ty) => vec![(*ty, paths.runtime(Runtime::ContextItem))],
                Shape::Body(body) => body_bounds(body),
            })
            .collect(),
    }
}

/// The trait a field with `role` is read through (`None` for `skip`).
fn adapter(role: Role) -> Option<Runtime> {
    Some(match role {
        Role::Content => Runtime::TextField,
        Role::Tokens => Runtime::TokenCountField,
        Role::Priority => Runtime::IntegerField,
        Role::Score | Role::Hint => Runtime::FloatField,
        Role::Pinned => Runtime::FlagField,
        Role::Timestamp => Runtime::TimestampField,
        Role::Tags => Runtime::TagList,
        Role::Metadata => Runtime::MetadataMap,
        Role::Link | Role::Description | Role::Skeleton => Runtime::OptionalTextField,
        Role::Group => Runtime::GroupField,
        Role::Skip => return None,
    })
}

/// The accessors of `ContextItem`, in trait order.
#[derive(Clone, Copy)]
enum Method {
    Content,
    Tokens,
    Kind,
    ContentType,
    Pinned,
    Timestamp,
    Priority,
    Tags,
    RelevanceHint,
    Metadata,
    Relevance,
    Tier,
    Link,
    Description,
    Group,
    Skeleton,
}

impl Method {
    const ALL: [Self; 16] = [
        Self::Content,
        Self::Tokens,
        Self::Kind,
        Self::ContentType,
        Self::Pinned,
        Self::Timestamp,
        Self::Priority,
        Self::Tags,
        Self::RelevanceHint,
        Self::Metadata,
        Self::Relevance,
        Self::Tier,
        Self::Link,
        Self::Description,
        Self::Group,
        Self::Skeleton,
    ];

    fn signature(self, paths: &Paths) -> TokenStream {
        let std = paths.std();
        let context_kind = paths.runtime(Runtime::ContextKind);
        let content_type = paths.runtime(Runtime::ContentType);
        let timestamp = paths.runtime(Runtime::Timestamp);
        let tag_list = paths.runtime(Runtime::TagList);
        let metadata_value_ref = paths.runtime(Runtime::MetadataValueRef);
        let tier = paths.runtime(Runtime::Tier);
        let option = quote!(#std::option::Option);
        match self {
            Self::Content => {
                quote!(fn content(&self) -> #std::borrow::Cow<'_, #std::primitive::str>)
            }
            Self::Tokens => quote!(fn tokens(&self) -> #std::primitive::u64),
            Self::Kind => quote!(fn kind(&self) -> &#context_kind),
            Self::ContentType => quote!(fn content_type(&self) -> #content_type),
            Self::Pinned => quote!(fn pinned(&self) -> #std::primitive::bool),
            Self::Timestamp => quote!(fn timestamp(&self) -> #option<#timestamp>),
            Self::Priority => quote!(fn priority(&self) -> #option<#std::primitive::i64>),
            Self::Tags => quote!(fn tags(&self) -> &dyn #tag_list),
            Self::RelevanceHint => {
                quote!(fn relevance_hint(&self) -> #option<#std::primitive::f64>)
            }
            Self::Metadata => quote! {
                fn metadata(&self, key: &#std::primitive::str) -> #option<#metadata_value_ref<'_>>
            },
            Self::Relevance => quote!(fn relevance(&self) -> #option<#std::primitive::f64>),
            Self::Tier => quote!(fn tier(&self) -> #option<#tier>),
            Self::Link => quote!(fn link(&self) -> #option<&#std::primitive::str>),
            Self::Description => {
                quote!(fn description(&self) -> #option<&#std::primitive::str>)
            }
            Self::Group => quote!(fn group(&self) -> #option<#std::primitive::u64>),
            Self::Skeleton => quote! {
                fn skeleton(&self) -> #option<#std::borrow::Cow<'_, #std::primitive::str>>
            },
        }
    }

    /// The trait's default, for a variant without a field for this accessor.
    fn default_value(self, paths: &Paths) -> TokenStream {
        let no_tags = paths.runtime(Runtime::NoTags);
        match self {
            Self::Kind => kind_tokens(None, paths),
            Self::ContentType => content_type_tokens(ContentType::Markdown, paths),
            Self::Pinned => quote!(false),
            Self::Tags => quote!(&#no_tags),
            // Content and tokens always come from a body; the rest are optional.
            Self::Content
            | Self::Tokens
            | Self::Timestamp
            | Self::Priority
            | Self::RelevanceHint
            | Self::Metadata
            | Self::Relevance
            | Self::Tier
            | Self::Link
            | Self::Description
            | Self::Group
            | Self::Skeleton => paths.none(),
        }
    }

    /// The same accessor called on the value a newtype variant wraps.
    fn delegate(self, inner: &Ident, paths: &Paths) -> TokenStream {
        let context_item = paths.runtime(Runtime::ContextItem);
        let name = match self {
            Self::Content => "content",
            Self::Tokens => "tokens",
            Self::Kind => "kind",
            Self::ContentType => "content_type",
            Self::Pinned => "pinned",
            Self::Timestamp => "timestamp",
            Self::Priority => "priority",
            Self::Tags => "tags",
            Self::RelevanceHint => "relevance_hint",
            Self::Metadata => return quote!(#context_item::metadata(#inner, key)),
            Self::Relevance => "relevance",
            Self::Tier => "tier",
            Self::Link => "link",
            Self::Description => "description",
            Self::Group => "group",
            Self::Skeleton => "skeleton",
        };
        let name = Ident::new(name, Span::call_site());
        quote!(#context_item::#name(#inner))
    }
}

/// The local a field is bound to, spanned at its type so that a type that
/// does not fit its attribute is reported there.
fn binding(field: &Field<'_>) -> Ident {
    Ident::new(&format!("__context_{}", field.index), field.ty.span())
}

/// An adapter-trait call on a field's binding, spanned at the field type.
fn adapt(field: &Field<'_>, adapter: TokenStream) -> TokenStream {
    let b = binding(field);
    quote_spanned!(field.ty.span()=> #adapter(#b))
}

/// The expression for `method` over a body and the fields it reads, or
/// `None` when the trait default applies.
fn body_expr<'b>(
    body: &'b Body<'b>,
    method: Method,
    paths: &Paths,
) -> Option<(Vec<&'b Field<'b>>, TokenStream)> {
    let std = paths.std();
    let text_field = paths.runtime(Runtime::TextField);
    let join_parts = paths.runtime(Runtime::JoinParts);
    let ratio_estimate_parts = paths.runtime(Runtime::RatioEstimateParts);
    let estimate_parts = paths.runtime(Runtime::EstimateParts);
    let integer_field = paths.runtime(Runtime::IntegerField);
    let token_count_field = paths.runtime(Runtime::TokenCountField);
    let flag_field = paths.runtime(Runtime::FlagField);
    let timestamp_field = paths.runtime(Runtime::TimestampField);
    let float_field = paths.runtime(Runtime::FloatField);
    let metadata_map = paths.runtime(Runtime::MetadataMap);
    let tier = paths.runtime(Runtime::Tier);
    let tier_thresholds = paths.runtime(Runtime::TierThresholds);
    let optional_text_field = paths.runtime(Runtime::OptionalTextField);
    let group_field = paths.runtime(Runtime::GroupField);
    let (some, none) = (paths.some(), paths.none());
    let single = |role: Role, adapter: TokenStream| {
        body.field(role)
            .map(|field| (vec![field], adapt(field, adapter)))
    };
    match method {
        Method::Content => {
            let fields: Vec<&Field<'_>> = body.content().collect();
            let texts: Vec<TokenStream> = fields
                .iter()
                .map(|f| adapt(f, quote!(#text_field::as_text)))
                .collect();
            let expr = if let [text] = texts.as_slice() {
                quote!(#std::borrow::Cow::Borrowed(#text))
            } else {
                quote!(#std::borrow::Cow::Owned(#join_parts(&[#(#texts),*])))
            };
            Some((fields, expr))
        }
        Method::Tokens => {
            let mut fields: Vec<&Field<'_>> = body.content().collect();
            let parts = fields.iter().map(|f| {
                let text = adapt(f, quote!(#text_field::as_text));
                let content_type = content_type_tokens(body.content_type_of(f), paths);
                quote!((#text, #content_type))
            });
            let parts = quote!(&[#(#parts),*]);
            let estimate = match body.estimator() {
                None => {
                    let default_counter = paths.runtime(Runtime::DefaultCounter);
                    quote!(#estimate_parts(&#default_counter, #parts))
                }
                Some(EstimatorChoice::Ratios) => quote!(#ratio_estimate_parts(#parts)),
                Some(EstimatorChoice::Calibrated) => {
                    let calibrated = paths.runtime(Runtime::CalibratedEstimator);
                    let encoding = paths.runtime(Runtime::Encoding);
                    quote!({
                        static __CONTEXT_ESTIMATOR: #calibrated =
                            #calibrated::new(#encoding::O200kBase);
                        #estimate_parts(&__CONTEXT_ESTIMATOR, #parts)
                    })
                }
                // Spanned at the path: a value that is no estimator is
                // reported there.
                Some(EstimatorChoice::Value(path)) => {
                    quote_spanned!(path.span()=> #estimate_parts(&#path, #parts))
                }
            };
            let expr = match body.field(Role::Tokens) {
                Some(exact) => {
                    fields.push(exact);
                    let count = adapt(exact, quote!(#token_count_field::as_token_count));
                    quote! {
                        match #count {
                            #some(__context_exact) => __context_exact,
                            #none => #estimate,
                        }
                    }
                }
                None => estimate,
            };
            Some((fields, expr))
        }
        Method::Kind => body
            .kind()
            .map(|label| (Vec::new(), kind_tokens(Some(label), paths))),
        Method::ContentType => Some((Vec::new(), content_type_tokens(body.content_type(), paths))),
        Method::Pinned => single(Role::Pinned, quote!(#flag_field::as_flag)),
        Method::Timestamp => single(Role::Timestamp, quote!(#timestamp_field::as_timestamp)),
        Method::Priority => single(Role::Priority, quote!(#integer_field::as_integer)),
        Method::Tags => body.field(Role::Tags).map(|field| {
            let b = binding(field);
            (vec![field], quote!(#b))
        }),
        Method::RelevanceHint => single(Role::Hint, quote!(#float_field::as_float)),
        Method::Metadata => body.field(Role::Metadata).map(|field| {
            let b = binding(field);
            let expr = quote_spanned!(field.ty.span()=> #metadata_map::metadata_value(#b, key));
            (vec![field], expr)
        }),
        Method::Relevance => body
            .field(Role::Score)
            .map(|field| (vec![field], relevance_expr(body, field, paths))),
        Method::Tier => match (body.tier(), body.field(Role::Score)) {
            (Some(tier), _) => {
                let tier = tier_tokens(tier, paths);
                Some((Vec::new(), quote!(#some(#tier))))
            }
            (None, Some(field)) => {
                let relevance = relevance_expr(body, field, paths);
                let thresholds = if body.thresholds() == Tier::DEFAULT_THRESHOLDS {
                    quote!(#tier::DEFAULT_THRESHOLDS)
                } else {
                    let raw = Literal::f64_suffixed(body.thresholds().raw);
                    let linked = Literal::f64_suffixed(body.thresholds().linked);
                    quote!(#tier_thresholds { raw: #raw, linked: #linked })
                };
                let expr = quote! {
                    match #relevance {
                        #some(__context_score) => #some(#tier::for_score(__context_score, #thresholds)),
                        #none => #none,
                    }
                };
                Some((vec![field], expr))
            }
            (None, None) => None,
        },
        Method::Link => single(Role::Link, quote!(#optional_text_field::as_optional_text)),
        Method::Description => single(
            Role::Description,
            quote!(#optional_text_field::as_optional_text),
        ),
        Method::Group => single(Role::Group, quote!(#group_field::as_group)),
        // An empty skeleton is no skeleton, as for `Item`.
        Method::Skeleton => body.field(Role::Skeleton).map(|field| {
            let text = adapt(field, quote!(#optional_text_field::as_optional_text));
            let expr = quote! {
                match #text {
                    #some(__context_skeleton) if !__context_skeleton.is_empty() => {
                        #some(#std::borrow::Cow::Borrowed(__context_skeleton))
                    }
                    _ => #none,
                }
            };
            (vec![field], expr)
        }),
    }
}

/// The score field divided by the scale; NaN reads as no score.
fn relevance_expr(body: &Body<'_>, field: &Field<'_>, paths: &Paths) -> TokenStream {
    let float_field = paths.runtime(Runtime::FloatField);
    let (some, none) = (paths.some(), paths.none());
    let score = adapt(field, quote!(#float_field::as_float));
    let scaled = match body.scale() {
        None => quote!(__context_score),
        Some(scale) => {
            let scale = Literal::f64_suffixed(scale);
            quote!(__context_score / #scale)
        }
    };
    quote! {
        match #score {
            #some(__context_score) if !__context_score.is_nan() => #some(#scaled),
            _ => #none,
        }
    }
}

/// `let Self { field: binding, .. } = self;` (or the variant pattern) for
/// the fields an accessor reads.
fn pattern(path: TokenStream, fields: &[&Field<'_>]) -> TokenStream {
    let members = fields.iter().map(|f| &f.member);
    let bindings = fields.iter().map(|f| binding(f));
    quote!(#path { #(#members: #bindings,)* .. })
}

fn struct_methods(body: &Body<'_>, paths: &Paths) -> Vec<TokenStream> {
    Method::ALL
        .into_iter()
        .filter_map(|method| {
            let (fields, expr) = body_expr(body, method, paths)?;
            let signature = method.signature(paths);
            let destructure = if fields.is_empty() {
                quote!()
            } else {
                let pattern = pattern(quote!(Self), &fields);
                quote!(let #pattern = self;)
            };
            Some(quote! {
                #[inline]
                #signature {
                    #destructure
                    #expr
                }
            })
        })
        .collect()
}

fn enum_methods(variants: &[Variant<'_>], paths: &Paths) -> Vec<TokenStream> {
    let inner = Ident::new("__context_inner", Span::call_site());
    Method::ALL
        .into_iter()
        .filter_map(|method| {
            let bodies: Vec<_> = variants
                .iter()
                .map(|variant| match &variant.shape {
                    Shape::Delegate(_) => None,
                    Shape::Body(body) => Some(body_expr(body, method, paths)),
                })
                .collect();
            let needed = bodies.iter().any(|b| !matches!(b, Some(None)));
            if !needed {
                return None;
            }
            let arms = variants.iter().zip(bodies).map(|(variant, body)| {
                let ident = variant.ident;
                match body {
                    None => {
                        let call = method.delegate(&inner, paths);
                        quote!(Self::#ident(#inner) => #call,)
                    }
                    Some(Some((fields, expr))) => {
                        let pattern = pattern(quote!(Self::#ident), &fields);
                        quote!(#pattern => #expr,)
                    }
                    Some(None) => {
                        let default = method.default_value(paths);
                        quote!(Self::#ident { .. } => #default,)
                    }
                }
            });
            let signature = method.signature(paths);
            Some(quote! {
                #[inline]
                #signature {
                    match self {
                        #(#arms)*
                    }
                }
            })
        })
        .collect()
}

/// `&'static ContextKind` for a label (`Message` when `None`).
fn kind_tokens(label: Option<&str>, paths: &Paths) -> TokenStream {
    let context_kind = paths.runtime(Runtime::ContextKind);
    let kind = match label {
        Some(label) => quote!(#context_kind::from_static(#label)),
        None => quote!(#context_kind::MESSAGE),
    };
    quote!({
        static __CONTEXT_KIND: #context_kind = #kind;
        &__CONTEXT_KIND
    })
}

fn content_type_tokens(content_type: ContentType, paths: &Paths) -> TokenStream {
    paths.variant(Runtime::ContentType, content_type)
}

fn tier_tokens(tier: Tier, paths: &Paths) -> TokenStream {
    paths.variant(Runtime::Tier, tier)
}
