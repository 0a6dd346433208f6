//! Tool names a provider can take: the rule per provider (not API) and the [`NameMap`] between a tool's
//! canonical name and the name the provider sees.
//!
//! A name that fits the rule is sent unchanged. Any other name is sanitized (each character
//! the rule forbids becomes `_`, a leading character the rule forbids gets a `_` before it);
//! when that name is too long or collides with another tool's, it is cut and given a suffix of
//! eight hex digits hashed from the canonical name. Names that fit are placed first, so adding a
//! tool with an odd name never renames a well-named one. The mapping depends only on the set of
//! names, is reversible through the map, and never maps two tools to one name.

use std::collections::{BTreeMap, HashMap, HashSet};

/// Which names a provider accepts. Not API: how the lowering renames, which its report and
/// [`NameMap`] show.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameRule {
    /// `^[a-zA-Z0-9_-]{1,64}$` (OpenAI, Anthropic, DeepSeek).
    Alphanumeric64,
    /// A letter or `_` first, then `[a-zA-Z0-9_.:-]`, at most 64 characters (Gemini; Google's
    /// references say 64 or 128 in different places, so the smaller bound is kept).
    Gemini64,
}

impl NameRule {
    /// The longest name the rule accepts.
    #[doc(hidden)]
    pub fn max_len(self) -> usize {
        64
    }

    /// The rule as a regular expression, for messages.
    #[doc(hidden)]
    pub fn pattern(self) -> &'static str {
        match self {
            Self::Alphanumeric64 => "^[a-zA-Z0-9_-]{1,64}$",
            Self::Gemini64 => "^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$",
        }
    }

    fn allows_char(self, c: char) -> bool {
        match self {
            Self::Alphanumeric64 => c.is_ascii_alphanumeric() || c == '_' || c == '-',
            Self::Gemini64 => {
                c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' || c == ':'
            }
        }
    }

    fn allows_first(self, c: char) -> bool {
        match self {
            Self::Alphanumeric64 => self.allows_char(c),
            Self::Gemini64 => c.is_ascii_alphabetic() || c == '_',
        }
    }

    /// Whether `name` fits the rule as it is.
    #[doc(hidden)]
    pub fn accepts(self, name: &str) -> bool {
        let mut chars = name.chars();
        match chars.next() {
            None => false,
            Some(first) => {
                self.allows_first(first)
                    && chars.all(|c| self.allows_char(c))
                    && name.len() <= self.max_len()
            }
        }
    }

    /// `name` with every forbidden character replaced (not yet bounded in length).
    fn sanitize(self, name: &str) -> String {
        let mut out = String::with_capacity(name.len() + 1);
        for c in name.chars() {
            out.push(if self.allows_char(c) { c } else { '_' });
        }
        if !out.chars().next().is_some_and(|c| self.allows_first(c)) {
            out.insert(0, '_');
        }
        out
    }
}

/// The names of one lowered tool list: canonical name ↔ the name the provider sees.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct NameMap {
    /// Provider name → canonical name, only for tools that were renamed.
    to_canonical: HashMap<String, String>,
    /// Canonical name → provider name, only for tools that were renamed.
    to_provider: BTreeMap<String, String>,
}

impl NameMap {
    /// Maps every name of `names` (canonical, distinct) under `rule`.
    pub(crate) fn build<'a>(rule: NameRule, names: impl IntoIterator<Item = &'a str>) -> Self {
        let names: Vec<&str> = names.into_iter().collect();
        let mut taken: HashSet<String> = names
            .iter()
            .filter(|name| rule.accepts(name))
            .map(|name| (*name).to_owned())
            .collect();
        let mut map = Self::default();
        let mut odd: Vec<&str> = names
            .iter()
            .copied()
            .filter(|name| !rule.accepts(name))
            .collect();
        odd.sort_unstable();
        for name in odd {
            let mapped = Self::mapped_name(rule, name, &taken);
            taken.insert(mapped.clone());
            map.to_canonical.insert(mapped.clone(), name.to_owned());
            map.to_provider.insert(name.to_owned(), mapped);
        }
        map
    }

    fn mapped_name(rule: NameRule, name: &str, taken: &HashSet<String>) -> String {
        let sanitized = rule.sanitize(name);
        if sanitized.len() <= rule.max_len() && !taken.contains(&sanitized) {
            return sanitized;
        }
        // Cut and suffix; a salt only comes into play if the suffixed name is taken too.
        let stem_len = rule.max_len() - 9;
        let stem: String = sanitized.chars().take(stem_len).collect();
        let mut salt = 0u64;
        loop {
            let candidate = format!("{stem}_{:08x}", short_hash(name, salt));
            if !taken.contains(&candidate) {
                return candidate;
            }
            salt += 1;
        }
    }

    /// The name the provider sees for the canonical `name`.
    pub(crate) fn provider_name<'a>(&'a self, name: &'a str) -> &'a str {
        self.to_provider.get(name).map_or(name, String::as_str)
    }

    /// The canonical name for a name the provider sent back. A name this map does not know is
    /// returned as it is (a model that invents a name gets `UNKNOWN_TOOL` for it).
    pub(crate) fn canonical_name<'a>(&'a self, provider_name: &'a str) -> &'a str {
        if self.to_canonical.is_empty() {
            return provider_name;
        }
        self.to_canonical
            .get(provider_name)
            .map_or(provider_name, String::as_str)
    }
}

/// 32 bits of FNV-1a over `name` and `salt`: stable across runs, platforms and releases.
fn short_hash(name: &str, salt: u64) -> u32 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in name.bytes().chain(salt.to_le_bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    (hash ^ (hash >> 32)) as u32
}

#[cfg(test)]
mod tests {
    use super::{NameMap, NameRule};

    #[test]
    fn well_formed_names_are_kept_and_odd_ones_mapped_back() {
        let map = NameMap::build(
            NameRule::Alphanumeric64,
            ["read_file", "mcp.fs.read", "mcp_fs_read"],
        );
        assert_eq!(map.provider_name("read_file"), "read_file");
        assert_eq!(map.provider_name("mcp_fs_read"), "mcp_fs_read");
        let mapped = map.provider_name("mcp.fs.read");
        assert!(
            mapped.starts_with("mcp_fs_read_") && mapped.len() == 20,
            "{mapped}"
        );
        assert_eq!(map.canonical_name(mapped), "mcp.fs.read");
        assert_eq!(map.canonical_name("mcp_fs_read"), "mcp_fs_read");
    }

    #[test]
    fn long_names_are_cut_with_a_hash_and_stay_distinct() {
        let a = "a".repeat(100);
        let b = format!("{}b", "a".repeat(99));
        let map = NameMap::build(NameRule::Alphanumeric64, [a.as_str(), b.as_str()]);
        let (ma, mb) = (map.provider_name(&a), map.provider_name(&b));
        assert_ne!(ma, mb);
        assert!(NameRule::Alphanumeric64.accepts(ma) && NameRule::Alphanumeric64.accepts(mb));
        assert_eq!(map.canonical_name(ma), a);
        assert_eq!(map.canonical_name(mb), b);
    }

    #[test]
    fn gemini_names_start_with_a_letter_or_underscore() {
        let map = NameMap::build(NameRule::Gemini64, ["3d_render", "ns:tool.v2"]);
        assert_eq!(map.provider_name("3d_render"), "_3d_render");
        assert_eq!(map.provider_name("ns:tool.v2"), "ns:tool.v2");
    }
}
