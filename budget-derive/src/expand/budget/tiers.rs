//! Form 2: `budget!(tiers { .. })`, the `TierBudget` of a hybrid payload.
//!
//! ```text
//! budget!(tiers {
//!     total: 100_000,
//!     meta: 300,               // optional, default 300
//!     summary_percent: 1.0,    // optional, default 1
//!     linked_percent: 9.0,     // optional, default 9
//!     raw_percent: 90.0,       // optional, default 90
//!     headroom_percent: 10.0,  // optional, default 10
//! })
//! ```
//!
//! Omitted values are the runtime's `TierBudget::DEFAULT_*` constants. With
//! every operand known, the macro validates with `TierBudget::new` and
//! reports the broken rule on its field. The expansion is
//!
//! ```text
//! {
//!     const __BUDGET_MACRO_VALUE: TierBudget =
//!         TierBudget::new_const(100000u64, 300u64, 1f64, 9f64, 90f64, 10f64);
//!     __BUDGET_MACRO_VALUE
//! }
//! ```
//!
//! preceded, when an operand is a path the macro cannot evaluate, by a
//! `match` on `TierBudget::broken_rule` whose panics name the rule on the
//! field it concerns.

use budget_rules::{Tier, TierBudget, TierBudgetError};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;

use super::fields::Fields;
use super::operand::{Float, Int, IntType, written};
use super::{Form, local, panic_at};
use crate::ctxt::Ctxt;
use crate::paths::{Paths, Runtime};

/// The operands of a tier budget, as written; `None`: the default.
pub(super) struct Tiers {
    total: Int,
    meta: Option<Int>,
    summary: Option<Float>,
    linked: Option<Float>,
    raw: Option<Float>,
    headroom: Option<Float>,
}

impl Tiers {
    fn share(&self, tier: Tier) -> Option<&Float> {
        match tier {
            Tier::Summary => self.summary.as_ref(),
            Tier::Linked => self.linked.as_ref(),
            Tier::Raw | Tier::Skeleton => self.raw.as_ref(),
        }
    }
}

pub(super) const FORM: Form<Tiers> = Form {
    name: "a TierBudget",
    keys: &[
        "total",
        "meta",
        "summary_percent",
        "linked_percent",
        "raw_percent",
        "headroom_percent",
    ],
    parse,
    validate,
    generate,
};

fn parse(mut fields: Fields, cx: &Ctxt) -> Option<Tiers> {
    let total = fields.required_int("total", IntType::U64, cx);
    let meta = fields.optional_int("meta", IntType::U64, cx);
    let summary = fields.optional_float("summary_percent", cx);
    let linked = fields.optional_float("linked_percent", cx);
    let raw = fields.optional_float("raw_percent", cx);
    let headroom = fields.optional_float("headroom_percent", cx);
    Some(Tiers {
        total: total?,
        meta: meta?,
        summary: summary?,
        linked: linked?,
        raw: raw?,
        headroom: headroom?,
    })
}

/// The six values, defaults filled in, or `None` if one is left to the compiler.
fn known_values(tiers: &Tiers) -> Option<(u64, u64, f64, f64, f64, f64)> {
    // In range: every `Known` value was checked against u64.
    let float = |operand: Option<&Float>, default: f64| operand.map_or(Some(default), Float::value);
    Some((
        tiers.total.value().map(|v| v as u64)?,
        tiers
            .meta
            .as_ref()
            .map_or(Some(TierBudget::DEFAULT_META_TOKENS), |m| {
                m.value().map(|v| v as u64)
            })?,
        float(tiers.summary.as_ref(), TierBudget::DEFAULT_SUMMARY_PERCENT)?,
        float(tiers.linked.as_ref(), TierBudget::DEFAULT_LINKED_PERCENT)?,
        float(tiers.raw.as_ref(), TierBudget::DEFAULT_RAW_PERCENT)?,
        float(
            tiers.headroom.as_ref(),
            TierBudget::DEFAULT_HEADROOM_PERCENT,
        )?,
    ))
}

/// Validates with the runtime's `TierBudget::new` when every operand is known.
fn validate(tiers: &Tiers, cx: &Ctxt) {
    let Some((total, meta, summary, linked, raw, headroom)) = known_values(tiers) else {
        return; // checked during constant evaluation, see `rule_check`
    };
    if let Err(error) = TierBudget::new(total, meta, summary, linked, raw, headroom) {
        cx.error_spanned_by(
            offending_tokens(tiers, &error),
            format!("invalid TierBudget: {error}"),
        );
    }
}

