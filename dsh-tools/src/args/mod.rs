//! [`ToolArgs`]: the trait every value a tool exchanges with the model implements — its schema and
//! the conversion from an already-validated JSON value into the Rust type.
//!
//! `#[derive(ToolArgs)]` implements it for user types; `std_types.rs` implements it for the standard
//! types the schema rules of the macros name (strings, integers with their own bounds, floats,
//! collections, maps, smart pointers, `serde_json::Value`). Validation is not done here: the
//! schema engine validates first, so a conversion only fails when a schema and a type disagree,
//! which `ConvertError` reports instead of panicking.

mod patch;
mod std_types;

pub use patch::Patch;

use std::fmt;

use serde_json::Value;

use crate::errors::tool_error::ToolError;
use dsh_tools_schema::{Schema, SchemaError};

/// A type that can be a tool argument (or a tool's output value): it has a JSON Schema, and a
/// value valid against that schema converts into it.
///
/// Derive it with `#[derive(ToolArgs)]`; the standard types the macros understand implement it
/// already. Types from other crates plug in through `schemars::JsonSchema` with `#[arg(schemars)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument or tool value",
    label = "has no `ToolArgs` schema",
    note = "derive `ToolArgs` for it (and `Serialize` for a value a tool returns), or mark a field or parameter `#[arg(schemars)]` if the type implements `schemars::JsonSchema` and `serde::Deserialize`",
    note = "a map (`HashMap`, `BTreeMap`) is a tool argument when its keys are `String`s and its values tool arguments"
)]
pub trait ToolArgs: Sized {
    /// Whether the value may be absent (`Option<T>`, `Patch<T>`): such properties are optional.
    /// Not an API, as [`absent`](Self::absent), which gives the value of an absent property:
    /// only the crate's own types set them.
    #[doc(hidden)]
    const OPTIONAL: bool = false;

    /// Whether the value is an object of named fields: `#[derive(ToolArgs)]` sets it for structs
    /// with named fields, and nothing else does. A `#[tool]` whose only parameter has such a type
    /// takes that struct's fields as its arguments; a lone parameter of any other type (an enum,
    /// a newtype, a number, a `Vec`, a map) is one property named after the parameter, like any
    /// other parameter. A hand-written impl that sets it must describe an object.
    const OBJECT_STRUCT: bool = false;

    /// The documented values of a string enum, `(value, description)` in declaration order.
    ///
    /// A property's own description replaces its type's, but these notes are kept after it, so
    /// the model still learns what each value means (`mode: Mode` documented as "What to do"
    /// reads "What to do" followed by one line per value). `#[derive(ToolArgs)]` fills it for
    /// enums whose variants are all units and for newtypes around those; `Option`, `Box`, `Arc`
    /// and `Rc` pass their inner type's on.
    const VALUE_NOTES: &'static [(&'static str, &'static str)] = &[];

    /// Builds the schema. Called once per tool (the result is cached); fails only when a schema
    /// imported from `schemars` uses JSON Schema the engine cannot enforce, or a pattern does not
    /// compile.
    fn schema() -> Result<Schema, SchemaError>;

    /// Whether `value` matches [`schema`](Self::schema): always the same answer as
    /// `Self::schema()?.is_valid(value)`, which is what the default does. The derive and the
    /// standard impls answer without building the schema or allocating, so the common case of
    /// valid arguments is checked by code specialized for the type; only invalid arguments go
    /// through the interpreter, to collect every violation. Not an API: a hand-written impl keeps
    /// the default, which the derive and the standard impls specialize.
    #[doc(hidden)]
    fn is_valid_json(value: &Value) -> bool {
        Self::schema().is_ok_and(|schema| schema.is_valid(value))
    }

    /// Converts a value that passed validation against [`schema`](Self::schema).
    fn from_json(value: &Value) -> Result<Self, ConvertError>;

    /// [`from_json`](Self::from_json) of a value the caller gives up: strings, arrays and maps
    /// are moved into the Rust value instead of copied. Always the same result as `from_json`,
    /// which is what the default does (by reference); the derive and the standard impls move.
    /// The registry converts this way when nothing else can see the call's arguments any more
    /// (see [`ToolInfo::reads_call_arguments`](crate::call::ToolInfo::reads_call_arguments)).
    /// Not an API, as `is_valid_json`.
    #[doc(hidden)]
    fn from_json_owned(value: Value) -> Result<Self, ConvertError> {
        Self::from_json(&value)
    }

    /// The value of an absent property: `Some(None)` for `Option<T>`, `None` (missing) otherwise.
    /// Not an API: only `Option` answers otherwise.
    #[doc(hidden)]
    fn absent() -> Option<Self> {
        None
    }
}

/// A value that passed validation could still not be converted: the schema and the Rust type
/// disagree (a bug in a hand-written `ToolArgs` impl, or a `schemars` type whose `Deserialize` is
/// stricter than its schema). It reaches the model as `INVALID_ARGS`, never as a panic.
///
/// Made with [`new`](Self::new) (a hand-written impl sets [`path`](Self::path) when it knows
/// where); read from its fields.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ConvertError {
    /// Where the conversion failed (`opts.depth`, `include[1]`), empty at the root.
    pub path: String,
    /// The explanation, without the path.
    pub message: String,
}

impl ConvertError {
    /// An error with this explanation.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            path: String::new(),
            message: message.into(),
        }
    }

    /// The value at hand is not what the type expects.
    pub(crate) fn expected(what: &str, value: &Value) -> Self {
        Self::new(format!(
            "expected {what}, got {}",
            dsh_tools_schema::JsonType::of(value).name()
        ))
    }

    /// Places the error under the property `key` (called from the inside out). A key longer
    /// than [`MAX_QUOTED_CHARS`](crate::errors::MAX_QUOTED_CHARS) is quoted as a prefix with a marker.
    #[must_use]
    pub(crate) fn at_key(mut self, key: &str) -> Self {
        self.path = join_path(
            dsh_tools_schema::text_bounds::quoted(key).into_owned(),
            self.path,
        );
        self
    }

    /// Places the error under the item `index` (called from the inside out).
    #[must_use]
    pub(crate) fn at_index(mut self, index: usize) -> Self {
        self.path = join_path(format!("[{index}]"), self.path);
        self
    }
}

fn join_path(outer: String, inner: String) -> String {
    if inner.is_empty() {
        outer
    } else if inner.starts_with('[') {
        outer + &inner
    } else {
        format!("{outer}.{inner}")
    }
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "\"{}\" {}", self.path, self.message)
        }
    }
}

impl From<ConvertError> for ToolError {
    fn from(error: ConvertError) -> Self {
        ToolError::invalid_arguments_text(error)
    }
}
