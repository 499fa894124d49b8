//! The hash that places a token in its table, shared by the build script
//! that lays the tables out and the lookups that read them.

/// Multiplier of `FxHash` (as `rustc-hash` 2 uses it).
const K: u64 = 0xf135_7aea_2e62_a9c5;

/// The slot of `bytes` in a table of `2^bits` slots (`bits` in `1..=32`).
///
/// Eight bytes at a time, `FxHash`'s multiply per word; the final multiply
/// spreads every byte into the top bits, which pick the slot.
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
        let mut le = [0u8; 8];
        le[..rest.len()].copy_from_slice(rest);
        hash = (hash.rotate_left(5) ^ u64::from_le_bytes(le)).wrapping_mul(K);
    }
    let mixed = (hash ^ (hash >> 32)).wrapping_mul(K);
    // At most 32 bits: the shifted value fits a usize on every platform
    // with 32-bit or wider pointers.
    (mixed >> (64 - bits)) as usize
}
