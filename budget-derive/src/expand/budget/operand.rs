//! Operands of the budget forms: literals and arithmetic on literals are
//! evaluated here, with overflow checks; anything else (paths to constants,
//! `const fn` calls) is left to the compiler's constant evaluation.

use proc_macro2::{Literal, TokenStream};
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{BinOp, Expr, Lit, UnOp};

use crate::ctxt::Ctxt;

/// The integer type a field has in the generated code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum IntType {
    /// Reserved-slot item counts of `ContextBudget` (`i64`, may be
    /// negative before validation).
    I64,
    /// Token counts (`u64`).
    U64,
}

impl IntType {
    fn name(self) -> &'static str {
        match self {
            Self::I64 => "i64",
            Self::U64 => "u64",
        }
    }

    fn contains(self, value: i128) -> bool {
        match self {
            Self::I64 => i64::try_from(value).is_ok(),
            Self::U64 => u64::try_from(value).is_ok(),
        }
    }
}

/// An operand: a value the macro evaluated, or an expression it leaves to
/// the compiler (a path to a constant, a `const fn` call…).
pub(crate) enum Operand<T> {
    /// Evaluated by the macro.
    Known { value: T, expr: Expr },
    /// Left to the compiler.
    Opaque(Expr),
}

/// An integer operand, evaluated in `i128` and range-checked for its type.
pub(crate) type Int = Operand<i128>;

/// A floating-point operand (a percentage).
pub(crate) type Float = Operand<f64>;

impl<T: Copy> Operand<T> {
    /// The value, when the macro could evaluate it.
    pub(crate) fn value(&self) -> Option<T> {
        match self {
            Self::Known { value, .. } => Some(*value),
            Self::Opaque(_) => None,
        }
    }

    /// The operand as written.
    pub(crate) fn expr(&self) -> &Expr {
        match self {
            Self::Known { expr, .. } | Self::Opaque(expr) => expr,
        }
    }

    /// `literal` with the span of what the user wrote, for a known value;
    /// the user's expression otherwise. Either is always a whole argument
    /// or field value in generated code, so no parentheses are needed.
    fn tokens_with(&self, literal: impl FnOnce(T) -> Option<Literal>) -> TokenStream {
        match self {
            Self::Known { value, expr } => match literal(*value) {
                Some(mut literal) => {
                    literal.set_span(expr.span());
                    literal.into_token_stream()
                }
                None => expr.into_token_stream(),
            },
            Self::Opaque(expr) => expr.into_token_stream(),
        }
    }
}

/// The operand as written, or no tokens when it is absent (an error spanning
/// no tokens is reported on the whole invocation).
pub(crate) fn written<T: Copy>(operand: Option<&Operand<T>>) -> TokenStream {
    operand.map_or_else(TokenStream::new, |operand| operand.expr().to_token_stream())
}

impl Int {
    /// The operand in generated code, as an integer of type `ty`.
    pub(crate) fn tokens(&self, ty: IntType) -> TokenStream {
        // In range: checked when the operand was evaluated.
        self.tokens_with(|value| {
            Some(match ty {
                IntType::I64 => Literal::i64_suffixed(value as i64),
                IntType::U64 => Literal::u64_suffixed(value as u64),
            })
        })
    }
}

impl Float {
    /// The operand in generated code, as an `f64`.
    pub(crate) fn tokens(&self) -> TokenStream {
        // A non-finite value has no literal; it breaks a rule anyway.
        self.tokens_with(|value| value.is_finite().then(|| Literal::f64_suffixed(value)))
    }
}

/// Evaluates the operand of field `field` as an integer of type `ty`.
/// `None` when an error was reported.
pub(crate) fn int(expr: Expr, ty: IntType, field: &str, cx: &Ctxt) -> Option<Int> {
    match eval_int(&expr, ty, field, cx)? {
        Some(value) => Some(Int::Known { value, expr }),
        None => Some(Int::Opaque(expr)),
    }
}

