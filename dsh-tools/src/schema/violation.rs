//! Violations: what validation reports, in the spec's wording, and the context that collects them.
//!
//! [`ValidationContext`] is shared by the schema interpreter and by macro-generated validators so
//! both produce byte-identical messages. It keeps the current path as borrowed segments and only
//! formats a path when something is reported, so a valid value costs no allocation here.

use std::fmt::{self, Write as _};

use serde::Serialize;
use serde_json::{Number, Value};

/// How many violations are formatted; the rest are counted into an "and N more" tail so a
/// hostile payload cannot produce a megabyte error.
pub const MAX_REPORTED_VIOLATIONS: usize = 50;

/// Longest JSON excerpt quoted in [`Violation::got`].
const GOT_EXCERPT_LIMIT: usize = 64;

/// One reason a value does not match its schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// Where: `opts.depth`, `include[1]`, `arguments` for the root itself.
    pub path: String,
    /// The full sentence, e.g. `"max_results" must be an integer`.
    pub message: String,
    /// What the schema wanted, e.g. `integer`, `one of ["literal","regex"]`, `>= 1`.
    pub expected: String,
    /// What the value had: its JSON type, or a short JSON excerpt for value constraints;
    /// `absent` for a missing property.
    pub got: String,
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

/// Collects violations while a value is walked. `'v` is the lifetime of the keys on the path
/// (borrowed from the value or the schema).
#[derive(Debug)]
pub struct ValidationContext<'v> {
    root: PathRoot,
    path: Vec<Segment<'v>>,
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
            path: Vec::new(),
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
        let path = self.current_path();
        let (message, expected, got) = describe(&path, kind, value);
        self.reported.push(Violation {
            path,
            message,
            expected,
            got,
        });
    }

    /// Reports the required property `key` of the current object as missing.
    pub fn report_missing(&mut self, key: &str) {
        if self.at_capacity() {
            return;
        }
        let path = self.child_path(key);
        self.reported.push(Violation {
            message: format!("missing required property \"{path}\""),
            path,
            expected: "present".to_owned(),
            got: "absent".to_owned(),
        });
    }

    /// Reports the key `key` of the current object as undeclared.
    pub fn report_undeclared(&mut self, key: &str, value: &Value) {
        if self.at_capacity() {
            return;
        }
        let path = self.child_path(key);
        self.reported.push(Violation {
            message: format!("\"{path}\" is not a declared property (additionalProperties: false)"),
            path,
            expected: "no such property".to_owned(),
            got: JsonType::of(value).name().to_owned(),
        });
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

    /// The current path as text (`arguments`/`value` at the root).
    fn current_path(&self) -> String {
        let mut out = String::new();
        self.write_path(&mut out);
        out
    }

    /// The path of the child `key` of the current node.
    fn child_path(&self, key: &str) -> String {
        let mut out = String::new();
        if self.path.is_empty() && self.root == PathRoot::Arguments {
            out.push_str(key);
        } else {
            self.write_path(&mut out);
            out.push('.');
            out.push_str(key);
        }
        out
    }

    fn write_path(&self, out: &mut String) {
        let root = match self.root {
            PathRoot::Arguments => "arguments",
            PathRoot::Value => "value",
        };
        match self.path.first() {
            None => out.push_str(root),
            // Under `arguments`, a top-level key is written bare: `opts.depth`, not `arguments.opts.depth`.
            Some(Segment::Key(_)) if self.root == PathRoot::Arguments => {}
            Some(_) => out.push_str(root),
        }
        for (index, segment) in self.path.iter().enumerate() {
            match segment {
                Segment::Key(key) => {
                    if !out.is_empty() || index > 0 {
                        out.push('.');
                    }
                    out.push_str(key);
                }
                Segment::Index(item) => {
                    let _ = write!(out, "[{item}]");
                }
            }
        }
    }
}

