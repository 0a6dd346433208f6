//! A hash index from declared property names to their positions, for objects with many
//! properties: a payload key that is not where the hint expects it (see
//! [`guess_from_hint`](super::key::guess_from_hint)) is found in constant time instead of by a
//! scan, so validating a large object costs time linear in its size.
//!
//! Small objects never build one: scanning a few names beats hashing the key. The compiled
//! schema builds its index once; the interpreter builds one per validated object, and only when a
//! key misses the hint.
//!
//! The table is open addressing with linear probing, at most half full. It stores positions only
//! (with a few bits of each name's hash to skip most comparisons); the caller compares names
//! with what it already holds (a compiled [`Key`](super::key::Key), or the name itself), so a
//! lookup hashes the key once, reads one or two slots and compares one name. The hash folds the
//! key's bytes with a multiply-and-fold step from a random seed per table, so a payload cannot
//! aim at a chain of colliding slots; the table only ever holds the schema's own names.

use std::hash::{BuildHasher, RandomState};

use super::key::{Probe, words};
use super::semantics::word;

/// Objects with more declared properties than this look an out-of-order key up in an index.
pub(super) const INDEXED_PROPERTIES: usize = 32;

/// A slot: the position plus one in the low half (zero: empty), hash bits in the high half.
type Slot = u64;

/// Property names to their position in declaration order.
#[derive(Clone, Debug)]
pub(super) struct PropertyIndex {
    slots: Box<[Slot]>,
    /// `slots.len() - 1` (a power of two minus one).
    mask: usize,
    seed: u64,
}

impl PropertyIndex {
    /// Indexes `names`, in declaration order; a repeated name keeps its first position, as a scan
    /// would find it.
    pub(super) fn new<'n>(names: impl ExactSizeIterator<Item = &'n str>) -> Self {
        let capacity = (names.len() * 2).next_power_of_two().max(8);
        let mut index = Self {
            slots: vec![0; capacity].into_boxed_slice(),
            mask: capacity - 1,
            seed: RandomState::new().hash_one(0x5eed_u64) | 1,
        };
        let all: Vec<&str> = names.collect();
        for (position, name) in all.iter().enumerate() {
            let hash = index.hash(name);
            let mut slot = hash as usize & index.mask;
            loop {
                let entry = index.slots[slot];
                if entry == 0 {
                    index.slots[slot] = tag(hash) | (position as u64 + 1);
                    break;
                }
                if entry & TAG_MASK == tag(hash) && all[position_of(entry)] == *name {
                    break;
                }
                slot = (slot + 1) & index.mask;
            }
        }
        index
    }

    /// The position of the property named `key`; `is_named(position)` says whether the property
    /// at `position` has that name.
    #[inline]
    pub(super) fn get(&self, key: &str, is_named: impl Fn(usize) -> bool) -> Option<usize> {
        self.get_hashed(self.hash(key), is_named)
    }

    /// [`get`](Self::get) for a key already prepared as a [`Probe`].
    #[inline]
    pub(super) fn get_probe(
        &self,
        probe: &Probe<'_>,
        is_named: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let hash = match probe.words() {
            (len, head, tail) if len <= 16 => self.hash_short(len, head, tail),
            _ => self.hash(probe.key()),
        };
        self.get_hashed(hash, is_named)
    }

    #[inline]
    fn get_hashed(&self, hash: u64, is_named: impl Fn(usize) -> bool) -> Option<usize> {
        let mut slot = hash as usize & self.mask;
        loop {
            let entry = self.slots[slot];
            if entry == 0 {
                return None;
            }
            if entry & TAG_MASK == tag(hash) && is_named(position_of(entry)) {
                return Some(position_of(entry));
            }
            slot = (slot + 1) & self.mask;
        }
    }

    /// The hash of a name: its length and bytes folded in eight at a time (names of up to 16
    /// bytes in the two overlapping words [`Key`](super::key::Key) compares by).
    #[inline]
    fn hash(&self, name: &str) -> u64 {
        let bytes = name.as_bytes();
        let len = bytes.len();
        if len <= 16 {
            let (head, tail) = words(bytes);
            return self.hash_short(len, head, tail);
        }
        let mut hash = fold(self.seed ^ len as u64, SPREAD);
        let mut at = 0;
        while at + 8 < len {
            hash = fold(hash ^ word(bytes, at), SPREAD);
            at += 8;
        }
        fold(hash ^ word(bytes, len - 8), MIX)
    }

    /// The hash of a name of up to 16 bytes, from its length and two words.
    #[inline]
    fn hash_short(&self, len: usize, head: u64, tail: u64) -> u64 {
        let hash = fold(self.seed ^ len as u64, SPREAD);
        let hash = fold(hash ^ head, SPREAD);
        fold(hash ^ tail, MIX)
    }
}

/// The high half of a slot holds the hash's high bits.
const TAG_MASK: u64 = 0xffff_ffff_0000_0000;

#[inline]
fn tag(hash: u64) -> u64 {
    hash & TAG_MASK
}

#[inline]
fn position_of(entry: Slot) -> usize {
    (entry & !TAG_MASK) as usize - 1
}

/// Odd constants with well-spread bits (from the digits of pi).
const SPREAD: u64 = 0x243f_6a88_85a3_08d3;
const MIX: u64 = 0x1319_8a2e_0370_7345;

/// The full 128-bit product, folded: every output bit depends on every input bit.
#[inline]
fn fold(value: u64, by: u64) -> u64 {
    let product = u128::from(value) * u128::from(by);
    (product as u64) ^ ((product >> 64) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index_of(names: &[String]) -> PropertyIndex {
        PropertyIndex::new(names.iter().map(String::as_str))
    }

    fn find(index: &PropertyIndex, names: &[String], key: &str) -> Option<usize> {
        index.get(key, |position| names[position] == key)
    }

    #[test]
    fn finds_every_name_and_nothing_else() {
        let names: Vec<String> = (0..5_000)
            .map(|n| format!("p{n}"))
            .chain((0..100).map(|n| format!("a longer property name number {n:05}")))
            .collect();
        let index = index_of(&names);
        for (position, name) in names.iter().enumerate() {
            assert_eq!(find(&index, &names, name), Some(position));
        }
        for absent in [
            "",
            "p",
            "p5000",
            "P1",
            "p1 ",
            "p01",
            "a longer property name number",
        ] {
            assert_eq!(find(&index, &names, absent), None, "{absent:?}");
        }
    }

    #[test]
    fn a_repeated_name_keeps_its_first_position() {
        let names: Vec<String> = ["a", "b", "a"].iter().map(|n| n.to_string()).collect();
        let index = index_of(&names);
        assert_eq!(find(&index, &names, "a"), Some(0));
        assert_eq!(find(&index, &names, "b"), Some(1));
    }

    #[test]
    fn similar_names_spread_over_the_table() {
        // Names that differ in one byte anywhere must not crowd the same slots.
        let names: Vec<String> = (0..1_000).map(|n| format!("x{n:07}")).collect();
        let index = index_of(&names);
        let mut slots: Vec<usize> = names
            .iter()
            .map(|name| index.hash(name) as usize & 1023)
            .collect();
        slots.sort_unstable();
        slots.dedup();
        assert!(slots.len() > 500, "only {} distinct slots", slots.len());
    }
}
