//! The one conversion from a floating-point token amount to a count.

/// `value` as a token count: the fractional part dropped, negative numbers
/// and NaN as 0, values beyond `u64::MAX` as `u64::MAX`. Round first
/// (`floor`, `ceil`) to choose the direction.
///
/// Float-to-integer conversion has no `From`/`TryFrom` and must work in
/// `const` code, so this is the one `as` from `f64` to a token count; `as`
/// is defined to saturate exactly as described.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub(crate) const fn tokens_from_f64(value: f64) -> u64 {
    value as u64
}

#[cfg(test)]
mod tests {
    use super::tokens_from_f64;

    #[test]
    fn truncates_and_saturates() {
        assert_eq!(tokens_from_f64(2.9), 2);
        assert_eq!(tokens_from_f64(-3.0), 0);
        assert_eq!(tokens_from_f64(f64::NAN), 0);
        assert_eq!(tokens_from_f64(1e30), u64::MAX);
        assert_eq!(tokens_from_f64(f64::INFINITY), u64::MAX);
    }
}