/// Message, expected and got for a violation of the node at `path`.
fn describe(path: &str, kind: ViolationKind<'_>, value: &Value) -> (String, String, String) {
    let type_got = || JsonType::of(value).name().to_owned();
    match kind {
        ViolationKind::Type { expected, nullable } => {
            let or_null = if nullable && expected != JsonType::Null {
                " or null"
            } else {
                ""
            };
            (
                format!("\"{path}\" must be {}{or_null}", expected.phrase()),
                format!("{}{or_null}", expected.name()),
                type_got(),
            )
        }
        ViolationKind::NotFinite => (
            format!("\"{path}\" must be a finite JSON number"),
            "finite number".to_owned(),
            excerpt(value),
        ),
        ViolationKind::NotInteger => (
            format!("\"{path}\" must be an integer"),
            "integer".to_owned(),
            if value.is_number() {
                excerpt(value)
            } else {
                type_got()
            },
        ),
        ViolationKind::NotInEnum(members) => {
            let list = Value::Array(members.to_vec()).to_string();
            (
                format!("\"{path}\" must be one of {list}"),
                format!("one of {list}"),
                excerpt(value),
            )
        }
        ViolationKind::NotConst(constant) => (
            format!("\"{path}\" must be {constant}"),
            constant.to_string(),
            excerpt(value),
        ),
        ViolationKind::OneOf { matched } => (
            format!("\"{path}\" must match exactly one oneOf branch (matched {matched})"),
            "exactly one oneOf branch".to_owned(),
            format!("{matched} matching branches"),
        ),
        ViolationKind::Minimum(bound) => (
            format!("\"{path}\" must be >= {bound}"),
            format!(">= {bound}"),
            excerpt(value),
        ),
        ViolationKind::Maximum(bound) => (
            format!("\"{path}\" must be <= {bound}"),
            format!("<= {bound}"),
            excerpt(value),
        ),
        ViolationKind::MinLength(limit) => (
            format!(
                "\"{path}\" must be at least {limit} {} long",
                plural(limit, "character")
            ),
            format!("at least {limit} {}", plural(limit, "character")),
            format!("{} characters", code_points(value)),
        ),
        ViolationKind::MaxLength(limit) => (
            format!(
                "\"{path}\" must be at most {limit} {} long",
                plural(limit, "character")
            ),
            format!("at most {limit} {}", plural(limit, "character")),
            format!("{} characters", code_points(value)),
        ),
        ViolationKind::Pattern(source) => (
            format!("\"{path}\" must match the pattern {}", Value::from(source)),
            format!("a match for {}", Value::from(source)),
            excerpt(value),
        ),
        ViolationKind::MinItems(limit) => (
            format!(
                "\"{path}\" must have at least {limit} {}",
                plural(limit, "item")
            ),
            format!("at least {limit} {}", plural(limit, "item")),
            format!("{} items", value.as_array().map_or(0, Vec::len)),
        ),
        ViolationKind::MaxItems(limit) => (
            format!(
                "\"{path}\" must have at most {limit} {}",
                plural(limit, "item")
            ),
            format!("at most {limit} {}", plural(limit, "item")),
            format!("{} items", value.as_array().map_or(0, Vec::len)),
        ),
        ViolationKind::TooDeep(limit) => (
            format!("\"{path}\" nests deeper than {limit} levels"),
            format!("at most {limit} levels"),
            "deeper".to_owned(),
        ),
    }
}

fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        noun.to_owned()
    } else {
        format!("{noun}s")
    }
}

fn code_points(value: &Value) -> usize {
    value.as_str().map_or(0, |text| text.chars().count())
}

/// Compact JSON of a scalar, or the type name of a container, cut to a readable length.
fn excerpt(value: &Value) -> String {
    match value {
        Value::Array(_) | Value::Object(_) => JsonType::of(value).name().to_owned(),
        scalar => {
            let text = scalar.to_string();
            if text.chars().count() <= GOT_EXCERPT_LIMIT {
                text
            } else {
                let cut: String = text.chars().take(GOT_EXCERPT_LIMIT).collect();
                format!("{cut}…")
            }
        }
    }
}
