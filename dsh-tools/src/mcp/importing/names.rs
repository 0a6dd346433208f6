//! How an MCP server's tool names become registry names: `<prefix>__<tool>`, kept to what every
//! provider accepts (1–64 of `[A-Za-z0-9_-]`).
//!
//! A name that already fits is used as it is. One that does not — too long, or with other
//! characters — keeps a readable sanitized stem and gets a hash of the original name as its
//! suffix (`<prefix>__<stem>_<8 hex>`), so two different server names never map to the same
//! registry name. The mapping is deterministic (a re-sync maps a tool to the same name again)
//! and reversible: every imported tool remembers the server's own name and calls it by that.

use std::collections::{HashMap, HashSet};

/// The longest name providers accept.
pub(crate) const MAX_NAME_LEN: usize = 64;

/// The separator between the prefix and the server's tool name.
const SEPARATOR: &str = "__";

/// The registry name of the server tool `tool` imported under `prefix` (empty: no prefix). An
/// import reduces its prefix to the same alphabet (other characters become `_`) and to 32
/// characters before naming tools with it.
///
/// ```
/// use dsh_tools::mcp::imported_name;
///
/// assert_eq!(imported_name("files", "read"), "files__read");
/// assert_eq!(imported_name("", "read"), "read");
/// assert!(imported_name("files", "read.v2").starts_with("files__read_v2_"));
/// assert!(imported_name("files", &"x".repeat(100)).len() <= 64);
/// ```
pub fn imported_name(prefix: &str, tool: &str) -> String {
    let plain = join(prefix, tool);
    if fits(&plain) {
        return plain;
    }
    hashed_name(prefix, tool, 8)
}

/// `prefix` reduced to the name alphabet, short enough to leave room for a tool name.
pub(crate) fn sanitize_prefix(prefix: &str) -> String {
    let mut clean: String = prefix.chars().map(sanitize_char).collect();
    clean.truncate(MAX_NAME_LEN / 2);
    clean
}

/// Names for the server tools `tools`, given the names already assigned by this import
/// (`assigned`: server name → registry name), which are kept. A new tool whose natural name is
/// already taken gets a longer hash until it is unique.
pub(crate) fn assign_names<'a>(
    prefix: &str,
    tools: impl IntoIterator<Item = &'a str>,
    assigned: &HashMap<String, String>,
) -> HashMap<String, String> {
    let mut taken: HashSet<String> = assigned.values().cloned().collect();
    let mut names = HashMap::new();
    for tool in tools {
        if let Some(name) = assigned.get(tool) {
            names.insert(tool.to_owned(), name.clone());
            continue;
        }
        let mut name = imported_name(prefix, tool);
        let mut digits = 12;
        while taken.contains(&name) && digits <= 16 {
            name = hashed_name(prefix, tool, digits);
            digits += 4;
        }
        taken.insert(name.clone());
        names.insert(tool.to_owned(), name);
    }
    names
}

fn join(prefix: &str, tool: &str) -> String {
    if prefix.is_empty() {
        tool.to_owned()
    } else {
        format!("{prefix}{SEPARATOR}{tool}")
    }
}

fn fits(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_LEN
        && name
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-')
}

fn sanitize_char(c: char) -> char {
    if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
        c
    } else {
        '_'
    }
}

/// `<prefix>__<stem>_<hash>` with `digits` hex digits of the original name's hash, the stem cut
/// so that the whole fits.
fn hashed_name(prefix: &str, tool: &str, digits: usize) -> String {
    let hash = format!("{:016x}", fnv1a(prefix, tool));
    let suffix = &hash[..digits.min(16)];
    let head = join(prefix, "");
    let room = MAX_NAME_LEN.saturating_sub(head.len() + 1 + suffix.len());
    let stem: String = tool.chars().map(sanitize_char).take(room).collect();
    format!("{head}{stem}_{suffix}")
}

/// FNV-1a (64-bit) of the prefix and the name: stable across runs and platforms.
fn fnv1a(prefix: &str, tool: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in prefix.bytes().chain([0]).chain(tool.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::{assign_names, fits, imported_name, sanitize_prefix};

    #[test]
    fn a_name_that_fits_is_kept_as_it_is() {
        assert_eq!(imported_name("srv", "get-weather_2"), "srv__get-weather_2");
    }

    #[test]
    fn names_that_do_not_fit_get_a_stable_hash_and_still_fit() {
        for tool in ["a.b", "a b", "ünïcode", &"long".repeat(40), "a/b/c"] {
            let name = imported_name("server", tool);
            assert!(fits(&name), "{name}");
            assert_eq!(name, imported_name("server", tool), "deterministic");
            assert!(name.starts_with("server__"));
        }
        assert_ne!(imported_name("s", "a.b"), imported_name("s", "a b"));
    }

    #[test]
    fn a_prefix_is_sanitized_and_bounded() {
        assert_eq!(sanitize_prefix("My Server!"), "My_Server_");
        assert_eq!(sanitize_prefix(&"p".repeat(80)).len(), 32);
    }

    #[test]
    fn assigned_names_are_kept_and_new_ones_avoid_them() {
        // A server tool literally named like another's hashed form.
        let hashed = imported_name("s", "a.b");
        let literal = hashed.trim_start_matches("s__").to_owned();
        let assigned = HashMap::from([("a.b".to_owned(), hashed.clone())]);
        let names = assign_names("s", ["a.b", literal.as_str()], &assigned);
        assert_eq!(names["a.b"], hashed);
        assert_ne!(names[literal.as_str()], hashed);
        assert!(fits(&names[literal.as_str()]));
    }
}
