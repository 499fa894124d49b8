//! Form 3: `budget!(contract { .. })`, the terms of a budget contract.
//!
//! ```text
//! budget!(contract {
//!     context_window: 16_384,
//!     prompt_file: "prompts/answer.txt", // or `prompt: "…"`, or `prompt_tokens: 1_040`
//!     content_type: prose,               // optional, how the prompt is estimated
//!     max_history: 2_000,
//!     max_context: 12_000,
//!     max_output: 1_024,
//!     safety_margin: 128,                // optional, default DEFAULT_SAFETY_MARGIN_TOKENS (128)
//! })
//! ```
//!
//! The fixed prompt is estimated here at the token-budget rules' fixed
//! ratios (`budget_rules::ratio_estimate`, what the runtime's `RatioEstimator`
//! computes). A
//! `prompt_file` is read relative to `CARGO_MANIFEST_DIR` and also named in
//! an `include_bytes!`, so editing the file recompiles the crate (and
//! re-runs this macro). The expansion is a `ContractTerms` constant:
//!
//! ```text
//! {
//!     const _: &[u8] = include_bytes!("/abs/path/prompts/answer.txt");
//!     const __BUDGET_MACRO_VALUE: ContractTerms = {
//!         let terms = ContractTerms { fixed_prompt_tokens: 1040u64, .. };
//!         terms
//!     };
//!     __BUDGET_MACRO_VALUE
//! }
//! ```
//!
//! With every operand known, the macro checks the inequality with
//! `ContractTerms::check` and reports the violation, naming every term, on
//! `context_window`. Otherwise the constant checks `ContractTerms::total`
//! against the window during constant evaluation and panics with a fixed
//! message.

use std::path::PathBuf;

use budget_rules::{
    ContentType, ContractTerms, DEFAULT_SAFETY_MARGIN_TOKENS, count_chars, ratio_estimate,
};
use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::{Expr, Lit, LitStr};

use super::fields::{Field, Fields};
use super::operand::{self, Int, IntType};
use super::{Form, local, panic_at};
use crate::ctxt::Ctxt;
use crate::paths::{Paths, Runtime};

/// Where the fixed prompt's token count comes from.
enum Prompt {
    /// Estimated from text written in the invocation.
    Text { tokens: u64, lit: LitStr },
    /// Estimated from a file; `path` is absolute, for `include_bytes!`.
    File {
        tokens: u64,
        lit: LitStr,
        path: PathBuf,
    },
    /// Given as a number of tokens.
    Tokens(Int),
}

impl Prompt {
    fn tokens(&self) -> TokenStream {
        match self {
            Self::Text { tokens, lit } | Self::File { tokens, lit, .. } => {
                let mut literal = proc_macro2::Literal::u64_suffixed(*tokens);
                literal.set_span(lit.span());
                literal.into_token_stream()
            }
            Self::Tokens(int) => int.tokens(IntType::U64),
        }
    }

    fn value(&self) -> Option<u64> {
        match self {
            Self::Text { tokens, .. } | Self::File { tokens, .. } => Some(*tokens),
            // In range: checked against u64 when evaluated.
            Self::Tokens(int) => int.value().map(|v| v as u64),
        }
    }
}

/// The operands of a contract, as written.
pub(super) struct Contract {
    context_window: Int,
    prompt: Prompt,
    max_history: Int,
    max_context: Int,
    max_output: Int,
    /// `None`: the default.
    safety_margin: Option<Int>,
}

pub(super) const FORM: Form<Contract> = Form {
    name: "a budget contract",
    keys: &[
        "context_window",
        "prompt",
        "prompt_file",
        "prompt_tokens",
        "content_type",
        "max_history",
        "max_context",
        "max_output",
        "safety_margin",
    ],
    parse,
    validate,
    generate,
};

