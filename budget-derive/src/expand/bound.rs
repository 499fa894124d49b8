//! Where-clause predicates for generic field types: a field whose type
//! names a type parameter gets a bound on the adapter trait it is read
//! through, so `struct Doc<T> { #[context(content)] body: T }` becomes
//! `impl<T> ContextItem for Doc<T> where T: TextField`.

use std::collections::HashSet;

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Generics, Ident, Type, WherePredicate, parse_quote};

/// `generics` plus `ty: bound` for every `(ty, bound)` whose type mentions
/// one of the type parameters. Concrete field types get no predicate: the
/// impl checks them directly, and a predicate on a private type would leak
/// it into the impl's signature.
pub(crate) fn with_bounds<'t>(
    generics: &Generics,
    bounds: impl IntoIterator<Item = (&'t Type, TokenStream)>,
) -> Generics {
    let params: HashSet<&Ident> = generics.type_params().map(|p| &p.ident).collect();
    let mut generics = generics.clone();
    if params.is_empty() {
        return generics;
    }
    let predicates: Vec<WherePredicate> = bounds
        .into_iter()
        .filter(|(ty, _)| mentions(ty.to_token_stream(), &params))
        .map(|(ty, bound)| parse_quote!(#ty: #bound))
        .collect();
    generics.make_where_clause().predicates.extend(predicates);
    generics
}

/// Whether `tokens` contain one of `params` as an identifier. A path that
/// merely ends in a parameter's name also matches; the extra bound it adds
/// holds whenever the impl is usable.
fn mentions(tokens: TokenStream, params: &HashSet<&Ident>) -> bool {
    tokens.into_iter().any(|tree| match tree {
        TokenTree::Ident(ident) => params.contains(&ident),
        TokenTree::Group(group) => mentions(group.stream(), params),
        TokenTree::Punct(_) | TokenTree::Literal(_) => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn only_types_naming_a_parameter_are_bounded() {
        let generics: Generics = parse_quote!(<'a, T, U: Clone>);
        let string: Type = parse_quote!(String);
        let vec_t: Type = parse_quote!(Vec<T>);
        let u: Type = parse_quote!(&'a U);
        let bounded = with_bounds(
            &generics,
            [
                (&string, quote!(Text)),
                (&vec_t, quote!(Tags)),
                (&u, quote!(Text)),
            ],
        );
        let predicates: Vec<String> = bounded
            .where_clause
            .unwrap()
            .predicates
            .iter()
            .map(|p| p.to_token_stream().to_string())
            .collect();
        assert_eq!(predicates, ["Vec < T > : Tags", "& 'a U : Text"]);
    }

    #[test]
    fn no_type_parameters_no_where_clause() {
        let generics: Generics = parse_quote!(<'a>);
        let ty: Type = parse_quote!(&'a str);
        assert!(
            with_bounds(&generics, [(&ty, quote!(Text))])
                .where_clause
                .is_none()
        );
    }
}
