//! A hash index from declared property names to their positions, for objects with many
//! properties: a payload key that is not where the hint expects it (see
//! [`find_from_hint`](super::key::find_from_hint)) is found in constant time instead of by a
//! scan, so validating a large object costs time linear in its size.
//!
//! Small objects never build one: scanning a few names beats hashing the key. The compiled
//! schema builds its index once; the interpreter builds one per validated object, and only when a
//! key misses the hint.
//!
//! The hash is a word-at-a-time multiply-xor with a random seed per index and a final mix, which
//! costs a few instructions per key. The seed keeps a payload from aiming at a chain of colliding
//! names; the table only ever holds the schema's own names.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher, RandomState};

/// Objects with more declared properties than this look an out-of-order key up in an index.
pub(super) const INDEXED_PROPERTIES: usize = 32;

/// Property names (`K`: borrowed or owned) to their index in declaration order.
#[derive(Clone, Debug)]
pub(super) struct PropertyIndex<K> {
    positions: HashMap<K, usize, SeededHash>,
}

impl<K: Borrow<str> + Hash + Eq> PropertyIndex<K> {
    /// Indexes `names`, in declaration order; a repeated name keeps its first position, as a scan
    /// would find it.
    pub(super) fn new(names: impl ExactSizeIterator<Item = K>) -> Self {
        let mut positions = HashMap::with_capacity_and_hasher(names.len(), SeededHash::random());
        for (position, name) in names.enumerate() {
            positions.entry(name).or_insert(position);
        }
        Self { positions }
    }

    /// The position of the property named `key`.
    #[inline]
    pub(super) fn get(&self, key: &str) -> Option<usize> {
        self.positions.get(key).copied()
    }
}

/// Builds [`KeyHasher`]s from one random seed.
#[derive(Clone, Copy, Debug)]
struct SeededHash {
    seed: u64,
}

impl SeededHash {
    fn random() -> Self {
        Self {
            seed: RandomState::new().hash_one(0x5eed_u64),
        }
    }
}

impl BuildHasher for SeededHash {
    type Hasher = KeyHasher;

    #[inline]
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher { state: self.seed }
    }
}

/// Folds the bytes in eight at a time (a `str` hashes as its bytes and one terminator byte).
struct KeyHasher {
    state: u64,
}

/// An odd constant with well-spread bits (from the golden ratio).
const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;

impl KeyHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.state = (self.state.rotate_left(23) ^ word).wrapping_mul(MULTIPLIER);
    }
}

impl Hasher for KeyHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            // The length keeps "a" and "a\0" apart.
            self.add(u64::from_le_bytes(word) ^ ((rest.len() as u64) << 59));
        }
    }

    #[inline]
    fn write_u8(&mut self, byte: u8) {
        self.add(u64::from(byte));
    }

    /// A final mix (MurmurHash3's), so the low bits the table picks a slot with depend on every
    /// byte of the name.
    #[inline]
    fn finish(&self) -> u64 {
        let mut hash = self.state;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        hash ^ (hash >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_name_and_nothing_else() {
        let names: Vec<String> = (0..5_000).map(|n| format!("p{n}")).collect();
        let index = PropertyIndex::new(names.iter().map(String::as_str));
        for (position, name) in names.iter().enumerate() {
            assert_eq!(index.get(name), Some(position));
        }
        for absent in ["", "p", "p5000", "P1", "p1 ", "p01"] {
            assert_eq!(index.get(absent), None, "{absent:?}");
        }
    }

    #[test]
    fn a_repeated_name_keeps_its_first_position() {
        let index: PropertyIndex<Box<str>> =
            PropertyIndex::new(["a", "b", "a"].into_iter().map(Box::from));
        assert_eq!(index.get("a"), Some(0));
        assert_eq!(index.get("b"), Some(1));
    }

    #[test]
    fn names_differing_only_in_high_bytes_spread() {
        // Names that differ only past their first byte must not share the table's low bits.
        let names: Vec<String> = (0..1_000).map(|n| format!("x{n:07}")).collect();
        let state = SeededHash::random();
        let mut slots: Vec<u64> = names
            .iter()
            .map(|n| state.hash_one(n.as_str()) & 1023)
            .collect();
        slots.sort_unstable();
        slots.dedup();
        assert!(slots.len() > 500, "only {} distinct slots", slots.len());
    }
}
