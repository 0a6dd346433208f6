//! Violations: what validation reports, in the spec's wording, and the context that collects them.
//!
//! [`ValidationContext`] is shared by every engine that reports violations (the interpreter, the
//! compiled checks, the keyword engine, and the runtime's reports of repeated keys), so all
//! produce byte-identical messages; outside this crate it only walks a path and reports a
//! repeated key. It keeps the current path as borrowed segments and only
//! writes a path down when something is reported, so a valid value costs no allocation here.
//!
//! A reported [`Violation`] is compact: what went wrong (its kind and the few words or numbers
//! its sentences need) and where (the text of its parent's path and its last step), without
//! sentences. The texts that must be copied out of the value or the schema (keys, parent paths,
//! quoted values, bounds) go into one buffer per validation, which the violations share once the
//! walk ends; an invalid array item under the root copies nothing at all. The path and message
//! are written when they are read — [`Display`](fmt::Display) writes straight into its
//! formatter, [`Violation::path`] and [`Violation::message`] keep what they wrote — so an
//! invalid call pays for the sentences the model is shown, once, and for nothing else.
//!
//! Keys and values come from the model: a key on a path and a value quoted in [`Violation::got`]
//! are cut to [`MAX_QUOTED_CHARS`](crate::text_bounds::MAX_QUOTED_CHARS) characters with a marker
//! saying how many were cut, so a hostile key cannot make a megabyte message.

use std::fmt::{self, Write as _};
use std::sync::{Arc, OnceLock};

use serde::Serialize;
use serde::ser::SerializeStruct as _;
use serde_json::{Number, Value};

use crate::text_bounds::{MAX_QUOTED_CHARS, push_cut_marker, push_quoted};

/// How many violations are formatted; the rest are counted into an "and N more" tail so a
/// hostile payload cannot produce a megabyte error.
#[doc(hidden)]
pub const MAX_REPORTED_VIOLATIONS: usize = 50;

/// Room for this many violations is made at the first one: a violation is small, and growing the
/// list (a reallocation and a copy) cost more than an all-invalid array of ten items' reports.
const INITIAL_VIOLATIONS: usize = 8;

/// One reason a value does not match its schema.
///
/// Its four texts are read through [`path`](Self::path), [`message`](Self::message),
/// [`expected`](Self::expected) and [`got`](Self::got); `Display` writes the message. A
/// violation keeps what it needs to write them (its wording, and offsets into a text buffer that
/// one validation shares), and the path and message are written at the first read, then kept:
/// reading a text twice gives the same text.
pub struct Violation {
    /// The texts written while the value was walked (keys, parent paths, quoted values, bounds),
    /// shared by every violation of that walk; `None` when none were needed.
    texts: Option<Arc<String>>,
    /// The path up to the last step (the whole path for [`Leaf::Node`]).
    parent: Text,
    /// The last step of the path.
    leaf: Leaf,
    /// How the message is worded.
    form: Form,
    expected: Text,
    got: Text,
    /// The path and message, once read.
    written: OnceLock<Box<Written>>,
}

/// A violation's path and message, written at the first read.
#[derive(Debug)]
struct Written {
    path: Box<str>,
    message: Box<str>,
}

/// A text of a violation: a fixed word, or a span of the texts its walk wrote.
#[derive(Clone, Copy, Debug)]
enum Text {
    Static(&'static str),
    /// Byte offsets into [`Violation::texts`].
    Span(u32, u32),
}

/// The last step of a violation's path, kept apart from the path before it, so that an item of an
/// array stores its index rather than a copy of the whole path.
#[derive(Clone, Copy, Debug)]
enum Leaf {
    /// The path is the parent's text itself.
    Node,
    /// `<parent>[index]`.
    Index(usize),
    /// `<parent>.<key>`, the key (bounded) a span of the texts.
    Key(u32, u32),
    /// `<key>` alone: a top-level key of the arguments.
    BareKey(u32, u32),
}

/// How a violation's message is worded around its quoted path `"p"`.
#[derive(Clone, Copy, Debug)]
enum Form {
    /// `"p" must be a string`, `"p" must be an object or null`.
    Type { wanted: JsonType, or_null: bool },
    /// `"p" must be an integer`.
    NotInteger,
    /// `"p" must be <expected>` (enum, const, minimum, maximum).
    MustBe,
    /// `"p" must be <expected> long` (minLength, maxLength).
    MustBeLong,
    /// `"p" must have <expected>` (minItems, maxItems).
    MustHave,
    /// `"p" must match the pattern <source>`, the expected text being `a match for <source>`.
    Pattern,
    /// `"p" must match exactly one oneOf branch (matched N)`, N read from the got text.
    OneOf,
    /// `"p" nests deeper than N levels`, N read from the expected text.
    TooDeep,
    /// `missing required property "p"`.
    Missing,
    /// `missing required property "p" (one of <expected>)`: a union's tag.
    MissingTag,
    /// `"p" is not a declared property (additionalProperties: false)`.
    Undeclared,
    /// `duplicate property "p"`.
    Duplicate,
    /// `"p" must have unique items (<got>)`.
    Unique,
    /// `"p" must contain <expected> (found N)`, N read from the got text.
    Contains,
    /// `"p" must not match the schema of "not"`.
    Not,
    /// `"p" is not allowed (<expected>)`: a `false` schema, by the keyword that holds it.
    NotAllowed,
    /// `missing required property "p" (<expected>)`: `dependentRequired`.
    MissingDependency,
    /// `"p" is not a declared property (unevaluatedProperties: false)`.
    Unevaluated,
    /// `"p" is not an allowed property name (propertyNames)`.
    PropertyName,
}

/// What the pattern's expected text starts with, before the pattern's source.
const A_MATCH_FOR: &str = "a match for ";

/// The words around the numbers that a oneOf, depth or contains violation's message repeats
/// from its got or expected text: the number is written once, into the walk's texts, and read
/// back from there, so that the violation itself holds no number (and stays small enough that
/// ten of them fit the allocator's fastest sizes).
const ONE_OF_GOT: &str = " matching branches";
const TOO_DEEP_EXPECTED: &str = "at most ";
const LEVELS: &str = " levels";
const CONTAINS_GOT: &str = " matching";

/// The number `text` holds between `prefix` and `suffix` (the whole text when they are absent).
fn number_in<'t>(text: &'t str, prefix: &str, suffix: &str) -> &'t str {
    let text = text.strip_prefix(prefix).unwrap_or(text);
    text.strip_suffix(suffix).unwrap_or(text)
}

impl Violation {
    /// Where: `opts.depth`, `include[1]`, `arguments` for the root itself.
    pub fn path(&self) -> &str {
        match self.leaf {
            // The whole path is already one text.
            Leaf::Node => self.text(self.parent),
            _ => &self.written().path,
        }
    }

    /// The full sentence, e.g. `"max_results" must be an integer`.
    pub fn message(&self) -> &str {
        &self.written().message
    }

