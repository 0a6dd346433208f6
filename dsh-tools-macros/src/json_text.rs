//! A JSON text checked at compile time (`#[tool(example = r#"{…}"#)]`): its syntax (RFC 8259),
//! and the keys of its top-level object, which must be the tool's arguments.

/// How deep an example may nest.
const MAX_DEPTH: usize = 128;

/// The keys of the JSON object `text`, in order; an error says what is wrong and where.
pub(crate) fn object_keys(text: &str) -> Result<Vec<String>, String> {
    let mut reader = Reader {
        bytes: text.as_bytes(),
        at: 0,
    };
    reader.skip_space();
    if reader.peek() != Some(b'{') {
        return Err("an input example must be a JSON object".to_owned());
    }
    let keys = reader.object(0)?;
    reader.skip_space();
    if reader.at < reader.bytes.len() {
        return Err(reader.error("unexpected text after the object"));
    }
    Ok(keys)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn error(&self, what: &str) -> String {
        format!("invalid JSON at byte {}: {what}", self.at)
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Result<(), String> {
        self.skip_space();
        if self.peek() == Some(byte) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected `{}`", byte as char)))
        }
    }

    fn value(&mut self, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        self.skip_space();
        match self.peek() {
            Some(b'{') => self.object(depth).map(drop),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(drop),
            Some(b't') => self.word("true"),
            Some(b'f') => self.word("false"),
            Some(b'n') => self.word("null"),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error("expected a value")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Vec<String>, String> {
        self.expect(b'{')?;
        let mut keys = Vec::new();
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(keys);
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a key"));
            }
            let key = self.string()?;
            if keys.contains(&key) {
                return Err(self.error(&format!("key \"{key}\" appears twice")));
            }
            keys.push(key);
            self.expect(b':')?;
            self.value(depth + 1)?;
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(keys);
                }
                _ => return Err(self.error("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<(), String> {
        self.expect(b'[')?;
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(());
        }
        loop {
            self.value(depth + 1)?;
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(());
                }
                _ => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    /// A string, its escapes decoded.
    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error("unterminated string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.at += 1;
                    let escaped = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hex = self
                                .bytes
                                .get(self.at + 1..self.at + 5)
                                .and_then(|digits| std::str::from_utf8(digits).ok())
                                .and_then(|digits| u32::from_str_radix(digits, 16).ok())
                                .ok_or_else(|| self.error("bad `\\u` escape"))?;
                            self.at += 4;
                            char::from_u32(hex).unwrap_or('\u{fffd}')
                        }
                        _ => return Err(self.error("bad escape")),
                    };
                    out.push(escaped);
                    self.at += 1;
                }
                Some(byte) if byte < 0x20 => {
                    return Err(self.error("control character in a string"));
                }
                Some(_) => {
                    // The text came from a Rust string literal, so it is UTF-8: copy one whole
                    // character.
                    let rest = std::str::from_utf8(&self.bytes[self.at..]).unwrap_or("");
                    let Some(character) = rest.chars().next() else {
                        return Err(self.error("invalid UTF-8"));
                    };
                    out.push(character);
                    self.at += character.len_utf8();
                }
            }
        }
    }

    fn word(&mut self, word: &str) -> Result<(), String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(())
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn number(&mut self) -> Result<(), String> {
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        match self.peek() {
            Some(b'0') => self.at += 1,
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error("expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.at += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit after `.`"));
            }
            self.digits();
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("expected a digit in the exponent"));
            }
            self.digits();
        }
        Ok(())
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::object_keys;

    #[test]
    fn an_object_gives_its_keys() {
        assert_eq!(
            object_keys(r#" {"path": "/a", "n": -1.5e3, "x": [true, null, {"y": "\u00e9\n"}]} "#),
            Ok(vec!["path".to_owned(), "n".to_owned(), "x".to_owned()])
        );
        assert_eq!(object_keys("{}"), Ok(vec![]));
    }

    #[test]
    fn broken_json_says_where() {
        assert_eq!(
            object_keys("[1]"),
            Err("an input example must be a JSON object".to_owned())
        );
        assert_eq!(
            object_keys(r#"{"a": 01}"#),
            Err("invalid JSON at byte 7: expected `,` or `}`".to_owned())
        );
        assert_eq!(
            object_keys(r#"{"a": 1,}"#),
            Err("invalid JSON at byte 8: expected a key".to_owned())
        );
        assert_eq!(
            object_keys(r#"{"a": 1, "a": 2}"#),
            Err("invalid JSON at byte 12: key \"a\" appears twice".to_owned())
        );
        assert_eq!(
            object_keys(r#"{"a": 1} x"#),
            Err("invalid JSON at byte 9: unexpected text after the object".to_owned())
        );
        assert!(object_keys(r#"{"a": "open"#).is_err());
    }
}