/// The operand a broken rule belongs on; empty tokens put the error on the
/// whole invocation.
fn offending_tokens(tiers: &Tiers, error: &TierBudgetError) -> TokenStream {
    let share = |tier: Tier| tiers.share(tier).map(|f| f.expr().to_token_stream());
    let total = || tiers.total.expr().to_token_stream();
    match error {
        TierBudgetError::ShareOutOfRange { tier, .. } => share(*tier).unwrap_or_default(),
        TierBudgetError::SharesDoNotSumTo100 { .. } => sum_tokens(tiers),
        TierBudgetError::HeadroomOutOfRange { .. } => written(tiers.headroom.as_ref()),
        TierBudgetError::MetaExceedsTotal { .. } => tiers
            .meta
            .as_ref()
            .map_or_else(total, |m| m.expr().to_token_stream()),
        TierBudgetError::TierLimitZero { tier, .. } => share(*tier).unwrap_or_else(total),
        _ => TokenStream::new(),
    }
}

/// Where a wrong sum of shares is reported: the last share given (RAW
/// first, as the share that usually absorbs a change).
fn sum_tokens(tiers: &Tiers) -> TokenStream {
    [Tier::Raw, Tier::Linked, Tier::Summary]
        .into_iter()
        .find_map(|tier| tiers.share(tier))
        .map(|f| f.expr().to_token_stream())
        .unwrap_or_default()
}

fn generate(tiers: &Tiers, paths: &Paths) -> TokenStream {
    let ty = paths.runtime(Runtime::TierBudget);
    let total = tiers.total.tokens(IntType::U64);
    let meta = tiers.meta.as_ref().map_or_else(
        || quote!(#ty::DEFAULT_META_TOKENS),
        |m| m.tokens(IntType::U64),
    );
    let percent = |operand: Option<&Float>, default: &str| {
        let default = syn::Ident::new(default, Span::call_site());
        operand.map_or_else(|| quote!(#ty::#default), Float::tokens)
    };
    let summary = percent(tiers.summary.as_ref(), "DEFAULT_SUMMARY_PERCENT");
    let linked = percent(tiers.linked.as_ref(), "DEFAULT_LINKED_PERCENT");
    let raw = percent(tiers.raw.as_ref(), "DEFAULT_RAW_PERCENT");
    let headroom = percent(tiers.headroom.as_ref(), "DEFAULT_HEADROOM_PERCENT");
    let args = quote!(#total, #meta, #summary, #linked, #raw, #headroom);
    let check = if known_values(tiers).is_some() {
        TokenStream::new() // validated by the macro
    } else {
        rule_check(tiers, &args, paths)
    };
    quote! {
        {
            const __BUDGET_MACRO_VALUE: #ty = {
                #check
                #ty::new_const(#args)
            };
            __BUDGET_MACRO_VALUE
        }
    }
}

/// A `match` on `TierBudget::broken_rule` for operands the macro could not
/// evaluate: each rule panics during constant evaluation with its message,
/// spanned at the field it concerns.
fn rule_check(tiers: &Tiers, args: &TokenStream, paths: &Paths) -> TokenStream {
    let tier_budget_rule = paths.runtime(Runtime::TierBudgetRule);
    let rule = local("__budget_rule");
    let tier_budget = paths.runtime(Runtime::TierBudget);
    let (some, none) = (paths.some(), paths.none());
    let span_of = |tokens: TokenStream| {
        tokens
            .into_iter()
            .next()
            .map_or_else(Span::call_site, |t| t.span())
    };
    let panic_at = |span: Span| panic_at(paths, span, quote!("{}", #rule.message()));
    let total_span = tiers.total.expr().span();
    let mut arms = Vec::new();
    for tier in [Tier::Summary, Tier::Linked, Tier::Raw] {
        let variant = tier_tokens(tier, paths);
        let share_span = tiers.share(tier).map(|f| f.expr().span());
        let share_panic = panic_at(share_span.unwrap_or_else(Span::call_site));
        let limit_panic = panic_at(share_span.unwrap_or(total_span));
        arms.push(quote! {
            #some(#rule @ #tier_budget_rule::ShareIsPercentage(#variant)) => #share_panic,
            #some(#rule @ #tier_budget_rule::TierLimitPositive(#variant)) => #limit_panic,
        });
    }
    let sum_panic = panic_at(span_of(sum_tokens(tiers)));
    let headroom_panic = panic_at(
        tiers
            .headroom
            .as_ref()
            .map_or_else(Span::call_site, |h| h.expr().span()),
    );
    let meta_panic = panic_at(tiers.meta.as_ref().map_or(total_span, |m| m.expr().span()));
    let other_panic = panic_at(Span::call_site());
    quote! {
        match #tier_budget::broken_rule(#args) {
            #none => {}
            #(#arms)*
            #some(#rule @ #tier_budget_rule::SharesSumTo100) => #sum_panic,
            #some(#rule @ #tier_budget_rule::HeadroomIsPercentage) => #headroom_panic,
            #some(#rule @ #tier_budget_rule::MetaWithinTotal) => #meta_panic,
            #some(#rule) => #other_panic,
        }
    }
}

fn tier_tokens(tier: Tier, paths: &Paths) -> TokenStream {
    paths.variant(Runtime::Tier, tier)
}