/// `Some(Some(v))`: evaluated; `Some(None)`: opaque; `None`: error reported.
fn eval_int(expr: &Expr, ty: IntType, field: &str, cx: &Ctxt) -> Option<Option<i128>> {
    let value = match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Int(int) => {
                let suffix = int.suffix();
                if !suffix.is_empty() && suffix != ty.name() {
                    cx.error_spanned_by(
                        int,
                        format!(
                            "{field}: expected an integer of type {}, found suffix `{suffix}`",
                            ty.name()
                        ),
                    );
                    return None;
                }
                match int.base10_parse::<i128>() {
                    Ok(value) => value,
                    Err(_) => {
                        cx.error_spanned_by(
                            int,
                            format!("{field}: {int} does not fit in {}", ty.name()),
                        );
                        return None;
                    }
                }
            }
            _ => {
                cx.error_spanned_by(
                    lit,
                    format!("{field}: expected an integer number of tokens"),
                );
                return None;
            }
        },
        Expr::Paren(inner) => return eval_int(&inner.expr, ty, field, cx),
        Expr::Group(inner) => return eval_int(&inner.expr, ty, field, cx),
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => {
            let Some(inner) = eval_int(&unary.expr, ty, field, cx)? else {
                return Some(None);
            };
            // An i128 holds the negation of any i64 or u64.
            -inner
        }
        Expr::Binary(binary) => {
            let Some(op) = Arithmetic::of(&binary.op) else {
                return Some(None);
            };
            // Evaluate both sides first so both report their errors.
            let left = eval_int(&binary.left, ty, field, cx);
            let right = eval_int(&binary.right, ty, field, cx);
            let (Some(Some(left)), Some(Some(right))) = (left, right) else {
                return if left.is_none() || right.is_none() {
                    None
                } else {
                    Some(None)
                };
            };
            if op == Arithmetic::Div && right == 0 {
                cx.error_spanned_by(expr, format!("{field}: division by zero"));
                return None;
            }
            match op.apply(left, right) {
                Some(value) if ty.contains(value) => value,
                _ => {
                    cx.error_spanned_by(
                        expr,
                        format!(
                            "{field}: {left} {} {right} overflows {}",
                            op.symbol(),
                            ty.name()
                        ),
                    );
                    return None;
                }
            }
        }
        _ => return Some(None),
    };
    if !ty.contains(value) {
        cx.error_spanned_by(
            expr,
            format!("{field}: {value} does not fit in {}", ty.name()),
        );
        return None;
    }
    Some(Some(value))
}

/// The four operators the macro evaluates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arithmetic {
    Add,
    Sub,
    Mul,
    Div,
}

impl Arithmetic {
    fn of(op: &BinOp) -> Option<Self> {
        match op {
            BinOp::Add(_) => Some(Self::Add),
            BinOp::Sub(_) => Some(Self::Sub),
            BinOp::Mul(_) => Some(Self::Mul),
            BinOp::Div(_) => Some(Self::Div),
            _ => None,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Self::Add => "+",
            Self::Sub => "-",
            Self::Mul => "*",
            Self::Div => "/",
        }
    }

    /// Integer arithmetic as Rust does it (division truncates toward zero);
    /// `None` on i128 overflow.
    fn apply(self, left: i128, right: i128) -> Option<i128> {
        match self {
            Self::Add => left.checked_add(right),
            Self::Sub => left.checked_sub(right),
            Self::Mul => left.checked_mul(right),
            Self::Div => left.checked_div(right),
        }
    }
}

/// Evaluates the operand of field `field` as an `f64`: a float or integer
/// literal, possibly negated. `None` when an error was reported.
pub(crate) fn float(expr: Expr, field: &str, cx: &Ctxt) -> Option<Float> {
    match eval_float(&expr, field, cx)? {
        Some(value) => Some(Float::Known { value, expr }),
        None => Some(Float::Opaque(expr)),
    }
}

