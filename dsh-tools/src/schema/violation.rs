//! Violations: what validation reports, in the spec's wording, and the context that collects them.
//!
//! [`ValidationContext`] is shared by the schema interpreter and by macro-generated validators so
//! both produce byte-identical messages. It keeps the current path as borrowed segments and only
//! formats a path when something is reported, so a valid value costs no allocation here.
//!
//! Keys and values come from the model: a key on a path and a value quoted in [`Violation::got`]
//! are cut to [`MAX_QUOTED_CHARS`](crate::errors::MAX_QUOTED_CHARS) characters with a marker saying how
//! many were cut, so a hostile key cannot make a megabyte message.

use std::borrow::Cow;
use std::fmt::{self, Write as _};

use serde::Serialize;
use serde_json::{Number, Value};

use crate::text_bounds::{MAX_QUOTED_CHARS, push_cut_marker, push_quoted, quoted_len_bound};

/// How many violations are formatted; the rest are counted into an "and N more" tail so a
/// hostile payload cannot produce a megabyte error.
pub const MAX_REPORTED_VIOLATIONS: usize = 50;

/// Room for this many violations is made at the first one.
const INITIAL_VIOLATIONS: usize = 4;

/// One reason a value does not match its schema.
///
/// `expected` and `got` are often fixed words (`integer`, `string`, `absent`), which are
/// borrowed rather than allocated: reporting is on the path of every invalid call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Where: `opts.depth`, `include[1]`, `arguments` for the root itself.
    pub path: String,
    /// The full sentence, e.g. `"max_results" must be an integer`.
    pub message: String,
    /// What the schema wanted, e.g. `integer`, `one of ["literal","regex"]`, `>= 1`.
    pub expected: Cow<'static, str>,
    /// What the value had: its JSON type, or a JSON excerpt for value constraints (cut to
    /// [`MAX_QUOTED_CHARS`](crate::errors::MAX_QUOTED_CHARS) characters with a marker); `absent` for a
    /// missing property.
    pub got: Cow<'static, str>,
}

/// Every violation of one value, in the stable reporting order, capped at
/// [`MAX_REPORTED_VIOLATIONS`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Violations {
    list: Vec<Violation>,
    omitted: usize,
}

impl Violations {
    /// The reported violations.
    pub fn as_slice(&self) -> &[Violation] {
        &self.list
    }

    /// How many violations were found but not reported past the cap.
    pub fn omitted(&self) -> usize {
        self.omitted
    }

    /// All violations found, reported or not.
    pub fn total(&self) -> usize {
        self.list.len() + self.omitted
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty() && self.omitted == 0
    }

    /// Iterates over the reported violations.
    pub fn iter(&self) -> std::slice::Iter<'_, Violation> {
        self.list.iter()
    }
}

impl fmt::Display for Violations {
    /// `v1; v2; …; and N more`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, violation) in self.list.iter().enumerate() {
            if index > 0 {
                f.write_str("; ")?;
            }
            f.write_str(&violation.message)?;
        }
        if self.omitted > 0 {
            if !self.list.is_empty() {
                f.write_str("; ")?;
            }
            write!(f, "and {} more", self.omitted)?;
        }
        Ok(())
    }
}

impl<'a> IntoIterator for &'a Violations {
    type Item = &'a Violation;
    type IntoIter = std::slice::Iter<'a, Violation>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

/// The JSON types a value can have, for type violations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JsonType {
    /// An object.
    Object,
    /// An array.
    Array,
    /// A string.
    String,
    /// A number.
    Number,
    /// An integer.
    Integer,
    /// `true` or `false`.
    Boolean,
    /// `null`.
    Null,
}

impl JsonType {
    /// The JSON type of `value` (numbers are `Number`).
    pub fn of(value: &Value) -> Self {
        match value {
            Value::Null => Self::Null,
            Value::Bool(_) => Self::Boolean,
            Value::Number(_) => Self::Number,
            Value::String(_) => Self::String,
            Value::Array(_) => Self::Array,
            Value::Object(_) => Self::Object,
        }
    }

