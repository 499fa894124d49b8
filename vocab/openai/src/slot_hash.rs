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
// The build script writes keys with it; lookups compare [`key_words`].
#[allow(dead_code)]
#[inline]
pub(crate) fn key(bytes: &[u8]) -> [u8; KEY_BYTES] {
    let (low, high) = key_words(bytes);
    let mut key = [0u8; KEY_BYTES];
    key[..8].copy_from_slice(&low.to_le_bytes());
    key[8..].copy_from_slice(&high.to_le_bytes());
    key
}

/// [`key`] as the little-endian words of its bytes 0 to 7 and 8 to 11,
/// made in registers: a key written to memory a few bytes at a time and
/// read back as words stalls the load until the stores drain.
#[inline]
pub(crate) fn key_words(bytes: &[u8]) -> (u64, u32) {
    let length = u64::from(u8::try_from(bytes.len()).unwrap_or(u8::MAX));
    let low = length | first_eight(bytes) << 8;
    // The key's bytes 8 to 11 are the text's bytes 7 to 10.
    let high = bytes.get(7..).map_or(0, |rest| first_eight(rest) as u32);
    (low, high)
}

/// The little-endian value of the first eight bytes of `bytes`, zero
/// where it is shorter: loads of fixed size, overlapping where the
/// length is not theirs (a copy of a variable length is a call).
#[inline]
fn first_eight(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let four = |at: usize| {
        u64::from(u32::from_le_bytes([
            bytes[at],
            bytes[at + 1],
            bytes[at + 2],
            bytes[at + 3],
        ]))
    };
    match n {
        0 => 0,
        1..=3 => {
            u64::from(bytes[0])
                | u64::from(bytes[n / 2]) << (8 * (n / 2))
                | u64::from(bytes[n - 1]) << (8 * (n - 1))
        }
        4..=7 => four(0) | four(n - 4) << (8 * (n - 4)),
        _ => u64::from_le_bytes([
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
        ]),
    }
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
        hash = (hash.rotate_left(5) ^ first_eight(rest)).wrapping_mul(K);
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
            let (low, high) = key_words(&text[..len]);
            assert_eq!(low.to_le_bytes(), expected[..8], "{len} bytes");
            assert_eq!(high.to_le_bytes(), expected[8..], "{len} bytes");
        }
        assert_eq!(key(&[7; 300])[0], 255);
    }
}
