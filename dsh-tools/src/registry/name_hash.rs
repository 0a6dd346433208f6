//! The hasher of the tool-name maps: FNV-1a, a few instructions per byte for the short names tools
//! have, instead of SipHash's fixed setup cost on every lookup.
//!
//! SipHash defends a table against keys chosen to collide. Here the keys are tool names the host
//! registers; a model only looks names up, which cannot make stored keys collide, so that
//! defence buys nothing on this path.

use std::hash::{BuildHasherDefault, Hasher};

/// FNV-1a, 64-bit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NameHasher(u64);

impl Default for NameHasher {
    fn default() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds [`NameHasher`]s.
pub(crate) type NameHash = BuildHasherDefault<NameHasher>;

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

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
}