    /// What the schema wanted, e.g. `integer`, `one of ["literal","regex"]`, `>= 1`.
    pub fn expected(&self) -> &str {
        self.text(self.expected)
    }

    /// What the value had: its JSON type, or a JSON excerpt for value constraints (cut to
    /// [`MAX_QUOTED_CHARS`](crate::text_bounds::MAX_QUOTED_CHARS) characters with a marker); `absent` for a
    /// missing property.
    pub fn got(&self) -> &str {
        self.text(self.got)
    }

    fn text(&self, text: Text) -> &str {
        match text {
            Text::Static(word) => word,
            Text::Span(start, end) => {
                let texts = self.texts.as_deref().map_or("", String::as_str);
                let span = texts.get(start as usize..end as usize);
                debug_assert!(span.is_some(), "a violation's span lies in its texts");
                span.unwrap_or_default()
            }
        }
    }

    fn written(&self) -> &Written {
        self.written.get_or_init(|| {
            let mut path = String::new();
            // Writing into a `String` cannot fail.
            let _ = self.write_path(&mut path);
            let mut message = String::with_capacity(path.len() + 48);
            let _ = self.write_message(&mut message);
            Box::new(Written {
                path: path.into_boxed_str(),
                message: message.into_boxed_str(),
            })
        })
    }

    /// Writes the path.
    fn write_path<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        let parent = self.text(self.parent);
        match self.leaf {
            Leaf::Node => out.write_str(parent),
            Leaf::Index(index) => {
                out.write_str(parent)?;
                out.write_char('[')?;
                out.write_str(IndexDigits::new(index).as_str())?;
                out.write_char(']')
            }
            Leaf::Key(start, end) => {
                out.write_str(parent)?;
                out.write_char('.')?;
                out.write_str(self.text(Text::Span(start, end)))
            }
            Leaf::BareKey(start, end) => out.write_str(self.text(Text::Span(start, end))),
        }
    }

    /// Writes the message, the path written in it where it goes (or copied, once written).
    fn write_message<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        let quoted_path = |out: &mut W| {
            out.write_char('"')?;
            match self.written.get() {
                Some(written) => out.write_str(&written.path)?,
                None => self.write_path(out)?,
            }
            out.write_char('"')
        };
        match self.form {
            Form::Missing => {
                out.write_str("missing required property ")?;
                return quoted_path(out);
            }
            Form::MissingTag => {
                out.write_str("missing required property ")?;
                quoted_path(out)?;
                out.write_str(" (one of ")?;
                out.write_str(self.expected())?;
                return out.write_char(')');
            }
            Form::Duplicate => {
                out.write_str("duplicate property ")?;
                return quoted_path(out);
            }
            Form::MissingDependency => {
                out.write_str("missing required property ")?;
                quoted_path(out)?;
                out.write_str(" (")?;
                out.write_str(self.expected())?;
                return out.write_char(')');
            }
            _ => quoted_path(out)?,
        }
        match self.form {
            Form::Type { wanted, or_null } => {
                out.write_str(" must be ")?;
                out.write_str(wanted.phrase())?;
                if or_null {
                    out.write_str(" or null")?;
                }
                Ok(())
            }
            Form::NotInteger => out.write_str(" must be an integer"),
            Form::MustBe => {
                out.write_str(" must be ")?;
                out.write_str(self.expected())
            }
            Form::MustBeLong => {
                out.write_str(" must be ")?;
                out.write_str(self.expected())?;
                out.write_str(" long")
            }
            Form::MustHave => {
                out.write_str(" must have ")?;
                out.write_str(self.expected())
            }
            Form::Pattern => {
                let expected = self.expected();
                out.write_str(" must match the pattern ")?;
                out.write_str(expected.strip_prefix(A_MATCH_FOR).unwrap_or(expected))
            }
            Form::OneOf => {
                out.write_str(" must match exactly one oneOf branch (matched ")?;
                out.write_str(number_in(self.got(), "", ONE_OF_GOT))?;
                out.write_char(')')
            }
            Form::TooDeep => {
                out.write_str(" nests deeper than ")?;
                out.write_str(number_in(self.expected(), TOO_DEEP_EXPECTED, LEVELS))?;
                out.write_str(LEVELS)
            }
            Form::Undeclared => {
                out.write_str(" is not a declared property (additionalProperties: false)")
            }
            Form::Unique => {
                out.write_str(" must have unique items (")?;
                out.write_str(self.got())?;
                out.write_char(')')
            }
            Form::Contains => {
                out.write_str(" must contain ")?;
                out.write_str(self.expected())?;
                out.write_str(" (found ")?;
                out.write_str(number_in(self.got(), "", CONTAINS_GOT))?;
                out.write_char(')')
            }
            Form::Not => out.write_str(" must not match the schema of \"not\""),
            Form::NotAllowed => {
                out.write_str(" is not allowed (")?;
                out.write_str(self.expected())?;
                out.write_char(')')
            }
            Form::Unevaluated => {
                out.write_str(" is not a declared property (unevaluatedProperties: false)")
            }
            Form::PropertyName => out.write_str(" is not an allowed property name (propertyNames)"),
            Form::Missing | Form::MissingTag | Form::Duplicate | Form::MissingDependency => Ok(()),
        }
    }
}

impl fmt::Display for Violation {
    /// The message.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.written.get() {
            Some(written) => f.write_str(&written.message),
            None => self.write_message(f),
        }
    }
}

impl fmt::Debug for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Violation")
            .field("path", &self.path())
            .field("message", &self.message())
            .field("expected", &self.expected())
            .field("got", &self.got())
            .finish()
    }
}

impl Clone for Violation {
    /// Copies what the texts are written from (the shared texts are shared, not copied); the
    /// copy writes its path and message again when they are read.
    fn clone(&self) -> Self {
        Self {
            texts: self.texts.clone(),
            parent: self.parent,
            leaf: self.leaf,
            form: self.form,
            expected: self.expected,
            got: self.got,
            written: OnceLock::new(),
        }
    }
}

impl PartialEq for Violation {
    /// Two violations are equal when their four texts are.
    fn eq(&self, other: &Self) -> bool {
        self.path() == other.path()
            && self.message() == other.message()
            && self.expected() == other.expected()
            && self.got() == other.got()
    }
}

impl Eq for Violation {}

impl Serialize for Violation {
    /// `{"path", "message", "expected", "got"}`, the four texts.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut state = serializer.serialize_struct("Violation", 4)?;
        state.serialize_field("path", self.path())?;
        state.serialize_field("message", self.message())?;
        state.serialize_field("expected", self.expected())?;
        state.serialize_field("got", self.got())?;
        state.end()
    }
}

/// Every violation of one value, in the stable reporting order, capped at 50 reported ones (the
/// rest are counted in [`omitted`](Self::omitted)): read from its fields, or iterated over
/// (`for violation in &violations`). `Display` writes them all, `; `-separated.
///
/// `#[non_exhaustive]`: made by validation; its fields are read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Violations {
    /// The reported violations, in order.
    pub reported: Vec<Violation>,
    /// How many violations were found but not reported past the cap (all found:
    /// `reported.len() + omitted`).
    pub omitted: usize,
}