fn parse(mut fields: Fields, cx: &Ctxt) -> Option<Contract> {
    let context_window = fields.required_int("context_window", IntType::U64, cx);
    let max_history = fields.required_int("max_history", IntType::U64, cx);
    let max_context = fields.required_int("max_context", IntType::U64, cx);
    let max_output = fields.required_int("max_output", IntType::U64, cx);
    let safety_margin = fields.optional_int("safety_margin", IntType::U64, cx);
    let prompt = prompt(&mut fields, cx);
    Some(Contract {
        context_window: context_window?,
        prompt: prompt?,
        max_history: max_history?,
        max_context: max_context?,
        max_output: max_output?,
        safety_margin: safety_margin?,
    })
}

/// The fixed prompt: exactly one of `prompt`, `prompt_file`, `prompt_tokens`.
fn prompt(fields: &mut Fields, cx: &Ctxt) -> Option<Prompt> {
    let text = fields.take("prompt");
    let file = fields.take("prompt_file");
    let tokens = fields.take("prompt_tokens");
    let content_type = fields.take("content_type");
    let given: Vec<&Field> = [&text, &file, &tokens].into_iter().flatten().collect();
    if given.len() > 1 {
        for field in &given[1..] {
            cx.error_spanned_by(
                &field.key,
                format!(
                    "`{}` conflicts with `{}`: give the fixed prompt once",
                    field.key, given[0].key
                ),
            );
        }
        return None;
    }
    if let (Some(tokens), Some(content_type)) = (&tokens, &content_type) {
        cx.error_spanned_by(
            &content_type.key,
            format!(
                "`content_type` says how to estimate a prompt's text; `{}` is already a token count",
                tokens.key
            ),
        );
        return None;
    }
    let content_type = match content_type {
        Some(field) => Some(parse_content_type(field, cx)?),
        None => None,
    };
    if let Some(field) = text {
        let lit = string(field, cx)?;
        let content_type = content_type.unwrap_or_default();
        let tokens = ratio_estimate(count_chars(&lit.value()), content_type);
        Some(Prompt::Text { tokens, lit })
    } else if let Some(field) = file {
        let lit = string(field, cx)?;
        let (path, text) = read_prompt_file(&lit, cx)?;
        let content_type = content_type.unwrap_or_else(|| content_type_of(&path));
        let tokens = ratio_estimate(count_chars(&text), content_type);
        Some(Prompt::File { tokens, lit, path })
    } else if let Some(field) = tokens {
        let expr = field.into_expr(cx)?;
        operand::int(expr, IntType::U64, "prompt_tokens", cx).map(Prompt::Tokens)
    } else {
        cx.error_at(
            Span::call_site(),
            format!(
                "missing the fixed prompt in {}: give one of `prompt: \"…\"`, \
                 `prompt_file: \"path\"` or `prompt_tokens: N` (0 for none)",
                FORM.name
            ),
        );
        None
    }
}

fn string(field: Field, cx: &Ctxt) -> Option<LitStr> {
    let key = field.key.to_string();
    match field.into_expr(cx)? {
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(lit), ..
        }) => Some(lit),
        other => {
            cx.error_spanned_by(other, format!("`{key}` takes a string literal"));
            None
        }
    }
}

/// `code`, `prose`, `yaml` or `markdown`, as an identifier or a string.
fn parse_content_type(field: Field, cx: &Ctxt) -> Option<ContentType> {
    let expr = field.into_expr(cx)?;
    let name = match &expr {
        Expr::Path(path) => path.path.get_ident().map(ToString::to_string),
        Expr::Lit(syn::ExprLit {
            lit: Lit::Str(lit), ..
        }) => Some(lit.value()),
        _ => None,
    };
    match name.as_deref().map(str::parse::<ContentType>) {
        Some(Ok(content_type)) => Some(content_type),
        Some(Err(error)) => {
            cx.error_spanned_by(&expr, format!("content_type: {error}"));
            None
        }
        None => {
            cx.error_spanned_by(
                &expr,
                "content_type: expected one of code, prose, yaml, markdown",
            );
            None
        }
    }
}

