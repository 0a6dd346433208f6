//! [`SchemaError`]: why a schema cannot be built or imported, listing every problem with its
//! path, in the spec's wording (`unsupported JSON schema: <v1>; <v2>…`). The runtime carries it
//! into a tool error with code `UNSUPPORTED_SCHEMA`; the engine knows no codes.

use std::fmt;

use dsh_tools_pattern::{PatternError, PatternErrorKind};

/// What a `pattern` the engine refuses is told, after its path: `must be an ECMA-262 regular
/// expression: …` for text that is not one, `cannot be enforced: …` for a construct the regex
/// engine cannot run (look-around, backreferences).
pub(crate) fn pattern_refusal(error: &PatternError) -> String {
    match error.kind() {
        PatternErrorKind::Invalid => format!("must be an ECMA-262 regular expression: {error}"),
        PatternErrorKind::Unsupported => format!("cannot be enforced: {error}"),
    }
}

/// How many problems a [`SchemaError`] keeps; the rest are counted into an "and N more" tail so a
/// hostile schema cannot produce a megabyte error.
#[doc(hidden)]
pub const MAX_REPORTED_SCHEMA_PROBLEMS: usize = 50;

/// One reason a schema is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaProblem {
    /// Where: `schema`, `schema.properties.path`, `schema.items`, `schema.oneOf[1]`, …; for a
    /// keyword, the path of the keyword itself (`schema.properties.n.multipleOf`).
    pub path: String,
    /// The full sentence, e.g.
    /// `schema.multipleOf is not a supported keyword (subset: …)`.
    pub message: String,
}

/// A schema the engine cannot build or enforce, with every problem found (up to
/// 50; the rest are counted).
///
/// `Display` is `unsupported JSON schema: <v1>; <v2>…`; the runtime carries it into a tool error
/// with `{name: "JsonSchemaError", code: "UNSUPPORTED_SCHEMA"}`.
///
/// `#[non_exhaustive]`: made by the engine (or [`SchemaError::new`]); its fields are read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SchemaError {
    /// The reported problems, in the order they were found (depth-first, keyword order).
    pub problems: Vec<SchemaProblem>,
    /// How many problems were found past the cap.
    pub omitted: usize,
}

impl SchemaError {
    /// An error with one problem at `path`.
    pub(crate) fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        let mut error = Self::empty();
        error.push(path.into(), message.into());
        error
    }

    /// An error with one problem that has no path of its own: what a hand-written schema
    /// (a `ToolArgs` impl, a builder argument) reports.
    pub fn new(message: impl Into<String>) -> Self {
        Self::at(String::new(), message)
    }

    pub(crate) fn empty() -> Self {
        Self {
            problems: Vec::new(),
            omitted: 0,
        }
    }

    pub(crate) fn push(&mut self, path: String, message: String) {
        if self.problems.len() >= MAX_REPORTED_SCHEMA_PROBLEMS {
            self.omitted += 1;
        } else {
            self.problems.push(SchemaProblem { path, message });
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.problems.is_empty() && self.omitted == 0
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unsupported JSON schema: ")?;
        for (index, problem) in self.problems.iter().enumerate() {
            if index > 0 {
                f.write_str("; ")?;
            }
            f.write_str(&problem.message)?;
        }
        if self.omitted > 0 {
            if !self.problems.is_empty() {
                f.write_str("; ")?;
            }
            write!(f, "and {} more", self.omitted)?;
        }
        Ok(())
    }
}

impl std::error::Error for SchemaError {}