fn eval_float(expr: &Expr, field: &str, cx: &Ctxt) -> Option<Option<f64>> {
    let parsed = match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Float(float) if matches!(float.suffix(), "" | "f64") => float.base10_parse(),
            Lit::Int(int) if int.suffix().is_empty() => int.base10_parse(),
            _ => {
                cx.error_spanned_by(lit, format!("{field}: expected an f64 number"));
                return None;
            }
        },
        Expr::Paren(inner) => return eval_float(&inner.expr, field, cx),
        Expr::Group(inner) => return eval_float(&inner.expr, field, cx),
        Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => {
            return Some(eval_float(&unary.expr, field, cx)?.map(|v| -v));
        }
        _ => return Some(None),
    };
    match parsed {
        Ok(value) => Some(Some(value)),
        Err(error) => {
            cx.error_spanned_by(expr, format!("{field}: {error}"));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(source: &str, ty: IntType) -> Result<Option<i128>, String> {
        let expr: Expr = syn::parse_str(source).unwrap();
        let cx = Ctxt::new();
        let value = eval_int(&expr, ty, "field", &cx);
        match (value, cx.check()) {
            (Some(value), Ok(())) => Ok(value),
            (None, Err(error)) => Err(error.to_string()),
            (value, errors) => panic!("{value:?} with errors {errors:?}"),
        }
    }

    #[test]
    fn arithmetic_follows_rust_precedence_and_truncation() {
        assert_eq!(eval("128 * 1024", IntType::I64), Ok(Some(131_072)));
        assert_eq!(eval("100_000 - 4_096", IntType::I64), Ok(Some(95_904)));
        assert_eq!(eval("2 * (3 + 1) - 10 / 3", IntType::I64), Ok(Some(5)));
        assert_eq!(eval("-7 / 2", IntType::I64), Ok(Some(-3)));
        assert_eq!(eval("-(-4_096)", IntType::I64), Ok(Some(4_096)));
        assert_eq!(eval("1_000i64", IntType::I64), Ok(Some(1_000)));
        assert_eq!(eval("0x10", IntType::U64), Ok(Some(16)));
    }

    #[test]
    fn paths_and_other_expressions_are_left_to_the_compiler() {
        assert_eq!(eval("WINDOW", IntType::I64), Ok(None));
        assert_eq!(eval("WINDOW - 4_096", IntType::I64), Ok(None));
        assert_eq!(eval("limits::MAX * 2", IntType::I64), Ok(None));
        assert_eq!(eval("7 % 2", IntType::I64), Ok(None));
        assert_eq!(eval("window()", IntType::I64), Ok(None));
    }

    #[test]
    fn overflow_is_checked_in_the_field_type() {
        assert_eq!(
            eval("9_223_372_036_854_775_807 + 1", IntType::I64),
            Err("field: 9223372036854775807 + 1 overflows i64".into())
        );
        // Fine as u64, not as i64.
        assert_eq!(
            eval("9_223_372_036_854_775_807 + 1", IntType::U64),
            Ok(Some(9_223_372_036_854_775_808))
        );
        assert_eq!(
            eval("0 - 1", IntType::U64),
            Err("field: 0 - 1 overflows u64".into())
        );
        assert_eq!(
            eval("-1", IntType::U64),
            Err("field: -1 does not fit in u64".into())
        );
        // An intermediate overflow is an error even if the result would fit.
        assert_eq!(
            eval("18_446_744_073_709_551_615 * 2 / 2", IntType::U64),
            Err("field: 18446744073709551615 * 2 overflows u64".into())
        );
        assert_eq!(
            eval("1 / (2 - 2)", IntType::I64),
            Err("field: division by zero".into())
        );
    }

    #[test]
    fn wrong_literals_are_errors() {
        assert!(
            eval("1.5", IntType::I64)
                .unwrap_err()
                .contains("expected an integer")
        );
        assert!(
            eval("1u32", IntType::I64)
                .unwrap_err()
                .contains("suffix `u32`")
        );
        assert!(eval("\"1\"", IntType::I64).is_err());
    }

    #[test]
    fn floats_accept_integer_and_float_literals() {
        let float = |source: &str| {
            let cx = Ctxt::new();
            let value = eval_float(&syn::parse_str(source).unwrap(), "margin", &cx);
            (value, cx.check().is_ok())
        };
        assert_eq!(float("10.0"), (Some(Some(10.0)), true));
        assert_eq!(float("10"), (Some(Some(10.0)), true));
        assert_eq!(float("-(0.5)"), (Some(Some(-0.5)), true));
        assert_eq!(float("MARGIN"), (Some(None), true));
        assert_eq!(float("1.0f32"), (None, false));
    }
}