impl fmt::Display for Violations {
    /// `v1; v2; …; and N more`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, violation) in self.reported.iter().enumerate() {
            if index > 0 {
                f.write_str("; ")?;
            }
            fmt::Display::fmt(violation, f)?;
        }
        if self.omitted > 0 {
            if !self.reported.is_empty() {
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
        self.reported.iter()
    }
}

/// The JSON types a value can have, for type violations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
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
    #[doc(hidden)]
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
    #[doc(hidden)]
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
#[non_exhaustive]
pub(crate) enum ViolationKind<'a> {
    /// The value has the wrong JSON type. `nullable` adds "or null" to the message.
    Type {
        /// The type the schema wants.
        expected: JsonType,
        /// Whether `null` would also have been accepted.
        nullable: bool,
    },
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
    /// A string not in its checked `format`.
    Format(&'a crate::format::StringFormat),
    /// The schema refers to a definition it does not contain (a schema built by hand with a
    /// [`Schema::reference`](super::Schema::reference) outside its definition).
    UnresolvedRef(&'a str),
    /// The value has none of these types (`"type": ["string", "number"]`).
    Types(&'a [JsonType]),
    /// Not above `exclusiveMinimum`.
    ExclusiveMinimum(&'a Number),
    /// Not below `exclusiveMaximum`.
    ExclusiveMaximum(&'a Number),
    /// Not a multiple of `multipleOf`.
    MultipleOf(&'a Number),
    /// Fewer properties than `minProperties`.
    MinProperties(u64),
    /// More properties than `maxProperties`.
    MaxProperties(u64),
    /// Two items are equal under `uniqueItems` (the first two found, by index).
    UniqueItems {
        /// The index of the earlier item.
        first: usize,
        /// The index of the later item, equal to the earlier one.
        second: usize,
    },
    /// Fewer items than `minContains` (1 when absent) match `contains`.
    MinContains {
        /// How many must match.
        min: u64,
        /// How many did.
        found: usize,
    },
    /// More items than `maxContains` match `contains`.
    MaxContains {
        /// How many may match.
        max: u64,
        /// How many did.
        found: usize,
    },
    /// The value matches the schema of `not`.
    Not,
    /// No value is allowed here: a `false` schema, named by the keyword that holds it
    /// (`items: false`, `unevaluatedItems: false`, `schema false`).
    NotAllowed(&'a str),
}

/// Where a path starts and how it is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PathRoot {
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

    /// The innermost segment.
    #[inline]
    fn last(&self) -> Option<Segment<'v>> {
        match self.len {
            0 => None,
            len if len <= INLINE_PATH => Some(self.inline[len - 1]),
            _ => self.spill.last().copied(),
        }
    }

    fn iter(&self) -> impl Iterator<Item = &Segment<'v>> {
        self.inline[..self.len.min(INLINE_PATH)]
            .iter()
            .chain(self.spill.iter())
    }
}

/// Collects violations while a value is walked. `'v` is the lifetime of the keys on the path
/// (borrowed from the value or the schema). Not API: the engines' collector, which the runtime
/// also reports the duplicate keys of raw arguments into, so they read as every violation does.
#[doc(hidden)]
#[derive(Debug)]
pub struct ValidationContext<'v> {
    root: PathRoot,
    path: PathStack<'v>,
    reported: Vec<Violation>,
    /// The texts the reported violations need (their spans point here), shared by them when the
    /// walk ends.
    texts: String,
    omitted: usize,
    /// Levels entered without a path segment (references followed), counted into the depth.
    references: usize,
}

impl<'v> ValidationContext<'v> {
    /// A context for validating tool arguments.
    #[doc(hidden)]
    pub fn for_arguments() -> Self {
        Self::new(PathRoot::Arguments)
    }

    /// A context for validating a tool's output value (output validation builds its own, rooted
    /// the same way, in `validate.rs`).
    #[cfg(test)]
    pub(crate) fn for_output() -> Self {
        Self::new(PathRoot::Value)
    }

    /// A context rooted at `root`.
    pub(crate) fn new(root: PathRoot) -> Self {
        Self {
            root,
            path: PathStack::new(),
            reported: Vec::new(),
            texts: String::new(),
            omitted: 0,
            references: 0,
        }
    }

    /// Enters the property `key`.
    #[inline]
    #[doc(hidden)]
    pub fn push_key(&mut self, key: &'v str) {
        self.path.push(Segment::Key(key));
    }

    /// Enters the item at `index`.
    #[inline]
    #[doc(hidden)]
    pub fn push_index(&mut self, index: usize) {
        self.path.push(Segment::Index(index));
    }

    /// Leaves the innermost property or item.
    #[inline]
    #[doc(hidden)]
    pub fn pop(&mut self) {
        self.path.pop();
    }

    /// How deep the walk is: the current path's length, and a level per reference followed.
    #[inline]
    pub(crate) fn depth(&self) -> usize {
        self.path.len() + self.references
    }

    /// Follows a reference: one level deeper at the same path.
    #[inline]
    pub(super) fn descend(&mut self) {
        self.references += 1;
    }

    /// Comes back from [`descend`](Self::descend).
    #[inline]
    pub(super) fn ascend(&mut self) {
        self.references -= 1;
    }

    /// Makes room for `more` violations about to be reported (up to the report cap), when the
    /// list would otherwise grow on the way: an array whose items fail one after another would
    /// copy its reports into a larger list once or more (a reallocation cost more than reporting
    /// the items of a 10-item array did). Fewer than the first list's room change nothing, so a
    /// value with a few violations keeps its small list.
    #[inline]
    pub(crate) fn expect_reports(&mut self, more: usize) {
        let len = self.reported.len();
        let wanted = len + more.min(MAX_REPORTED_VIOLATIONS.saturating_sub(len));
        if wanted > self.reported.capacity().max(INITIAL_VIOLATIONS) {
            self.reported.reserve_exact(wanted - len);
        }
    }

    /// How many violations were found so far (reported or not).
    #[inline]
    pub(crate) fn count(&self) -> usize {
        self.reported.len() + self.omitted
    }

    /// Reports a violation of the node at the current path; `value` is what the node holds.
    pub(crate) fn report(&mut self, kind: ViolationKind<'_>, value: &Value) {
        if self.at_capacity() {
            return;
        }
        // An item keeps its index and the text of the path to its array; any other node keeps
        // the text of its whole path.
        let depth = self.path.len();
        let (parent, leaf) = match self.path.last() {
            Some(Segment::Index(index)) => (self.path_text(depth - 1), Leaf::Index(index)),
            _ => (self.path_text(depth), Leaf::Node),
        };
        let (form, expected, got) = match kind {
            // The most common violation, whose texts are all fixed words, is decided here.
            ViolationKind::Type {
                expected: wanted,
                nullable,
            } => type_violation(wanted, nullable, value),
            _ => describe(&mut self.texts, kind, value),
        };
        push_violation(&mut self.reported, parent, leaf, form, expected, got);
    }

    /// Reports the required property `key` of the current object as missing.
    pub(crate) fn report_missing(&mut self, key: &str) {
        self.report_child(
            key,
            Form::Missing,
            Text::Static("present"),
            Text::Static("absent"),
        );
    }

    /// Reports the tag `key` of a tagged union as missing from the current object, with the
    /// values it may take (`missing required property "filter.kind" (one of ["a","b"])`).
    pub(crate) fn report_missing_tag(&mut self, key: &str, allowed: &[Value]) {
        let start = begin(&mut self.texts);
        push_json(&mut self.texts, &Value::Array(allowed.to_vec()));
        let expected = span(&self.texts, start);
        self.report_child(key, Form::MissingTag, expected, Text::Static("absent"));
    }

    /// Reports the key `key` of the current object as undeclared.
    pub(crate) fn report_undeclared(&mut self, key: &str, value: &Value) {
        self.report_child(
            key,
            Form::Undeclared,
            Text::Static("no such property"),
            Text::Static(JsonType::of(value).name()),
        );
    }

    /// Reports the property `key` of the current object as missing though the property
    /// `because` is present (`dependentRequired`): `missing required property "b" (required
    /// by "a")`.
    pub(crate) fn report_missing_dependency(&mut self, key: &str, because: &str) {
        let start = begin(&mut self.texts);
        self.texts.push_str("required by \"");
        push_quoted(&mut self.texts, because);
        self.texts.push('"');
        let expected = span(&self.texts, start);
        self.report_child(
            key,
            Form::MissingDependency,
            expected,
            Text::Static("absent"),
        );
    }

    /// Reports the key `key` of the current object as unevaluated under
    /// `unevaluatedProperties: false`.
    pub(crate) fn report_unevaluated(&mut self, key: &str, value: &Value) {
        self.report_child(
            key,
            Form::Unevaluated,
            Text::Static("no such property"),
            Text::Static(JsonType::of(value).name()),
        );
    }

    /// Reports the key `key` of the current object as a name `propertyNames` does not allow.
    pub(crate) fn report_property_name(&mut self, key: &str) {
        self.report_child(
            key,
            Form::PropertyName,
            Text::Static("an allowed property name"),
            Text::Static("a name the schema of propertyNames refuses"),
        );
    }

    /// Reports that the current object's raw JSON text gives the key `key` more than once
    /// (`duplicate property "a.b"`): parsing would keep only one of the values.
    #[doc(hidden)]
    pub fn report_duplicate(&mut self, key: &str) {
        self.report_child(
            key,
            Form::Duplicate,
            Text::Static("one value per key"),
            Text::Static("the key repeated"),
        );
    }

    /// Ends the walk: `Ok` when nothing was found.
    #[doc(hidden)]
    pub fn finish(self) -> Result<(), Violations> {
        if self.count() == 0 {
            Ok(())
        } else {
            Err(self.into_violations())
        }
    }

    /// Everything found so far.
    pub(crate) fn into_violations(self) -> Violations {
        let mut reported = self.reported;
        if !self.texts.is_empty() {
            // Moved, not copied.
            let texts = Arc::new(self.texts);
            for violation in &mut reported {
                violation.texts = Some(Arc::clone(&texts));
            }
        }
        Violations {
            reported,
            omitted: self.omitted,
        }
    }

    /// Reports a violation that names the current object's child `key`.
    fn report_child(&mut self, key: &str, form: Form, expected: Text, got: Text) {
        if self.at_capacity() {
            return;
        }
        // Under `arguments`, a top-level key is written bare: `opts`, not `arguments.opts`.
        let bare = self.path.is_empty() && self.root == PathRoot::Arguments;
        let parent = self.path_text(self.path.len());
        let start = self.texts.len();
        push_quoted(&mut self.texts, key);
        let Text::Span(start, end) = span(&self.texts, start) else {
            return;
        };
        let leaf = if bare {
            Leaf::BareKey(start, end)
        } else {
            Leaf::Key(start, end)
        };
        push_violation(&mut self.reported, parent, leaf, form, expected, got);
    }

    /// Counts a violation past the cap instead of reporting it; `true` when at the cap.
    fn at_capacity(&mut self) -> bool {
        if self.reported.len() >= MAX_REPORTED_VIOLATIONS {
            self.omitted += 1;
            true
        } else {
            false
        }
    }

    /// The text of the path of the first `depth` segments: the root's name when there are none
    /// (no copy), else written into the texts.
    #[inline(always)]
    fn path_text(&mut self, depth: usize) -> Text {
        if depth == 0 {
            return Text::Static(self.root.name());
        }
        self.write_path_text(depth)
    }

    #[inline(never)]
    fn write_path_text(&mut self, depth: usize) -> Text {
        let start = self.texts.len();
        write_path(self.root, self.path.iter().take(depth), &mut self.texts);
        span(&self.texts, start)
    }
}

impl PathRoot {
    /// What the root itself is called in a path.
    fn name(self) -> &'static str {
        match self {
            Self::Arguments => "arguments",
            Self::Value => "value",
        }
    }
}

/// Appends a violation, written in place, to `list`, which starts with room for several (growing
/// an empty list takes a slower path).
#[inline(always)]
fn push_violation(
    list: &mut Vec<Violation>,
    parent: Text,
    leaf: Leaf,
    form: Form,
    expected: Text,
    got: Text,
) {
    if list.capacity() == 0 {
        *list = Vec::with_capacity(INITIAL_VIOLATIONS);
    }
    list.push(Violation {
        texts: None,
        parent,
        leaf,
        form,
        expected,
        got,
        written: OnceLock::new(),
    });
}

/// Room made in a walk's texts at their first write: enough for the texts of a few violations.
const INITIAL_TEXTS: usize = 256;

/// The span of `texts` from `start` to its end; spans are offsets that fit in 32 bits, which the
/// texts of at most [`MAX_REPORTED_VIOLATIONS`] bounded paths and values always do (a longer
/// text, which only a schema of gigabytes could make, reads as empty).
fn span(texts: &str, start: usize) -> Text {
    match (u32::try_from(start), u32::try_from(texts.len())) {
        (Ok(start), Ok(end)) => Text::Span(start, end),
        _ => Text::Static(""),
    }
}

/// Makes room in `texts` at its first write, since growing a string from nothing takes several
/// steps.
#[inline(always)]
fn reserve_texts(texts: &mut String) {
    if texts.capacity() == 0 {
        texts.reserve(INITIAL_TEXTS);
    }
}

/// Appends the path of `segments` (not empty) rooted at `root`: `opts.depth`, `value.file`,
/// `arguments[0]`.
fn write_path<'s, 'v: 's>(
    root: PathRoot,
    segments: impl Iterator<Item = &'s Segment<'v>>,
    out: &mut String,
) {
    reserve_texts(out);
    let start = out.len();
    let mut segments = segments.peekable();
    match segments.peek() {
        // Under `arguments`, a top-level key is written bare: `opts.depth`, not `arguments.opts.depth`.
        Some(Segment::Key(_)) if root == PathRoot::Arguments => {}
        _ => out.push_str(root.name()),
    }
    for (index, segment) in segments.enumerate() {
        match segment {
            Segment::Key(key) => {
                if out.len() > start || index > 0 {
                    out.push('.');
                }
                push_quoted(out, key);
            }
            Segment::Index(item) => {
                out.push('[');
                out.push_str(IndexDigits::new(*item).as_str());
                out.push(']');
            }
        }
    }
}

