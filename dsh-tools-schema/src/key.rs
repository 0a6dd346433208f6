//! Declared property names, prepared for matching payload keys: the length and one or two
//! machine words of the name are kept inline, so a comparison loads the payload key once and
//! never follows the name's own pointer (names longer than 16 bytes also compare in full). A key
//! compared with many names (a scan, an index's candidates) is read into the same shape once
//! ([`Probe`]).
//!
//! Keys are short, and matching them is on the path of every property of every object, so
//! this beats `==` (a length check, then a call to `memcmp`).

use super::semantics::{half, word};

/// A declared property name, ready to be matched.
#[derive(Clone, Debug)]
pub(super) struct Key {
    len: usize,
    head: u64,
    tail: u64,
    /// The whole name, compared only past 16 bytes.
    name: Box<str>,
}

impl Key {
    pub(super) fn new(name: &str) -> Self {
        let (head, tail) = words(name.as_bytes());
        Self {
            len: name.len(),
            head,
            tail,
            name: name.into(),
        }
    }

    /// The name.
    pub(super) fn as_str(&self) -> &str {
        &self.name
    }

    /// Whether `key` is this name. Its words are read only when the lengths agree, which makes
    /// a wrong guess cheap.
    #[inline(always)]
    pub(super) fn matches(&self, key: &str) -> bool {
        let bytes = key.as_bytes();
        bytes.len() == self.len
            && words(bytes) == (self.head, self.tail)
            && (self.len <= 16 || *self.name == *key)
    }

    /// Whether the key `probe` was made from is this name.
    #[inline(always)]
    pub(super) fn matches_probe(&self, probe: &Probe<'_>) -> bool {
        self.len == probe.len
            && self.head == probe.head
            && self.tail == probe.tail
            && (self.len <= 16 || *self.name == *probe.key)
    }
}

/// A payload key prepared once for comparing with many [`Key`]s (a scan, or an index's
/// candidates): its words are read once instead of at every comparison.
pub(super) struct Probe<'k> {
    len: usize,
    head: u64,
    tail: u64,
    key: &'k str,
}

impl<'k> Probe<'k> {
    #[inline(always)]
    pub(super) fn new(key: &'k str) -> Self {
        let (head, tail) = words(key.as_bytes());
        Self {
            len: key.len(),
            head,
            tail,
            key,
        }
    }

    /// The key's length and the two words [`Key`] compares by.
    #[inline(always)]
    pub(super) fn words(&self) -> (usize, u64, u64) {
        (self.len, self.head, self.tail)
    }

    /// The key itself.
    #[inline(always)]
    pub(super) fn key(&self) -> &'k str {
        self.key
    }
}

/// Two words that, for a given length of at most 16 bytes, are equal exactly when the bytes
/// are (overlapping windows cover every byte); past 16 bytes, a prefix and suffix.
#[inline(always)]
pub(super) fn words(bytes: &[u8]) -> (u64, u64) {
    let len = bytes.len();
    if len >= 8 {
        (word(bytes, 0), word(bytes, len - 8))
    } else if len >= 4 {
        (u64::from(half(bytes, 0)), u64::from(half(bytes, len - 4)))
    } else if len > 0 {
        // Bytes 0, len/2 and len-1 cover one to three bytes.
        let packed = u64::from(bytes[0])
            | (u64::from(bytes[len / 2]) << 8)
            | (u64::from(bytes[len - 1]) << 16);
        (packed, 0)
    } else {
        (0, 0)
    }
}

/// The index among `len` properties whose name `matches`, where a payload in declaration order
/// puts it: payloads usually list keys that way, some optional ones left out, so the property
/// after the last match (`hint`) is tried, then the one after it. On a miss, callers [`search`]
/// small objects and look large ones up in their
/// [`PropertyIndex`](super::property_index::PropertyIndex).
#[inline(always)]
pub(super) fn guess_from_hint(
    len: usize,
    hint: usize,
    matches: impl Fn(usize) -> bool + Copy,
) -> Option<usize> {
    if hint < len && matches(hint) {
        return Some(hint);
    }
    if hint + 1 < len && matches(hint + 1) {
        return Some(hint + 1);
    }
    None
}

/// The full scan, kept out of line so the two guesses above stay small enough to inline.
#[inline(never)]
pub(super) fn search(len: usize, matches: impl Fn(usize) -> bool) -> Option<usize> {
    (0..len).find(|&index| matches(index))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_match_exactly_at_every_length() {
        let long = "abcdefghijklmnopqrstuvwxyz0123456789";
        for len in 0..=long.len() {
            let name = &long[..len];
            let key = Key::new(name);
            assert!(key.matches(name) && key.matches_probe(&Probe::new(name)));
            assert!(key.matches(String::from(name).as_str()));
            for flip in 0..len {
                let mut other = name.as_bytes().to_vec();
                other[flip] = b'_';
                let other = String::from_utf8(other).unwrap();
                assert!(!key.matches(&other), "{name} vs {other}");
                assert!(!key.matches_probe(&Probe::new(&other)), "{name} vs {other}");
            }
            if len < long.len() {
                assert!(!key.matches(&long[..len + 1]));
                assert!(!key.matches_probe(&Probe::new(&long[..len + 1])));
            }
            if len > 0 {
                assert!(!key.matches(&long[..len - 1]));
                assert!(!key.matches_probe(&Probe::new(&long[..len - 1])));
            }
        }
    }

    #[test]
    fn multi_byte_names_match_bytewise() {
        let key = Key::new("é");
        assert!(key.matches("é") && key.matches_probe(&Probe::new("é")));
        assert!(!key.matches("è") && !key.matches_probe(&Probe::new("è")));
        assert!(!key.matches("e") && !key.matches_probe(&Probe::new("e")));
    }
}
