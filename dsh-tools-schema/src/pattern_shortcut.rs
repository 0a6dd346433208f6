//! Patterns decided without the regex engine: a literal the text starts with, ends with, is,
//! or contains, or one character repeated over the whole text (`^a*$`). Most schemas' patterns
//! are of these shapes, and a call into the engine costs more than the comparison itself.
//!
//! The shapes are read from the ECMA-262 source and only from characters that stand for
//! themselves there; anything else (a class, an escape, a group, `.`) goes to the engine. `^`
//! and `$` are the start and end of the text (JSON Schema patterns have no multiline flag).

/// A pattern's shortcut, when it has one.
#[derive(Clone, Debug)]
pub(super) enum Shortcut {
    /// `^literal`.
    Prefix(Box<str>),
    /// `literal$`.
    Suffix(Box<str>),
    /// `^literal$`.
    Exact(Box<str>),
    /// `literal`, anywhere.
    Contains(Box<str>),
    /// `^c*$` (`at_least_one`: `^c+$`): the text is the one character repeated.
    Repeated { character: char, at_least_one: bool },
}

impl Shortcut {
    /// The shortcut of the ECMA-262 pattern `source`, if it has one of the shapes.
    pub(super) fn of(source: &str) -> Option<Self> {
        let (starts, rest) = match source.strip_prefix('^') {
            Some(rest) => (true, rest),
            None => (false, source),
        };
        let (ends, body) = match rest.strip_suffix('$') {
            Some(body) => (true, body),
            None => (false, rest),
        };
        if body.chars().all(is_literal) {
            let literal = Box::from(body);
            return Some(match (starts, ends) {
                (true, true) => Self::Exact(literal),
                (true, false) => Self::Prefix(literal),
                (false, true) => Self::Suffix(literal),
                (false, false) => Self::Contains(literal),
            });
        }
        let mut chars = body.chars();
        let (Some(character), Some(quantifier), None) = (chars.next(), chars.next(), chars.next())
        else {
            return None;
        };
        if !is_literal(character) {
            return None;
        }
        match (starts && ends, quantifier) {
            (true, '*' | '+') => Some(Self::Repeated {
                character,
                at_least_one: quantifier == '+',
            }),
            // Unanchored, `c+` is found wherever `c` is, and `c*` matches anything.
            (false, '+') if !starts && !ends => Some(Self::Contains(character.to_string().into())),
            (false, '*') if !starts && !ends => Some(Self::Contains(Box::from(""))),
            _ => None,
        }
    }

    /// Whether `text` contains a match.
    pub(super) fn is_match(&self, text: &str) -> bool {
        match self {
            Self::Prefix(literal) => text.starts_with(&**literal),
            Self::Suffix(literal) => text.ends_with(&**literal),
            Self::Exact(literal) => text == &**literal,
            Self::Contains(literal) => contains(text, literal),
            Self::Repeated {
                character,
                at_least_one,
            } => (!at_least_one || !text.is_empty()) && text.chars().all(|c| c == *character),
        }
    }
}

/// Whether `character` stands for itself in an ECMA-262 pattern.
fn is_literal(character: char) -> bool {
    !matches!(
        character,
        '\\' | '^' | '$' | '.' | '|' | '?' | '*' | '+' | '(' | ')' | '[' | ']' | '{' | '}'
    )
}

/// `text.contains(literal)`, by a scan of windows: the texts and literals of schemas are short,
/// and the standard search sets up tables first.
fn contains(text: &str, literal: &str) -> bool {
    let needle = literal.as_bytes();
    match needle {
        [] => true,
        [byte] => text.as_bytes().contains(byte),
        _ => text
            .as_bytes()
            .windows(needle.len())
            .any(|window| window == needle),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> Option<bool> {
        Shortcut::of(pattern).map(|shortcut| shortcut.is_match(text))
    }

    #[test]
    fn shortcuts_agree_with_the_regex_engine() {
        let patterns = [
            "", "^", "$", "^$", "a", "abc", "^abc", "abc$", "^abc$", "^a*$", "^a+$", "a+", "a*",
            "^á", "é$", "x", "aaa*", "f.o", "^[a-z]+$", "a|b", "^\\d$", "a{2}",
        ];
        let texts = [
            "", "a", "aa", "aaa", "abc", "xabc", "abcx", "ab", "b", "á", "áb", "é", "ée", "foo",
            "fxo", "aab", "a\n", "\na",
        ];
        for pattern in patterns {
            let regex = dsh_tools_pattern::compile(pattern).expect("compiles");
            for text in texts {
                if let Some(shortcut) = matches(pattern, text) {
                    assert_eq!(shortcut, regex.is_match(text), "{pattern:?} on {text:?}");
                }
            }
        }
        assert!(Shortcut::of("f.o").is_none());
        assert!(Shortcut::of("^[a-z]+$").is_none());
        assert!(Shortcut::of("a|b").is_none());
        assert!(Shortcut::of("^a*$").is_some());
    }
}
