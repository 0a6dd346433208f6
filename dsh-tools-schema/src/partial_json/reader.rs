//! [`PartialJson`]: JSON's grammar read one fragment at a time, keeping the value so far.
//!
//! The state is a stack of the containers still open, each holding its finished children as
//! plain [`Value`]s, and at most one scalar being read (a string, a number, a literal, or an
//! object key). A child is moved into its container the moment it is finished, so nothing is
//! ever read twice; only asking for the value so far ([`PartialJson::value`]) copies, and only
//! what it returns.

use serde_json::{Map, Value};

use super::error::PartialJsonError;
use super::number::{NumberState, is_number_byte, parse as parse_number};

/// The most containers open at once: `serde_json` refuses the 128th level of nesting, and so
/// does a call's raw-argument parse, so the reader stops where they would.
const MAX_DEPTH: usize = 127;

/// An incremental, truncation-tolerant JSON reader.
///
/// Fed the text of one JSON value in fragments ([`push`](Self::push), or
/// [`push_bytes`](Self::push_bytes) when a fragment may end inside a UTF-8 character), it keeps
/// the best value of the text so far: open strings hold the characters read (an escape or a
/// character cut between fragments is completed by the next one), a number still being written
/// holds its longest whole prefix (`12.` is 12), open objects and arrays hold their finished
/// members and the open one; a key or a literal not yet complete is left out.
/// [`node`](Self::node) tells which parts are finished: a string whose quote closed, a number a
/// delimiter followed, a closed container.
///
/// Text that cannot begin a JSON value is an error ([`error`](Self::error)), reported once and
/// kept: the value so far stays as it was before the error. Nothing the reader is fed makes it
/// panic.
///
/// ```
/// use dsh_tools_schema::partial_json::PartialJson;
/// use serde_json::json;
///
/// let mut reader = PartialJson::default();
/// reader.push(r#"{"path": "src/ma"#).unwrap();
/// assert_eq!(reader.value(), Some(json!({"path": "src/ma"})));
/// reader.push(r#"in.rs", "limit": 2"#).unwrap();
/// assert_eq!(reader.value(), Some(json!({"path": "src/main.rs", "limit": 2})));
/// reader.push("0}").unwrap();
/// assert!(reader.is_complete());
/// assert_eq!(reader.value(), Some(json!({"path": "src/main.rs", "limit": 20})));
/// ```
#[derive(Clone, Debug, Default)]
pub struct PartialJson {
    /// The containers still open, outermost first.
    stack: Vec<Frame>,
    /// What the scalar being read is, if one is.
    scalar: Scalar,
    /// The text of the scalar being read: a string's characters so far, a number's text.
    text: String,
    /// What the grammar takes next, outside a scalar.
    expect: Expect,
    /// The whole value, once it is finished.
    root: Option<Value>,
    /// The first bytes of a UTF-8 character cut off at the end of the last
    /// [`push_bytes`](Self::push_bytes).
    cut: Vec<u8>,
    error: Option<PartialJsonError>,
    /// Bytes read so far.
    offset: usize,
}

/// An open container.
#[derive(Clone, Debug)]
pub(super) enum Frame {
    Object {
        /// The finished members, in the text's order.
        entries: Map<String, Value>,
        /// The key whose value is being read.
        key: Option<String>,
    },
    Array {
        /// The finished items.
        items: Vec<Value>,
    },
}

/// The scalar being read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Scalar {
    #[default]
    None,
    /// A string value; `escape` is where an escape sequence cut by a fragment stands.
    String { escape: Escape },
    /// An object key.
    Key { escape: Escape },
    /// A number, in `state`; the first `whole` bytes of its text are its longest whole prefix.
    Number { state: NumberState, whole: usize },
    /// `true`, `false` or `null`, of which `matched` bytes have been read.
    Literal { word: Literal, matched: u8 },
}

/// Where an escape sequence inside a string stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Escape {
    #[default]
    None,
    /// After `\`.
    Backslash,
    /// Inside `\uXXXX`: `digits` hex digits read, worth `code`; `high` is the leading surrogate
    /// this escape must complete.
    Hex {
        code: u32,
        digits: u8,
        high: Option<u32>,
    },
    /// After a leading surrogate's escape: a `\` must follow.
    AfterHigh { high: u32 },
    /// After a leading surrogate's escape and `\`: a `u` must follow.
    AfterHighBackslash { high: u32 },
}

