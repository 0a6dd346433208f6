//! URI references as JSON Schema uses them (`$id`, `$ref`, `$dynamicRef`): resolution of a
//! reference against a base (RFC 3986, section 5.2) and the split of a URI from its fragment.
//!
//! Only what identifying schema resources needs: no normalization beyond removing dot segments,
//! no percent-decoding outside fragments (which [`decode_fragment`] does for JSON pointers).

/// The base URI of a document that names none: references within it resolve against this, and
/// a relative one that names another document is a remote reference.
pub(crate) const DEFAULT_BASE: &str = "json-schema:///";

/// A URI split into its five parts (RFC 3986, section 3); absent parts are `None`.
#[derive(Debug, Default)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(reference: &str) -> Parts<'_> {
    let (rest, fragment) = match reference.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (reference, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    // A scheme is letters, digits, `+`, `-`, `.` before the first `:`, starting with a letter.
    let (scheme, rest) = match rest.find(':') {
        Some(colon)
            if rest[..colon].starts_with(|c: char| c.is_ascii_alphabetic())
                && rest[..colon]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
                && !rest[..colon].contains('/') =>
        {
            (Some(&rest[..colon]), &rest[colon + 1..])
        }
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(after) => match after.find('/') {
            Some(slash) => (Some(&after[..slash]), &after[slash..]),
            None => (Some(after), ""),
        },
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// `reference` resolved against the absolute URI `base`.
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let base = split(base);
    let reference = split(reference);
    let (scheme, authority, path, query);
    if reference.scheme.is_some() {
        scheme = reference.scheme;
        authority = reference.authority;
        path = remove_dot_segments(reference.path);
        query = reference.query;
    } else {
        scheme = base.scheme;
        if reference.authority.is_some() {
            authority = reference.authority;
            path = remove_dot_segments(reference.path);
            query = reference.query;
        } else {
            authority = base.authority;
            if reference.path.is_empty() {
                path = base.path.to_owned();
                query = reference.query.or(base.query);
            } else {
                path = if reference.path.starts_with('/') {
                    remove_dot_segments(reference.path)
                } else {
                    remove_dot_segments(&merge(&base, reference.path))
                };
                query = reference.query;
            }
        }
    }
    let mut out = String::new();
    if let Some(scheme) = scheme {
        out.push_str(scheme);
        out.push(':');
    }
    if let Some(authority) = authority {
        out.push_str("//");
        out.push_str(authority);
    }
    out.push_str(&path);
    if let Some(query) = query {
        out.push('?');
        out.push_str(query);
    }
    if let Some(fragment) = reference.fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// RFC 3986, section 5.2.3.
fn merge(base: &Parts<'_>, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{path}");
    }
    match base.path.rfind('/') {
        Some(slash) => format!("{}{path}", &base.path[..=slash]),
        None => path.to_owned(),
    }
}

/// RFC 3986, section 5.2.4.
fn remove_dot_segments(path: &str) -> String {
    if !path.contains('.') {
        return path.to_owned();
    }
    let mut output: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len() - 1;
    for (index, segment) in segments.iter().enumerate() {
        match *segment {
            "." => {
                if index == last {
                    output.push("");
                }
            }
            ".." => {
                if output.len() > usize::from(absolute) {
                    output.pop();
                }
                if index == last {
                    output.push("");
                }
            }
            other => output.push(other),
        }
    }
    let joined = output.join("/");
    if absolute && !joined.starts_with('/') {
        format!("/{joined}")
    } else {
        joined
    }
}

/// `uri` without its fragment, and the fragment (empty when there is none).
pub(crate) fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.split_once('#') {
        Some((resource, fragment)) => (resource, fragment),
        None => (uri, ""),
    }
}

/// A fragment's text with its percent-escapes decoded (`%25` is `%`), as JSON pointers in
/// fragments are written.
pub(crate) fn decode_fragment(fragment: &str) -> String {
    if !fragment.contains('%') {
        return fragment.to_owned();
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%'
            && let Some(byte) = fragment
                .get(index + 1..index + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            index += 3;
            continue;
        }
        out.push(bytes[index]);
        index += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_as_rfc_3986_examples_say() {
        let base = "http://a/b/c/d;p?q";
        for (reference, expected) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("g:h", "g:h"),
        ] {
            assert_eq!(resolve(base, reference), expected, "{reference}");
        }
    }

    #[test]
    fn resolves_fragments_against_urns_and_the_default_base() {
        assert_eq!(
            resolve(
                "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed",
                "#/$defs/bar"
            ),
            "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/bar"
        );
        assert_eq!(resolve(DEFAULT_BASE, "#foo"), "json-schema:///#foo");
        assert_eq!(
            resolve(DEFAULT_BASE, "other.json"),
            "json-schema:///other.json"
        );
        assert_eq!(
            resolve("http://localhost:1234/draft2020-12/tree", "node"),
            "http://localhost:1234/draft2020-12/node"
        );
    }

    #[test]
    fn decodes_percent_escapes_of_fragments() {
        assert_eq!(decode_fragment("/$defs/a%25b"), "/$defs/a%b");
        assert_eq!(decode_fragment("/x%2"), "/x%2");
    }
}
