//! Numeric conversions that have no `From`/`TryFrom` (or must work in
//! `const` code), in one place: the crate denies `as` casts that truncate,
//! wrap or lose the sign, so every such conversion is one of these.

/// `value` as an integer count: the fractional part dropped, negative
/// numbers and NaN as 0, values beyond `u64::MAX` as `u64::MAX`. Round first
/// (`floor`, `ceil`) to choose the direction.
///
/// Float-to-integer conversion has no `From`/`TryFrom` and must work in
/// `const` code, so this is the crate's one `as` from `f64` to an integer;
/// `as` is defined to saturate exactly as described.
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub const fn saturating_u64_from_f64(value: f64) -> u64 {
    value as u64
}

/// `value` as `u64`, or `u64::MAX` when it is larger (`const`, where
/// `TryFrom` is not available).
pub const fn saturating_u64_from_u128(value: u128) -> u64 {
    if value > u64::MAX as u128 {
        return u64::MAX;
    }
    let b = value.to_le_bytes();
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// `value` clamped to the `i64` range (`const`, where `TryFrom` is not
/// available).
pub const fn saturating_i64_from_i128(value: i128) -> i64 {
    if value > i64::MAX as i128 {
        return i64::MAX;
    }
    if value < i64::MIN as i128 {
        return i64::MIN;
    }
    // Within the i64 range, the low eight bytes of the two's complement
    // representation are the i64's.
    let b = value.to_le_bytes();
    i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// `value` as `u8`, for `const` tables whose entries fit by construction:
/// a value that does not fit stops the build (constant evaluation panics).
pub const fn table_u8(value: usize) -> u8 {
    assert!(value <= u8::MAX as usize, "table entry does not fit in u8");
    value.to_le_bytes()[0]
}

/// `value` as `u16`, for `const` tables whose entries fit by construction:
/// a value that does not fit stops the build (constant evaluation panics).
pub const fn table_u16(value: usize) -> u16 {
    assert!(
        value <= u16::MAX as usize,
        "table entry does not fit in u16"
    );
    let b = value.to_le_bytes();
    u16::from_le_bytes([b[0], b[1]])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_truncate_and_saturate() {
        assert_eq!(saturating_u64_from_f64(2.9), 2);
        assert_eq!(saturating_u64_from_f64(-3.0), 0);
        assert_eq!(saturating_u64_from_f64(f64::NAN), 0);
        assert_eq!(saturating_u64_from_f64(1e30), u64::MAX);
        assert_eq!(saturating_u64_from_f64(f64::INFINITY), u64::MAX);
    }

    #[test]
    fn wide_integers_saturate() {
        assert_eq!(saturating_u64_from_u128(7), 7);
        assert_eq!(
            saturating_u64_from_u128(18_446_744_073_709_551_615),
            u64::MAX
        );
        assert_eq!(
            saturating_u64_from_u128(18_446_744_073_709_551_616),
            u64::MAX
        );
        assert_eq!(saturating_i64_from_i128(-5), -5);
        assert_eq!(
            saturating_i64_from_i128(9_223_372_036_854_775_807),
            i64::MAX
        );
        assert_eq!(
            saturating_i64_from_i128(9_223_372_036_854_775_808),
            i64::MAX
        );
        assert_eq!(
            saturating_i64_from_i128(-9_223_372_036_854_775_808),
            i64::MIN
        );
        assert_eq!(
            saturating_i64_from_i128(-9_223_372_036_854_775_809),
            i64::MIN
        );
    }

    #[test]
    fn table_entries_narrow_exactly() {
        assert_eq!(table_u8(0), 0);
        assert_eq!(table_u8(255), 255);
        assert_eq!(table_u16(65_535), 65_535);
        assert_eq!(table_u16(258), 258);
    }
}
