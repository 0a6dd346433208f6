//! The JSON Paths (RFC 9535) Vertex AI names a streamed argument with: `$` followed by member
//! names (`.name`, `['name']`, `["name"]`) and array indices (`[0]`) — singular queries, the
//! only kind that names one value. Anything else (wildcards, slices, filters, descendants) is
//! refused.

/// One step from a container to a member of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// An object's member.
    Key(String),
    /// An array's item.
    Index(usize),
}

/// The steps of a singular JSON Path, or `None` when `path` is not one.
pub(super) fn parse(path: &str) -> Option<Vec<Step>> {
    let rest = path.strip_prefix('$')?;
    let mut chars = rest.chars().peekable();
    let mut steps = Vec::new();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                // Name shorthand: the characters of a name up to the next step.
                let mut name = String::new();
                while let Some(&next) = chars.peek() {
                    if next == '.' || next == '[' {
                        break;
                    }
                    if !(next == '_' || next.is_alphanumeric() || !next.is_ascii()) {
                        return None;
                    }
                    name.push(next);
                    chars.next();
                }
                if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
                    return None;
                }
                steps.push(Step::Key(name));
            }
            '[' => {
                let step = match chars.peek()? {
                    &quote @ ('\'' | '"') => {
                        chars.next();
                        Step::Key(quoted(&mut chars, quote)?)
                    }
                    _ => {
                        let mut digits = String::new();
                        while let Some(&digit) = chars.peek() {
                            if !digit.is_ascii_digit() {
                                break;
                            }
                            digits.push(digit);
                            chars.next();
                        }
                        // No leading zeros, as RFC 9535 writes an index.
                        if digits.is_empty() || (digits.len() > 1 && digits.starts_with('0')) {
                            return None;
                        }
                        Step::Index(digits.parse().ok()?)
                    }
                };
                if chars.next()? != ']' {
                    return None;
                }
                steps.push(step);
            }
            _ => return None,
        }
    }
    Some(steps)
}

/// The rest of a quoted name, after its opening quote, with its escapes read.
fn quoted(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, quote: char) -> Option<String> {
    let mut name = String::new();
    loop {
        match chars.next()? {
            c if c == quote => return Some(name),
            '\\' => {
                let escaped = match chars.next()? {
                    'b' => '\u{8}',
                    'f' => '\u{c}',
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    'u' => unicode_escape(chars)?,
                    c @ ('/' | '\\' | '\'' | '"') => c,
                    _ => return None,
                };
                name.push(escaped);
            }
            c => name.push(c),
        }
    }
}

/// A `\uXXXX` escape (its `\u` read), a surrogate pair when it starts one.
fn unicode_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<char> {
    let first = hex4(chars)?;
    if (0xD800..0xDC00).contains(&first) {
        if chars.next()? != '\\' || chars.next()? != 'u' {
            return None;
        }
        let second = hex4(chars)?;
        if !(0xDC00..0xE000).contains(&second) {
            return None;
        }
        return char::from_u32(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00));
    }
    char::from_u32(first)
}

fn hex4(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<u32> {
    let mut code = 0;
    for _ in 0..4 {
        code = code * 16 + chars.next()?.to_digit(16)?;
    }
    Some(code)
}

#[cfg(test)]
mod tests {
    use super::{Step, parse};

    fn key(name: &str) -> Step {
        Step::Key(name.to_owned())
    }

    #[test]
    fn names_and_indices() {
        assert_eq!(parse("$"), Some(vec![]));
        assert_eq!(
            parse("$.foo.bar[0].data"),
            Some(vec![key("foo"), key("bar"), Step::Index(0), key("data")])
        );
        assert_eq!(
            parse(r#"$['odd key']["it's"][12]"#),
            Some(vec![key("odd key"), key("it's"), Step::Index(12)])
        );
        assert_eq!(
            parse(r"$['a\'b\u00e9\ud83d\ude00']"),
            Some(vec![key("a'bé😀")])
        );
        assert_eq!(parse("$.größe"), Some(vec![key("größe")]));
    }

    #[test]
    fn what_is_not_a_singular_path_is_refused() {
        for path in [
            "", "foo", "$.", "$..a", "$.a[*]", "$[01]", "$[-1]", "$[1:2]", "$['a'", "$[?@.a]",
            "$.1a", "$['\\x']", "$.a b",
        ] {
            assert_eq!(parse(path), None, "{path}");
        }
    }
}