/// A literal word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Literal {
    True,
    False,
    Null,
}

impl Literal {
    pub(super) fn text(self) -> &'static str {
        match self {
            Self::True => "true",
            Self::False => "false",
            Self::Null => "null",
        }
    }

    fn value(self) -> Value {
        match self {
            Self::True => Value::Bool(true),
            Self::False => Value::Bool(false),
            Self::Null => Value::Null,
        }
    }
}

/// What the grammar takes next, outside a scalar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Expect {
    /// A value (the text's start, after `:`, after `,` in an array).
    #[default]
    Value,
    /// A value or `]` (after `[`).
    ValueOrEnd,
    /// A key or `}` (after `{`).
    KeyOrEnd,
    /// A key (after `,` in an object).
    Key,
    /// `:` (after a key).
    Colon,
    /// `,` or the container's end (after a member).
    CommaOrEnd,
    /// Nothing but whitespace: the value is finished.
    Done,
}

/// A result inside the reader: the error is stored, so it carries nothing.
type Step<T = ()> = Result<T, ()>;

impl PartialJson {
    /// Reads the next fragment of the text.
    pub fn push(&mut self, fragment: &str) -> Result<(), PartialJsonError> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        if !self.cut.is_empty() {
            // A character cut by `push_bytes` must be completed by bytes, not by a new `&str`.
            return self.fail(self.offset, "the text breaks off inside a UTF-8 character");
        }
        self.read(fragment);
        self.result()
    }

    /// Reads the next fragment of the text as bytes, which may end (or begin) inside a UTF-8
    /// character: the cut character is completed by the next fragment. Bytes that are not
    /// UTF-8 are an error.
    pub fn push_bytes(&mut self, fragment: &[u8]) -> Result<(), PartialJsonError> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        let mut rest = fragment;
        // Complete a character cut off at the end of the last fragment.
        while !self.cut.is_empty() && !rest.is_empty() {
            self.cut.push(rest[0]);
            rest = &rest[1..];
            match std::str::from_utf8(&self.cut) {
                Ok(text) => {
                    let text = text.to_owned();
                    self.cut.clear();
                    self.read(&text);
                }
                Err(error) if error.error_len().is_none() && self.cut.len() < 4 => {}
                Err(_) => return self.fail(self.offset, "the text is not UTF-8"),
            }
        }
        if !self.cut.is_empty() {
            return self.result();
        }
        match std::str::from_utf8(rest) {
            Ok(text) => self.read(text),
            Err(error) => {
                let valid = error.valid_up_to();
                // `valid_up_to` bytes are UTF-8 by the check just made.
                let text = std::str::from_utf8(&rest[..valid]).unwrap_or_default();
                self.read(text);
                if error.error_len().is_some() {
                    return self.fail(self.offset, "the text is not UTF-8");
                }
                self.cut.extend_from_slice(&rest[valid..]);
            }
        }
        self.result()
    }

    /// Ends the text: a number still being written at the top level is finished, and a value
    /// left open (or no value at all) is an error saying where the text broke off.
    pub fn end(&mut self) -> Result<(), PartialJsonError> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        if !self.cut.is_empty() {
            return self.fail(self.offset, "the text ends inside a UTF-8 character");
        }
        if let Scalar::Number { state, .. } = self.scalar
            && self.stack.is_empty()
            && self.finish_number(state, self.offset).is_err()
        {
            return self.result();
        }
        if self.root.is_some() {
            return Ok(());
        }
        let inside = match (self.scalar, self.stack.last()) {
            (Scalar::String { .. }, _) => "a string",
            (Scalar::Key { .. }, _) => "an object key",
            (Scalar::Number { .. }, _) => "a number",
            (Scalar::Literal { .. }, _) => "a literal",
            (Scalar::None, Some(Frame::Object { .. })) => "an object",
            (Scalar::None, Some(Frame::Array { .. })) => "an array",
            (Scalar::None, None) => return self.fail(self.offset, "the text holds no value"),
        };
        self.fail(self.offset, format!("the text ends inside {inside}"))
    }

    /// The first error, if the text stopped being JSON.
    pub fn error(&self) -> Option<&PartialJsonError> {
        self.error.as_ref()
    }

    /// Whether the whole value has been read (its closing bracket, quote or delimiter came).
    pub fn is_complete(&self) -> bool {
        self.root.is_some()
    }

    /// Bytes read so far. Not API: the fuzz target checks that every byte is read once.
    #[doc(hidden)]
    pub fn bytes_read(&self) -> usize {
        self.offset
    }

    /// The best value of the text so far (a copy); `None` before any part of a value is known.
    pub fn value(&self) -> Option<Value> {
        if let Some(root) = &self.root {
            return Some(root.clone());
        }
        let mut child = self.scalar_value();
        for frame in self.stack.iter().rev() {
            child = Some(match frame {
                Frame::Object { entries, key } => {
                    let mut entries = entries.clone();
                    if let (Some(key), Some(child)) = (key, child) {
                        entries.insert(key.clone(), child);
                    }
                    Value::Object(entries)
                }
                Frame::Array { items } => {
                    let mut items = items.clone();
                    items.extend(child);
                    Value::Array(items)
                }
            });
        }
        child
    }

    /// The best value of the text so far, without copying it.
    pub fn into_value(mut self) -> Option<Value> {
        if let Some(root) = self.root.take() {
            return Some(root);
        }
        let mut child = self.scalar_value();
        while let Some(frame) = self.stack.pop() {
            child = Some(match frame {
                Frame::Object { mut entries, key } => {
                    if let (Some(key), Some(child)) = (key, child) {
                        entries.insert(key, child);
                    }
                    Value::Object(entries)
                }
                Frame::Array { mut items } => {
                    items.extend(child);
                    Value::Array(items)
                }
            });
        }
        child
    }

    /// The whole value, once it is finished.
    pub(super) fn root(&self) -> Option<&Value> {
        self.root.as_ref()
    }

    pub(super) fn frames(&self) -> &[Frame] {
        &self.stack
    }

    pub(super) fn scalar(&self) -> Scalar {
        self.scalar
    }

    pub(super) fn scalar_text(&self) -> &str {
        &self.text
    }

    /// Whether the scalar being read has a value yet (a number needs a whole prefix).
    pub(super) fn value_of_scalar_is_known(&self) -> bool {
        match self.scalar {
            Scalar::String { .. } => true,
            Scalar::Number { whole, .. } => whole > 0,
            Scalar::None | Scalar::Key { .. } | Scalar::Literal { .. } => false,
        }
    }

    /// The best value of the scalar being read.
    fn scalar_value(&self) -> Option<Value> {
        match self.scalar {
            Scalar::String { .. } => Some(Value::String(self.text.clone())),
            Scalar::Number { whole, .. } => self
                .text
                .get(..whole)
                .filter(|text| !text.is_empty())
                .and_then(parse_number)
                .map(Value::Number),
            Scalar::None | Scalar::Key { .. } | Scalar::Literal { .. } => None,
        }
    }

    fn result(&self) -> Result<(), PartialJsonError> {
        match &self.error {
            Some(error) => Err(error.clone()),
            None => Ok(()),
        }
    }

    fn fail(&mut self, offset: usize, reason: impl Into<String>) -> Result<(), PartialJsonError> {
        let error = PartialJsonError::new(offset, reason);
        self.error = Some(error.clone());
        Err(error)
    }

    /// Records an error at the byte `offset` of the whole text.
    fn error_at(&mut self, offset: usize, reason: impl Into<String>) -> Step<usize> {
        let _ = self.fail(offset, reason);
        Err(())
    }

    /// Reads `text`, the next fragment; an error stops it and is kept.
    fn read(&mut self, text: &str) {
        let base = self.offset;
        let bytes = text.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let step = match self.scalar {
                Scalar::String { escape } | Scalar::Key { escape } => {
                    self.read_string(text, at, base, escape)
                }
                Scalar::Number { state, whole } => self.read_number(bytes, at, base, state, whole),
                Scalar::Literal { word, matched } => {
                    self.read_literal(bytes, at, base, word, matched)
                }
                Scalar::None => self.read_structure(bytes, at, base),
            };
            match step {
                Ok(next) => at = next,
                Err(()) => {
                    self.offset = base + bytes.len();
                    return;
                }
            }
        }
        self.offset = base + bytes.len();
    }

    /// Outside a scalar: whitespace, punctuation, or the start of a value.
    fn read_structure(&mut self, bytes: &[u8], mut at: usize, base: usize) -> Step<usize> {
        while at < bytes.len() && matches!(bytes[at], b' ' | b'\t' | b'\n' | b'\r') {
            at += 1;
        }
        let Some(&byte) = bytes.get(at) else {
            return Ok(at);
        };
        let offset = base + at;
        match self.expect {
            Expect::Value | Expect::ValueOrEnd => {
                if byte == b']' && self.expect == Expect::ValueOrEnd {
                    self.close();
                } else {
                    self.start_value(byte, offset)?;
                }
            }
            Expect::KeyOrEnd | Expect::Key => match byte {
                b'"' => {
                    self.scalar = Scalar::Key {
                        escape: Escape::None,
                    }
                }
                b'}' if self.expect == Expect::KeyOrEnd => self.close(),
                _ => {
                    return self.error_at(
                        offset,
                        format!("expected an object key (a string), found {}", shown(byte)),
                    );
                }
            },
            Expect::Colon => match byte {
                b':' => self.expect = Expect::Value,
                _ => {
                    return self.error_at(
                        offset,
                        format!("expected `:` after an object key, found {}", shown(byte)),
                    );
                }
            },
            Expect::CommaOrEnd => match (byte, self.stack.last()) {
                (b',', Some(Frame::Object { .. })) => self.expect = Expect::Key,
                (b',', Some(Frame::Array { .. })) => self.expect = Expect::Value,
                (b'}', Some(Frame::Object { .. })) | (b']', Some(Frame::Array { .. })) => {
                    self.close();
                }
                (_, Some(Frame::Object { .. })) => {
                    return self.error_at(
                        offset,
                        format!(
                            "expected `,` or `}}` after an object member, found {}",
                            shown(byte)
                        ),
                    );
                }
                _ => {
                    return self.error_at(
                        offset,
                        format!(
                            "expected `,` or `]` after an array item, found {}",
                            shown(byte)
                        ),
                    );
                }
            },
            Expect::Done => {
                return self.error_at(
                    offset,
                    format!("trailing characters after the value: {}", shown(byte)),
                );
            }
        }
        Ok(at + 1)
    }

    fn start_value(&mut self, byte: u8, offset: usize) -> Step {
        match byte {
            b'{' | b'[' => {
                if self.stack.len() >= MAX_DEPTH {
                    self.error_at(offset, format!("nested deeper than {MAX_DEPTH} levels"))?;
                }
                self.stack.push(if byte == b'{' {
                    Frame::Object {
                        entries: Map::new(),
                        key: None,
                    }
                } else {
                    Frame::Array { items: Vec::new() }
                });
                self.expect = if byte == b'{' {
                    Expect::KeyOrEnd
                } else {
                    Expect::ValueOrEnd
                };
            }
            b'"' => {
                self.scalar = Scalar::String {
                    escape: Escape::None,
                }
            }
            b't' | b'f' | b'n' => {
                let word = match byte {
                    b't' => Literal::True,
                    b'f' => Literal::False,
                    _ => Literal::Null,
                };
                self.scalar = Scalar::Literal { word, matched: 1 };
            }
            _ => match NumberState::start(byte) {
                Some(state) => {
                    self.text.clear();
                    self.text.push(char::from(byte));
                    let whole = if state.is_whole() { 1 } else { 0 };
                    self.scalar = Scalar::Number { state, whole };
                }
                None => {
                    self.error_at(offset, format!("expected a value, found {}", shown(byte)))?;
                }
            },
        }
        Ok(())
    }

    /// Inside a string (a value or a key): copies runs of plain characters, decodes escapes.
    fn read_string(
        &mut self,
        text: &str,
        mut at: usize,
        base: usize,
        mut escape: Escape,
    ) -> Step<usize> {
        let bytes = text.as_bytes();
        while at < bytes.len() {
            if escape != Escape::None {
                escape = self.read_escape(bytes[at], base + at, escape)?;
                at += 1;
                continue;
            }
            let run = bytes[at..]
                .iter()
                .position(|&byte| byte == b'"' || byte == b'\\' || byte < 0x20);
            let end = run.map_or(bytes.len(), |run| at + run);
            // `at` and `end` sit at ASCII bytes or the fragment's ends: both are char boundaries.
            self.text.push_str(&text[at..end]);
            at = end;
            let Some(&byte) = bytes.get(at) else {
                break;
            };
            match byte {
                b'"' => {
                    self.end_string(base + at)?;
                    return Ok(at + 1);
                }
                b'\\' => escape = Escape::Backslash,
                _ => {
                    return self.error_at(
                        base + at,
                        "a control character must be escaped inside a string",
                    );
                }
            }
            at += 1;
        }
        self.set_escape(escape);
        Ok(at)
    }

    fn set_escape(&mut self, escape: Escape) {
        match &mut self.scalar {
            Scalar::String { escape: slot } | Scalar::Key { escape: slot } => *slot = escape,
            _ => {}
        }
    }

    /// One byte of an escape sequence; the state after it.
    fn read_escape(&mut self, byte: u8, offset: usize, escape: Escape) -> Step<Escape> {
        match escape {
            Escape::None => Ok(Escape::None),
            Escape::Backslash => {
                let decoded = match byte {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        return Ok(Escape::Hex {
                            code: 0,
                            digits: 0,
                            high: None,
                        });
                    }
                    _ => {
                        self.error_at(offset, format!("invalid escape `\\{}`", shown_char(byte)))?;
                        return Err(());
                    }
                };
                self.text.push(decoded);
                Ok(Escape::None)
            }
            Escape::Hex { code, digits, high } => {
                let Some(digit) = char::from(byte).to_digit(16) else {
                    self.error_at(offset, "invalid hex digit in a `\\u` escape")?;
                    return Err(());
                };
                let code = code * 16 + digit;
                if digits < 3 {
                    return Ok(Escape::Hex {
                        code,
                        digits: digits + 1,
                        high,
                    });
                }
                self.decoded_unit(code, high, offset)
            }
            Escape::AfterHigh { high } => {
                if byte == b'\\' {
                    Ok(Escape::AfterHighBackslash { high })
                } else {
                    self.error_at(
                        offset,
                        "a leading surrogate must be followed by a `\\u` escape",
                    )?;
                    Err(())
                }
            }
            Escape::AfterHighBackslash { high } => {
                if byte == b'u' {
                    Ok(Escape::Hex {
                        code: 0,
                        digits: 0,
                        high: Some(high),
                    })
                } else {
                    self.error_at(
                        offset,
                        "a leading surrogate must be followed by a `\\u` escape",
                    )?;
                    Err(())
                }
            }
        }
    }

    /// A whole `\uXXXX` unit was read: a character, or half of a surrogate pair.
    fn decoded_unit(&mut self, code: u32, high: Option<u32>, offset: usize) -> Step<Escape> {
        let is_trailing = (0xDC00..=0xDFFF).contains(&code);
        match high {
            Some(high) if is_trailing => {
                let combined = 0x1_0000 + ((high - 0xD800) << 10) + (code - 0xDC00);
                // Every pair of a leading and a trailing surrogate is a valid scalar value.
                self.text
                    .push(char::from_u32(combined).unwrap_or(char::REPLACEMENT_CHARACTER));
                Ok(Escape::None)
            }
            Some(_) => {
                self.error_at(
                    offset,
                    "a leading surrogate must be followed by a trailing one",
                )?;
                Err(())
            }
            None if (0xD800..=0xDBFF).contains(&code) => Ok(Escape::AfterHigh { high: code }),
            None if is_trailing => {
                self.error_at(offset, "a trailing surrogate without a leading one")?;
                Err(())
            }
            None => {
                // Outside the surrogates every code is a scalar value.
                self.text
                    .push(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER));
                Ok(Escape::None)
            }
        }
    }

    /// The closing quote of a string or a key.
    fn end_string(&mut self, offset: usize) -> Step {
        let text = std::mem::take(&mut self.text);
        let is_key = matches!(self.scalar, Scalar::Key { .. });
        self.scalar = Scalar::None;
        if is_key {
            if let Some(Frame::Object { entries, key }) = self.stack.last_mut() {
                if entries.contains_key(&text) {
                    return self
                        .error_at(offset, format!("the object gives the key {text:?} twice"))
                        .map(drop);
                }
                *key = Some(text);
            }
            self.expect = Expect::Colon;
            return Ok(());
        }
        self.finish_value(Value::String(text));
        Ok(())
    }

    fn read_number(
        &mut self,
        bytes: &[u8],
        mut at: usize,
        base: usize,
        mut state: NumberState,
        mut whole: usize,
    ) -> Step<usize> {
        while let Some(&byte) = bytes.get(at) {
            if !is_number_byte(byte) {
                self.finish_number(state, base + at)?;
                return Ok(at);
            }
            let Some(next) = state.step(byte) else {
                return self.error_at(
                    base + at,
                    format!(
                        "invalid number: {} cannot follow `{}`",
                        shown(byte),
                        self.text
                    ),
                );
            };
            state = next;
            self.text.push(char::from(byte));
            if state.is_whole() {
                whole = self.text.len();
            }
            at += 1;
        }
        self.scalar = Scalar::Number { state, whole };
        Ok(at)
    }

    /// A delimiter (or the end of the text) ended the number being read.
    fn finish_number(&mut self, state: NumberState, offset: usize) -> Step {
        if !state.is_whole() {
            let reason = format!("invalid number: `{}` is not a whole number", self.text);
            return self.error_at(offset, reason).map(drop);
        }
        let Some(number) = parse_number(&self.text) else {
            let reason = format!("number out of range: `{}`", self.text);
            return self.error_at(offset, reason).map(drop);
        };
        self.text.clear();
        self.scalar = Scalar::None;
        self.finish_value(Value::Number(number));
        Ok(())
    }

    fn read_literal(
        &mut self,
        bytes: &[u8],
        mut at: usize,
        base: usize,
        word: Literal,
        mut matched: u8,
    ) -> Step<usize> {
        let expected = word.text().as_bytes();
        while let Some(&byte) = bytes.get(at) {
            if expected.get(usize::from(matched)) != Some(&byte) {
                return self.error_at(
                    base + at,
                    format!(
                        "expected `{}`, found {}",
                        String::from_utf8_lossy(expected),
                        shown(byte)
                    ),
                );
            }
            matched += 1;
            at += 1;
            if usize::from(matched) == expected.len() {
                self.scalar = Scalar::None;
                self.finish_value(word.value());
                return Ok(at);
            }
        }
        self.scalar = Scalar::Literal { word, matched };
        Ok(at)
    }

    /// A child is finished: into its container, or the whole value.
    fn finish_value(&mut self, value: Value) {
        match self.stack.last_mut() {
            None => {
                self.root = Some(value);
                self.expect = Expect::Done;
            }
            Some(Frame::Object { entries, key }) => {
                // A value inside an object always follows its key (the grammar saw to it).
                if let Some(key) = key.take() {
                    entries.insert(key, value);
                }
                self.expect = Expect::CommaOrEnd;
            }
            Some(Frame::Array { items }) => {
                items.push(value);
                self.expect = Expect::CommaOrEnd;
            }
        }
    }

    /// The innermost container closed.
    fn close(&mut self) {
        let value = match self.stack.pop() {
            Some(Frame::Object { entries, .. }) => Value::Object(entries),
            Some(Frame::Array { items }) => Value::Array(items),
            None => return,
        };
        self.finish_value(value);
    }
}

/// A byte as an error message shows it.
fn shown(byte: u8) -> String {
    format!("`{}`", shown_char(byte))
}

fn shown_char(byte: u8) -> String {
    if byte.is_ascii_graphic() || byte == b' ' {
        char::from(byte).to_string()
    } else {
        char::from(byte).escape_default().to_string()
    }
}