    /// The JSON Schema name: `object`, `integer`, …
    pub fn name(self) -> &'static str {
        match self {
            Self::Object => "object",
            Self::Array => "array",
            Self::String => "string",
            Self::Number => "number",
            Self::Integer => "integer",
            Self::Boolean => "boolean",
            Self::Null => "null",
        }
    }

    /// The JSON Schema name followed by `or null`: `object or null`, …
    fn name_or_null(self) -> &'static str {
        match self {
            Self::Object => "object or null",
            Self::Array => "array or null",
            Self::String => "string or null",
            Self::Number => "number or null",
            Self::Integer => "integer or null",
            Self::Boolean => "boolean or null",
            Self::Null => "null",
        }
    }

    /// The noun phrase of a type violation: `an object`, `a string`, `null`, …
    fn phrase(self) -> &'static str {
        match self {
            Self::Object => "an object",
            Self::Array => "an array",
            Self::String => "a string",
            Self::Number => "a number",
            Self::Integer => "an integer",
            Self::Boolean => "a boolean",
            Self::Null => "null",
        }
    }
}

/// What went wrong at the current path (missing and undeclared keys have their own methods,
/// since they name a key rather than the node itself).
#[derive(Clone, Copy, Debug)]
pub enum ViolationKind<'a> {
    /// The value has the wrong JSON type. `nullable` adds "or null" to the message.
    Type {
        /// The type the schema wants.
        expected: JsonType,
        /// Whether `null` would also have been accepted.
        nullable: bool,
    },
    /// A number node got something that is not a finite number.
    NotFinite,
    /// An integer node got anything but an integral number.
    NotInteger,
    /// The value is not among the `enum` members.
    NotInEnum(&'a [Value]),
    /// The value is not the `const`.
    NotConst(&'a Value),
    /// `oneOf` matched zero or several branches.
    OneOf {
        /// How many branches matched.
        matched: usize,
    },
    /// Below `minimum`.
    Minimum(&'a Number),
    /// Above `maximum`.
    Maximum(&'a Number),
    /// Fewer code points than `minLength`.
    MinLength(u64),
    /// More code points than `maxLength`.
    MaxLength(u64),
    /// No match for `pattern`.
    Pattern(&'a str),
    /// Fewer items than `minItems`.
    MinItems(u64),
    /// More items than `maxItems`.
    MaxItems(u64),
    /// The value nests deeper than validation follows.
    TooDeep(usize),
}

/// Where a path starts and how it is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathRoot {
    /// Tool arguments: the root is called `arguments`; children are not prefixed (`opts.depth`).
    Arguments,
    /// Tool output: the root is called `value`; children are prefixed (`value.file`).
    Value,
}

/// One step of a path.
#[derive(Clone, Copy, Debug)]
enum Segment<'v> {
    Key(&'v str),
    Index(usize),
}

/// How many path segments live inline before the stack spills to the heap: argument payloads
/// are rarely deeper, and an allocation costs as much as validating a small payload.
const INLINE_PATH: usize = 8;

/// The current path: a stack of segments that allocates only past [`INLINE_PATH`] levels.
#[derive(Debug)]
struct PathStack<'v> {
    inline: [Segment<'v>; INLINE_PATH],
    len: usize,
    spill: Vec<Segment<'v>>,
}

impl<'v> PathStack<'v> {
    fn new() -> Self {
        Self {
            inline: [Segment::Index(0); INLINE_PATH],
            len: 0,
            spill: Vec::new(),
        }
    }

    #[inline]
    fn push(&mut self, segment: Segment<'v>) {
        if self.len < INLINE_PATH {
            self.inline[self.len] = segment;
        } else {
            self.spill.push(segment);
        }
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) {
        if self.len == 0 {
            return;
        }
        self.len -= 1;
        if self.len >= INLINE_PATH {
            self.spill.pop();
        }
    }

    #[inline]
    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn first(&self) -> Option<&Segment<'v>> {
        self.iter().next()
    }

    fn iter(&self) -> impl Iterator<Item = &Segment<'v>> {
        self.inline[..self.len.min(INLINE_PATH)]
            .iter()
            .chain(self.spill.iter())
    }
}

/// Collects violations while a value is walked. `'v` is the lifetime of the keys on the path
/// (borrowed from the value or the schema).
#[derive(Debug)]
pub struct ValidationContext<'v> {
    root: PathRoot,
    path: PathStack<'v>,
    reported: Vec<Violation>,
    omitted: usize,
}

