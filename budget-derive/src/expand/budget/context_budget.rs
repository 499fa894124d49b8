//! Form 1: `budget! { max_tokens: .., target_tokens: .., .. }`, a `ContextBudget`.
//!
//! When every operand is a literal (or arithmetic on literals), the macro
//! runs the runtime's own validation (`ContextBudgetBuilder::build`) and
//! reports the broken rule, with its numbers, on the offending field. The
//! expansion is then the chain of `const` constructors:
//!
//! ```text
//! {
//!     const __BUDGET_MACRO_SLOTS: &[ReservedSlot] =
//!         &[ReservedSlot::new(ContextKind::from_static("ToolOutput"), 2000i64), ..];
//!     const __BUDGET_MACRO_VALUE: ContextBudget = {
//!         let budget = ContextBudget::new_const(128000u64, 100000u64);
//!         let budget = budget.with_output_reserve(4096u64);      // if given
//!         let budget = budget.with_safety_margin_percent(10f64); // if given
//!         let budget = budget.with_reserved_slots(__BUDGET_MACRO_SLOTS); // if given
//!         budget
//!     };
//!     __BUDGET_MACRO_VALUE
//! }
//! ```
//!
//! The inner `const` item forces constant evaluation wherever the macro is
//! used (`const`, `static` or a plain expression). When an operand is
//! something the macro cannot evaluate (a path to a constant), the constant
//! first matches `ContextBudget::broken_rule` on the values and panics with
//! `BudgetRule::message`, each rule's panic spanned at the field it concerns,
//! so `cargo check` rejects the budget with the rule named on that field.

use budget_rules::{ContextBudget, ContextBudgetError, ContextKind};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::Expr;
use syn::spanned::Spanned;

use super::fields::{Fields, MapEntry, MapKey};
use super::operand::{self, Float, Int, IntType, written};
use super::{Form, local, panic_at};
use crate::ctxt::Ctxt;
use crate::paths::{Paths, Runtime};

/// One `Kind: count` entry of `reserved`.
struct Slot {
    key: MapKey,
    kind: ContextKind,
    min_items: Int,
}

/// The operands of a budget, as written.
pub(super) struct Budget {
    max_tokens: Int,
    target_tokens: Int,
    output_reserve: Option<Int>,
    safety_margin: Option<Float>,
    reserved: Option<Vec<Slot>>,
}

pub(super) const FORM: Form<Budget> = Form {
    name: "a ContextBudget",
    keys: &[
        "max_tokens",
        "target_tokens",
        "output_reserve",
        "safety_margin",
        "reserved",
    ],
    parse,
    validate,
    generate,
};

fn parse(mut fields: Fields, cx: &Ctxt) -> Option<Budget> {
    let max_tokens = fields.required_int("max_tokens", IntType::U64, cx);
    let target_tokens = fields.required_int("target_tokens", IntType::U64, cx);
    let output_reserve = fields.optional_int("output_reserve", IntType::U64, cx);
    let safety_margin = fields.optional_float("safety_margin", cx);
    let reserved = match fields.take("reserved") {
        None => Some(None),
        Some(field) => field
            .into_map(cx)
            .and_then(|entries| {
                let slots: Vec<Option<Slot>> =
                    entries.into_iter().map(|entry| slot(entry, cx)).collect();
                slots.into_iter().collect()
            })
            .map(Some),
    };
    Some(Budget {
        max_tokens: max_tokens?,
        target_tokens: target_tokens?,
        output_reserve: output_reserve?,
        safety_margin: safety_margin?,
        reserved: reserved?,
    })
}

fn slot(entry: MapEntry, cx: &Ctxt) -> Option<Slot> {
    let kind = ContextKind::new(entry.key.text())
        .map_err(|error| cx.error_at(entry.key.span(), format!("reserved: {error}")))
        .ok();
    let min_items = operand::int(entry.value, IntType::I64, "reserved", cx);
    Some(Slot {
        key: entry.key,
        kind: kind?,
        min_items: min_items?,
    })
}

/// Runs the runtime's validation when every operand is known, and reports
/// the broken rule on the field it concerns.
fn validate(budget: &Budget, cx: &Ctxt) {
    let Some(values) = known_values(budget) else {
        return; // checked during constant evaluation, see `rule_check`
    };
    let (max, target, reserve, margin, slots) = values;
    let mut builder = ContextBudget::builder(max, target)
        .output_reserve(reserve)
        .safety_margin_percent(margin);
    for (kind, min_items) in slots {
        builder = builder.reserved_slot(kind, min_items);
    }
    if let Err(error) = builder.build() {
        cx.error_spanned_by(
            offending_tokens(budget, &error),
            format!("invalid ContextBudget: {error}"),
        );
    }
}

type KnownValues = (u64, u64, u64, f64, Vec<(ContextKind, i64)>);

/// Every operand's value, or `None` if one is left to the compiler.
fn known_values(budget: &Budget) -> Option<KnownValues> {
    // In range: every `Known` value was checked against its type.
    let int = |operand: &Int| operand.value().map(|v| v as i64);
    let tokens = |operand: &Int| operand.value().map(|v| v as u64);
    let slots = match &budget.reserved {
        Some(slots) => slots
            .iter()
            .map(|slot| Some((slot.kind.clone(), int(&slot.min_items)?)))
            .collect::<Option<Vec<_>>>()?,
        None => Vec::new(),
    };
    Some((
        tokens(&budget.max_tokens)?,
        tokens(&budget.target_tokens)?,
        budget.output_reserve.as_ref().map_or(Some(0), tokens)?,
        budget
            .safety_margin
            .as_ref()
            .map_or(Some(0.0), Float::value)?,
        slots,
    ))
}

