//! The hash that places a token in its table and the key a slot holds,
//! shared by the build script that lays the tables out and the lookups
//! that read them.

/// The bytes of a slot's key: the token's length and its first
/// [`KEY_BYTES`]` - 1` bytes.
pub(crate) const KEY_BYTES: usize = 12;

/// The bytes of a slot: `rank + 1` (little-endian `u32`), then the key.
pub(crate) const SLOT_BYTES: usize = 4 + KEY_BYTES;

/// The key of `bytes`: its length (255 for 255 or more), then its first
/// bytes, zero-padded. Two byte strings of at most `KEY_BYTES - 1` bytes
/// are equal exactly when their keys are; longer ones share a key only
/// when they share their length (below 255) and first bytes.
#[inline]
pub(crate) fn key(bytes: &[u8]) -> [u8; KEY_BYTES] {
    let mut key = [0u8; KEY_BYTES];
    key[0] = u8::try_from(bytes.len()).unwrap_or(u8::MAX);
    let n = bytes.len().min(KEY_BYTES - 1);
    let to = &mut key[1..=n];
    let from = &bytes[..n];
    // Fixed-size copies, overlapping where `n` is not their size: a copy
    // of `n` bytes compiles to a call to `memcpy`, which costs more than
    // a lookup's hashing for the few bytes of most pieces.
    match n {
        0 => {}
        1..=3 => {
            to[0] = from[0];
            to[n / 2] = from[n / 2];
            to[n - 1] = from[n - 1];
        }
        4..=7 => {
            to[..4].copy_from_slice(&from[..4]);
            to[n - 4..].copy_from_slice(&from[n - 4..]);
        }
        _ => {
            to[..8].copy_from_slice(&from[..8]);
            to[n - 8..].copy_from_slice(&from[n - 8..]);
        }
    }
    key
}

/// The little-endian value of at most eight bytes.
#[inline]
fn little_endian(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |value, &byte| value << 8 | u64::from(byte))
}

/// Multiplier of `FxHash` (as `rustc-hash` 2 uses it).
const K: u64 = 0xf135_7aea_2e62_a9c5;

/// The slot of `bytes` in a table of `2^bits` slots (`bits` in `1..=32`).
///
/// Eight bytes at a time, `FxHash`'s multiply per word; the final multiply
/// spreads every byte into the top bits, which pick the slot.
#[inline]
pub(crate) fn slot(bytes: &[u8], bits: u32) -> usize {
    let mut hash = bytes.len() as u64;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut le = [0u8; 8];
        le.copy_from_slice(word);
        hash = (hash.rotate_left(5) ^ u64::from_le_bytes(le)).wrapping_mul(K);
    }
    let rest = words.remainder();
    if !rest.is_empty() {
        hash = (hash.rotate_left(5) ^ little_endian(rest)).wrapping_mul(K);
    }
    let mixed = (hash ^ (hash >> 32)).wrapping_mul(K);
    // At most 32 bits: the shifted value fits a usize on every platform
    // with 32-bit or wider pointers.
    (mixed >> (64 - bits)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length around the copies' sizes gives the length, then the
    /// first bytes, then zeros.
    #[test]
    fn keys_hold_the_length_and_the_first_bytes() {
        let text = b"abcdefghijklmnopqrstuvwxyz";
        for len in 0..=text.len() {
            let mut expected = [0u8; KEY_BYTES];
            expected[0] = len as u8;
            for (at, &byte) in text.iter().take(len.min(11)).enumerate() {
                expected[1 + at] = byte;
            }
            assert_eq!(key(&text[..len]), expected, "{len} bytes");
        }
        assert_eq!(key(&[7; 300])[0], 255);
    }
}