impl<'v> ValidationContext<'v> {
    /// A context for validating tool arguments.
    pub fn for_arguments() -> Self {
        Self::new(PathRoot::Arguments)
    }

    /// A context for validating a tool's output value.
    pub fn for_output() -> Self {
        Self::new(PathRoot::Value)
    }

    /// A context rooted at `root`.
    pub fn new(root: PathRoot) -> Self {
        Self {
            root,
            path: PathStack::new(),
            reported: Vec::new(),
            omitted: 0,
        }
    }

    /// Enters the property `key`.
    #[inline]
    pub fn push_key(&mut self, key: &'v str) {
        self.path.push(Segment::Key(key));
    }

    /// Enters the item at `index`.
    #[inline]
    pub fn push_index(&mut self, index: usize) {
        self.path.push(Segment::Index(index));
    }

    /// Leaves the innermost property or item.
    #[inline]
    pub fn pop(&mut self) {
        self.path.pop();
    }

    /// How deep the current path is.
    #[inline]
    pub fn depth(&self) -> usize {
        self.path.len()
    }

    /// How many violations were found so far (reported or not).
    #[inline]
    pub fn count(&self) -> usize {
        self.reported.len() + self.omitted
    }

    /// Whether nothing was found so far.
    #[inline]
    pub fn is_clean(&self) -> bool {
        self.count() == 0
    }

    /// Reports a violation of the node at the current path; `value` is what the node holds.
    pub fn report(&mut self, kind: ViolationKind<'_>, value: &Value) {
        if self.at_capacity() {
            return;
        }
        let capacity = self.path_capacity();
        let violation = new_violation(&mut self.reported);
        violation.path = String::with_capacity(capacity);
        write_path(self.root, &self.path, &mut violation.path);
        describe(violation, kind, value);
    }

    /// Reports the required property `key` of the current object as missing.
    pub fn report_missing(&mut self, key: &str) {
        if self.at_capacity() {
            return;
        }
        let capacity = self.path_capacity() + quoted_len_bound(key) + 1;
        let violation = new_violation(&mut self.reported);
        write_child_path(self.root, &self.path, key, capacity, &mut violation.path);
        let path = &violation.path;
        let message = &mut violation.message;
        *message = String::with_capacity(path.len() + 32);
        message.push_str("missing required property \"");
        message.push_str(path);
        message.push('"');
        violation.expected = Cow::Borrowed("present");
        violation.got = Cow::Borrowed("absent");
    }

    /// Reports the key `key` of the current object as undeclared.
    pub fn report_undeclared(&mut self, key: &str, value: &Value) {
        if self.at_capacity() {
            return;
        }
        let capacity = self.path_capacity() + quoted_len_bound(key) + 1;
        let violation = new_violation(&mut self.reported);
        write_child_path(self.root, &self.path, key, capacity, &mut violation.path);
        let path = &violation.path;
        let message = &mut violation.message;
        *message = String::with_capacity(path.len() + 64);
        message.push('"');
        message.push_str(path);
        message.push_str("\" is not a declared property (additionalProperties: false)");
        violation.expected = Cow::Borrowed("no such property");
        violation.got = Cow::Borrowed(JsonType::of(value).name());
    }

    /// Reports that the current object's raw JSON text gives the key `key` more than once
    /// (`duplicate property "a.b"`): parsing would keep only one of the values.
    pub fn report_duplicate(&mut self, key: &str) {
        if self.at_capacity() {
            return;
        }
        let capacity = self.path_capacity() + key.len() + 1;
        let violation = new_violation(&mut self.reported);
        write_child_path(self.root, &self.path, key, capacity, &mut violation.path);
        let path = &violation.path;
        let message = &mut violation.message;
        *message = String::with_capacity(path.len() + 24);
        message.push_str("duplicate property \"");
        message.push_str(path);
        message.push('"');
        violation.expected = Cow::Borrowed("one value per key");
        violation.got = Cow::Borrowed("the key repeated");
    }

