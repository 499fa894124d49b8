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
    // Byte by byte: most pieces are a few bytes, shorter than a call to
    // copy them.
    for (to, &from) in key[1..].iter_mut().zip(bytes) {
        *to = from;
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