/// Reads `lit` relative to the invoking crate's `CARGO_MANIFEST_DIR`.
fn read_prompt_file(lit: &LitStr, cx: &Ctxt) -> Option<(PathBuf, String)> {
    let Some(dir) = std::env::var_os("CARGO_MANIFEST_DIR") else {
        cx.error_spanned_by(
            lit,
            "prompt_file: CARGO_MANIFEST_DIR is not set (build with Cargo)",
        );
        return None;
    };
    let path = PathBuf::from(dir).join(lit.value());
    match std::fs::read_to_string(&path) {
        Ok(text) => Some((path, text)),
        Err(error) => {
            cx.error_spanned_by(
                lit,
                format!(
                    "prompt_file: cannot read {:?} (relative to CARGO_MANIFEST_DIR): {error}",
                    lit.value()
                ),
            );
            None
        }
    }
}

/// The content type a prompt file is estimated as when none is given: the
/// contract loader's convention, `Prose` for `.txt` and `Markdown` (the
/// default content type) for anything else.
fn content_type_of(path: &std::path::Path) -> ContentType {
    match path.extension().and_then(|e| e.to_str()) {
        Some("txt") => ContentType::Prose,
        _ => ContentType::default(),
    }
}

/// Every term's value, or `None` if one is left to the compiler.
fn known_terms(contract: &Contract) -> Option<ContractTerms> {
    // In range: every `Known` value was checked against u64.
    let int = |operand: &Int| operand.value().map(|v| v as u64);
    Some(ContractTerms {
        fixed_prompt_tokens: contract.prompt.value()?,
        max_history_tokens: int(&contract.max_history)?,
        max_context_tokens: int(&contract.max_context)?,
        max_output_tokens: int(&contract.max_output)?,
        safety_margin_tokens: match &contract.safety_margin {
            Some(margin) => int(margin)?,
            None => DEFAULT_SAFETY_MARGIN_TOKENS,
        },
        context_window: int(&contract.context_window)?,
    })
}

/// Checks the inequality with the runtime's `ContractTerms::check`.
fn validate(contract: &Contract, cx: &Ctxt) {
    if let Some(Err(violation)) = known_terms(contract).map(|terms| terms.check()) {
        cx.error_spanned_by(
            contract.context_window.expr(),
            format!("budget contract {violation}"),
        );
    }
}

fn generate(contract: &Contract, paths: &Paths) -> TokenStream {
    let terms_type = paths.runtime(Runtime::ContractTerms);
    let (some, std) = (paths.some(), paths.std());
    let (terms, total) = (local("__budget_terms"), local("__budget_total"));
    let prompt = contract.prompt.tokens();
    let history = contract.max_history.tokens(IntType::U64);
    let context = contract.max_context.tokens(IntType::U64);
    let output = contract.max_output.tokens(IntType::U64);
    let safety = contract.safety_margin.as_ref().map_or_else(
        || quote!(#DEFAULT_SAFETY_MARGIN_TOKENS),
        |m| m.tokens(IntType::U64),
    );
    let window = contract.context_window.tokens(IntType::U64);
    let tracking = match &contract.prompt {
        Prompt::File { path, lit, .. } => {
            let path = path.to_string_lossy();
            quote_spanned!(lit.span()=> const _: &[u8] = #std::include_bytes!(#path);)
        }
        _ => TokenStream::new(),
    };
    let check = if known_terms(contract).is_some() {
        TokenStream::new() // checked by the macro
    } else {
        let exceeded = panic_at(
            paths,
            Span::call_site(),
            quote!(
                "budget contract: fixed prompt + history + context + output + safety margin exceeds context_window"
            ),
        );
        quote! {
            match #terms.total() {
                #some(#total) if #total <= #terms.context_window => {}
                _ => #exceeded,
            }
        }
    };
    quote! {
        {
            #tracking
            const __BUDGET_MACRO_VALUE: #terms_type = {
                let #terms = #terms_type {
                    fixed_prompt_tokens: #prompt,
                    max_history_tokens: #history,
                    max_context_tokens: #context,
                    max_output_tokens: #output,
                    safety_margin_tokens: #safety,
                    context_window: #window,
                };
                #check
                #terms
            };
            __BUDGET_MACRO_VALUE
        }
    }
}
