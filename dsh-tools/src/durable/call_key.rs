//! [`CallKey`]: a journaled call's key as the journal holds it while the call runs, and as the
//! store in memory keys its entries. A key made from the call (`idem-` and 32 hex digits) is held
//! as the digest's 128 bits, so making it writes no text, and hashing it for the store's map
//! reads two words; any other key (one the call was given: a Code Mode run's `<run key>/<n>`,
//! an operator's own) is held as its text. The text of a key is written only when something
//! reads it (an entry answered through the [`CallStore`](crate::durable::CallStore) trait, a
//! log line). Every text has one `CallKey` ([`CallKey::from_text`]): a given key spelled as a
//! made one is that made key, so both find the same entry.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::idempotency::KeyDigest;

/// A journaled call's key (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum CallKey {
    /// A key made from the call: `idem-` and its digest in hex.
    Made(KeyDigest),
    /// Any other key, as its text (never the text of a made key).
    Given(Arc<str>),
}

impl CallKey {
    /// The key `text` spells.
    pub(crate) fn from_text(text: &str) -> Self {
        KeyDigest::parse(text).map_or_else(|| Self::Given(Arc::from(text)), Self::Made)
    }

    /// The key's text.
    pub(crate) fn text(&self) -> String {
        match self {
            Self::Made(digest) => digest.text(),
            Self::Given(text) => String::from(&**text),
        }
    }
}

/// A made key feeds its two words to the map's hasher (a seeded one: a digest is of what a
/// model sent, which it can steer), a given one its text as `str` does. The two kinds are never
/// equal, so they need not hash apart.
impl Hash for CallKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Self::Made(digest) => {
                let [first, second] = digest.halves();
                state.write_u64(first);
                state.write_u64(second);
            }
            Self::Given(text) => text.hash(state),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use serde_json::json;

    use super::CallKey;
    use crate::idempotency::{KeyDigest, idempotency_key};
    use crate::name_hash::SeededNameHash;

    #[test]
    fn a_text_names_one_key_and_a_key_writes_its_text() {
        let made = idempotency_key("c", "t", None, &json!({"x": 1}));
        let key = CallKey::from_text(&made);
        assert_eq!(
            key,
            CallKey::Made(KeyDigest::of("c", "t", None, &json!({"x": 1})))
        );
        assert_eq!(key.text(), made);
        let given = CallKey::from_text("idem-run/3");
        assert!(matches!(&given, CallKey::Given(text) if &**text == "idem-run/3"));
        assert_eq!(given.text(), "idem-run/3");
    }

    #[test]
    fn a_map_finds_each_key_by_its_text() {
        let texts: Vec<String> = (0..300)
            .map(|n| idempotency_key(&format!("c{n}"), "t", None, &json!(n)))
            .chain((0..50).map(|n| format!("run/{n}")))
            .collect();
        let mut map: HashMap<CallKey, usize, SeededNameHash> = HashMap::default();
        for (n, text) in texts.iter().enumerate() {
            map.insert(CallKey::from_text(text), n);
        }
        assert_eq!(map.len(), texts.len());
        for (n, text) in texts.iter().enumerate() {
            assert_eq!(map.get(&CallKey::from_text(text)), Some(&n), "{text}");
        }
        assert_eq!(map.get(&CallKey::from_text("run/50")), None);
    }
}