/// The wording, expected and got texts of a violation of kind `kind` by `value`; the texts that
/// are not fixed words are written into `texts`.
///
/// Built with `push_str` rather than `format!`: reporting is on the path of every invalid call,
/// and formatting machinery costs more than the checks themselves. Fixed words are borrowed.
#[inline(never)]
fn describe(texts: &mut String, kind: ViolationKind<'_>, value: &Value) -> (Form, Text, Text) {
    match kind {
        ViolationKind::Type {
            expected: wanted,
            nullable,
        } => type_violation(wanted, nullable, value),
        ViolationKind::NotInteger => {
            let got = if value.is_number() {
                excerpt(texts, value)
            } else {
                Text::Static(JsonType::of(value).name())
            };
            (Form::NotInteger, Text::Static("integer"), got)
        }
        ViolationKind::NotInEnum(members) => {
            let start = begin(texts);
            texts.push_str("one of [");
            for (index, member) in members.iter().enumerate() {
                if index > 0 {
                    texts.push(',');
                }
                push_json(texts, member);
            }
            texts.push(']');
            let expected = span(texts, start);
            (Form::MustBe, expected, excerpt(texts, value))
        }
        ViolationKind::NotConst(constant) => {
            let start = begin(texts);
            push_json(texts, constant);
            let expected = span(texts, start);
            (Form::MustBe, expected, excerpt(texts, value))
        }
        ViolationKind::OneOf { matched } => {
            let start = begin(texts);
            push_display(texts, &matched);
            texts.push_str(ONE_OF_GOT);
            let got = span(texts, start);
            (Form::OneOf, Text::Static("exactly one oneOf branch"), got)
        }
        ViolationKind::Minimum(bound) | ViolationKind::Maximum(bound) => {
            let start = begin(texts);
            texts.push_str(if matches!(kind, ViolationKind::Minimum(_)) {
                ">= "
            } else {
                "<= "
            });
            push_display(texts, bound);
            let expected = span(texts, start);
            (Form::MustBe, expected, excerpt(texts, value))
        }
        ViolationKind::MinLength(limit) | ViolationKind::MaxLength(limit) => {
            let start = begin(texts);
            texts.push_str(if matches!(kind, ViolationKind::MinLength(_)) {
                "at least "
            } else {
                "at most "
            });
            push_display(texts, &limit);
            texts.push_str(if limit == 1 {
                " character"
            } else {
                " characters"
            });
            let expected = span(texts, start);
            let start = texts.len();
            push_display(texts, &code_points(value));
            texts.push_str(" characters");
            let got = span(texts, start);
            (Form::MustBeLong, expected, got)
        }
        ViolationKind::Pattern(source) => {
            let start = begin(texts);
            texts.push_str(A_MATCH_FOR);
            push_json_str(texts, source);
            let expected = span(texts, start);
            (Form::Pattern, expected, excerpt(texts, value))
        }
        ViolationKind::MinItems(limit) | ViolationKind::MaxItems(limit) => {
            let start = begin(texts);
            texts.push_str(if matches!(kind, ViolationKind::MinItems(_)) {
                "at least "
            } else {
                "at most "
            });
            push_display(texts, &limit);
            texts.push_str(if limit == 1 { " item" } else { " items" });
            let expected = span(texts, start);
            let start = texts.len();
            push_display(texts, &value.as_array().map_or(0, Vec::len));
            texts.push_str(" items");
            let got = span(texts, start);
            (Form::MustHave, expected, got)
        }
        ViolationKind::TooDeep(limit) => {
            let start = begin(texts);
            texts.push_str(TOO_DEEP_EXPECTED);
            push_display(texts, &limit);
            texts.push_str(LEVELS);
            let expected = span(texts, start);
            (Form::TooDeep, expected, Text::Static("deeper"))
        }
        ViolationKind::Format(format) => (
            Form::MustBe,
            Text::Static(format.phrase()),
            excerpt(texts, value),
        ),
        ViolationKind::UnresolvedRef(name) => {
            let start = begin(texts);
            texts.push_str("a value of the undefined definition ");
            push_json_str(texts, name);
            let expected = span(texts, start);
            (Form::MustBe, expected, excerpt(texts, value))
        }
        ViolationKind::Types(types) => {
            let start = begin(texts);
            for (index, wanted) in types.iter().enumerate() {
                if index > 0 {
                    texts.push_str(if index + 1 == types.len() {
                        " or "
                    } else {
                        ", "
                    });
                }
                texts.push_str(wanted.phrase());
            }
            let expected = span(texts, start);
            (
                Form::MustBe,
                expected,
                Text::Static(JsonType::of(value).name()),
            )
        }
        ViolationKind::ExclusiveMinimum(bound) | ViolationKind::ExclusiveMaximum(bound) => {
            let start = begin(texts);
            texts.push_str(if matches!(kind, ViolationKind::ExclusiveMinimum(_)) {
                "> "
            } else {
                "< "
            });
            push_display(texts, bound);
            let expected = span(texts, start);
            (Form::MustBe, expected, excerpt(texts, value))
        }
        ViolationKind::MultipleOf(factor) => {
            let start = begin(texts);
            texts.push_str("a multiple of ");
            push_display(texts, factor);
            let expected = span(texts, start);
            (Form::MustBe, expected, excerpt(texts, value))
        }
        ViolationKind::MinProperties(limit) | ViolationKind::MaxProperties(limit) => {
            let start = begin(texts);
            texts.push_str(if matches!(kind, ViolationKind::MinProperties(_)) {
                "at least "
            } else {
                "at most "
            });
            push_display(texts, &limit);
            texts.push_str(if limit == 1 {
                " property"
            } else {
                " properties"
            });
            let expected = span(texts, start);
            let start = texts.len();
            let count = value.as_object().map_or(0, serde_json::Map::len);
            push_display(texts, &count);
            texts.push_str(if count == 1 {
                " property"
            } else {
                " properties"
            });
            let got = span(texts, start);
            (Form::MustHave, expected, got)
        }
        ViolationKind::UniqueItems { first, second } => {
            let start = begin(texts);
            let _ = write!(texts, "items {first} and {second} are equal");
            let got = span(texts, start);
            (Form::Unique, Text::Static("unique items"), got)
        }
        ViolationKind::MinContains { min, found }
        | ViolationKind::MaxContains { max: min, found } => {
            let start = begin(texts);
            texts.push_str(if matches!(kind, ViolationKind::MinContains { .. }) {
                "at least "
            } else {
                "at most "
            });
            push_display(texts, &min);
            texts.push_str(if min == 1 {
                " item matching contains"
            } else {
                " items matching contains"
            });
            let expected = span(texts, start);
            let start = texts.len();
            push_display(texts, &found);
            texts.push_str(CONTAINS_GOT);
            let got = span(texts, start);
            (Form::Contains, expected, got)
        }
        ViolationKind::Not => (
            Form::Not,
            Text::Static("no match for the schema of \"not\""),
            excerpt(texts, value),
        ),
        ViolationKind::NotAllowed(keyword) => {
            let start = begin(texts);
            texts.push_str(keyword);
            let expected = span(texts, start);
            (Form::NotAllowed, expected, excerpt(texts, value))
        }
    }
}

