//! [`Paths`]: how generated code names what it uses. Every path is absolute
//! and goes through the facade's hidden, versioned module
//! ([`PRIVATE_MODULE`]), so the code works in any crate that depends on the
//! facade, under any name, whatever that crate imports or shadows.
//!
//! Runtime items are named by their module path ([`Runtime::path`]): when an
//! item moves inside `budget-runtime`, only that table changes.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::Ident;

/// The facade's hidden module that generated code goes through. Its name
/// carries the version of the contract between the facade and these macros:
/// a facade and a macro crate that do not match fail with an unresolved path
/// instead of miscompiling.
pub(crate) const PRIVATE_MODULE: &str = "__private_v0_1";

/// The absolute paths of one expansion.
pub(crate) struct Paths {
    /// `<facade>::__private_v0_1`.
    private: TokenStream,
}

impl Paths {
    /// Paths through the facade at `krate`: `::budget` by default, the path
    /// given with `#[context(crate = "...")]`, or `$crate` from the
    /// `budget!` trampoline.
    pub(crate) fn new(krate: impl ToTokens) -> Self {
        let module = Ident::new(PRIVATE_MODULE, Span::call_site());
        Self {
            private: quote!(#krate::#module),
        }
    }

    /// The standard library.
    pub(crate) fn std(&self) -> TokenStream {
        let private = &self.private;
        quote!(#private::std)
    }

    /// `Option::Some`.
    pub(crate) fn some(&self) -> TokenStream {
        let std = self.std();
        quote!(#std::option::Option::Some)
    }

    /// `Option::None`.
    pub(crate) fn none(&self) -> TokenStream {
        let std = self.std();
        quote!(#std::option::Option::None)
    }

    /// `Type::Variant` of a field-less runtime enum (`ContentType`, `Tier`),
    /// named by the value's `Debug` output, which is the variant's name for
    /// these enums. They are `#[non_exhaustive]`, so no `match` can list
    /// their variants here.
    pub(crate) fn variant(&self, ty: Runtime, value: impl std::fmt::Debug) -> TokenStream {
        let ty = self.runtime(ty);
        let variant = Ident::new(&format!("{value:?}"), Span::call_site());
        quote!(#ty::#variant)
    }

    /// An item of `budget-runtime`.
    pub(crate) fn runtime(&self, item: Runtime) -> TokenStream {
        let private = &self.private;
        let (module, name) = item.path();
        let module = Ident::new(module, Span::call_site());
        let name = Ident::new(name, Span::call_site());
        quote!(#private::budget_runtime::#module::#name)
    }
}

/// The `budget-runtime` items generated code uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Runtime {
    BudgetRule,
    CalibratedEstimator,
    ContentType,
    ContextBudget,
    ContextItem,
    ContextKind,
    ContractTerms,
    DefaultCounter,
    Encoding,
    FlagField,
    FloatField,
    GroupField,
    IntegerField,
    TokenCountField,
    MetadataMap,
    MetadataValueRef,
    NoTags,
    OptionalTextField,
    ReservedSlot,
    TagList,
    TextField,
    Tier,
    TierBudget,
    TierBudgetRule,
    TierThresholds,
    Timestamp,
    TimestampField,
    /// `fn estimate_parts(&impl Estimator, &[(&str, ContentType)]) -> u64`.
    EstimateParts,
    /// `fn join_parts(&[&str]) -> String`.
    JoinParts,
    /// `fn ratio_estimate_parts(&[(&str, ContentType)]) -> u64`.
    RatioEstimateParts,
}

impl Runtime {
    /// `(module, name)` of the item in `budget-runtime`.
    pub(crate) const fn path(self) -> (&'static str, &'static str) {
        match self {
            Self::BudgetRule => ("__derive", "BudgetRule"),
            Self::CalibratedEstimator => ("estimate", "CalibratedEstimator"),
            Self::ContentType => ("estimate", "ContentType"),
            Self::ContextBudget => ("model", "ContextBudget"),
            Self::ContextItem => ("model", "ContextItem"),
            Self::ContextKind => ("model", "ContextKind"),
            Self::ContractTerms => ("model", "ContractTerms"),
            Self::DefaultCounter => ("estimate", "DefaultCounter"),
            Self::Encoding => ("estimate", "Encoding"),
            Self::FlagField => ("__derive", "FlagField"),
            Self::FloatField => ("__derive", "FloatField"),
            Self::GroupField => ("__derive", "GroupField"),
            Self::IntegerField => ("__derive", "IntegerField"),
            Self::TokenCountField => ("__derive", "TokenCountField"),
            Self::MetadataMap => ("__derive", "MetadataMap"),
            Self::MetadataValueRef => ("model", "MetadataValueRef"),
            Self::NoTags => ("__derive", "NoTags"),
            Self::OptionalTextField => ("__derive", "OptionalTextField"),
            Self::ReservedSlot => ("model", "ReservedSlot"),
            Self::TagList => ("model", "TagList"),
            Self::TextField => ("__derive", "TextField"),
            Self::Tier => ("model", "Tier"),
            Self::TierBudget => ("payload", "TierBudget"),
            Self::TierBudgetRule => ("__derive", "TierBudgetRule"),
            Self::TierThresholds => ("model", "TierThresholds"),
            Self::Timestamp => ("model", "Timestamp"),
            Self::TimestampField => ("__derive", "TimestampField"),
            Self::EstimateParts => ("model", "estimate_parts"),
            Self::JoinParts => ("model", "join_parts"),
            Self::RatioEstimateParts => ("model", "ratio_estimate_parts"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_go_through_the_versioned_module() {
        let paths = Paths::new(quote!(::budget));
        assert_eq!(
            paths.runtime(Runtime::ContextKind).to_string(),
            ":: budget :: __private_v0_1 :: budget_runtime :: model :: ContextKind"
        );
        assert_eq!(
            paths.none().to_string(),
            ":: budget :: __private_v0_1 :: std :: option :: Option :: None"
        );
        let renamed = Paths::new(syn::parse_str::<syn::Path>("my_budget").unwrap());
        assert_eq!(
            renamed.runtime(Runtime::TierBudget).to_string(),
            "my_budget :: __private_v0_1 :: budget_runtime :: payload :: TierBudget"
        );
    }
}