    /// Ends the walk: `Ok` when nothing was found.
    pub fn finish(self) -> Result<(), Violations> {
        if self.count() == 0 {
            Ok(())
        } else {
            Err(self.into_violations())
        }
    }

    /// Everything found so far.
    pub fn into_violations(self) -> Violations {
        Violations {
            list: self.reported,
            omitted: self.omitted,
        }
    }

    /// Counts a violation past the cap instead of formatting it; `true` when at the cap.
    fn at_capacity(&mut self) -> bool {
        if self.reported.len() >= MAX_REPORTED_VIOLATIONS {
            self.omitted += 1;
            true
        } else {
            false
        }
    }

    /// An upper bound of the current path's length, so it is written without reallocating.
    fn path_capacity(&self) -> usize {
        let segments: usize = self
            .path
            .iter()
            .map(|segment| match segment {
                Segment::Key(key) => quoted_len_bound(key) + 1,
                Segment::Index(_) => 22,
            })
            .sum();
        segments + "arguments".len()
    }
}

/// What [`new_violation`] appends; a constant, so it is copied from read-only data rather than
/// built on the stack first.
const EMPTY_VIOLATION: Violation = Violation {
    path: String::new(),
    message: String::new(),
    expected: Cow::Borrowed(""),
    got: Cow::Borrowed(""),
};

/// Appends an empty violation to `list` and returns it, for the reporter to fill in place.
///
/// Filling the list's own slot, rather than building a violation and moving it in, matters:
/// the move reads the just-written fields back in wider chunks than they were written in, a
/// store-forwarding stall that perf put at a tenth of the cost of reporting. The list starts
/// with room for a few, since growing an empty list takes a slower path.
#[inline(always)]
fn new_violation(list: &mut Vec<Violation>) -> &mut Violation {
    if list.capacity() == 0 {
        *list = Vec::with_capacity(INITIAL_VIOLATIONS);
    }
    list.push(EMPTY_VIOLATION);
    let last = list.len() - 1;
    &mut list[last]
}

/// Writes the path of the current node (`arguments`/`value` at the root).
fn write_path(root: PathRoot, path: &PathStack<'_>, out: &mut String) {
    let root_name = match root {
        PathRoot::Arguments => "arguments",
        PathRoot::Value => "value",
    };
    match path.first() {
        None => out.push_str(root_name),
        // Under `arguments`, a top-level key is written bare: `opts.depth`, not `arguments.opts.depth`.
        Some(Segment::Key(_)) if root == PathRoot::Arguments => {}
        Some(_) => out.push_str(root_name),
    }
    for (index, segment) in path.iter().enumerate() {
        match segment {
            Segment::Key(key) => {
                if !out.is_empty() || index > 0 {
                    out.push('.');
                }
                push_quoted(out, key);
            }
            Segment::Index(item) => {
                out.push('[');
                push_index(out, *item);
                out.push(']');
            }
        }
    }
}

/// Writes the path of the current node's child `key` into `out`, a new string of `capacity`.
fn write_child_path(
    root: PathRoot,
    path: &PathStack<'_>,
    key: &str,
    capacity: usize,
    out: &mut String,
) {
    *out = String::with_capacity(capacity);
    if path.is_empty() && root == PathRoot::Arguments {
        push_quoted(out, key);
    } else {
        write_path(root, path, out);
        out.push('.');
        push_quoted(out, key);
    }
}