/// The wording, expected and got texts of a type violation: fixed words.
#[inline(always)]
fn type_violation(wanted: JsonType, nullable: bool, value: &Value) -> (Form, Text, Text) {
    let or_null = nullable && wanted != JsonType::Null;
    let expected = if or_null {
        wanted.name_or_null()
    } else {
        wanted.name()
    };
    (
        Form::Type { wanted, or_null },
        Text::Static(expected),
        Text::Static(JsonType::of(value).name()),
    )
}

/// Where the next text written into `texts` starts.
#[inline]
fn begin(texts: &mut String) -> usize {
    reserve_texts(texts);
    texts.len()
}

/// Appends `value`'s `Display` output.
fn push_display(out: &mut String, value: &impl fmt::Display) {
    // Writing into a `String` cannot fail.
    let _ = write!(out, "{value}");
}

/// The decimal digits of an index. Every item of an invalid array has one in its path, so the
/// digits are made here rather than through the formatting machinery, which costs several times
/// as much for a number this small.
struct IndexDigits {
    digits: [u8; 20],
    start: usize,
}

impl IndexDigits {
    fn new(index: usize) -> Self {
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
        Self { digits, start }
    }

    fn as_str(&self) -> &str {
        // ASCII digits are always UTF-8.
        std::str::from_utf8(&self.digits[self.start..]).unwrap_or_default()
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

/// Compact JSON of a scalar, or the type name of a container, cut to [`MAX_QUOTED_CHARS`]
/// characters with a marker saying how many were cut; written into `texts` unless it is a fixed
/// word.
fn excerpt(texts: &mut String, value: &Value) -> Text {
    match value {
        Value::Array(_) | Value::Object(_) => return Text::Static(JsonType::of(value).name()),
        Value::Null => return Text::Static("null"),
        Value::Bool(true) => return Text::Static("true"),
        Value::Bool(false) => return Text::Static("false"),
        Value::Number(_) | Value::String(_) => {}
    }
    let start = begin(texts);
    match value {
        // A long string is cut before it is escaped, so a megabyte is never copied.
        Value::String(text) if text.len() > MAX_QUOTED_CHARS => {
            match text.char_indices().nth(MAX_QUOTED_CHARS) {
                None => push_display(texts, value),
                Some((end, _)) => {
                    let escaped = Value::from(&text[..end]).to_string();
                    // The prefix's JSON without its closing quote, then the marker.
                    texts.push_str(&escaped[..escaped.len() - 1]);
                    push_cut_marker(texts, text[end..].chars().count());
                }
            }
        }
        scalar => push_json(texts, scalar),
    }
    span(texts, start)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn indexes_are_written_in_decimal_as_display_writes_them() {
        for index in [0, 7, 9, 10, 99, 100, 12_345, 1 << 40, usize::MAX] {
            assert_eq!(IndexDigits::new(index).as_str(), index.to_string());
        }
    }

    /// The texts as they were written when every violation was reported: path and message built
    /// at once, `format!` for every piece (the reference the lazy texts are held to).
    fn eager(root: PathRoot, segments: &[Segment<'_>], report: &Report<'_>) -> [String; 4] {
        let write = |segments: &[Segment<'_>]| {
            let mut out = String::new();
            if segments.is_empty() {
                return root.name().to_owned();
            }
            if !(matches!(segments[0], Segment::Key(_)) && root == PathRoot::Arguments) {
                out.push_str(root.name());
            }
            for (index, segment) in segments.iter().enumerate() {
                match segment {
                    Segment::Key(key) => {
                        if !out.is_empty() || index > 0 {
                            out.push('.');
                        }
                        push_quoted(&mut out, key);
                    }
                    Segment::Index(item) => out.push_str(&format!("[{item}]")),
                }
            }
            out
        };
        let child = |key: &str| {
            let mut key_text = String::new();
            push_quoted(&mut key_text, key);
            if segments.is_empty() && root == PathRoot::Arguments {
                key_text
            } else {
                format!("{}.{key_text}", write(segments))
            }
        };
        let excerpt = |value: &Value| match value {
            Value::Array(_) | Value::Object(_) => JsonType::of(value).name().to_owned(),
            Value::String(text) if text.chars().count() > MAX_QUOTED_CHARS => {
                let end = text.char_indices().nth(MAX_QUOTED_CHARS).unwrap().0;
                let escaped = Value::from(&text[..end]).to_string();
                let mut out = escaped[..escaped.len() - 1].to_owned();
                push_cut_marker(&mut out, text[end..].chars().count());
                out
            }
            scalar => scalar.to_string(),
        };
        match report {
            Report::Missing(key) => {
                let path = child(key);
                let message = format!("missing required property \"{path}\"");
                [path, message, "present".into(), "absent".into()]
            }
            Report::Undeclared(key, value) => {
                let path = child(key);
                let message =
                    format!("\"{path}\" is not a declared property (additionalProperties: false)");
                let got = JsonType::of(value).name().to_owned();
                [path, message, "no such property".into(), got]
            }
            Report::Duplicate(key) => {
                let path = child(key);
                let message = format!("duplicate property \"{path}\"");
                [
                    path,
                    message,
                    "one value per key".into(),
                    "the key repeated".into(),
                ]
            }
            Report::Node(kind, value) => {
                let path = write(segments);
                let type_name = JsonType::of(value).name().to_owned();
                let (sentence, expected, got) = match *kind {
                    ViolationKind::Type { expected, nullable } => {
                        let or_null = nullable && expected != JsonType::Null;
                        let suffix = if or_null { " or null" } else { "" };
                        let name = if or_null {
                            expected.name_or_null()
                        } else {
                            expected.name()
                        };
                        let sentence = format!("must be {}{suffix}", expected.phrase());
                        (sentence, name.to_owned(), type_name)
                    }
                    ViolationKind::NotInteger => (
                        "must be an integer".to_owned(),
                        "integer".to_owned(),
                        if value.is_number() {
                            excerpt(value)
                        } else {
                            type_name
                        },
                    ),
                    ViolationKind::NotInEnum(members) => {
                        let listed: Vec<String> = members.iter().map(Value::to_string).collect();
                        let text = format!("one of [{}]", listed.join(","));
                        (format!("must be {text}"), text, excerpt(value))
                    }
                    ViolationKind::NotConst(constant) => {
                        let text = constant.to_string();
                        (format!("must be {text}"), text, excerpt(value))
                    }
                    ViolationKind::OneOf { matched } => (
                        format!("must match exactly one oneOf branch (matched {matched})"),
                        "exactly one oneOf branch".to_owned(),
                        format!("{matched} matching branches"),
                    ),
                    ViolationKind::Minimum(bound) => {
                        let text = format!(">= {bound}");
                        (format!("must be {text}"), text, excerpt(value))
                    }
                    ViolationKind::Maximum(bound) => {
                        let text = format!("<= {bound}");
                        (format!("must be {text}"), text, excerpt(value))
                    }
                    ViolationKind::MinLength(limit) | ViolationKind::MaxLength(limit) => {
                        let least = matches!(kind, ViolationKind::MinLength(_));
                        let word = if least { "at least" } else { "at most" };
                        let unit = if limit == 1 {
                            "character"
                        } else {
                            "characters"
                        };
                        let text = format!("{word} {limit} {unit}");
                        let count = value.as_str().map_or(0, |text| text.chars().count());
                        (
                            format!("must be {text} long"),
                            text,
                            format!("{count} characters"),
                        )
                    }
                    ViolationKind::Pattern(source) => {
                        let quoted = Value::from(source).to_string();
                        (
                            format!("must match the pattern {quoted}"),
                            format!("a match for {quoted}"),
                            excerpt(value),
                        )
                    }
                    ViolationKind::MinItems(limit) | ViolationKind::MaxItems(limit) => {
                        let least = matches!(kind, ViolationKind::MinItems(_));
                        let word = if least { "at least" } else { "at most" };
                        let unit = if limit == 1 { "item" } else { "items" };
                        let text = format!("{word} {limit} {unit}");
                        let count = value.as_array().map_or(0, Vec::len);
                        (format!("must have {text}"), text, format!("{count} items"))
                    }
                    ViolationKind::TooDeep(limit) => (
                        format!("nests deeper than {limit} levels"),
                        format!("at most {limit} levels"),
                        "deeper".to_owned(),
                    ),
                    ViolationKind::Format(format) => (
                        format!("must be {}", format.phrase()),
                        format.phrase().to_owned(),
                        excerpt(value),
                    ),
                    ViolationKind::UnresolvedRef(name) => {
                        let text =
                            format!("a value of the undefined definition {}", Value::from(name));
                        (format!("must be {text}"), text, excerpt(value))
                    }
                    ViolationKind::Types(types) => {
                        let phrases: Vec<&str> = types.iter().map(|t| t.phrase()).collect();
                        let text = match phrases.split_last() {
                            Some((last, [])) => (*last).to_owned(),
                            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                            None => String::new(),
                        };
                        (format!("must be {text}"), text, type_name)
                    }
                    ViolationKind::ExclusiveMinimum(bound) => {
                        let text = format!("> {bound}");
                        (format!("must be {text}"), text, excerpt(value))
                    }
                    ViolationKind::ExclusiveMaximum(bound) => {
                        let text = format!("< {bound}");
                        (format!("must be {text}"), text, excerpt(value))
                    }
                    ViolationKind::MultipleOf(factor) => {
                        let text = format!("a multiple of {factor}");
                        (format!("must be {text}"), text, excerpt(value))
                    }
                    ViolationKind::MinProperties(limit) | ViolationKind::MaxProperties(limit) => {
                        let least = matches!(kind, ViolationKind::MinProperties(_));
                        let word = if least { "at least" } else { "at most" };
                        let noun = |n: u64| if n == 1 { "property" } else { "properties" };
                        let text = format!("{word} {limit} {}", noun(limit));
                        let count = value.as_object().map_or(0, |map| map.len() as u64);
                        (
                            format!("must have {text}"),
                            text,
                            format!("{count} {}", noun(count)),
                        )
                    }
                    ViolationKind::UniqueItems { first, second } => {
                        let got = format!("items {first} and {second} are equal");
                        (
                            format!("must have unique items ({got})"),
                            "unique items".to_owned(),
                            got,
                        )
                    }
                    ViolationKind::MinContains { min: limit, found }
                    | ViolationKind::MaxContains { max: limit, found } => {
                        let least = matches!(kind, ViolationKind::MinContains { .. });
                        let word = if least { "at least" } else { "at most" };
                        let unit = if limit == 1 { "item" } else { "items" };
                        let text = format!("{word} {limit} {unit} matching contains");
                        (
                            format!("must contain {text} (found {found})"),
                            text,
                            format!("{found} matching"),
                        )
                    }
                    ViolationKind::Not => (
                        "must not match the schema of \"not\"".to_owned(),
                        "no match for the schema of \"not\"".to_owned(),
                        excerpt(value),
                    ),
                    ViolationKind::NotAllowed(keyword) => (
                        format!("is not allowed ({keyword})"),
                        keyword.to_owned(),
                        excerpt(value),
                    ),
                };
                let message = format!("\"{path}\" {sentence}");
                [path, message, expected, got]
            }
        }
    }

    /// One call of a reporting method.
    enum Report<'a> {
        Node(ViolationKind<'a>, Value),
        Missing(&'a str),
        Undeclared(&'a str, Value),
        Duplicate(&'a str),
    }

    fn texts(violation: &Violation) -> [String; 4] {
        [
            violation.path().to_owned(),
            violation.message().to_owned(),
            violation.expected().to_owned(),
            violation.got().to_owned(),
        ]
    }

    #[test]
    fn every_kind_reads_as_the_eager_text_at_every_kind_of_path() {
        let long_key = "k".repeat(100);
        let long_text = "é\"".repeat(70);
        let members = [json!("read"), json!("write"), json!(1.5), json!({"a": [1]})];
        let constant = json!({"mode": "x"});
        let (low, high) = (Number::from(1), Number::from_f64(2.5).unwrap());
        let reports = || {
            let mut reports = vec![
                Report::Missing("pattern"),
                Report::Missing(&long_key),
                Report::Undeclared("extra", json!([1])),
                Report::Undeclared(&long_key, json!(null)),
                Report::Duplicate("a"),
                Report::Duplicate(""),
            ];
            let values = [
                json!(null),
                json!(true),
                json!(-0.5),
                json!(12),
                json!("short \"quoted\"\n"),
                json!(long_text),
                json!("x".repeat(65)),
                json!([1, 2, 3]),
                json!({"k": 1}),
            ];
            for value in values {
                let kinds = [
                    ViolationKind::Type {
                        expected: JsonType::String,
                        nullable: false,
                    },
                    ViolationKind::Type {
                        expected: JsonType::Object,
                        nullable: true,
                    },
                    ViolationKind::Type {
                        expected: JsonType::Null,
                        nullable: true,
                    },
                    ViolationKind::NotInteger,
                    ViolationKind::NotInEnum(&members),
                    ViolationKind::NotConst(&constant),
                    ViolationKind::OneOf { matched: 0 },
                    ViolationKind::OneOf { matched: 2 },
                    ViolationKind::Types(&[JsonType::String, JsonType::Number, JsonType::Null]),
                    ViolationKind::Types(&[JsonType::Array, JsonType::Integer]),
                    ViolationKind::ExclusiveMinimum(&low),
                    ViolationKind::ExclusiveMaximum(&high),
                    ViolationKind::MultipleOf(&high),
                    ViolationKind::MinProperties(1),
                    ViolationKind::MaxProperties(2),
                    ViolationKind::UniqueItems {
                        first: 0,
                        second: 2,
                    },
                    ViolationKind::MinContains { min: 1, found: 0 },
                    ViolationKind::MaxContains { max: 2, found: 3 },
                    ViolationKind::Not,
                    ViolationKind::NotAllowed("items: false"),
                    ViolationKind::Minimum(&low),
                    ViolationKind::Maximum(&high),
                    ViolationKind::MinLength(1),
                    ViolationKind::MinLength(3),
                    ViolationKind::MaxLength(1),
                    ViolationKind::MaxLength(2),
                    ViolationKind::Pattern("^[a-z]+\\d\"$"),
                    ViolationKind::MinItems(1),
                    ViolationKind::MaxItems(2),
                    ViolationKind::TooDeep(256),
                ];
                for kind in kinds {
                    reports.push(Report::Node(kind, value.clone()));
                }
            }
            reports
        };
        let paths: [&[Segment<'_>]; 8] = [
            &[],
            &[Segment::Index(3)],
            &[Segment::Key("opts")],
            &[Segment::Key("opts"), Segment::Key("depth")],
            &[
                Segment::Key("files"),
                Segment::Index(10),
                Segment::Key("name"),
            ],
            &[Segment::Key(""), Segment::Key("b")],
            &[Segment::Key(&long_key), Segment::Index(0)],
            &[Segment::Index(0), Segment::Key("x"), Segment::Index(1)],
        ];
        let deep: Vec<Segment<'_>> = (0..12)
            .map(|level| {
                if level % 2 == 0 {
                    Segment::Key("level")
                } else {
                    Segment::Index(level)
                }
            })
            .collect();
        for root in [PathRoot::Arguments, PathRoot::Value] {
            for segments in paths.iter().copied().chain([deep.as_slice()]) {
                let reports = reports();
                let mut cx = ValidationContext::new(root);
                for segment in segments {
                    cx.path.push(*segment);
                }
                let mut expected = Vec::new();
                for report in reports.iter().take(MAX_REPORTED_VIOLATIONS) {
                    match report {
                        Report::Node(kind, value) => cx.report(*kind, value),
                        Report::Missing(key) => cx.report_missing(key),
                        Report::Undeclared(key, value) => cx.report_undeclared(key, value),
                        Report::Duplicate(key) => cx.report_duplicate(key),
                    }
                    expected.push(eager(root, segments, report));
                }
                let violations = cx.into_violations();
                let read: Vec<[String; 4]> = violations.reported.iter().map(texts).collect();
                assert_eq!(read, expected, "at {segments:?} under {root:?}");
                // Read again, and through a copy made before anything was read.
                let copy = violations.clone();
                assert_eq!(
                    violations.reported.iter().map(texts).collect::<Vec<_>>(),
                    expected
                );
                let fresh = cx_copy_texts(&copy);
                assert_eq!(fresh, expected);
                let listed: Vec<&str> = expected.iter().map(|texts| texts[1].as_str()).collect();
                assert_eq!(copy.to_string(), listed.join("; "));
            }
        }
    }

    fn cx_copy_texts(violations: &Violations) -> Vec<[String; 4]> {
        violations.reported.iter().map(texts).collect()
    }

    #[test]
    fn a_text_read_twice_is_the_same_and_display_writes_the_message() {
        let mut cx = ValidationContext::for_arguments();
        cx.push_key("files");
        cx.push_index(7);
        cx.report(
            ViolationKind::Type {
                expected: JsonType::String,
                nullable: false,
            },
            &json!(7),
        );
        cx.pop();
        cx.report_missing("mode");
        cx.pop();
        let violations = cx.into_violations();
        let [first, second] = violations.reported.as_slice() else {
            panic!("two violations");
        };
        // Display before any read writes what message() later keeps.
        let shown = first.to_string();
        assert_eq!(first.message(), shown);
        assert_eq!(first.message(), "\"files[7]\" must be a string");
        assert_eq!(first.message(), first.message());
        assert!(std::ptr::eq(first.message(), first.message()));
        assert_eq!(first.path(), "files[7]");
        assert_eq!(first.to_string(), shown);
        assert_eq!(second.path(), "files.mode");
        assert_eq!(second.message(), "missing required property \"files.mode\"");
        assert_eq!(
            violations.to_string(),
            "\"files[7]\" must be a string; missing required property \"files.mode\""
        );
        assert_eq!(
            serde_json::to_value(first).unwrap(),
            json!({
                "path": "files[7]",
                "message": "\"files[7]\" must be a string",
                "expected": "string",
                "got": "number"
            })
        );
        assert_eq!(
            format!("{second:?}"),
            "Violation { path: \"files.mode\", message: \"missing required property \\\"files.mode\\\"\", expected: \"present\", got: \"absent\" }"
        );
    }

    #[test]
    fn past_the_cap_violations_are_counted_and_the_rest_keep_their_texts() {
        let mut cx = ValidationContext::for_output();
        for index in 0..(MAX_REPORTED_VIOLATIONS + 7) {
            cx.push_index(index);
            cx.report(ViolationKind::NotInteger, &json!("x"));
            cx.pop();
        }
        let violations = cx.into_violations();
        assert_eq!(
            violations.reported.as_slice().len(),
            MAX_REPORTED_VIOLATIONS
        );
        assert_eq!(violations.omitted, 7);
        assert_eq!(violations.reported.as_slice()[49].path(), "value[49]");
        assert!(
            violations
                .to_string()
                .ends_with("\"value[49]\" must be an integer; and 7 more")
        );
    }

    #[test]
    fn an_item_under_the_root_copies_no_text() {
        let mut cx = ValidationContext::for_arguments();
        cx.push_index(0);
        cx.report(
            ViolationKind::Type {
                expected: JsonType::String,
                nullable: false,
            },
            &json!(1),
        );
        cx.pop();
        assert!(cx.texts.is_empty());
        let violations = cx.into_violations();
        assert!(violations.reported.as_slice()[0].texts.is_none());
        assert_eq!(violations.reported.as_slice()[0].path(), "arguments[0]");
    }
}
