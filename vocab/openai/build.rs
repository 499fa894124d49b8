//! Lays each enabled vocabulary out as three little-endian tables in
//! `OUT_DIR`, which `src/lib.rs` includes and reads in place:
//!
//! - `{name}.tokens`: every token's bytes, concatenated in rank order;
//! - `{name}.starts`: `u32` offsets into them, one per rank, then the end;
//! - `{name}.longest`: the longest token's length in bytes, a `u32`;
//! - `{name}.slots`: an open-addressing table of `2^bits` slots of
//!   [`slot_hash::SLOT_BYTES`] (linear probing from [`slot_hash::slot`]),
//!   about three quarters full (76% for both), never full, each the
//!   token's `rank + 1` (`u32`, 0 when empty) and its
//!   [`slot_hash::key`], so that most lookups read one slot and nothing
//!   else.

use std::env;
use std::fs;
use std::path::Path;

#[path = "src/slot_hash.rs"]
mod slot_hash;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/slot_hash.rs");
    let out = env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    for (feature, name) in [("O200K", "o200k_base"), ("CL100K", "cl100k_base")] {
        if env::var_os(format!("CARGO_FEATURE_{feature}")).is_none() {
            continue;
        }
        let source = format!("data/{name}.tiktoken");
        println!("cargo::rerun-if-changed={source}");
        let text = fs::read_to_string(&source).unwrap_or_else(|e| panic!("{source}: {e}"));
        let tokens = ranked_tokens(&text, &source);
        write_tables(Path::new(&out), name, &tokens);
    }
}

/// The tokens of a tiktoken rank file (`base64 rank` per line), in rank
/// order; the ranks must be `0, 1, 2, …`.
fn ranked_tokens(text: &str, source: &str) -> Vec<Vec<u8>> {
    text.lines()
        .enumerate()
        .map(|(index, line)| {
            let at = || format!("{source}:{}", index + 1);
            let (encoded, rank) = line
                .split_once(' ')
                .unwrap_or_else(|| panic!("{}: no rank", at()));
            assert_eq!(
                rank.parse::<usize>().ok(),
                Some(index),
                "{}: ranks must count up from 0",
                at()
            );
            base64(encoded).unwrap_or_else(|| panic!("{}: not base64", at()))
        })
        .collect()
}

/// Standard base64 with padding.
fn base64(text: &str) -> Option<Vec<u8>> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let bytes = text.as_bytes();
    if bytes.is_empty() || !bytes.len().is_multiple_of(4) {
        return None;
    }
    let mut decoded = Vec::with_capacity(bytes.len() / 4 * 3);
    for quad in bytes.chunks_exact(4) {
        let padding = quad.iter().rev().take_while(|&&c| c == b'=').count();
        let mut bits: u32 = 0;
        for &c in &quad[..4 - padding] {
            bits = bits << 6 | u32::from(value(c)?);
        }
        bits <<= 6 * padding;
        let group = [(bits >> 16) as u8, (bits >> 8) as u8, bits as u8];
        decoded.extend_from_slice(&group[..3 - padding]);
    }
    Some(decoded)
}

fn write_tables(out: &Path, name: &str, tokens: &[Vec<u8>]) {
    let mut bytes = Vec::new();
    let mut starts = Vec::with_capacity(4 * (tokens.len() + 1));
    for token in tokens {
        starts.extend_from_slice(
            &u32::try_from(bytes.len())
                .expect("under 4 GiB")
                .to_le_bytes(),
        );
        bytes.extend_from_slice(token);
    }
    starts.extend_from_slice(
        &u32::try_from(bytes.len())
            .expect("under 4 GiB")
            .to_le_bytes(),
    );

    // A power of two at least the tokens' number: `o200k_base` in 4 MiB of
    // slots, 76% full. Twice as many, half full, took 8 MiB,
    // and a cold pack of the Python standard library 1-2% longer.
    let bits = tokens.len().next_power_of_two().trailing_zeros();
    // An empty slot ends every probe, of a lookup and of the placing below.
    assert!(
        tokens.len() < 1 << bits,
        "{name}: {} tokens would fill every slot",
        tokens.len()
    );
    let mask = (1usize << bits) - 1;
    let mut slots = vec![0u32; 1 << bits];
    for (rank, token) in tokens.iter().enumerate() {
        let mut slot = slot_hash::slot(token, bits);
        while slots[slot] != 0 {
            let other = &tokens[slots[slot] as usize - 1];
            assert_ne!(
                other,
                token,
                "{name}: ranks {} and {rank} are the same bytes",
                slots[slot] - 1
            );
            slot = (slot + 1) & mask;
        }
        slots[slot] = u32::try_from(rank + 1).expect("under 2^32 tokens");
    }
    let slots: Vec<u8> = slots
        .iter()
        .flat_map(|&slot| {
            let key = match slot {
                0 => [0; slot_hash::KEY_BYTES],
                rank => slot_hash::key(&tokens[rank as usize - 1]),
            };
            slot.to_le_bytes().into_iter().chain(key)
        })
        .collect();
    assert_eq!(slots.len(), slot_hash::SLOT_BYTES << bits);

    let longest = tokens.iter().map(Vec::len).max().unwrap_or(0);
    let longest = u32::try_from(longest)
        .expect("under 4 GiB")
        .to_le_bytes()
        .to_vec();
    for (suffix, table) in [
        ("tokens", &bytes),
        ("starts", &starts),
        ("slots", &slots),
        ("longest", &longest),
    ] {
        let path = out.join(format!("{name}.{suffix}"));
        fs::write(&path, table).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
}
