//! Checks shared by the entry points: errors carry their numbers, reports
//! account for every input.

use std::error::Error;

use crate::ledger::{Broken, Verdict};

/// The numbers written in `text`: integer literals as written, and every
/// literal (decimal or exponent form) as an `f64`.
fn numbers(text: &str) -> Vec<(String, f64)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let negative = i > 0 && bytes[i - 1] == b'-';
        let start = if negative { i - 1 } else { i };
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        }
        if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
            let mut j = i + 1;
            if j < bytes.len() && (bytes[j] == b'-' || bytes[j] == b'+') {
                j += 1;
            }
            if j < bytes.len() && bytes[j].is_ascii_digit() {
                i = j;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
        }
        let literal = &text[start..i];
        if let Ok(value) = literal.parse::<f64>() {
            found.push((literal.trim_start_matches('-').to_owned(), value));
        }
    }
    found
}

/// Every number among the error's fields (its `Debug` form) appears in its
/// message or in the message of an error in its source chain: as written
/// for integers, as the same `f64` value for decimals. An error names the
/// numbers behind it.
pub fn numbers_carried(error: &(dyn Error + 'static)) -> Verdict {
    let debug = format!("{error:?}");
    let mut message = error.to_string();
    if message.trim().is_empty() {
        return Err(Broken::BadError(format!("empty message for {debug}")));
    }
    let mut source = error.source();
    while let Some(cause) = source {
        message.push_str(" / ");
        message.push_str(&cause.to_string());
        source = cause.source();
    }
    let shown = numbers(&message);
    for (literal, value) in numbers(&debug) {
        let integer = !literal.contains(['.', 'e', 'E']);
        let carried = if integer {
            message.contains(&literal)
        } else {
            shown.iter().any(|&(_, v)| v == value || v == -value)
        };
        if !carried {
            return Err(Broken::BadError(format!(
                "message {message:?} does not carry {literal} from {debug}"
            )));
        }
    }
    Ok(())
}

/// Every index in `0..n` appears exactly once among `seen`.
pub fn each_index_once(n: usize, seen: impl IntoIterator<Item = usize>, what: &str) -> Verdict {
    let mut count = vec![0u32; n];
    for index in seen {
        match count.get_mut(index) {
            Some(c) => *c += 1,
            None => return Err(Broken::Loss(format!("{what}: index {index} of {n} inputs"))),
        }
    }
    match count.iter().position(|&c| c != 1) {
        None => Ok(()),
        Some(index) => Err(Broken::Loss(format!(
            "{what}: input {index} accounted for {} times",
            count[index]
        ))),
    }
}

/// Fails with `broken` unless `holds`.
pub fn ensure(holds: bool, broken: impl FnOnce() -> Broken) -> Verdict {
    if holds { Ok(()) } else { Err(broken()) }
}