/// Fills in message, expected and got of `violation`, whose path is set, for a violation of
/// that node.
///
/// Built with `push_str` rather than `format!`: reporting is on the path of every invalid call,
/// and formatting machinery costs more than the checks themselves. Fixed words are borrowed.
fn describe(violation: &mut Violation, kind: ViolationKind<'_>, value: &Value) {
    let path = &violation.path;
    let message = &mut violation.message;
    let type_got = || Cow::Borrowed(JsonType::of(value).name());
    *message = String::with_capacity(path.len() + 48);
    message.push('"');
    message.push_str(path);
    message.push('"');
    let expected: Cow<'static, str>;
    let got: Cow<'static, str>;
    match kind {
        ViolationKind::Type {
            expected: wanted,
            nullable,
        } => {
            let or_null = nullable && wanted != JsonType::Null;
            expected = Cow::Borrowed(if or_null {
                wanted.name_or_null()
            } else {
                wanted.name()
            });
            message.push_str(" must be ");
            message.push_str(wanted.phrase());
            if or_null {
                message.push_str(" or null");
            }
            got = type_got();
        }
        ViolationKind::NotFinite => {
            expected = Cow::Borrowed("finite number");
            message.push_str(" must be a finite JSON number");
            got = excerpt(value);
        }
        ViolationKind::NotInteger => {
            expected = Cow::Borrowed("integer");
            message.push_str(" must be an integer");
            got = if value.is_number() {
                excerpt(value)
            } else {
                type_got()
            };
        }
        ViolationKind::NotInEnum(members) => {
            let estimate: usize = members.iter().map(json_size_hint).sum();
            let mut text = String::with_capacity(estimate + members.len() + 9);
            text.push_str("one of [");
            for (index, member) in members.iter().enumerate() {
                if index > 0 {
                    text.push(',');
                }
                push_json(&mut text, member);
            }
            text.push(']');
            message.push_str(" must be ");
            message.push_str(&text);
            expected = Cow::Owned(text);
            got = excerpt(value);
        }
        ViolationKind::NotConst(constant) => {
            let mut text = String::with_capacity(json_size_hint(constant));
            push_json(&mut text, constant);
            message.push_str(" must be ");
            message.push_str(&text);
            expected = Cow::Owned(text);
            got = excerpt(value);
        }
        ViolationKind::OneOf { matched } => {
            expected = Cow::Borrowed("exactly one oneOf branch");
            message.push_str(" must match exactly one oneOf branch (matched ");
            push_display(message, &matched);
            message.push(')');
            let mut text = String::with_capacity(24);
            push_display(&mut text, &matched);
            text.push_str(" matching branches");
            got = Cow::Owned(text);
        }
        ViolationKind::Minimum(bound) | ViolationKind::Maximum(bound) => {
            let mut text = String::with_capacity(24);
            text.push_str(if matches!(kind, ViolationKind::Minimum(_)) {
                ">= "
            } else {
                "<= "
            });
            push_display(&mut text, bound);
            message.push_str(" must be ");
            message.push_str(&text);
            expected = Cow::Owned(text);
            got = excerpt(value);
        }
        ViolationKind::MinLength(limit) | ViolationKind::MaxLength(limit) => {
            let mut text = String::with_capacity(40);
            text.push_str(if matches!(kind, ViolationKind::MinLength(_)) {
                "at least "
            } else {
                "at most "
            });
            push_display(&mut text, &limit);
            text.push_str(if limit == 1 {
                " character"
            } else {
                " characters"
            });
            message.push_str(" must be ");
            message.push_str(&text);
            message.push_str(" long");
            expected = Cow::Owned(text);
            let mut text = String::with_capacity(32);
            push_display(&mut text, &code_points(value));
            text.push_str(" characters");
            got = Cow::Owned(text);
        }
        ViolationKind::Pattern(source) => {
            let mut text = String::with_capacity(source.len() + 16);
            text.push_str("a match for ");
            push_json_str(&mut text, source);
            message.push_str(" must match the pattern ");
            push_json_str(message, source);
            expected = Cow::Owned(text);
            got = excerpt(value);
        }
        ViolationKind::MinItems(limit) | ViolationKind::MaxItems(limit) => {
            let mut text = String::with_capacity(32);
            text.push_str(if matches!(kind, ViolationKind::MinItems(_)) {
                "at least "
            } else {
                "at most "
            });
            push_display(&mut text, &limit);
            text.push_str(if limit == 1 { " item" } else { " items" });
            message.push_str(" must have ");
            message.push_str(&text);
            expected = Cow::Owned(text);
            let mut text = String::with_capacity(32);
            push_display(&mut text, &value.as_array().map_or(0, Vec::len));
            text.push_str(" items");
            got = Cow::Owned(text);
        }
        ViolationKind::TooDeep(limit) => {
            let mut text = String::with_capacity(24);
            text.push_str("at most ");
            push_display(&mut text, &limit);
            text.push_str(" levels");
            message.push_str(" nests deeper than ");
            push_display(message, &limit);
            message.push_str(" levels");
            expected = Cow::Owned(text);
            got = Cow::Borrowed("deeper");
        }
    }
    violation.expected = expected;
    violation.got = got;
}