/// What the error belongs on: the value that breaks the rule.
fn offending_tokens(budget: &Budget, error: &ContextBudgetError) -> TokenStream {
    let slots = budget.reserved.as_deref().unwrap_or_default();
    match error {
        ContextBudgetError::TargetExceedsMax { .. } => {
            budget.target_tokens.expr().to_token_stream()
        }
        ContextBudgetError::OutputReserveExceedsMax { .. } => {
            written(budget.output_reserve.as_ref())
        }
        ContextBudgetError::SafetyMarginOutOfRange { .. } => written(budget.safety_margin.as_ref()),
        ContextBudgetError::NegativeReservedSlot { .. } => slots
            .iter()
            .find(|slot| slot.min_items.value().is_some_and(|v| v < 0))
            .map(|slot| slot.min_items.expr().to_token_stream())
            .unwrap_or_default(),
        ContextBudgetError::DuplicateReservedSlot { .. } => slots
            .iter()
            .enumerate()
            .find(|(i, slot)| slots[..*i].iter().any(|earlier| earlier.kind == slot.kind))
            .map(|(_, slot)| slot.key.to_token_stream())
            .unwrap_or_default(),
        // Empty tokens: the error goes on the whole invocation.
        _ => TokenStream::new(),
    }
}

fn generate(budget: &Budget, paths: &Paths) -> TokenStream {
    let context_budget = paths.runtime(Runtime::ContextBudget);
    let reserved_slot = paths.runtime(Runtime::ReservedSlot);
    let kind = paths.runtime(Runtime::ContextKind);
    let value = local("__budget_value");
    let max = budget.max_tokens.tokens(IntType::U64);
    let target = budget.target_tokens.tokens(IntType::U64);
    // Each step is spanned at the operand it adds.
    let span = budget.target_tokens.expr().span();
    let mut steps = vec![quote_spanned! {span=>
        let #value = #context_budget::new_const(#max, #target);
    }];
    if let Some(reserve) = &budget.output_reserve {
        let tokens = reserve.tokens(IntType::U64);
        steps.push(quote_spanned! {reserve.expr().span()=>
            let #value = #value.with_output_reserve(#tokens);
        });
    }
    if let Some(margin) = &budget.safety_margin {
        let tokens = margin.tokens();
        steps.push(quote_spanned! {margin.expr().span()=>
            let #value = #value.with_safety_margin_percent(#tokens);
        });
    }
    let mut slots_item = TokenStream::new();
    if let Some(slots) = &budget.reserved {
        let entries = slots.iter().map(|slot| {
            let label = slot.kind.as_str();
            let min_items = slot.min_items.tokens(IntType::I64);
            quote_spanned! {slot.min_items.expr().span()=>
                #reserved_slot::new(#kind::from_static(#label), #min_items)
            }
        });
        slots_item = quote! {
            const __BUDGET_MACRO_SLOTS: &[#reserved_slot] = &[#(#entries),*];
        };
        steps.push(quote! {
            let #value = #value.with_reserved_slots(__BUDGET_MACRO_SLOTS);
        });
    }
    let check = if known_values(budget).is_some() {
        TokenStream::new() // validated by the macro
    } else {
        rule_check(budget, paths)
    };
    quote! {
        {
            #slots_item
            const __BUDGET_MACRO_VALUE: #context_budget = {
                #check
                #(#steps)*
                #value
            };
            __BUDGET_MACRO_VALUE
        }
    }
}

/// A `match` on `ContextBudget::broken_rule` for operands the macro could not
/// evaluate: a broken rule panics during constant evaluation with the rule's
/// message, spanned at the field it concerns.
fn rule_check(budget: &Budget, paths: &Paths) -> TokenStream {
    let context_budget = paths.runtime(Runtime::ContextBudget);
    let budget_rule = paths.runtime(Runtime::BudgetRule);
    let rule = local("__budget_rule");
    let (some, none) = (paths.some(), paths.none());
    let max = budget.max_tokens.tokens(IntType::U64);
    let target = budget.target_tokens.tokens(IntType::U64);
    let reserve = budget
        .output_reserve
        .as_ref()
        .map_or_else(|| quote!(0u64), |reserve| reserve.tokens(IntType::U64));
    let margin = budget
        .safety_margin
        .as_ref()
        .map_or_else(|| quote!(0f64), Float::tokens);
    let slots = if budget.reserved.is_some() {
        quote!(__BUDGET_MACRO_SLOTS)
    } else {
        quote!(&[])
    };
    let panic_at = |expr: Option<&Expr>| {
        let span = expr.map_or_else(Span::call_site, Spanned::span);
        panic_at(paths, span, quote!("{}", #rule.message()))
    };
    let target_panic = panic_at(Some(budget.target_tokens.expr()));
    let reserve_panic = panic_at(budget.output_reserve.as_ref().map(Int::expr));
    let margin_panic = panic_at(budget.safety_margin.as_ref().map(Float::expr));
    let slots_panic = panic_at(
        budget
            .reserved
            .as_ref()
            .and_then(|slots| slots.iter().find(|s| s.min_items.value().is_none()))
            .map(|slot| slot.min_items.expr()),
    );
    quote! {
        match #context_budget::broken_rule(#max, #target, #reserve, #margin, #slots) {
            #none => {}
            #some(#rule @ #budget_rule::TargetWithinMax) => #target_panic,
            #some(#rule @ #budget_rule::OutputReserveWithinMax) => #reserve_panic,
            #some(#rule @ #budget_rule::SafetyMarginIsPercentage) => #margin_panic,
            // The reserved-slot rules, and any rule added later.
            #some(#rule) => #slots_panic,
        }
    }
}
