//! The hasher of the maps keyed by short strings the host or the registry made: tool names, and
//! the call journal's keys in memory. Eight bytes per step, a few instructions for such keys,
//! instead of SipHash's fixed setup cost on every lookup.
//!
//! SipHash defends a table against keys chosen to collide. The tool-name maps hold names the host
//! registers; a model only looks names up, which cannot make stored keys collide, so that defence
//! buys nothing there ([`NameHash`]). The journal's keys are digests of what a model sent, which a
//! model can steer, so the journal's map starts every hash from a random seed of its own
//! ([`SeededNameHash`]): where a key lands cannot be worked out in advance. Each step is a
//! folded 64 × 64 → 128-bit multiply (the high and low halves xor-ed), which spreads every input
//! bit over the top bits the table's control bytes are taken from.

use std::hash::{BuildHasher, BuildHasherDefault, Hasher};

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

/// Builds [`NameHasher`]s that start from a random seed, drawn once per map.
#[cfg_attr(
    not(feature = "durable"),
    allow(dead_code, reason = "used by the call journal's memory store")
)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct SeededNameHash(u64);

impl Default for SeededNameHash {
    fn default() -> Self {
        // The standard library's per-map random keys, drawn once here rather than per hash.
        Self(std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64) | 1)
    }
}

impl BuildHasher for SeededNameHash {
    type Hasher = NameHasher;

    #[inline]
    fn build_hasher(&self) -> NameHasher {
        NameHasher(self.0)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};
    use std::hash::BuildHasher;

    use super::{NameHash, SeededNameHash};

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
    fn seeded_maps_find_what_they_stored_and_hash_apart() {
        let keys: Vec<String> = (0..200).map(|index| format!("idem-{index:032x}")).collect();
        let mut map: HashMap<String, usize, SeededNameHash> = HashMap::default();
        for (index, key) in keys.iter().enumerate() {
            map.insert(key.clone(), index);
        }
        assert!(
            keys.iter()
                .enumerate()
                .all(|(index, key)| map.get(key) == Some(&index))
        );
        assert_eq!(map.get("idem-"), None);
        let seeded = SeededNameHash::default();
        let hashes: HashSet<u64> = keys.iter().map(|key| seeded.hash_one(key)).collect();
        assert_eq!(hashes.len(), keys.len());
        // Two maps draw two seeds: the same key lands apart.
        let other = SeededNameHash::default();
        assert!(
            keys.iter()
                .any(|key| seeded.hash_one(key) != other.hash_one(key))
        );
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
