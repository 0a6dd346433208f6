//! The hasher of the tool-name maps: eight bytes per step, a few instructions for the short names
//! tools have, instead of SipHash's fixed setup cost on every lookup.
//!
//! SipHash defends a table against keys chosen to collide. Here the keys are tool names the host
//! registers; a model only looks names up, which cannot make stored keys collide, so that
//! defence buys nothing on this path. Each step is a folded 64 × 64 → 128-bit multiply (the
//! high and low halves xor-ed), which spreads every input bit over the top bits the table's
//! control bytes are taken from.

use std::hash::{BuildHasherDefault, Hasher};

/// The multiplier of every step: odd, with its bits spread evenly (the 64-bit golden ratio).
const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;
/// Mixed into the tail's second half, so a tail never multiplies by zero.
const TAIL_SEED: u64 = 0x243f_6a88_85a3_08d3;

/// Name hasher: eight bytes per step, the tail read as two overlapping halves.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NameHasher(u64);

impl Default for NameHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

/// `a × b` as 128 bits, both halves folded into one.
#[inline]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    // Truncations on purpose: the low and the high half.
    (product as u64) ^ ((product >> 64) as u64)
}

/// The 1 to 7 bytes of `tail` as two words, read without a loop: both ends of it (they overlap
/// when it is short), so every byte lands in one of the two.
#[inline]
fn tail_words(tail: &[u8]) -> (u64, u64) {
    let len = tail.len();
    if len >= 4 {
        let low = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
        let end = &tail[len - 4..];
        let high = u32::from_le_bytes([end[0], end[1], end[2], end[3]]);
        (u64::from(low), u64::from(high))
    } else {
        let low = u64::from(tail[0]) | (u64::from(tail[len / 2]) << 8);
        (low, u64::from(tail[len - 1]))
    }
}

impl Hasher for NameHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let word: [u8; 8] = word.try_into().unwrap_or([0; 8]);
            self.0 = folded_multiply(self.0 ^ u64::from_le_bytes(word), MULTIPLIER);
        }
        let tail = words.remainder();
        if !tail.is_empty() {
            let (low, high) = tail_words(tail);
            // The length goes into the second factor: tails that read as the same two words
            // ("ab" and "aab" share both ends) still differ.
            let len = tail.len() as u64;
            self.0 = folded_multiply(self.0 ^ low, high ^ TAIL_SEED ^ (len << 56));
        }
    }

    #[inline]
    fn write_u8(&mut self, byte: u8) {
        // `str` ends its hash with one `0xff` byte; a step of its own rather than a one-byte
        // `write`.
        self.0 = folded_multiply(self.0 ^ u64::from(byte), MULTIPLIER);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds [`NameHasher`]s.
pub(crate) type NameHash = BuildHasherDefault<NameHasher>;

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};
    use std::hash::BuildHasher;

    use super::NameHash;

    #[test]
    fn a_map_keyed_by_names_finds_what_it_stored() {
        let mut map: HashMap<String, u32, NameHash> = HashMap::default();
        for (index, name) in ["read_file", "write_file", "", "grep"].iter().enumerate() {
            map.insert((*name).to_owned(), index as u32);
        }
        assert_eq!(map.get("write_file"), Some(&1));
        assert_eq!(map.get(""), Some(&2));
        assert_eq!(map.get("nope"), None);
    }

    #[test]
    fn names_of_every_length_and_shared_ends_hash_apart() {
        // Every length up to three words, and names that share both ends of their tail.
        let mut names: Vec<String> = (0..=24).map(|len| "x".repeat(len)).collect();
        names.extend(
            [
                "ab",
                "aab",
                "abb",
                "abab",
                "ab\0",
                "a\0b",
                "read_file",
                "read_files",
            ]
            .map(String::from),
        );
        names.extend((0..200).map(|index| format!("tool_{index}")));
        let hashes: HashSet<u64> = names
            .iter()
            .map(|name| NameHash::default().hash_one(name))
            .collect();
        assert_eq!(hashes.len(), names.len());
    }

    #[test]
    fn the_top_bits_differ_between_similar_names() {
        // The table picks a name's control byte from the top seven bits of its hash.
        let tops: HashSet<u64> = (0..64)
            .map(|index| NameHash::default().hash_one(format!("tool_{index}")) >> 57)
            .collect();
        assert!(
            tops.len() > 32,
            "only {} distinct control bytes of 64 names",
            tops.len()
        );
    }
}