/// Roughly how long `value`'s compact JSON is (exact for plain strings), to size buffers once.
fn json_size_hint(value: &Value) -> usize {
    match value {
        Value::String(text) => text.len() + 2,
        Value::Array(_) | Value::Object(_) => 16,
        _ => 8,
    }
}

/// Appends `value`'s `Display` output.
fn push_display(out: &mut String, value: &impl fmt::Display) {
    // Writing into a `String` cannot fail.
    let _ = write!(out, "{value}");
}

/// Appends `index` in decimal. Every item of an invalid array writes one into its path, so the
/// digits are made here rather than through the formatting machinery, which costs several times
/// as much for a number this small.
fn push_index(out: &mut String, index: usize) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = index;
    loop {
        start -= 1;
        // A single decimal digit: the truncation is exact.
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for &digit in &digits[start..] {
        out.push(char::from(digit));
    }
}

/// Appends compact JSON of `value` (what `Value::to_string` prints).
fn push_json(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => push_display(out, number),
        Value::String(text) => push_json_str(out, text),
        Value::Array(_) | Value::Object(_) => push_display(out, value),
    }
}

/// The bytes a JSON string literal escapes: control characters, `"` and `\`.
static NEEDS_ESCAPE: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = true;
        byte += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

/// Appends `text` as a JSON string literal.
fn push_json_str(out: &mut String, text: &str) {
    // serde_json escapes only `"`, `\` and control characters; anything else is copied as is.
    if !text.bytes().any(|b| NEEDS_ESCAPE[usize::from(b)]) {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else {
        push_display(out, &Value::from(text));
    }
}

fn code_points(value: &Value) -> usize {
    value.as_str().map_or(0, |text| text.chars().count())
}

/// Compact JSON of a scalar, or the type name of a container, cut to
/// [`MAX_QUOTED_CHARS`] characters with a marker saying how many were cut.
fn excerpt(value: &Value) -> Cow<'static, str> {
    match value {
        Value::Array(_) | Value::Object(_) => Cow::Borrowed(JsonType::of(value).name()),
        // A long string is cut before it is escaped, so a megabyte is never copied.
        Value::String(text) if text.len() > MAX_QUOTED_CHARS => {
            let Some((end, _)) = text.char_indices().nth(MAX_QUOTED_CHARS) else {
                return Cow::Owned(Value::from(text.as_str()).to_string());
            };
            let mut out = String::with_capacity(end + 32);
            let escaped = Value::from(&text[..end]).to_string();
            // The prefix's JSON without its closing quote, then the marker.
            out.push_str(&escaped[..escaped.len() - 1]);
            push_cut_marker(&mut out, text[end..].chars().count());
            Cow::Owned(out)
        }
        scalar => {
            let mut text = String::with_capacity(json_size_hint(scalar));
            push_json(&mut text, scalar);
            Cow::Owned(text)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::push_index;

    #[test]
    fn indexes_are_written_in_decimal_as_display_writes_them() {
        for index in [0, 7, 9, 10, 99, 100, 12_345, 1 << 40, usize::MAX] {
            let mut out = String::from("[");
            push_index(&mut out, index);
            assert_eq!(out, format!("[{index}"));
        }
    }
}
